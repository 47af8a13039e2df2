package capture

import (
	"context"
	"errors"
	"fmt"
	"image"
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
