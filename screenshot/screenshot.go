// Package screenshot captures the viewport as a PNG and annotates it: every
// mark's box outlined in its kind's colour, its ref on a filled tag, tags
// placed so they do not cover each other where avoidable.
//
// Capture and Start (the same, in the background, for a screenshot taken
// while a capture runs) talk to the browser through a tab's context;
// Annotate is pure image work with golang.org/x/image.
package screenshot

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"time"

	"github.com/chromedp/cdproto/page"

	"github.com/axfuse/axfuse/domsnap/chrome"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Capture takes a PNG of the viewport of the tab behind ctx.
func Capture(ctx context.Context) ([]byte, error) {
	res, err := chrome.Do(ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, OptimizeForSpeed: new(true)})
	if err != nil {
		return nil, fmt.Errorf("Page.captureScreenshot: %w", err)
	}
	return res.Data, nil
}

// Kinds of marks, each with its colour.
const (
	KindControl   = "control"
	KindLink      = "link"
	KindListener  = "listener"
	KindTextField = "textfield"
	KindCanvas    = "canvas"
)

var colours = map[string]color.RGBA{
	KindControl:   {0x1f, 0x6f, 0xeb, 0xff}, // blue
	KindLink:      {0x2d, 0xa4, 0x4e, 0xff}, // green
	KindListener:  {0xe3, 0x6a, 0x00, 0xff}, // orange
	KindTextField: {0x8a, 0x3f, 0xfc, 0xff}, // purple
	KindCanvas:    {0xd1, 0x24, 0x2f, 0xff}, // red
}

// Colour is the outline colour of a kind.
func Colour(kind string) color.RGBA {
	if c, ok := colours[kind]; ok {
		return c
	}
	return colours[KindControl]
}

// Mark is one element to draw: its ref, kind and box in CSS px.
type Mark struct {
	Ref  string
	Kind string
	Box  [4]float64
}

// Annotate draws the marks on a PNG taken at the given device pixel ratio
// and returns the annotated PNG.
func Annotate(pngData []byte, marks []Mark, scale float64) ([]byte, error) {
	src, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return nil, fmt.Errorf("decoding screenshot: %w", err)
	}
	if scale <= 0 || math.IsNaN(scale) {
		scale = 1
	}
	img := rgba(src)
	var placed []image.Rectangle
	for _, m := range marks {
		r, ok := toPixels(m.Box, scale, img.Bounds())
		if !ok {
			continue
		}
		c := Colour(m.Kind)
		outline(img, r, c, int(math.Max(1, math.Round(2*scale))))
		placed = append(placed, label(img, r, m.Ref, c, placed))
	}
	return encode(img)
}

// rgba is the image to draw on: Chrome's opaque PNG decodes as RGBA
// already, and a copy of 1280×720 costs milliseconds of fresh memory.
func rgba(src image.Image) *image.RGBA {
	if img, ok := src.(*image.RGBA); ok {
		return img
	}
	img := image.NewRGBA(src.Bounds())
	draw.Draw(img, img.Bounds(), src, src.Bounds().Min, draw.Src)
	return img
}

// toPixels converts a CSS px box into an image rectangle clipped to bounds.
func toPixels(b [4]float64, scale float64, bounds image.Rectangle) (image.Rectangle, bool) {
	for _, f := range b {
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e7 {
			return image.Rectangle{}, false
		}
	}
	r := image.Rect(int(b[0]*scale), int(b[1]*scale), int((b[0]+b[2])*scale), int((b[1]+b[3])*scale))
	r = r.Intersect(bounds)
	return r, !r.Empty()
}

func outline(img *image.RGBA, r image.Rectangle, c color.RGBA, w int) {
	u := image.NewUniform(c)
	for _, side := range []image.Rectangle{
		image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+w),
		image.Rect(r.Min.X, r.Max.Y-w, r.Max.X, r.Max.Y),
		image.Rect(r.Min.X, r.Min.Y, r.Min.X+w, r.Max.Y),
		image.Rect(r.Max.X-w, r.Min.Y, r.Max.X, r.Max.Y),
	} {
		draw.Draw(img, side.Intersect(r), u, image.Point{}, draw.Src)
	}
}

// label draws the ref on a filled tag: inside the box's top-left corner,
// else above it, else below it — the first spot that overlaps no earlier
// tag — clipped to the image. It returns the tag's rectangle.
func label(img *image.RGBA, box image.Rectangle, text string, c color.RGBA, placed []image.Rectangle) image.Rectangle {
	face := basicfont.Face7x13
	w := font.MeasureString(face, text).Ceil() + 4
	h := 14
	candidates := []image.Point{
		box.Min,                    // inside, top-left
		{box.Min.X, box.Min.Y - h}, // above
		{box.Min.X, box.Max.Y},     // below
	}
	tag := image.Rectangle{Min: candidates[0], Max: candidates[0].Add(image.Pt(w, h))}
	for _, p := range candidates {
		r := image.Rectangle{Min: p, Max: p.Add(image.Pt(w, h))}
		if !r.In(img.Bounds()) {
			continue
		}
		if !overlapsAny(r, placed) {
			tag = r
			break
		}
	}
	tag = shiftInside(tag, img.Bounds())
	draw.Draw(img, tag, image.NewUniform(c), image.Point{}, draw.Src)
	d := font.Drawer{Dst: img, Src: image.White, Face: face,
		Dot: fixed.P(tag.Min.X+2, tag.Min.Y+11)}
	d.DrawString(text)
	return tag
}

func overlapsAny(r image.Rectangle, placed []image.Rectangle) bool {
	for _, p := range placed {
		if r.Overlaps(p) {
			return true
		}
	}
	return false
}

// shiftInside moves r so it lies inside bounds where it fits.
func shiftInside(r image.Rectangle, b image.Rectangle) image.Rectangle {
	if r.Max.X > b.Max.X {
		r = r.Sub(image.Pt(r.Max.X-b.Max.X, 0))
	}
	if r.Max.Y > b.Max.Y {
		r = r.Sub(image.Pt(0, r.Max.Y-b.Max.Y))
	}
	if r.Min.X < b.Min.X {
		r = r.Add(image.Pt(b.Min.X-r.Min.X, 0))
	}
	if r.Min.Y < b.Min.Y {
		r = r.Add(image.Pt(0, b.Min.Y-r.Min.Y))
	}
	return r.Intersect(b)
}

// Crop cuts a PNG to a box in CSS px (at scale), clipped to the image.
func Crop(pngData []byte, box [4]float64, scale float64) ([]byte, error) {
	src, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return nil, fmt.Errorf("decoding screenshot: %w", err)
	}
	if scale <= 0 || math.IsNaN(scale) {
		scale = 1
	}
	r, ok := toPixels(box, scale, src.Bounds())
	if !ok {
		return nil, fmt.Errorf("crop box %v lies outside the image", box)
	}
	dst := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(dst, dst.Bounds(), src, r.Min, draw.Src)
	return encode(dst)
}

// Pending is a screenshot taken in the background, for instance while a
// capture runs (Chrome produces the frame on its own threads).
type Pending struct {
	done   chan struct{}
	png    []byte
	err    error
	cancel context.CancelFunc
}

// Start takes a screenshot of the tab behind ctx in the background, within
// timeout.
func Start(ctx context.Context, timeout time.Duration) *Pending {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	p := &Pending{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(p.done)
		p.png, p.err = Capture(ctx)
	}()
	return p
}

// Wait returns the screenshot once it is there.
func (p *Pending) Wait() ([]byte, error) {
	<-p.done
	p.cancel()
	return p.png, p.err
}

// Drop gives up a screenshot nobody needs; a nil Pending is fine.
func (p *Pending) Drop() {
	if p != nil {
		p.cancel()
		<-p.done
	}
}
