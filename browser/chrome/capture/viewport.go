package capture

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/domdebugger"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
)

// Viewport-first capture. A full capture costs what Chrome spends
// serializing the whole document twice (DOMSnapshot and the full AX tree):
// seconds on a page of 80,000 nodes, whatever the screen shows. A viewport
// capture runs one pass in an isolated world that finds the nodes meeting
// the viewport (and their ancestors), their boxes, styles and text lines,
// counts what lies outside, and derives paint order from the browser's own
// hit-test stacks (elementsFromPoint). Then it fetches the AX node and the
// listeners of those nodes only. Its cost follows the screen.

// AutoMinElements is the page size, in elements, from which auto mode
// captures the viewport only. Below it a full capture is about as fast and
// sees everything (measured on the corpus, see docs/decisions).
const AutoMinElements = 400

// autoMinText: a page of fewer elements still takes the viewport capture
// when its text (scripts and styles aside) runs to this many characters:
// Chrome's full AX tree holds a node per line of text, which the viewport
// capture never asks for (measured: docs/decisions).
const autoMinText = 30000

// longTextJS tells whether the document's text reaches min characters,
// reading no further than that.
const longTextJS = `(min) => {
	const w = document.createTreeWalker(document.body || document.documentElement || document, NodeFilter.SHOW_TEXT);
	let total = 0;
	for (let t = w.nextNode(); t; t = w.nextNode()) {
		const p = t.parentNode ? t.parentNode.nodeName : '';
		if (p === 'SCRIPT' || p === 'STYLE' || p === 'NOSCRIPT' || p === 'TEMPLATE') continue;
		total += t.data.length;
		if (total >= min) return true;
	}
	return false;
}`

// autoMaxKeptShare: when the nodes meeting the viewport outnumber this share
// of the page's elements, auto mode takes the full capture after all: one
// getPartialAXTree per kept node then costs more than the whole tree. (Not
// on a page taken for its text: its lines, not its elements, make the
// whole tree dear.)
const autoMaxKeptShare = 0.5

// maxKeptNodes bounds a viewport capture: past it (thousands of elements
// stacked in view) the full capture, with its own bounds, is taken instead.
const maxKeptNodes = 20000

// probeStep is the spacing (CSS px) of the grid of hit-test probes that
// order painted boxes.
const probeStep = 48

// axConcurrency bounds the per-node CDP calls in flight.
const axConcurrency = 64

//go:embed viewport.js
var viewportJS string

// viewportKey names the installed pass in the isolated world.
var viewportKey = func() string {
	sum := sha256.Sum256([]byte(viewportJS))
	return "__axfusePass_" + hex.EncodeToString(sum[:6])
}()

// errFallBack says the viewport capture does not fit this page; the full
// capture is taken instead.
type errFallBack struct {
	why string
	// frames, when the pass stopped at its first step, are the frames it
	// began with: the full capture starts from them.
	frames []frameInfo
	// small, when the page was found small, is what the tab remembers of
	// it once the full capture confirms it.
	small *smallDoc
}

func (e errFallBack) Error() string { return e.why }

// CaptureWith captures the tab's current document as the options say; like
// Capture it retries once when the page navigates mid-capture.
// When nothing changed since the tab's last capture of the document, with
// the same options, that capture is given again (quiet.go).
func (e *Engine) CaptureWith(o browser.CaptureOptions) (*domsnap.Capture, error) {
	counts := e.countPage()
	defer counts.wait()
	if o.OnCanvas != nil {
		o.OnCanvas = sync.OnceFunc(o.OnCanvas)
	}
	chk := e.checkQuiet(o, counts)
	if chk.why == "" {
		return e.reused(chk, o), nil
	}
	var canvas atomic.Bool
	withCanvas := o
	withCanvas.OnCanvas = func() {
		canvas.Store(true)
		if o.OnCanvas != nil {
			o.OnCanvas()
		}
	}
	c, forgot, err := e.captureWith(withCanvas, counts, chk.frames, chk.spec)
	if err == nil {
		e.askBrowser(c)
	}
	refuse := ""
	switch {
	case err != nil:
		refuse = "the capture failed"
	case forgot:
		// Auto mode captured whole a document it remembered small and found
		// it grew: the next capture asks its size, and is not this one.
		refuse = "auto mode asks the page's size again"
	}
	e.keepQuiet(c, refuse, chk, o, canvas.Load(), counts)
	if err == nil {
		c.Timings = append([]domsnap.Timing{chk.timing}, c.Timings...)
		c.Reuse = chk.reuse
	}
	return c, err
}

// captureWith captures anew; frames, when read already, serve its first
// attempt. forgot says auto mode forgot the document was small (its
// full capture showed it grew).
func (e *Engine) captureWith(o browser.CaptureOptions, counts *pageCounts, frames []frameInfo, spec *axSpec) (c *domsnap.Capture, forgot bool, err error) {
	if o.Mode == "" || o.Mode == domsnap.CaptureFull {
		c, err = e.captureFrom(frames)
		return c, false, err
	}
	start := time.Now()
	c, err = retryOnNavigation(func() (*domsnap.Capture, error) {
		before, sp := frames, spec
		frames, spec = nil, nil
		return e.captureViewport(o, counts, before, sp)
	})
	var fb errFallBack
	if !errors.As(err, &fb) {
		return c, false, err
	}
	// The step's time is what the viewport attempt cost before the full
	// capture began.
	tried := domsnap.TimingSince("full capture taken: "+fb.why, start)
	c, err = e.captureFrom(fb.frames)
	if c != nil {
		c.Timings = append(c.Timings, tried)
	}
	if fb.small != nil {
		forgot = !e.rememberSmall(c, fb.small)
	}
	return c, forgot, err
}

// smallDoc is a document auto mode found small (under AutoMinElements
// elements, little text) and whose full capture confirmed it: its next
// auto capture is full at once, without asking the page its size (a
// round trip, a sixth of a small page's snapshot). canvas says whether a
// canvas met the viewport then: OnCanvas is called again at once.
type smallDoc struct {
	loader string
	canvas bool
}

// rememberSmall keeps c's document as small when its full capture shows
// it is (its elements, shadow trees included, and its text counted), and
// forgets it otherwise: a page that grew asks its size again next time.
func (e *Engine) rememberSmall(c *domsnap.Capture, was *smallDoc) (kept bool) {
	if c == nil || len(c.Documents) == 0 || !smallCapture(&c.Documents[0]) {
		e.small.Store(nil)
		return false
	}
	e.small.Store(was)
	return true
}

// smallCapture is the page-size rule on a captured document.
func smallCapture(d *domsnap.Document) bool {
	elements, text := 0, 0
	for _, n := range d.Nodes {
		switch {
		case n.Type == 1 && n.PseudoType == "":
			elements++
		case n.Type == 3 && n.Parent >= 0 && int(n.Parent) < len(d.Nodes):
			switch d.Nodes[n.Parent].Name {
			case "SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE":
			default:
				text += len(n.Value)
			}
		}
		if elements >= AutoMinElements || text >= autoMinText {
			return false
		}
	}
	return true
}

// viewDoc is one document as the viewport pass describes it.
type viewDoc struct {
	URL           string     `json:"url"`
	Title         string     `json:"title"`
	ScrollX       float64    `json:"scrollX"`
	ScrollY       float64    `json:"scrollY"`
	Width         float64    `json:"width"`
	Height        float64    `json:"height"`
	ContentWidth  float64    `json:"contentWidth"`
	ContentHeight float64    `json:"contentHeight"`
	DPR           float64    `json:"dpr"`
	Owner         int        `json:"owner"`     // the iframe's node index in parentDoc, -1 for the top
	ParentDoc     int        `json:"parentDoc"` // -1 for the top
	Base          int        `json:"base"`      // index of its first node in the flat node list
	Styles        [][]string `json:"styles"`
	Nodes         []viewNode `json:"nodes"`
	Elided        []viewRun  `json:"elided"`
	// Whole are the nodes whose whole subtree is kept; Above the kept nodes
	// above them (listeners are asked for in one query per whole subtree).
	Whole []int `json:"whole"`
	Above []int `json:"above"`
}

type viewNode struct {
	Parent         int32       `json:"parent"`
	Type           int         `json:"type"`
	Name           string      `json:"name"`
	Value          string      `json:"value"`
	Attrs          []string    `json:"attrs"`
	InputValue     string      `json:"inputValue"`
	Checked        bool        `json:"checked"`
	Selected       bool        `json:"selected"`
	ShadowRootType string      `json:"shadowRootType"`
	Clickable      bool        `json:"clickable"`
	ElidedTargets  int         `json:"elidedTargets"`
	PseudoType     string      `json:"pseudoType"`
	AltText        string      `json:"altText"`
	Layout         *viewLayout `json:"layout"`
	// In an incremental pass: the node's AX node (Fresh) or its
	// listeners (LFresh) may have changed since the memo's pass.
	Fresh  int `json:"fresh"`
	LFresh int `json:"lfresh"`
	// ID is the node's number in the page's memo; NID its place among the
	// serialized nodes, -1 when the memo's pass gave it.
	ID  int `json:"id"`
	NID int `json:"nid"`
	// Same, in an incremental pass, names (by ID) a node described as at
	// the memo's pass: only its place (SameParent), style and paint order
	// (SameStyle, SamePaint) and its fresh flags come; the memo holds the
	// rest (delta).
	Same       int   `json:"="`
	SameParent int32 `json:"p"`
	SameStyle  int   `json:"s"`
	SamePaint  int64 `json:"o"`
}

type viewLayout struct {
	Bounds     []float64   `json:"bounds"`
	Client     []float64   `json:"client"`
	Scroll     []float64   `json:"scroll"`
	Style      int         `json:"style"`
	PaintOrder int64       `json:"paintOrder"`
	Text       string      `json:"text"`
	Fragments  [][]float64 `json:"fragments"`
}

type viewRun struct {
	Parent int            `json:"parent"`
	After  int            `json:"after"`
	Dir    string         `json:"dir"`
	Role   string         `json:"role"`
	Name   string         `json:"name"`
	Level  int            `json:"level"`
	Nodes  int            `json:"nodes"`
	Roles  map[string]int `json:"roles"`
}

type viewResult struct {
	Docs    []viewDoc `json:"docs"`
	TooMany bool      `json:"tooMany"`
	// TooShare, in auto mode, is the estimated count of nodes meeting the
	// viewport when it passes autoMaxKeptShare of the top document's
	// elements: the pass stopped early.
	TooShare int  `json:"tooShare"`
	Small    bool `json:"small"`
	Walked   int  `json:"walked"`
	// Closed are the kept iframes in view whose document the pass could
	// not read (cross-origin), as indexes into the kept nodes.
	Closed []int `json:"closed"`
	// Canvases counts the top document's <canvas> elements whose box meets
	// the viewport.
	Canvases int `json:"-"`
	Probes   int `json:"probes"`
	// Phases are the milliseconds each part of the pass took in the page.
	Phases map[string]float64 `json:"phases"`
	// Incremental says the pass reused its memo of the pass numbered by
	// the caller's expect; Gen numbers this pass's memo (0: none kept);
	// Why says why a pass asked to reuse one walked everything.
	Incremental bool   `json:"incremental"`
	Gen         int    `json:"gen"`
	Why         string `json:"why"`
	// Spec says nothing was recorded between the quiet check's specOf and
	// the pass: the AX nodes it named, asked alongside, stand.
	Spec bool `json:"spec"`
	// Cut says the hit-test probes ran out of time or number: paint
	// order may then differ from one pass to the next.
	Cut bool `json:"cut"`
	// Share is the auto mode share rule the pass ran with.
	Share float64 `json:"-"`
}

// serializedNode is the part of a deep-serialized DOM node the capture uses.
type serializedNode struct {
	Backend int64  `json:"backendNodeId"`
	Loader  string `json:"loaderId"`
}

func (e *Engine) captureViewport(o browser.CaptureOptions, counts *pageCounts, frames []frameInfo, spec *axSpec) (*domsnap.Capture, error) {
	start := time.Now()
	before, p, err := e.beginFrom(frames)
	if err != nil {
		return nil, err
	}
	minElements := 0
	if o.Mode == domsnap.CaptureAuto {
		minElements = AutoMinElements
		if err := e.smallBefore(o, before); err != nil {
			return nil, err
		}
	}
	counts.wait()
	memo, noMemo := e.memoFor(before, o.Margin, minElements, counts.wide)
	if o.Fresh {
		memo, noMemo = nil, ""
	}
	pass, listened, err := e.passOnce(o, before, p, memo, noMemo, minElements, spec)
	if err != nil {
		return nil, err
	}
	res := pass.res
	if res.Canvases > 0 && o.OnCanvas != nil {
		o.OnCanvas()
	}
	if err := e.fallBack(o, before, pass); err != nil {
		return nil, err
	}
	docs, frameOf, err := viewDocuments(res, pass.backends, pass.loaders, before, p.target)
	if err != nil {
		return nil, err
	}
	var ax [][]domsnap.AXNode
	var sub []*parts
	var next *viewMemo
	if res.Incremental && memo != nil {
		ax, sub, next, err = e.viewPartsAgain(docs, res, p, memo, listened, before, spec.answers(res.Spec))
	} else {
		ax, sub, next, err = e.viewParts(docs, res, p, counts.listenSeq)
	}
	var stale errMemoStale
	if errors.As(err, &stale) {
		// A shadow root was attached around the pass: walk everything.
		e.memo.Store(nil)
		counts.wide = stale.wide
		return e.captureViewport(o, counts, nil, nil)
	}
	if err != nil {
		return nil, err
	}
	c, err := e.finishViewport(before, p, sub, start, docs, frameOf, ax, res)
	next.remember(pass)
	e.keepMemo(c, next, before, o.Margin, minElements, res, counts.wide)
	return c, err
}

// smallBefore is the errFallBack of an auto capture of a document that
// was small at its last capture (the full capture serves it), nil else.
func (e *Engine) smallBefore(o browser.CaptureOptions, before []frameInfo) error {
	sd := e.small.Load()
	if sd == nil || sd.loader != before[0].loader {
		return nil
	}
	if sd.canvas && o.OnCanvas != nil {
		o.OnCanvas()
	}
	return errFallBack{why: "the document was small at its last capture", frames: before, small: sd}
}

// passOnce runs the viewport pass, incremental on memo when there is
// one, and once more whole when auto mode finds the page shrank; it
// returns the pass and, incremental, the listeners asked alongside.
func (e *Engine) passOnce(o browser.CaptureOptions, before []frameInfo, p *parts, memo *viewMemo, noMemo string, minElements int, spec *axSpec) (*passOut, *listenRecord, error) {
	var listened *listenRecord
	if memo != nil {
		// Asked alongside the pass, with the AX nodes the quiet check
		// named: the renderer answers them right after it (or before),
		// with no round trip between.
		spec.start(e, memo)
		listened = e.askListened(memo.listenSeq)
	}
	if e.opts.Seams != nil && e.opts.Seams.BeforePass != nil {
		spec.answers(true)
		e.opts.Seams.BeforePass()
	}
	pass, err := e.viewportPass(before[0], o.Margin, minElements, p, memo, noMemo)
	if err == nil && memo != nil && minElements > 0 && pass.res.Walked < minElements {
		// The page shrank: auto mode asks its size again.
		pass, err = e.viewportPass(before[0], o.Margin, minElements, p, nil, "the page shrank")
	}
	if err != nil {
		if errors.Is(e.sameDocument(before), errDocumentChanged) {
			return nil, nil, errDocumentChanged
		}
		return nil, nil, err
	}
	if e.opts.Seams != nil && e.opts.Seams.AfterPass != nil {
		e.opts.Seams.AfterPass()
	}
	return pass, listened, nil
}

// finishViewport assembles the viewport capture from the pass's
// documents and their AX nodes.
func (e *Engine) finishViewport(before []frameInfo, p *parts, sub []*parts, start time.Time, docs []domsnap.Document, frameOf []string, ax [][]domsnap.AXNode, res *viewResult) (*domsnap.Capture, error) {
	p.docs = docs
	p.viewAX = map[string][]domsnap.AXNode{}
	for d := range docs {
		p.viewAX[frameOf[d]] = ax[d]
	}
	step := "capture (viewport)"
	if res.Incremental {
		step = "capture (viewport, incremental)"
	}
	return e.finish(before, p, sub, start, step, func(c *domsnap.Capture) {
		c.Mode = domsnap.CaptureViewport
		// The pass read scroll offsets in the same task as the boxes.
		c.Viewport.ScrollX, c.Viewport.ScrollY = res.Docs[0].ScrollX, res.Docs[0].ScrollY
	})
}

// remember records in the next memo each kept node's backend id by its
// pass number (nothing without a next memo).
func (m *viewMemo) remember(pass *passOut) {
	if m == nil {
		return
	}
	m.ids = make(map[int]int64, len(pass.ids))
	for k, id := range pass.ids {
		if pass.backends[k] != 0 {
			m.ids[id] = pass.backends[k]
		}
	}
}

// fallBack is the errFallBack that sends a capture to the full one when
// the viewport pass cannot serve it, nil when it can.
func (e *Engine) fallBack(o browser.CaptureOptions, before []frameInfo, pass *passOut) error {
	res, kept := pass.res, len(pass.backends)
	switch {
	case res.Small:
		return errFallBack{why: fmt.Sprintf("%d elements, under %d, and little text", res.Walked, AutoMinElements), frames: before,
			small: &smallDoc{loader: before[0].loader, canvas: res.Canvases > 0}}
	case res.TooShare > 0:
		return errFallBack{why: fmt.Sprintf("about %d of %d elements' nodes meet the viewport", res.TooShare, res.Walked)}
	case res.TooMany:
		return errFallBack{why: fmt.Sprintf("over %d nodes meet the viewport", maxKeptNodes)}
	case o.Mode == domsnap.CaptureAuto && res.Walked >= AutoMinElements && float64(kept) > autoMaxKeptShare*float64(res.Walked):
		return errFallBack{why: fmt.Sprintf("%d of %d elements' nodes meet the viewport", kept, res.Walked)}
	case e.closedFrameInProcess(before, res, pass.backends, pass.loaders):
		return errFallBack{why: "a cross-origin frame in view shares the tab's process (no target of its own, unreadable by the pass)"}
	}
	return nil
}

// viewParts fetches, at once, what the pass does not read itself: layout
// metrics, the AX nodes and listeners of the kept nodes, and the frames
// of other processes in view.
func (e *Engine) viewParts(docs []domsnap.Document, res *viewResult, p *parts, listenSeq int64) ([][]domsnap.AXNode, []*parts, *viewMemo, error) {
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	// Where settle.js's count of listeners stood before the pass: the
	// next capture asks again the nodes that gained or lost one after it.
	next := &viewMemo{listenSeq: listenSeq}
	wg.Go(func() {
		if err := e.layoutMetrics(p); err != nil {
			errs <- err
		}
	})
	plans := make([]axPlan, len(docs))
	for d := range docs {
		plans[d] = planOf(&res.Docs[d], &docs[d])
	}
	var ax [][]domsnap.AXNode
	wg.Go(func() { ax, next.ax = e.partialAX(plans, p, nil, nil) })
	var listenersFailed bool
	wg.Go(func() { listenersFailed = e.viewListeners(docs, plans, res.Walked, p) != nil })
	var sub []*parts
	wg.Go(func() { sub = e.captureFrameTargets(p, keptBackends(docs)) })
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, nil, nil, err
	}
	next.metrics, next.dpr = p.metrics, p.dpr
	if listenersFailed {
		next = nil // the capture stands with listeners in part; its memo would keep the gaps
	}
	return ax, sub, next, nil
}

// canvasesInViewJS counts the document's <canvas> elements whose box meets
// the viewport.
const canvasesInViewJS = `(() => {
	let canvases = 0;
	for (const c of document.getElementsByTagName('canvas')) {
		const r = c.getBoundingClientRect();
		if (r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight) canvases++;
	}
	return canvases;
})`

// smallPage tells, for auto mode, whether the page is under minElements
// elements and little text, in an expression of its own: on such a page
// (most of the corpus) the full capture follows, and compiling and running
// the whole pass only to learn its size cost 3–6 ms of a ~50 ms snapshot,
// where this costs well under one.
func (e *Engine) smallPage(top frameInfo, minElements int) (*viewResult, error) {
	expr := fmt.Sprintf(`(() => { const n = document.getElementsByTagName('*').length;
		return [n < %d && !(%s)(%d), n, (%s)()]; })()`, minElements, longTextJS, autoMinText, canvasesInViewJS)
	var raw []byte
	err := e.call("page size", func(ctx context.Context) error {
		r, err := e.evaluateInWorld(ctx, top, runtime.EvaluateParams{Expression: expr, ReturnByValue: new(true)})
		if err == nil && r.Result != nil {
			raw = r.Result.Value
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	var got []json.RawMessage
	res := &viewResult{}
	if json.Unmarshal(raw, &got) != nil || len(got) != 3 ||
		json.Unmarshal(got[0], &res.Small) != nil || json.Unmarshal(got[1], &res.Walked) != nil {
		return nil, errors.New("page size: unexpected result shape")
	}
	if json.Unmarshal(got[2], &res.Canvases) != nil {
		res.Canvases = 0
	}
	return res, nil
}

// evaluateInWorld evaluates in axfuse's isolated world of the frame and
// fails on a script that threw.
func (e *Engine) evaluateInWorld(ctx context.Context, top frameInfo, params runtime.EvaluateParams) (*runtime.EvaluateResult, error) {
	params.Silent = new(true)
	for attempt := 0; ; attempt++ {
		world, err := e.isolatedWorld(ctx, top)
		if err != nil {
			return nil, err
		}
		params.ContextID = world
		res, err := cdpcall.Do(ctx, runtime.Evaluate, params)
		if attempt == 0 && errors.Is(err, browser.ErrContextGone) {
			// The world went with a document the frame tree had not yet
			// let go of: make it anew, once.
			e.forgetWorld()
			continue
		}
		if err != nil {
			return nil, err
		}
		if res.ExceptionDetails != nil {
			return nil, fmt.Errorf("script threw: %s", cdpcall.ExceptionText(res.ExceptionDetails))
		}
		return &res, nil
	}
}

// installedInWorld runs a script installed in the top frame's isolated
// world (cdpcall.InstalledCall's short and install calls) and gives its
// deep-serialized answer.
func (e *Engine) installedInWorld(step string, top frameInfo, short, install string) ([]byte, error) {
	var raw []byte
	err := e.call(step, func(ctx context.Context) error {
		return cdpcall.ShortElseInstall(short, install, func(expr string) error {
			r, err := e.evaluateInWorld(ctx, top, runtime.EvaluateParams{Expression: expr, SerializationOptions: cdpcall.NodeSerialization(2)})
			if err != nil {
				return err
			}
			if r.Result == nil || r.Result.DeepSerializedValue == nil {
				return errors.New("no result")
			}
			if r.Result.DeepSerializedValue.Type == "null" {
				return cdpcall.ErrNotInstalled // not in this world yet
			}
			raw = r.Result.DeepSerializedValue.Value
			return nil
		})
	})
	return raw, err
}

// viewportPass runs the pass in the frame's isolated world and returns its
// description, each node's backendNodeId and each document's loader id. In
// auto mode a small page ends it at its first step (Small set).
// noMemo, without a memo, says why there is none (for the timings).
func (e *Engine) viewportPass(top frameInfo, margin float64, minElements int, p *parts, memo *viewMemo, noMemo string) (*passOut, error) {
	start := time.Now()
	maxShare := 0.0
	canvases := "(" + canvasesInViewJS + ")()"
	expect := 0
	if memo != nil {
		// The page was measured at the memo's pass: its share rule stands.
		expect, maxShare = memo.gen, memo.share
	} else if minElements > 0 {
		res, err := e.smallPage(top, minElements)
		if err != nil || res.Small {
			return &passOut{res: res}, err
		}
		if res.Walked >= minElements { // not a page taken for its text alone
			maxShare = autoMaxKeptShare
		}
		canvases = strconv.Itoa(res.Canvases) // counted already
	}
	props, _ := json.Marshal(domsnap.StyleProperties)
	if math.IsNaN(margin) || margin < 0 || margin > 1e6 {
		margin = 0
	}
	// The pass is installed once in the world (under its source's hash):
	// V8 keeps its optimized code from one capture to the next, and later
	// calls do not send it.
	call := fmt.Sprintf(`const r = f(%g, %d, %d, %s, %g, %d, %q); return [r[0], r[1], %s];`,
		margin, probeStep, maxKeptNodes, props, maxShare, expect, e.memoToken(), canvases)
	short, install := cdpcall.InstalledCall(viewportKey, viewportJS, call)
	raw, err := e.installedInWorld("viewport pass", top, short, install)
	if err != nil {
		return nil, err
	}
	pass, err := decodeViewportPass(raw, memo)
	if errors.Is(err, errMemoLacks) {
		e.memo.Store(nil)
		return e.viewportPass(top, margin, minElements, p, nil, "a node the memo lacks")
	}
	if err != nil {
		return nil, err
	}
	res := pass.res
	res.Share = maxShare
	how := ""
	switch {
	case res.Incremental:
		how = ", incremental"
	case res.Why != "" && expect > 0:
		how = ", whole walk: " + res.Why
	case noMemo != "":
		how = ", whole walk: " + noMemo
	}
	if res.Cut {
		how += ", probes cut short"
	}
	p.time(fmt.Sprintf("viewport pass (%d elements walked, %d nodes kept, %d hit-test probes%s)", res.Walked, len(pass.backends), res.Probes, how), start)
	for _, ph := range []string{"boxes", "count", "describe", "paint order", "delta"} {
		if ms, ok := res.Phases[ph]; ok {
			p.timings = append(p.timings, domsnap.Timing{Step: "viewport pass: " + ph, MS: math.Round(ms*1000) / 1000})
		}
	}
	return pass, nil
}

// passOut is what the viewport pass found: its result, and the nodes it
// kept (their backend ids, loaders and memo numbers, in order).
type passOut struct {
	res      *viewResult
	backends []int64
	loaders  []string
	ids      []int
}

// errMemoLacks: an incremental pass named a node by a number the memo
// does not hold; a whole pass follows.
var errMemoLacks = errors.New("viewport pass: a node the memo lacks")

// decodeViewportPass reads the pass's answer: its result (a JSON text),
// the nodes it serialized and the canvases in view. Each kept node's
// backend id is its serialized one, or the memo's for a node the memo's
// pass gave already.
func decodeViewportPass(raw []byte, memo *viewMemo) (*passOut, error) {
	text, items, rest, err := decodeTextAndNodes(raw, 3)
	if err != nil {
		return nil, fmt.Errorf("viewport pass: %w", err)
	}
	res := &viewResult{}
	if err := decodeLenient([]byte(text), res); err != nil {
		return nil, fmt.Errorf("viewport pass: %w", err)
	}
	if err := expandSame(res, memo); err != nil {
		return nil, err
	}
	if json.Unmarshal(rest[0].Value, &res.Canvases) != nil {
		res.Canvases = 0
	}
	out := &passOut{res: res}
	for d := range res.Docs {
		for _, vn := range res.Docs[d].Nodes {
			var b int64
			var loader string
			switch {
			case vn.NID >= 0 && vn.NID < len(items):
				b, loader = items[vn.NID].Backend, items[vn.NID].Loader
			case vn.PseudoType != "":
			case memo != nil && res.Incremental && memo.ids[vn.ID] != 0:
				b, loader = memo.ids[vn.ID], memo.loader
			default:
				return nil, errMemoLacks
			}
			out.backends = append(out.backends, b)
			out.loaders = append(out.loaders, loader)
			out.ids = append(out.ids, vn.ID)
		}
	}
	return out, nil
}

// decodeTextAndNodes reads a deep-serialized answer of n items whose first
// is a JSON text and second a list of DOM nodes: the text, each node's
// backend id and loader (zero for an item that is not a node), and the
// items after them.
func decodeTextAndNodes(raw []byte, n int) (text string, nodes []serializedNode, rest []cdpcall.Serialized, err error) {
	var items []cdpcall.Serialized
	if err := decodeLenient(raw, &items); err != nil || len(items) != n || n < 2 {
		return "", nil, nil, errors.New("unexpected result shape")
	}
	if err := decodeLenient(items[0].Value, &text); err != nil {
		return "", nil, nil, err
	}
	var list []cdpcall.Serialized
	if len(items[1].Value) > 0 {
		if err := json.Unmarshal(items[1].Value, &list); err != nil {
			return "", nil, nil, err
		}
	}
	nodes = make([]serializedNode, len(list))
	for i, it := range list {
		if it.Type != "node" || json.Unmarshal(it.Value, &nodes[i]) != nil {
			nodes[i] = serializedNode{}
		}
	}
	return text, nodes, items[2:], nil
}

// expandSame gives each node an incremental pass sent as described at the
// memo's pass (Same) the memo's description, in its new place.
func expandSame(res *viewResult, memo *viewMemo) error {
	for d := range res.Docs {
		nodes := res.Docs[d].Nodes
		for i := range nodes {
			vn := &nodes[i]
			if vn.Same == 0 {
				continue
			}
			prev, ok := memo.described(vn.Same)
			if !ok || !res.Incremental || d > 0 {
				return errMemoLacks
			}
			prev.Parent, prev.ID, prev.NID, prev.Fresh, prev.LFresh = vn.SameParent, vn.Same, -1, vn.Fresh, vn.LFresh
			if prev.Layout != nil {
				l := *prev.Layout
				l.Style, l.PaintOrder = vn.SameStyle, vn.SamePaint
				prev.Layout = &l
			}
			*vn = prev
		}
	}
	return nil
}

// closedFrameInProcess reports whether one of the iframes in view that the
// pass could not enter holds a frame of this process: a cross-origin frame
// of the same site, which has no target of its own and so would be lost.
// (Out-of-process frames in view are captured through their targets.)
func (e *Engine) closedFrameInProcess(frames []frameInfo, res *viewResult, backends []int64, loaders []string) bool {
	if len(res.Closed) == 0 || len(frames) < 2 {
		return false
	}
	owners := map[int64]bool{}
	for _, k := range res.Closed {
		if k >= 0 && k < len(backends) && backends[k] != 0 {
			owners[backends[k]] = true
		}
	}
	entered := map[string]bool{}
	for _, vd := range res.Docs {
		if vd.Base >= 0 && vd.Base < len(loaders) {
			entered[loaders[vd.Base]] = true
		}
	}
	for _, f := range frames[1:] {
		if entered[f.loader] {
			continue
		}
		if owner, err := e.frameOwner(e.ctx(), f.id); err == nil && owners[owner] {
			return true
		}
	}
	return false
}

// isolatedWorld returns the execution context of axfuse's isolated world in
// the frame, created once per document.
func (e *Engine) isolatedWorld(ctx context.Context, f frameInfo) (runtime.ExecutionContextID, error) {
	e.worldMu.Lock()
	defer e.worldMu.Unlock()
	if e.world != 0 && e.worldLoader == f.loader {
		return e.world, nil
	}
	r, err := cdpcall.Do(ctx, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: cdp.FrameID(f.id), WorldName: "axfuse"})
	if err != nil {
		return 0, fmt.Errorf("Page.createIsolatedWorld: %w", err)
	}
	e.world, e.worldLoader = r.ExecutionContextID, f.loader
	return e.world, nil
}

func (e *Engine) forgetWorld() {
	e.worldMu.Lock()
	e.world, e.worldLoader = 0, ""
	e.worldMu.Unlock()
}

// viewDocuments turns the pass's description into capture documents and
// names each one's frame (by its document's loader id).
func viewDocuments(res *viewResult, backends []int64, loaders []string, frames []frameInfo, target string) ([]domsnap.Document, []string, error) {
	if len(res.Docs) == 0 {
		return nil, nil, errors.New("viewport pass: no document")
	}
	frameByLoader := map[string]string{}
	for _, f := range frames {
		frameByLoader[f.loader] = f.id
	}
	docs := make([]domsnap.Document, len(res.Docs))
	frameOf := make([]string, len(res.Docs))
	for d := range res.Docs {
		vd := &res.Docs[d]
		if vd.Base < 0 || vd.Base+len(vd.Nodes) > len(backends) || len(vd.Nodes) == 0 {
			return nil, nil, fmt.Errorf("viewport pass: document %d out of range", d)
		}
		frameOf[d] = frameByLoader[loaders[vd.Base]]
		if d == 0 {
			frameOf[d] = frames[0].id
		}
		if frameOf[d] == "" {
			frameOf[d] = fmt.Sprintf("unknown-frame-%d", d)
		}
		docs[d] = viewDocument(vd, backends[vd.Base:vd.Base+len(vd.Nodes)], frameOf[d], target)
	}
	for d := 1; d < len(res.Docs); d++ {
		vd := &res.Docs[d]
		if vd.ParentDoc < 0 || vd.ParentDoc >= d || vd.Owner < 0 || vd.Owner >= len(docs[vd.ParentDoc].Nodes) {
			return nil, nil, fmt.Errorf("viewport pass: document %d has no owner", d)
		}
		docs[vd.ParentDoc].Nodes[vd.Owner].ContentDocument = d
	}
	return docs, frameOf, nil
}

func viewDocument(vd *viewDoc, backends []int64, frame, target string) domsnap.Document {
	doc := domsnap.Document{FrameID: frame, Target: target, URL: vd.URL, Title: vd.Title,
		ScrollX: vd.ScrollX, ScrollY: vd.ScrollY, ContentWidth: vd.ContentWidth, ContentHeight: vd.ContentHeight}
	for _, s := range vd.Styles {
		doc.Styles = append(doc.Styles, domsnap.StyleFromValues(s))
	}
	doc.Nodes = make([]domsnap.Node, len(vd.Nodes))
	for i, vn := range vd.Nodes {
		n := &doc.Nodes[i]
		*n = domsnap.Node{Backend: backends[i], Parent: vn.Parent, Type: vn.Type, Name: vn.Name, Value: vn.Value,
			Attrs: vn.Attrs, InputValue: vn.InputValue, Checked: vn.Checked, Selected: vn.Selected, ShadowRootType: vn.ShadowRootType,
			Clickable: vn.Clickable, ElidedTargets: max(vn.ElidedTargets, 0)}
		if vn.PseudoType != "" {
			// Generated text in its element's box (Layout.Text holds it);
			// the backend id the pass gave is its element's.
			n.Backend, n.PseudoType, n.Type, n.AltText = 0, vn.PseudoType, domsnap.ElementNode, vn.AltText
		}
		if l := vn.Layout; l != nil {
			n.Layout = &domsnap.Layout{Bounds: rect(l.Bounds), Style: l.Style, PaintOrder: l.PaintOrder, Text: l.Text}
			if len(l.Client) == 4 {
				r := rect(l.Client)
				n.Layout.Client = &r
			}
			if len(l.Scroll) == 4 {
				r := rect(l.Scroll)
				n.Layout.Scroll = &r
			}
			for _, f := range l.Fragments {
				n.Layout.Fragments = append(n.Layout.Fragments, rect(f))
			}
		}
	}
	for _, r := range vd.Elided {
		doc.Elided = append(doc.Elided, domsnap.Elided{Parent: r.Parent, After: r.After, Dir: r.Dir,
			Role: r.Role, Name: r.Name, Level: r.Level, Nodes: r.Nodes, Roles: r.Roles})
	}
	return doc
}

// keptBackends lists the tab process's kept nodes, for finding which
// out-of-process iframes the viewport holds.
func keptBackends(docs []domsnap.Document) map[int64]bool {
	out := map[int64]bool{}
	for d := range docs {
		for _, n := range docs[d].Nodes {
			out[n.Backend] = true
		}
	}
	return out
}

// axPlan lists a document's kept nodes for fetching: every one (AX), and
// split into whole kept subtrees (roots) and the nodes above them
// (singles), for listeners.
type axPlan struct {
	roots, singles []int64
	nodes          []int64
}

func planOf(vd *viewDoc, doc *domsnap.Document) axPlan {
	var p axPlan
	for _, n := range doc.Nodes {
		if n.Type != domsnap.FragmentNode && n.Backend != 0 {
			p.nodes = append(p.nodes, n.Backend)
		}
	}
	pick := func(ks []int) []int64 {
		var out []int64
		for _, k := range ks {
			if k >= 0 && k < len(doc.Nodes) && doc.Nodes[k].Backend != 0 {
				out = append(out, doc.Nodes[k].Backend)
			}
		}
		return out
	}
	p.roots, p.singles = pick(vd.Whole), pick(vd.Above)
	return p
}

// partialAX fetches the AX node of every kept node with getPartialAXTree
// (fetchRelatives off: a row's siblings are the other 4,999 rows),
// documents in order. A node whose AX parent has no DOM node of its own (a
// select's popup, a slot of a details element's built-in shadow tree) is
// then fetched again with its relatives, which brings that parent in.
// (Accessibility.queryAXTree would fetch a whole subtree in one call, but
// crashed Chromium 156's renderer on a page still loading: 1 run in 5.)
// With reuse, the top document's nodes the last capture fetched and that
// are not fresh are taken from it (unless the result does not fit
// together, see fitsTogether); it returns what was fetched for each of
// the top document's nodes, for the next capture.
// answered, if not nil, is called once every query was answered, before
// the answers are converted.
func (e *Engine) partialAX(plans []axPlan, p *parts, reuse *axReuse, answered func()) ([][]domsnap.AXNode, map[int64][]*accessibility.Node) {
	start := time.Now()
	merged := make([][]*accessibility.Node, len(plans))
	calls, reused := 0, 0
	var keep map[int64][]*accessibility.Node
	for d, plan := range plans {
		r := reuse
		if d > 0 {
			r = nil
		}
		per, asked := e.fetchAXEach(plan.nodes, r)
		calls += asked
		if r != nil {
			reused += len(plan.nodes) - asked
			if !fitsTogether(per) {
				per, asked = e.fetchAXEach(plan.nodes, nil)
				calls += asked
				reused, r.alongside = 0, 0
			}
		}
		nodes := mergeAX(nil, per...)
		for round := 0; round < 3; round++ {
			orphans := orphanBackends(nodes)
			if len(orphans) == 0 {
				break
			}
			calls += len(orphans)
			nodes = mergeAX(nodes, e.fetchAX(orphans, axRelatives))
		}
		if d == 0 {
			keep = make(map[int64][]*accessibility.Node, len(plan.nodes))
			for i, b := range plan.nodes {
				if per[i] != nil {
					keep[b] = per[i]
				}
			}
		}
		merged[d] = nodes
	}
	if answered != nil {
		answered()
	}
	out := make([][]domsnap.AXNode, len(plans))
	for d, nodes := range merged {
		out[d] = convertAX(nodes)
	}
	step := fmt.Sprintf("AX of kept nodes (%d queries)", calls)
	if reuse != nil {
		step = fmt.Sprintf("AX of kept nodes (%d queries, %d as at the last capture)", calls, reused-reuse.alongside)
		if reuse.alongside > 0 {
			step = fmt.Sprintf("AX of kept nodes (%d queries, %d as at the last capture, %d asked alongside the pass)", calls, reused-reuse.alongside, reuse.alongside)
		}
	}
	p.time(step, start)
	return out, keep
}

// What fetchAX asks for each node.
const (
	axNode      = iota // the node itself
	axRelatives        // the node, its ancestors, siblings and children
)

// fetchAX runs getPartialAXTree on each node concurrently; the results keep
// the nodes' order, each AX node once.
func (e *Engine) fetchAX(backends []int64, what int) []*accessibility.Node {
	return mergeAX(nil, e.fetchAXQueries(backends, what)...)
}

// fetchAXEach gives each node's getPartialAXTree answer, taken from reuse
// where it may be, and how many were asked.
func (e *Engine) fetchAXEach(backends []int64, reuse *axReuse) ([][]*accessibility.Node, int) {
	out := make([][]*accessibility.Node, len(backends))
	var ask []int64
	var at []int
	for i, b := range backends {
		if ns := reuse.take(b); ns != nil {
			out[i] = ns
			continue
		}
		ask = append(ask, b)
		at = append(at, i)
	}
	for k, ns := range e.fetchAXQueries(ask, axNode) {
		out[at[k]] = ns
	}
	return out, len(ask)
}

func (e *Engine) fetchAXQueries(backends []int64, what int) [][]*accessibility.Node {
	got := make([][]*accessibility.Node, len(backends))
	parallel(len(backends), axConcurrency, func(i int) {
		_ = e.call("Accessibility.getPartialAXTree", func(ctx context.Context) error {
			r, err := cdpcall.Do(ctx, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{
				BackendNodeID: cdp.BackendNodeID(backends[i]), FetchRelatives: new(what == axRelatives)})
			if err == nil {
				got[i] = r.Nodes
			}
			return err
		})
	})
	return got
}

// mergeAX appends the nodes of each of more that nodes lacks, each once
// (one set for all: a capture merges hundreds of one-node answers).
func mergeAX(nodes []*accessibility.Node, more ...[]*accessibility.Node) []*accessibility.Node {
	seen := make(map[accessibility.NodeID]bool, len(nodes)+len(more))
	for _, a := range nodes {
		if a != nil {
			seen[a.NodeID] = true
		}
	}
	for _, ns := range more {
		for _, a := range ns {
			if a != nil && !seen[a.NodeID] {
				seen[a.NodeID] = true
				nodes = append(nodes, a)
			}
		}
	}
	return nodes
}

// orphanBackends are the nodes whose AX parent was not fetched.
func orphanBackends(nodes []*accessibility.Node) []int64 {
	have := make(map[accessibility.NodeID]bool, len(nodes))
	for _, a := range nodes {
		have[a.NodeID] = true
	}
	var out []int64
	for _, a := range nodes {
		if a.ParentID != "" && !have[a.ParentID] && a.BackendDOMNodeID != 0 {
			out = append(out, int64(a.BackendDOMNodeID))
		}
	}
	return out
}

// viewListeners finds the target listeners (click and drag) of the kept
// nodes. Each DevTools call costs ~0.3 ms of the renderer whatever it
// returns, while a scan of the whole document costs ~2 µs an element (plus
// ~25 µs a listener): on a page of a few thousand elements, one scan (the full
// capture's) beats hundreds of per-node queries (measured on the corpus:
// 341 queries 330 ms, the scan 6–14 ms). Past wholeScanFactor elements per
// query, the kept nodes are asked one by one: DOMDebugger.getEventListeners
// with depth -1 (pierce) on each whole kept subtree, depth 0 on each node
// above them, so that a huge page is not walked.
func (e *Engine) viewListeners(docs []domsnap.Document, plans []axPlan, walked int, p *parts) error {
	start := time.Now()
	byBackend := map[int64]*domsnap.Node{}
	for d := range docs {
		for i := range docs[d].Nodes {
			if n := &docs[d].Nodes[i]; n.Type == domsnap.ElementNode || n.Type == domsnap.DocumentNode {
				byBackend[n.Backend] = n
			}
		}
	}
	var asks []listenerAsk
	for _, plan := range plans {
		for _, b := range plan.roots {
			asks = append(asks, listenerAsk{b, -1})
		}
		for _, b := range plan.singles {
			if byBackend[b] != nil {
				asks = append(asks, listenerAsk{b, 0})
			}
		}
	}
	var found map[int64][]string
	var err error
	step := "listeners of kept nodes (one document scan)"
	if walked <= wholeScanFactor*len(asks) {
		found, err = e.documentListeners(e.ctx())
	} else {
		step = fmt.Sprintf("listeners of kept nodes (%d queries)", len(asks))
		found, err = e.askListeners(asks)
	}
	if err != nil {
		step += " (failed: " + err.Error() + ")"
	}
	for id, types := range found {
		if n := byBackend[id]; n != nil {
			n.Listeners = types
			// As DOMSnapshot's isClickable: a click listener, not a drag one.
			if slices.ContainsFunc(types, index.IsClickListener) {
				n.Clickable = true
			}
		}
	}
	p.time(step, start)
	return err
}

// wholeScanFactor: the viewport capture scans the whole document for
// listeners when the page has at most this many elements per node it would
// otherwise ask about (a query ~0.3 ms, a scanned element ~2 µs, listeners
// aside: with a listener on every other element, the scan still wins up to
// ~25 elements a query).
const wholeScanFactor = 20

// A listenerAsk is one per-node listener query: depth -1 for a whole kept
// subtree, 0 for the node alone.
type listenerAsk struct {
	backend int64
	depth   int64
}

// askListeners asks the listeners of each node. Pierce is asked of every
// query, a single node's too: with it Chrome reports the listeners of
// every world, as the document scan (documentListeners) does, so that a
// node reads the same whichever way it was asked. (axfuse's own scripts
// keep their listeners off the page's nodes: quiet.js listens on the
// window.)
func (e *Engine) askListeners(asks []listenerAsk) (map[int64][]string, error) {
	if len(asks) == 0 {
		return nil, nil
	}
	var all []*domdebugger.EventListener
	var failed error
	var mu sync.Mutex
	parallel(len(asks), axConcurrency, func(k int) {
		a := asks[k]
		err := e.call("listeners of kept nodes", func(ctx context.Context) error {
			obj, err := cdpcall.Do(ctx, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: cdp.BackendNodeID(a.backend), ObjectGroup: listenerGroup})
			if err != nil {
				return err
			}
			if obj.Object == nil || obj.Object.ObjectID == "" {
				return nil
			}
			r, err := cdpcall.Do(ctx, domdebugger.GetEventListeners, domdebugger.GetEventListenersParams{
				ObjectID: obj.Object.ObjectID, Depth: new(a.depth), Pierce: new(true)})
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			for _, l := range r.Listeners {
				if l != nil && l.BackendNodeID == 0 {
					l.BackendNodeID = cdp.BackendNodeID(a.backend)
				}
				all = append(all, l)
			}
			return nil
		})
		if err != nil {
			mu.Lock()
			failed = err
			mu.Unlock()
		}
	})
	_ = e.call("release listener handles", func(ctx context.Context) error {
		_, err := cdpcall.Do(ctx, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: listenerGroup})
		return err
	})
	return targetListeners(all), failed
}

// decodeLenient decodes the viewport pass's answer, the largest JSON of an
// incremental capture, about twice as fast as encoding/json (with the JSON
// layer cdproto decodes every answer with), and as forgiving of what the
// page's strings hold: a lone surrogate in a text becomes U+FFFD, as
// encoding/json makes it, and is no error. (The text is JSON.stringify's:
// it names no member twice.)
func decodeLenient(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, jsonv2.AllowInvalidUTF8(true))
}
