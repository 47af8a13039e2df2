package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/domsnapshot"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
)

// errDocumentChanged marks a capture whose top-level document was replaced
// while it ran.
var errDocumentChanged = errors.New("the page navigated during the capture")

// Capture captures the tab's current document atomically: when the document
// changes identity (navigation) mid-capture it retries once, then fails;
// parts of two documents are never fused.
func (e *Engine) Capture() (*domsnap.Capture, error) {
	return e.captureFrom(nil)
}

// captureFrom is Capture with its first attempt on frames already read
// (nil: read them); a retry reads them anew.
func (e *Engine) captureFrom(frames []frameInfo) (*domsnap.Capture, error) {
	return retryOnNavigation(func() (*domsnap.Capture, error) {
		before := frames
		frames = nil
		return e.captureOnce(before)
	})
}

// retryOnNavigation runs a capture, once more if the document changed
// under it.
func retryOnNavigation(capture func() (*domsnap.Capture, error)) (*domsnap.Capture, error) {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		var c *domsnap.Capture
		c, err = capture()
		if err == nil {
			return c, nil
		}
		if !errors.Is(err, errDocumentChanged) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("capture failed twice: %w both times (a page that keeps loading new documents, such as one that reloads itself, has none to observe); wait for the page to settle and try again, or load another", err)
}

// parallel runs f(0..n-1) with at most limit at once and waits for all.
func parallel(n, limit int, f func(i int)) {
	sem := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			f(i)
		})
	}
	wg.Wait()
}

// sameDocument fails with errDocumentChanged when the top-level document
// is no longer the one before lists first.
func (e *Engine) sameDocument(before []frameInfo) error {
	after, err := e.frameTree(e.ctx())
	if err != nil {
		return err
	}
	if after[0].loader != before[0].loader || after[0].id != before[0].id {
		return errDocumentChanged
	}
	return nil
}

// sameDocumentSoon starts sameDocument now and gives its answer when
// asked (the timings say how long the call took).
func (e *Engine) sameDocumentSoon(before []frameInfo, p *parts) func() error {
	done := make(chan error, 1)
	go func() {
		start := time.Now()
		err := e.sameDocument(before)
		if err == nil {
			p.time("Page.getFrameTree (same document?)", start)
		}
		done <- err
	}()
	return sync.OnceValue(func() error { return <-done })
}

// frameInfo is one frame of Page.getFrameTree.
type frameInfo struct {
	id, parent, url, loader string
}

// frameTree lists the frames of one session's process, the session's own
// frame first.
func (e *Engine) frameTree(ctx context.Context) ([]frameInfo, error) {
	var out []frameInfo
	err := e.callIn(ctx, "Page.getFrameTree", func(ctx context.Context) error {
		res, err := cdpcall.Do(ctx, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return err
		}
		var walk func(ft *page.FrameTree)
		walk = func(ft *page.FrameTree) {
			if ft == nil || ft.Frame == nil {
				return
			}
			f := ft.Frame
			out = append(out, frameInfo{string(f.ID), string(f.ParentID), f.URL + f.URLFragment, string(f.LoaderID)})
			for _, ch := range ft.ChildFrames {
				walk(ch)
			}
		}
		walk(res.FrameTree)
		return nil
	})
	if err == nil && len(out) == 0 {
		err = errors.New("Page.getFrameTree: no frames")
	}
	return out, err
}

// parts collects one process's capture: the tab's own, or an
// out-of-process iframe's.
type parts struct {
	mu        sync.Mutex
	timings   []domsnap.Timing
	target    string // the session's target id
	frames    []frameInfo
	snapshot  *domsnapshot.CaptureSnapshotResult
	metrics   *page.GetLayoutMetricsResult
	dpr       float64
	listeners map[int64][]string
	axTrees   []*accessibility.GetFullAXTreeResult
	axErrs    []error
	// A viewport capture's documents and AX nodes by frame id, converted
	// already (nil for a full capture).
	docs   []domsnap.Document
	viewAX map[string][]domsnap.AXNode
	// sameDoc, when set, is the final same-document check, started as
	// soon as the capture's last query was answered (finish waits for it).
	sameDoc func() error

	// Out-of-process iframes only: the frame holding the iframe element,
	// that element's backendNodeId there (DOM.getFrameOwner), the target's
	// URL, and why it could not be captured.
	parentFrame string
	owner       int64
	url         string
	err         error
}

func newParts(target string, frames []frameInfo) *parts {
	return &parts{target: target, frames: frames,
		axTrees: make([]*accessibility.GetFullAXTreeResult, len(frames)), axErrs: make([]error, len(frames))}
}

// time records how long a step that began at start took.
func (p *parts) time(step string, start time.Time) { p.timeFailed(step, nil, start) }

// timeFailed is time for a step that may have failed with err.
func (p *parts) timeFailed(step string, err error, start time.Time) {
	p.mu.Lock()
	p.timings = append(p.timings, domsnap.FailedSince(step, err, start))
	p.mu.Unlock()
}

// begin starts a capture: the frames as they are now (the top document
// they name must still be there at the end) and the parts to fill.
func (e *Engine) begin() (before []frameInfo, p *parts, err error) {
	return e.beginFrom(nil)
}

// beginFrom is begin on frames already read (nil: read them).
func (e *Engine) beginFrom(frames []frameInfo) (before []frameInfo, p *parts, err error) {
	if frames != nil {
		return frames, newParts(e.page.TargetID(), frames), nil
	}
	start := time.Now()
	before, err = e.frameTree(e.ctx())
	if err != nil {
		return nil, nil, err
	}
	p = newParts(e.page.TargetID(), before)
	p.time("Page.getFrameTree", start)
	return before, p, nil
}

func (e *Engine) captureOnce(before []frameInfo) (*domsnap.Capture, error) {
	start := time.Now()
	var p *parts
	if before != nil {
		p = newParts(e.page.TargetID(), before)
	} else {
		var err error
		if before, p, err = e.begin(); err != nil {
			return nil, err
		}
	}

	var wg sync.WaitGroup
	errs := make(chan error, 4)
	run := func(f func() error) {
		wg.Go(func() {
			if err := f(); err != nil {
				errs <- err
			}
		})
	}
	run(func() error { return e.captureSnapshot(e.ctx(), p) })
	run(func() error { return e.layoutMetrics(p) })
	run(func() error { e.discoverListeners(e.ctx(), p); return nil })
	e.axTrees(e.ctx(), p, &wg)
	var sub []*parts
	run(func() error { sub = e.captureFrameTargets(p, nil); return nil })
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	return e.finish(before, p, sub, start, "capture", func(*domsnap.Capture) {})
}

// finish ends a capture: the top document must be the one it began with;
// the parts become a capture, out-of-process frames are stitched in (and
// routed for acting), and the whole is validated. adjust sets what the
// kind of capture knows better.
func (e *Engine) finish(before []frameInfo, p *parts, sub []*parts, start time.Time, step string, adjust func(*domsnap.Capture)) (*domsnap.Capture, error) {
	if p.sameDoc == nil {
		p.sameDoc = e.sameDocumentSoon(before, p)
	}
	if err := p.sameDoc(); err != nil {
		return nil, err
	}
	c, err := assemble(before, p)
	if err != nil {
		return nil, err
	}
	adjust(c)
	e.page.Route(stitch(c, sub))
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("the browser returned an inconsistent capture: %w", err)
	}
	c.Timings = append(p.timings, domsnap.TimingSince(step, start))
	return c, nil
}

func (e *Engine) captureSnapshot(ctx context.Context, p *parts) error {
	start := time.Now()
	return e.callIn(ctx, "DOMSnapshot.captureSnapshot", func(ctx context.Context) error {
		res, err := cdpcall.Do(ctx, domsnapshot.CaptureSnapshot, domsnapshot.CaptureSnapshotParams{
			ComputedStyles:    domsnap.StyleProperties,
			IncludePaintOrder: new(true),
			IncludeDOMRects:   new(true),
		})
		if err != nil {
			return err
		}
		p.snapshot = &res
		p.time("DOMSnapshot.captureSnapshot", start)
		return nil
	})
}

func (e *Engine) layoutMetrics(p *parts) error {
	start := time.Now()
	err := e.call("Page.getLayoutMetrics", func(ctx context.Context) error {
		res, err := cdpcall.Do(ctx, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return err
		}
		p.metrics = &res
		return nil
	})
	if err != nil {
		return err
	}
	// devicePixelRatio comes from the page, which may lie; it only scales
	// screenshots, never geometry, which stays in CSS px.
	_ = e.call("read devicePixelRatio", func(ctx context.Context) error {
		r, err := cdpcall.Do(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: `window.devicePixelRatio`, ReturnByValue: new(true)})
		if err != nil {
			return err
		}
		var v float64
		if r.Result != nil && json.Unmarshal(r.Result.Value, &v) == nil && v > 0 && v <= 16 {
			p.dpr = v
		}
		return nil
	})
	p.time("Page.getLayoutMetrics", start)
	return nil
}

// axTrees fetches the AX tree of each of the session's frames concurrently.
func (e *Engine) axTrees(ctx context.Context, p *parts, wg *sync.WaitGroup) {
	for i, f := range p.frames {
		wg.Go(func() {
			start := time.Now()
			err := e.callIn(ctx, "Accessibility.getFullAXTree", func(ctx context.Context) error {
				res, err := cdpcall.Do(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{FrameID: cdp.FrameID(f.id)})
				if err != nil {
					return err
				}
				p.axTrees[i] = &res
				return nil
			})
			p.axErrs[i] = err
			if i == 0 {
				p.time("Accessibility.getFullAXTree", start)
			}
		})
	}
}
