package capture

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
)

// Reusing a capture. An agent often observes a page again with nothing
// done in between (a second snapshot, a look before acting): when nothing
// changed since the tab's last capture of the same document, with the
// same options, that capture is the answer. "Nothing changed" is judged
// from four sides, each covering what the others cannot see:
//   - quiet.js, in axfuse's isolated world: DOM mutations, the events that
//     change a page without one (hover, focus, input, scroll, load, …),
//     and a signature of what a script sets with no event (form control
//     values, the focus, the scroll, the URL, the style sheets' rules);
//   - the renderer's own counters (Performance.getMetrics): a style
//     recalculation or a layout (a style rule edited through the CSSOM, a
//     value set by script), event listeners, documents and frames;
//   - settle.js's counts: shadow roots attached, constructed sheets
//     edited, listeners added or removed;
//   - the frame tree: the same single frame, document and URL.
// A page with frames, a closed shadow root, a defined custom element (its
// ElementInternals change its AX node unseen) or an animation running is
// captured each time. The watch is armed before each capture reads the
// page, so a change during a capture refuses the next reuse.

// quietMemo is the tab's last capture and what the page looked like when
// it began.
type quietMemo struct {
	capture *domsnap.Capture
	opts    browser.CaptureOptions
	canvas  bool // OnCanvas was called
	frames  []frameInfo
	gen     int
	counts  perfCounts
	wide    int64
	listen  int64
	// shadows: the capture holds open shadow roots or elements named as
	// custom elements; the watch walks the page for them.
	shadows bool
}

// perfCounts are the renderer's counters that move when the page is
// restyled, laid out, or gains listeners, documents or frames.
type perfCounts [5]float64

var perfCounted = map[string]int{"LayoutCount": 0, "RecalcStyleCount": 1, "JSEventListeners": 2, "Documents": 3, "Frames": 4}

// quietCheck is what the check before a capture found.
type quietCheck struct {
	frames []frameInfo
	gen    int    // the watch armed now; 0 when it could not be
	why    string // why the last capture cannot serve ("" when it can)
	counts perfCounts
	ok     bool // counts were read
	// never says why no capture of this page is kept (frames, a closed
	// shadow root, a custom element); the check then arms no watch.
	never string
	// reuse is what the check says of a capture taken anew: none kept,
	// none ever kept, or the kept one no longer holds (ReuseNone).
	reuse  domsnap.Reuse
	timing domsnap.Timing
	// spec names the nodes whose AX nodes the next incremental pass will
	// likely want (nil: none), asked with the watch.
	spec *axSpec
}

// neverQuiet is a document no capture of which is kept, and why: what
// made it so (a closed shadow root, a defined custom element) stays
// with the document.
type neverQuiet struct{ loader, why string }

const closedShadow = "the page has a closed shadow root"

// customDefined is why no capture of a page with a defined custom
// element is kept.
const customDefined = "a custom element is defined"

// watchVerdict is what quiet.js answered: quiet (nothing changed since
// the watch the last capture armed), else why not, and cause, the kind of
// change that keeps every later capture from being reused (causeCustom,
// "" for none); gen numbers the watch armed anew.
type watchVerdict struct {
	quiet      bool
	why, cause string
	gen        int
}

// causeCustom is quiet.js's cause for a page with a defined custom
// element.
const causeCustom = "custom"

// neverQuiet says why no capture of the page in frames is kept, "" when
// one may be.
func (e *Engine) neverQuiet(frames []frameInfo) string {
	if len(frames) != 1 {
		return "the page has frames"
	}
	if n := e.quietNever.Load(); n != nil && n.loader == frames[0].loader {
		return n.why
	}
	return ""
}

// checkQuiet arms the page's watch for the capture about to begin and says
// whether the last capture still holds. It waits for counts.
func (e *Engine) checkQuiet(o browser.CaptureOptions, counts *pageCounts) quietCheck {
	start := time.Now()
	q := e.quiet.Load()
	var chk quietCheck
	var verdict watchVerdict
	var wg sync.WaitGroup
	watch := func(top frameInfo) {
		gen, specGen := 0, 0
		if q != nil {
			gen = q.gen
		}
		if m := e.memo.Load(); m != nil && m.loader == top.loader && !o.Fresh {
			specGen = m.gen // the viewport memo's pass names what changed since
		}
		verdict, chk.spec = e.quietWatch(top, gen, q != nil && q.shadows, specGen)
		chk.gen = verdict.gen
	}
	perf := func() { chk.counts, chk.ok = e.perfCounts() }
	// With a capture kept, the page is most likely the one it was: the
	// watch and the counters are asked alongside the frame tree, not
	// after it (a round trip less); the watch is asked again should the
	// document differ (the counters are the tab's, whatever its document).
	guessed := q != nil
	if guessed {
		wg.Go(func() { watch(q.frames[0]) })
		wg.Go(perf)
	}
	frames, err := e.frameTree(e.ctx())
	if err != nil {
		wg.Wait()
		chk.why, chk.gen = "the frame tree: "+err.Error(), 0
		return chk
	}
	chk.frames = frames
	if chk.never = e.neverQuiet(frames); chk.never != "" {
		// No capture of this page is kept: the watch would be wasted.
		wg.Wait()
		chk.why, chk.gen = "no reuse on this page ("+chk.never+")", 0
		chk.reuse = domsnap.ReuseNeverKept
		chk.timing = domsnap.TimingSince("quiet check: "+chk.why, start)
		return chk
	}
	switch {
	case !guessed:
		wg.Go(func() { watch(frames[0]) })
		wg.Go(perf)
	case frames[0].id != q.frames[0].id || frames[0].loader != q.frames[0].loader:
		wg.Wait() // armed in a document that is gone: arm this one
		wg.Go(func() { watch(frames[0]) })
	}
	wg.Go(counts.wait)
	wg.Wait()
	chk.why = e.notQuiet(q, o, frames, verdict, &chk, counts)
	step := "quiet check"
	if chk.why != "" {
		step += ": " + chk.why
	}
	chk.timing = domsnap.TimingSince(step, start)
	return chk
}

// notQuiet says why the kept capture q cannot serve the capture about to
// begin ("" when it can), given what the watch said and the counters
// read.
func (e *Engine) notQuiet(q *quietMemo, o browser.CaptureOptions, frames []frameInfo, verdict watchVerdict, chk *quietCheck, counts *pageCounts) string {
	switch {
	case q == nil:
		chk.reuse = domsnap.ReuseNoneKept
		if lost := e.quietLost.Load(); lost != nil {
			return "no capture to reuse (" + *lost + ")"
		}
		return "no capture to reuse"
	case o.Fresh:
		return "asked fresh"
	case !sameCaptureOptions(q.opts, o):
		return "other capture options"
	case len(frames) != 1 || !slices.Equal(frames, q.frames):
		return "the frames changed"
	case !verdict.quiet:
		if verdict.cause == causeCustom {
			e.quietNever.Store(&neverQuiet{frames[0].loader, customDefined})
		}
		return verdict.why
	case !chk.ok || chk.counts != q.counts:
		return "the page was restyled or laid out, or its listeners changed"
	case counts.wide < 0 || counts.wide != q.wide || counts.listenSeq != q.listen:
		return "a shadow root, a constructed style sheet or a listener changed"
	}
	return ""
}

// reused is the last capture again, with its own timings.
func (e *Engine) reused(chk quietCheck, o browser.CaptureOptions) *domsnap.Capture {
	q := e.quiet.Load()
	next := *q
	next.gen = chk.gen
	e.quiet.Store(&next)
	if q.canvas && o.OnCanvas != nil {
		o.OnCanvas()
	}
	c := *q.capture
	c.Timings = []domsnap.Timing{chk.timing, {Step: "capture (reused: nothing changed since the last)", MS: chk.timing.MS}}
	c.Hits = nil
	c.Reuse = domsnap.Reused
	return &c
}

// keepQuiet keeps c for reuse when the page can be watched whole: one
// frame, the document the check armed, no closed shadow root, and the
// caller does not refuse it (a failed capture, one a capture now would not
// repeat). Otherwise the tab remembers why not, for the next check to say.
func (e *Engine) keepQuiet(c *domsnap.Capture, refuse string, chk quietCheck, o browser.CaptureOptions, canvas bool, counts *pageCounts) {
	prev := e.quiet.Swap(nil)
	if refuse == "" {
		refuse = chk.never
	}
	m, why, never := quietMemoOf(c, refuse, chk, counts, prev != nil && prev.shadows)
	if m == nil {
		e.quietLost.Store(&why)
		if never && len(chk.frames) > 0 {
			e.quietNever.Store(&neverQuiet{chk.frames[0].loader, why})
		}
		return
	}
	m.opts, m.canvas = o, canvas
	e.quiet.Store(m)
}

// quietMemoOf is what a capture leaves for reuse, or why it leaves none
// (refuse, when the caller knows already); never says no capture of the
// document will be left (a closed shadow root). walked says the check's
// watch walked the shadow roots.
func quietMemoOf(c *domsnap.Capture, refuse string, chk quietCheck, counts *pageCounts, walked bool) (m *quietMemo, why string, never bool) {
	switch {
	case refuse != "":
		return nil, refuse, false
	case c == nil:
		return nil, "the capture failed", false
	case len(chk.frames) != 1 || len(c.Documents) != 1 || len(c.Frames) != 1:
		return nil, "the page has frames", false
	case chk.gen <= 0 || !chk.ok || counts.wide < 0 || counts.listenSeq < 0:
		return nil, "the page's watch or counters could not be read", false
	case c.Frames[0].Error != "" || c.Frames[0].LoaderID != chk.frames[0].loader:
		return nil, "the document changed during the capture", false
	case len(c.Hits) > 0:
		return nil, "the capture holds hit tests", false
	}
	open := false
	for _, n := range c.Documents[0].Nodes {
		switch {
		case n.ShadowRootType == "closed":
			return nil, closedShadow, true
		case n.ShadowRootType == "open", n.Type == 1 && strings.Contains(n.Name, "-"):
			open = true // walked by the watch: shadow roots, custom elements
		}
	}
	kept := *c // the caller's copy may gain timings and hit tests
	kept.Timings, kept.Hits = nil, nil
	m = &quietMemo{capture: &kept, frames: chk.frames, gen: chk.gen, counts: chk.counts,
		wide: counts.wide, listen: counts.listenSeq, shadows: open}
	if open && !walked {
		// The watch did not observe the shadow roots during this capture:
		// the next one walks them and may be kept.
		m.gen = 0
	}
	return m, "", false
}

// quietKey names the installed watch in the isolated world.
var quietKey = func() string {
	sum := sha256.Sum256([]byte(quietJS))
	return "__axfuseQuietFn_" + hex.EncodeToString(sum[:6])
}()

// quietWatch runs quiet.js in the frame's isolated world, installed there
// once (later calls send only the arguments). With specGen, the number of
// the viewport memo's pass, the same call asks that memo which kept nodes
// changed since (specOf in viewport.js): those whose AX nodes the next
// pass will likely want (spec, nil for none).
func (e *Engine) quietWatch(top frameInfo, gen int, walk bool, specGen int) (watchVerdict, *axSpec) {
	args, err := json.Marshal(struct {
		Token   string `json:"token"`
		Gen     int    `json:"gen"`
		Walk    bool   `json:"walk"`
		SpecGen int    `json:"specGen"`
		MaxSpec int    `json:"maxSpec"`
	}{e.memoToken(), gen, walk, specGen, maxSpec})
	if err != nil {
		return watchVerdict{why: "the watch: " + err.Error()}, nil
	}
	short, install := cdpcall.InstalledCall(quietKey, quietJS, `const a = `+string(args)+`; const q = f(a);
		const vs = a.specGen > 0 && Object.prototype.hasOwnProperty.call(globalThis, '__axfuseViews') ? globalThis.__axfuseViews : null;
		const v = vs && vs.doc === document ? vs.get(a.token) : null;
		const s = v && typeof v.specOf === 'function' ? v.specOf(a.specGen, a.maxSpec) : null;
		return [JSON.stringify([q, s ? [s[0], s[1]] : null]), s ? s[2] : []];`)
	raw, err := e.installedInWorld("quiet watch", top, short, install)
	if err != nil {
		return watchVerdict{why: "the watch: " + err.Error()}, nil
	}
	text, nodes, _, err := decodeTextAndNodes(raw, 2)
	var got []json.RawMessage
	var v struct {
		Quiet *bool   `json:"quiet"`
		Why   *string `json:"why"`
		Cause string  `json:"cause"`
		Gen   *int    `json:"gen"`
	}
	if err != nil || json.Unmarshal([]byte(text), &got) != nil || len(got) != 2 ||
		json.Unmarshal(got[0], &v) != nil || v.Quiet == nil || v.Why == nil || v.Gen == nil {
		return watchVerdict{why: "the watch: unexpected result shape"}, nil
	}
	return watchVerdict{quiet: *v.Quiet, why: *v.Why, cause: v.Cause, gen: *v.Gen}, axSpecOf(got[1], nodes, specGen)
}

// perfCounts reads the renderer's counters (the domain is enabled once).
func (e *Engine) perfCounts() (perfCounts, bool) {
	var out perfCounts
	err := e.call("Performance.getMetrics", func(ctx context.Context) error {
		if !e.perfOn.Load() {
			if _, err := cdpcall.Do(ctx, performance.Enable, performance.EnableParams{}); err != nil {
				return err
			}
			e.perfOn.Store(true)
		}
		r, err := cdpcall.Do(ctx, performance.GetMetrics, cdp.Empty{})
		if err != nil {
			return err
		}
		seen := 0
		for _, m := range r.Metrics {
			if i, ok := perfCounted[m.Name]; ok {
				out[i] = m.Value
				seen++
			}
		}
		if seen != len(perfCounted) {
			return errors.New("Performance.getMetrics: counters missing")
		}
		return nil
	})
	return out, err == nil
}

// sameCaptureOptions: the options that shape a capture are equal.
func sameCaptureOptions(a, b browser.CaptureOptions) bool {
	return a.Mode == b.Mode && a.Margin == b.Margin
}
