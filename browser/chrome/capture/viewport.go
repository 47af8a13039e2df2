package capture

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
)

// Viewport-first capture. A full capture costs what Chrome spends
// serializing the whole document twice (DOMSnapshot and the full AX tree):
// seconds on a page of 80,000 nodes, whatever the screen shows. A viewport
// capture runs one pass in an isolated world that finds the nodes meeting
// the viewport (and their ancestors), their boxes, styles and text lines,
// counts what lies outside, and derives paint order from the browser's own
// hit-test stacks (elementsFromPoint). Then it fetches the AX node and the
// listeners of those nodes only. Its cost follows the screen.

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
