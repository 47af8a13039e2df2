package chrome

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"sync"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/page"
)

// A screenshot costs Chrome a new frame and the caller a decode; on a
// page whose pixels cannot have changed since the last one (settle.js's
// paint generation: no DOM change, canvas draw, style sheet edit, scroll,
// resize, input, hover, load or ended request since, and nothing that paints on its own — a running
// animation, a playing video, SMIL, a frame, a worker's canvas), the last
// one is the same picture, and costs one small evaluation instead.

// lastShot is the tab's last screenshot and the paint generation it was
// taken at ("" when unknown: never reused).
type lastShot struct {
	mu  sync.Mutex
	gen string
	png []byte
	// traceable says the last capture showed a page whose every change
	// settle.js sees: one document, no closed shadow root (which no
	// observer reaches).
	traceable bool
}

func (l *lastShot) get(gen string) []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	if gen == "" || gen != l.gen || !l.traceable {
		return nil
	}
	return l.png
}

func (l *lastShot) put(gen string, png []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.gen, l.png = gen, png
}

func (l *lastShot) captured(c *domsnap.Capture) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.traceable = traceable(c)
}

// traceable: one document and no closed shadow root.
func traceable(c *domsnap.Capture) bool {
	if c == nil || len(c.Documents) != 1 {
		return false
	}
	for _, n := range c.Documents[0].Nodes {
		if n.ShadowRootType == "closed" {
			return false
		}
	}
	return true
}

// paintGen is the page's paint generation now, "" when it cannot be known.
func (t *Tab) paintGen() string {
	if t.settle == nil {
		return ""
	}
	ended := t.settle.requestsEnded()
	ps, err := t.pageSettle("paint")
	if err != nil || ps.Gen == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", ps.Gen, ended)
}

// CapturePNG takes the viewport as a PNG within ctx (a context of this
// tab, Context, or one derived from it): the screenshot package's Camera.
// The last screenshot is given again when the page's pixels cannot have
// changed since it was taken.
func (t *Tab) CapturePNG(ctx context.Context) ([]byte, error) {
	gen := t.paintGen() // before the picture: a change after it makes the next gen differ
	if png := t.shot.get(gen); png != nil {
		return png, nil
	}
	data, err := t.capturePNG(ctx)
	if err != nil {
		return nil, fmt.Errorf("Page.captureScreenshot: %w", err)
	}
	t.shot.put(gen, data)
	return data, nil
}

// capturePNG is one Page.captureScreenshot, taken again while it is tiled
// (tiled.go); at scale 1 it is not decoded.
func (t *Tab) capturePNG(ctx context.Context) ([]byte, error) {
	take := func() ([]byte, error) {
		res, err := cdpcall.Do(ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, OptimizeForSpeed: new(true)})
		return res.Data, err
	}
	scale := t.browser.emulatedScale()
	if scale <= 1 {
		return take()
	}
	return cdpcall.Untiled(func() ([]byte, image.Image, error) {
		data, err := take()
		if err != nil {
			return nil, nil, err
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			return nil, nil, fmt.Errorf("decoding the screenshot: %w", err)
		}
		return data, img, nil
	}, scale)
}

// emulatedScale is the device scale the tab's viewport is emulated at; 1
// for an attached tab, whose owner's screen draws it.
func (b *Browser) emulatedScale() float64 {
	if b.attached {
		return 1
	}
	return b.opts.Scale
}
