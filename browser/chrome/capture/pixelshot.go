package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"time"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"

	"github.com/chromedp/cdproto/page"
)

// The screenshots a pixel run compares, and how they are compared.

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
