package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"sync/atomic"
	"time"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
)

// Pixel ground truth. A text node is visible when painting it transparent
// changes the browser's own screenshot: whatever hides it (opacity, a
// cover, a colour equal to what is behind, a clip) the pixels say so, and
// nothing of axfuse's visibility model is used to judge axfuse's model.

// TextProbe is one text node to test: the frame of its document (as the
// capture has it), its backend id (the caller's to match verdicts by; the
// pixels need only its parent), the backend id of its parent element
// (whose inline style is toggled; a shadow root stands for its host), and
// its line boxes in top-level viewport CSS px.
type TextProbe struct {
	FrameID string
	Backend int64
	Parent  int64
	Boxes   []domsnap.Rect
}

// PixelVerdict is what the pixels say of one text.
type PixelVerdict int

const (
	// PixelUnsure: the pixels cannot tell. Its boxes changed between two
	// screenshots of the untouched page (an animation), lie outside the
	// viewport, or its parent could not be found or styled.
	PixelUnsure PixelVerdict = iota
	// PixelHidden: making it transparent changes no pixel that counts.
	PixelHidden
	// PixelShown: making it transparent changes its pixels.
	PixelShown
)

func (v PixelVerdict) String() string {
	switch v {
	case PixelHidden:
		return "hidden"
	case PixelShown:
		return "shown"
	}
	return "unsure"
}

const (
	// pixelDiff is the least change of a colour channel (of 255) that
	// counts. A glyph's core changes by the full contrast of the text on
	// what is behind it, its anti-aliased edge by a fraction of that;
	// PNG is lossless and a software raster is deterministic, so an
	// untouched pixel changes by 0. 24 (about 9%) lets a faint but
	// readable text (#ddd on white changes by 34) count and leaves out
	// one of near-background colour (#fefefe on white: 1, #eee: 17) that
	// no one reads.
	pixelDiff = 24
	// minChangedPixels is how many pixels of a text must change for it
	// to be shown: a full stop at 10 px has about four; one or two
	// are a stray edge of a neighbour's glyph reaching into its box.
	minChangedPixels = 3
	// maxSoloRounds bounds the extra screenshots that tell overlapping
	// texts apart (each about 100 ms); texts left over are unsure.
	maxSoloRounds = 32
	// screenshotNudge is how long a capture may go unanswered before
	// another is sent (a healthy one takes 40 to 130 ms here), and
	// maxScreenshots how many are sent for one screenshot at most.
	screenshotNudge = 150 * time.Millisecond
	maxScreenshots  = 4
	// pixelStyleTimeout bounds each styling call: it is a small script
	// and two animation frames, so a page that takes longer is stuck.
	pixelStyleTimeout = 5 * time.Second
)

// TextPixels judges each probe by the pixels: screenshot, every probe's
// parent made transparent, screenshot, styles restored, screenshot again
// (a region that changed between the two untouched ones is animated:
// unsure). A shown text whose boxes overlap another parent's texts is
// judged again with its parent alone transparent. The page's style
// attributes are restored exactly on every path, errors included. Not
// safe to run twice at once on one tab.
func (e *Engine) TextPixels(ctx context.Context, probes []TextProbe) ([]PixelVerdict, error) {
	out := make([]PixelVerdict, len(probes))
	if len(probes) == 0 {
		return out, nil
	}
	r, err := e.newPixelRun(ctx, probes)
	if r != nil {
		defer r.cleanup() // also forgets what a half-done registration kept
	}
	if err != nil {
		return nil, pixelError(err)
	}
	if !r.anyFound() {
		return out, nil // nothing in view that can be styled: all unsure
	}
	if err := r.judge(ctx, out); err != nil {
		return nil, pixelError(err)
	}
	return out, nil
}

// pixelError is err on one line: a script's exception keeps its first
// line, not its stack.
func pixelError(err error) error { return oneLineError{err} }

// oneLineError reads as its error's first line (cdpcall.OneLine), after
// "text pixels: ", and unwraps to it.
type oneLineError struct{ err error }

func (e oneLineError) Error() string { return "text pixels: " + cdpcall.OneLine(e.err.Error()) }

func (e oneLineError) Unwrap() error { return e.err }

// pixelRun is one TextPixels call.
type pixelRun struct {
	e      *Engine
	token  string
	scale  float64
	bounds image.Rectangle
	// before is the untouched page, every verdict's reference.
	before *image.RGBA
	// Per probe: its boxes in device px (nil: nothing to look at) and its
	// parent's index in parents (-1: none).
	rects  [][]image.Rectangle
	parent []int
	// parents are the distinct (frame, backend) parents; frames the
	// frames that hold them, each registered once.
	parents []pixelParent
	frames  []*pixelFrame
}

type pixelParent struct {
	frame   int // index in frames
	backend int64
	slot    int // index in its frame's registered elements, -1: not found
}

// pixelFrame is a frame whose elements are registered in its isolated
// world under the run's token.
type pixelFrame struct {
	id      string
	session context.Context
	// anchor is the `this` of every call: the state lives in its world
	// even if the tab's cached world is replaced meanwhile.
	anchor  runtime.RemoteObjectID
	parents []int
}

var pixelRuns atomic.Int64

// newPixelRun maps the boxes to device px and registers every parent in
// its frame.
func (e *Engine) newPixelRun(ctx context.Context, probes []TextProbe) (*pixelRun, error) {
	r := &pixelRun{e: e, token: fmt.Sprintf("%d.%d", time.Now().UnixNano(), pixelRuns.Add(1))}
	if err := r.measure(ctx); err != nil {
		return nil, err
	}
	r.rects = make([][]image.Rectangle, len(probes))
	r.parent = make([]int, len(probes))
	byKey := map[pixelParent]int{}
	frameOf := map[string]int{}
	for i, p := range probes {
		r.parent[i] = -1
		r.rects[i] = deviceRects(p.Boxes, r.scale, r.bounds)
		if len(r.rects[i]) == 0 || p.Parent <= 0 {
			continue
		}
		f, ok := frameOf[p.FrameID]
		if !ok {
			f = len(r.frames)
			frameOf[p.FrameID] = f
			r.frames = append(r.frames, &pixelFrame{id: p.FrameID, session: e.page.SessionFor(p.FrameID)})
		}
		key := pixelParent{frame: f, backend: p.Parent}
		k, ok := byKey[key]
		if !ok {
			k = len(r.parents)
			byKey[key] = k
			key.slot = -1
			r.parents = append(r.parents, key)
			r.frames[f].parents = append(r.frames[f].parents, k)
		}
		r.parent[i] = k
	}
	parallel(len(r.frames), frameConcurrency, func(i int) { r.register(ctx, r.frames[i]) })
	if err := ctx.Err(); err != nil {
		return r, err
	}
	return r, nil
}

// measure takes the reference screenshot and finds the device scale from
// its size and the viewport's CSS size.
func (r *pixelRun) measure(ctx context.Context) error {
	var vp *page.LayoutViewport
	err := r.e.pixelStep(ctx, r.e.ctx(), "Page.getLayoutMetrics", pixelStyleTimeout, func(ctx context.Context) error {
		m, err := cdpcall.Do(ctx, page.GetLayoutMetrics, cdp.Empty{})
		vp = m.CSSLayoutViewport
		return err
	})
	if err != nil {
		return err
	}
	if vp == nil || vp.ClientWidth <= 0 || vp.ClientHeight <= 0 {
		return errors.New("the page has no layout viewport")
	}
	img, err := r.screenshot(ctx)
	if err != nil {
		return err
	}
	// The client size leaves out scrollbars, the screenshot has them: the
	// smaller ratio is exact unless both scrollbars show.
	sz := img.Bounds().Size()
	r.scale = math.Min(float64(sz.X)/float64(vp.ClientWidth), float64(sz.Y)/float64(vp.ClientHeight))
	r.bounds, r.before = img.Bounds(), img
	return nil
}

// deviceRects maps CSS px boxes to device px, clipped to bounds. Edges are
// rounded, not widened: two texts side by side then share no pixel.
func deviceRects(boxes []domsnap.Rect, scale float64, bounds image.Rectangle) []image.Rectangle {
	var out []image.Rectangle
	for _, b := range boxes {
		x0, y0, x1, y1 := b.X*scale, b.Y*scale, (b.X+b.W)*scale, (b.Y+b.H)*scale
		if !(b.W > 0 && b.H > 0) || !sane(x0, y0, x1, y1) {
			continue
		}
		rect := image.Rect(int(math.Round(x0)), int(math.Round(y0)), int(math.Round(x1)), int(math.Round(y1))).Intersect(bounds)
		if !rect.Empty() {
			out = append(out, rect)
		}
	}
	return out
}

// sane: finite and small enough to convert to int.
func sane(fs ...float64) bool {
	for _, f := range fs {
		if math.IsNaN(f) || math.Abs(f) > 1e7 {
			return false
		}
	}
	return true
}

// register resolves the frame's parents in its isolated world and stores
// them there under the token; a parent not found keeps slot -1 (its
// probes are unsure), a frame that fails has no anchor.
func (r *pixelRun) register(ctx context.Context, f *pixelFrame) {
	backends := make([]int64, len(f.parents))
	for i, k := range f.parents {
		backends[i] = r.parents[k].backend
	}
	objs := r.e.resolveAll(ctx, f.session, f.id, backends)
	args := []*runtime.CallArgument{{Value: jsonValue(r.token)}}
	var found []int // indexes in f.parents, in argument order
	for i, obj := range objs {
		if obj != "" {
			args = append(args, &runtime.CallArgument{ObjectID: obj})
			found = append(found, i)
		}
	}
	if len(found) == 0 {
		return
	}
	var ok []bool
	err := r.e.pixelStep(ctx, f.session, "register the texts' parents", pixelStyleTimeout, func(ctx context.Context) error {
		return callObjects(ctx, objs[found[0]], registerJS, args, &ok)
	})
	if err != nil || len(ok) != len(found) {
		return
	}
	f.anchor = objs[found[0]]
	for j, i := range found {
		if ok[j] {
			r.parents[f.parents[i]].slot = j
		}
	}
}

// resolveAll resolves nodes in the frame's isolated world ("" for a node
// not found). resolveInWorld makes a new world when a node is gone (it
// cannot tell that from a stale world), so after a failure the others are
// resolved again: every object ends in the one world current then.
func (e *Engine) resolveAll(ctx, session context.Context, frame string, backends []int64) []runtime.RemoteObjectID {
	objs := make([]runtime.RemoteObjectID, len(backends))
	live := make([]int, len(backends))
	for i := range live {
		live[i] = i
	}
	for range 3 {
		var failed atomic.Bool
		resolve := func(i int) bool {
			objs[i] = ""
			err := e.pixelStep(ctx, session, "DOM.resolveNode", pixelStyleTimeout, func(ctx context.Context) error {
				obj, err := e.resolveInWorld(ctx, session, frame, backends[i])
				objs[i] = obj
				return err
			})
			if err != nil {
				objs[i] = ""
				failed.Store(true)
			}
			return err == nil
		}
		// The first that resolves makes (or checks) the world the rest,
		// resolved at once, find in the cache.
		first := 0
		for first < len(live) && !resolve(live[first]) {
			first++
		}
		if first < len(live) {
			parallel(len(live)-first-1, 8, func(j int) { resolve(live[first+1+j]) })
		}
		if !failed.Load() {
			return objs
		}
		live = live[:0]
		for i, obj := range objs {
			if obj != "" {
				live = append(live, i)
			}
		}
		if len(live) == 0 {
			return objs
		}
	}
	return make([]runtime.RemoteObjectID, len(backends)) // nodes keep going away
}

func jsonValue(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// callObjects is callFunction with ready-made arguments (remote objects).
func callObjects(ctx context.Context, this runtime.RemoteObjectID, fn string, args []*runtime.CallArgument, out any) error {
	res, err := cdpcall.Do(ctx, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: fn, ObjectID: this, Arguments: args, AwaitPromise: new(true), ReturnByValue: new(true),
	})
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return errors.New(cdpcall.ExceptionText(res.ExceptionDetails))
	}
	if out != nil && res.Result != nil && len(res.Result.Value) > 0 {
		return json.Unmarshal(res.Result.Value, out)
	}
	return nil
}

// pixelStep runs one CDP step under the tab's call rules, its deadline
// cut to limit and ended early when ctx (the caller's) ends.
func (e *Engine) pixelStep(ctx, session context.Context, step string, limit time.Duration, f func(context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", step, err)
	}
	return e.callIn(session, step, func(c context.Context) error {
		c, cancel := context.WithTimeout(c, limit)
		defer cancel()
		defer context.AfterFunc(ctx, cancel)()
		return f(c)
	})
}

// screenshot takes the viewport, decoded, again while it is tiled.
func (r *pixelRun) screenshot(ctx context.Context) (*image.RGBA, error) {
	return cdpcall.Untiled(func() (*image.RGBA, image.Image, error) {
		img, err := r.screenshotOnce(ctx)
		return img, img, err
	}, r.e.opts.Scale)
}

// screenshotOnce takes the viewport, decoded.
func (r *pixelRun) screenshotOnce(ctx context.Context) (*image.RGBA, error) {
	var data []byte
	err := r.e.pixelStep(ctx, r.e.ctx(), "Page.captureScreenshot", r.e.opts.CallTimeout, func(ctx context.Context) error {
		var err error
		data, err = nudgedScreenshot(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decoding the screenshot: %w", err)
	}
	if img, ok := src.(*image.RGBA); ok {
		return img, nil
	}
	img := image.NewRGBA(src.Bounds())
	draw.Draw(img, img.Bounds(), src, src.Bounds().Min, draw.Src)
	return img, nil
}

// nudgedScreenshot is Page.captureScreenshot, asked again every
// screenshotNudge until one answers. Headless Chromium (156) leaves a
// capture of a page that has painted nothing for a few hundred ms
// unanswered, about every other time, until another capture comes (seen
// with a viewport lower than the window); the first is then answered,
// with the page as it is.
func nudgedScreenshot(ctx context.Context) ([]byte, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // abandons the captures still unanswered
	type shot struct {
		data []byte
		err  error
	}
	done := make(chan shot, maxScreenshots)
	send := func() {
		go func() {
			res, err := cdpcall.Do(ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, OptimizeForSpeed: new(true)})
			done <- shot{res.Data, err}
		}()
	}
	send()
	tick := time.NewTicker(screenshotNudge)
	defer tick.Stop()
	for sent := 1; ; {
		select {
		case s := <-done:
			return s.data, s.err
		case <-tick.C:
			if sent < maxScreenshots {
				send()
				sent++
			}
		}
	}
}

// judge compares the screenshot measure took with one of every parent
// transparent and one after the restore, then tells overlapping texts
// apart.
func (r *pixelRun) judge(ctx context.Context, out []PixelVerdict) error {
	all := make([]bool, len(r.parents))
	for k := range all {
		all[k] = true
	}
	hidden, err := r.hiddenShot(ctx, all, nil)
	if err != nil {
		return err
	}
	again, err := r.screenshot(ctx)
	if err != nil {
		return err
	}
	before := r.before
	if !same(before.Bounds(), hidden.Bounds(), again.Bounds()) {
		return errors.New("the viewport changed size during the probe")
	}
	for i, rects := range r.rects {
		switch {
		case !r.found(i):
		case changed(before, again, rects, 1) > 0:
			// PixelUnsure: animated.
		case changed(before, hidden, rects, minChangedPixels) >= minChangedPixels:
			out[i] = PixelShown
		default:
			out[i] = PixelHidden
		}
	}
	return r.solo(ctx, out)
}

// hiddenShot makes the chosen parents transparent (pinning the colours of
// pin parents inside them), takes a screenshot and restores the page.
func (r *pixelRun) hiddenShot(ctx context.Context, hide, pin []bool) (*image.RGBA, error) {
	err := r.style(ctx, hide, pin)
	var shot *image.RGBA
	if err == nil {
		shot, err = r.screenshot(ctx)
	}
	if rerr := r.restore(false); err == nil {
		err = rerr
	}
	return shot, err
}

func same(rs ...image.Rectangle) bool {
	for _, x := range rs[1:] {
		if x != rs[0] {
			return false
		}
	}
	return true
}

// found reports whether a probe's text can be looked at and its parent
// was registered.
func (r *pixelRun) found(i int) bool {
	k := r.parent[i]
	return k >= 0 && r.parents[k].slot >= 0 && r.frames[r.parents[k].frame].anchor != ""
}

func (r *pixelRun) anyFound() bool {
	for i := range r.rects {
		if r.found(i) {
			return true
		}
	}
	return false
}

// changed counts the pixels in rects whose largest channel change from a
// to b is at least pixelDiff, stopping at limit.
func changed(a, b *image.RGBA, rects []image.Rectangle, limit int) int {
	n := 0
	for _, rect := range rects {
		rect = rect.Intersect(a.Bounds()).Intersect(b.Bounds())
		for y := rect.Min.Y; y < rect.Max.Y; y++ {
			pa, pb := a.Pix[a.PixOffset(rect.Min.X, y):], b.Pix[b.PixOffset(rect.Min.X, y):]
			for x := 0; x < rect.Dx()*4; x += 4 {
				if maxDiff(pa[x:x+3], pb[x:x+3]) >= pixelDiff {
					if n++; n >= limit {
						return n
					}
				}
			}
		}
	}
	return n
}

func maxDiff(a, b []uint8) int {
	m := 0
	for c := range a {
		d := int(a[c]) - int(b[c])
		m = max(m, d, -d)
	}
	return m
}

// style makes the chosen parents transparent in every frame at once (nil:
// none chosen in a frame means it is left alone).
func (r *pixelRun) style(ctx context.Context, hide, pin []bool) error {
	errs := make([]error, len(r.frames))
	parallel(len(r.frames), frameConcurrency, func(i int) {
		f := r.frames[i]
		h, p := r.slots(f, hide), r.slots(f, pin)
		if f.anchor == "" || len(h) == 0 {
			return
		}
		errs[i] = r.e.pixelStep(ctx, f.session, "make the texts transparent", pixelStyleTimeout, func(ctx context.Context) error {
			return cdpcall.CallFunction(ctx, f.anchor, hideJS, nil, r.token, h, p)
		})
	})
	return errors.Join(errs...)
}

// slots are the registered slots of a frame's parents chosen in pick.
func (r *pixelRun) slots(f *pixelFrame, pick []bool) []int {
	out := []int{}
	for _, k := range f.parents {
		if pick != nil && pick[k] && r.parents[k].slot >= 0 {
			out = append(out, r.parents[k].slot)
		}
	}
	return out
}

// restore puts back every style attribute the run changed, in every
// frame, whatever the caller's context says; drop also forgets the
// registered elements.
func (r *pixelRun) restore(drop bool) error {
	errs := make([]error, len(r.frames))
	parallel(len(r.frames), frameConcurrency, func(i int) {
		f := r.frames[i]
		if f.anchor == "" {
			return
		}
		errs[i] = r.e.pixelStep(context.Background(), f.session, "restore the texts' styles", pixelStyleTimeout, func(ctx context.Context) error {
			return cdpcall.CallFunction(ctx, f.anchor, restoreJS, nil, r.token, drop)
		})
	})
	return errors.Join(errs...)
}

// cleanup is the last restore, run on every path out of TextPixels.
func (r *pixelRun) cleanup() { _ = r.restore(true) }

// solo judges again each shown text whose boxes overlap those of another
// parent's texts: there the batch cannot say whose change it saw. Parents
// whose texts do not overlap share a round, one screenshot each.
func (r *pixelRun) solo(ctx context.Context, out []PixelVerdict) error {
	overlaps := r.overlaps()
	want := map[int][]int{} // parent → its probes to judge again
	for i, o := range overlaps {
		if out[i] == PixelShown && len(o) > 0 {
			want[r.parent[i]] = append(want[r.parent[i]], i)
		}
	}
	rounds := r.rounds(want, overlaps)
	for n, round := range rounds {
		if n == maxSoloRounds {
			for _, k := range round {
				for _, i := range want[k] {
					out[i] = PixelUnsure
				}
			}
			continue
		}
		if err := r.soloRound(ctx, round, want, overlaps, out); err != nil {
			return err
		}
	}
	return nil
}

// overlaps lists, per probe, the probes of other parents whose device
// rects share a pixel with its own.
func (r *pixelRun) overlaps() [][]int {
	out := make([][]int, len(r.rects))
	for i := range r.rects {
		for j := i + 1; j < len(r.rects); j++ {
			if r.found(i) && r.found(j) && r.parent[i] != r.parent[j] && meet(r.rects[i], r.rects[j]) {
				out[i] = append(out[i], j)
				out[j] = append(out[j], i)
			}
		}
	}
	return out
}

func meet(a, b []image.Rectangle) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Overlaps(y) {
				return true
			}
		}
	}
	return false
}

// rounds colours the wanted parents greedily: a parent joins the first
// round holding no parent whose texts overlap its own. Rounds past the
// cap are returned whole (their texts become unsure).
func (r *pixelRun) rounds(want map[int][]int, overlaps [][]int) [][]int {
	// Which parents each parent's texts overlap, over all its probes.
	clash := map[int]map[int]bool{}
	for i, o := range overlaps {
		for _, j := range o {
			if clash[r.parent[i]] == nil {
				clash[r.parent[i]] = map[int]bool{}
			}
			clash[r.parent[i]][r.parent[j]] = true
		}
	}
	var rounds [][]int
	for k := range r.parents {
		if want[k] == nil {
			continue
		}
		placed := false
		for n := 0; n < len(rounds) && n < maxSoloRounds && !placed; n++ {
			if !clashesWith(clash[k], rounds[n]) {
				rounds[n], placed = append(rounds[n], k), true
			}
		}
		if !placed {
			if len(rounds) <= maxSoloRounds {
				rounds = append(rounds, nil)
			}
			rounds[len(rounds)-1] = append(rounds[len(rounds)-1], k)
		}
	}
	return rounds
}

func clashesWith(clash map[int]bool, round []int) bool {
	for _, k := range round {
		if clash[k] {
			return true
		}
	}
	return false
}

// soloRound makes one round's parents transparent, the parents of texts
// overlapping theirs pinned to their own colours (so that one that
// inherits its colour from a round parent keeps it), and judges the
// round's wanted texts against the untouched page.
func (r *pixelRun) soloRound(ctx context.Context, round []int, want map[int][]int, overlaps [][]int, out []PixelVerdict) error {
	hide, pin := make([]bool, len(r.parents)), make([]bool, len(r.parents))
	for _, k := range round {
		hide[k] = true
	}
	for i := range r.rects {
		if r.found(i) && hide[r.parent[i]] {
			for _, j := range overlaps[i] {
				pin[r.parent[j]] = !hide[r.parent[j]]
			}
		}
	}
	shot, err := r.hiddenShot(ctx, hide, pin)
	if err != nil {
		return err
	}
	if shot.Bounds() != r.before.Bounds() {
		return errors.New("the viewport changed size during the probe")
	}
	for _, k := range round {
		for _, i := range want[k] {
			out[i] = PixelHidden
			if changed(r.before, shot, r.rects[i], minChangedPixels) >= minChangedPixels {
				out[i] = PixelShown
			}
		}
	}
	return nil
}

// registerJS keeps the elements under the token in the isolated world and
// says which can be styled: a shadow root stands for its host (whose
// style its children inherit).
const registerJS = `function (token, ...nodes) {
  const runs = globalThis.__axfusePixels || (globalThis.__axfusePixels = new Map());
  const els = nodes.map(n => n instanceof ShadowRoot ? n.host : n).map(n => n instanceof Element && n.style ? n : null);
  runs.set(token, {els, saved: new Map()});
  return els.map(Boolean);
}`

// painted waits two animation frames, so that the change has been painted
// (in this frame's own process too) before the screenshot; a page that
// gets no frames (a background tab) waits 250 ms instead.
const paintedJS = `new Promise(done => { setTimeout(done, 250); requestAnimationFrame(() => requestAnimationFrame(() => done())); })`

// hideJS makes the chosen elements' text transparent, and images clear
// whole. (An empty list
// arrives as undefined: CDP's encoding omits empty values.) Everything is read
// before anything is written, so the page's style is recalculated once.
// A pin element inside a hidden one keeps the colours it inherits. A text
// painted by background-clip: text shows its ancestor's background:
// that background goes too. transition: none keeps the change from
// fading; !important beats the page's own rules and its animations.
const hideJS = `function (token, hide = [], pin = []) {
  const run = globalThis.__axfusePixels && globalThis.__axfusePixels.get(token);
  if (!run) throw new Error('the texts parents were not registered');
  const HIDE = [['color', 'transparent'], ['-webkit-text-fill-color', 'transparent'], ['text-shadow', 'none'],
    ['-webkit-text-stroke-width', '0'], ['transition', 'none'], ['caret-color', 'transparent'], ['--axfuse-hidden', '1']];
  // A ::first-line or ::first-letter rule paints over the element's own
  // style, and generated content may have a colour of its own: a sheet of
  // the document's own, keyed to the marker above, hides those too while
  // the run lasts.
  if (!run.sheet && hide.length) {
    try {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(['::first-line', '::first-letter', '::before', '::after', '::marker'].map(p => '[style*="--axfuse-hidden"]' + p).join(', ') +
        ' { color: transparent !important; -webkit-text-fill-color: transparent !important; text-shadow: none !important; -webkit-text-stroke-width: 0 !important; }');
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      run.sheet = sheet;
    } catch (e) {}
  }
  const SVG = [['fill', 'transparent'], ['stroke', 'transparent']];
  const PIN = ['color', '-webkit-text-fill-color', 'text-shadow', '-webkit-text-stroke-width',
    '-webkit-text-stroke-color', 'caret-color', 'fill', 'stroke'];
  const hidden = hide.map(i => run.els[i]).filter(Boolean), writes = [];
  for (const el of pin.map(i => run.els[i])) {
    if (!el || !hidden.some(h => h !== el && h.contains(el))) continue;
    const cs = getComputedStyle(el);
    writes.push([el, PIN.map(p => [p, cs.getPropertyValue(p)]).concat([['transition', 'none']])]);
  }
  // What the element paints in its colour besides its glyphs (an
  // underline drawn across its descendants' text, a border) keeps it.
  const KEEP = ['text-decoration-color', 'border-top-color', 'border-right-color', 'border-bottom-color',
    'border-left-color', 'outline-color', 'column-rule-color'];
  for (const el of hidden) {
    // An image is asked about its own pixels: it goes clear whole.
    if (el instanceof HTMLImageElement) {
      writes.push([el, [['opacity', '0'], ['transition', 'none']]]);
      continue;
    }
    // In a link of a page with :visited or :link rules the computed
    // colours may be the unvisited ones (the browser hides which links
    // are visited), so none is pinned: its glyphs go by their fill alone,
    // and its colour, with what it draws besides its glyphs (an
    // underline), stays as painted.
    if (run.visited === undefined) {
      // Whether any such rule of the document paints (rules nested in
      // @media, in other rules and the like count too; another origin's
      // sheets cannot be read).
      const paints = (rules, depth) => [...rules].some(r => depth < 8 && (/:(visited|link)(?![\w-])/i.test(r.selectorText || '') || (r.cssRules ? paints(r.cssRules, depth + 1) : false)));
      run.visited = [...document.styleSheets, ...(document.adoptedStyleSheets || [])].some(sh => { try { return paints(sh.cssRules, 0); } catch (e) { return false; } });
    }
    if (run.visited && el.closest && el.closest(':any-link') && !(el instanceof SVGElement)) {
      writes.push([el, HIDE.filter(([p]) => p !== 'color')]);
    } else {
      const cs = getComputedStyle(el);
      const keep = KEEP.map(p => [p, cs.getPropertyValue(p)]);
      writes.push([el, (el instanceof SVGElement ? HIDE.concat(SVG) : HIDE).concat(keep)]);
    }
    for (let a = el; a; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.getPropertyValue('background-clip') === 'text' || cs.getPropertyValue('-webkit-background-clip') === 'text') {
        writes.push([a, [['background-image', 'none'], ['background-color', 'transparent'], ['transition', 'none']]]);
        break;
      }
    }
  }
  for (const [el, props] of writes) {
    if (!run.saved.has(el)) run.saved.set(el, el.getAttribute('style'));
    for (const [p, v] of props) el.style.setProperty(p, v, 'important');
  }
  return ` + paintedJS + `;
}`

// restoreJS puts every saved style attribute back as it was: first with
// transitions still off, then, once the style is recalculated, exactly. A
// page's colour transition would otherwise fade its text back in.
const restoreJS = `function (token, drop = false) {
  const runs = globalThis.__axfusePixels, run = runs && runs.get(token);
  if (!run) return;
  const saved = [...run.saved];
  run.saved.clear();
  if (run.sheet) {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter(s => s !== run.sheet);
    run.sheet = null;
  }
  if (drop) runs.delete(token);
  if (!saved.length) return;
  for (const [el, old] of saved) {
    el.setAttribute('style', old === null ? '' : old);
    el.style.setProperty('transition', 'none', 'important');
  }
  for (const [el] of saved) getComputedStyle(el).color;
  for (const [el, old] of saved) old === null ? el.removeAttribute('style') : el.setAttribute('style', old);
  return ` + paintedJS + `;
}`
