// Package screenshot captures the viewport as a PNG and annotates it: every
// mark's box outlined thinly in its kind's colour, its ref on a filled tag
// outside the box where there is room, tags placed so they cover no other
// tag and no other box where avoidable.
//
// Capture and Start (the same, in the background, for a screenshot taken
// while a capture runs) reach the browser through a Camera, which the
// browser driver implements (*chrome.Tab in browser/chrome); the package itself never talks
// CDP. Annotate is pure image work with golang.org/x/image.
package screenshot

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"slices"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// A Camera takes a tab's viewport as a PNG: the browser's part of a
// screenshot. Context ends when the tab does.
type Camera interface {
	Context() context.Context
	CapturePNG(ctx context.Context) ([]byte, error)
}

// Capture takes a PNG of the camera's viewport, within ctx.
func Capture(ctx context.Context, cam Camera) ([]byte, error) {
	return cam.CapturePNG(ctx)
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
	return AnnotateClipped(pngData, marks, scale, nil)
}

// AnnotateClipped is Annotate cut to clip, a box in CSS px (nil: the
// whole picture). Tags are placed within the clip.
func AnnotateClipped(pngData []byte, marks []Mark, scale float64, clip *[4]float64) ([]byte, error) {
	src, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return nil, fmt.Errorf("decoding screenshot: %w", err)
	}
	if scale <= 0 || math.IsNaN(scale) {
		scale = 1
	}
	img := rgba(src)
	if clip != nil {
		r, ok := toPixels(*clip, scale, img.Bounds())
		if !ok {
			return nil, fmt.Errorf("clip %v lies outside the screenshot", *clip)
		}
		img = img.SubImage(r).(*image.RGBA)
	}
	tags := layout(marks, scale, img.Bounds())
	w := outlineWidth(scale)
	for _, t := range tags {
		outline(img, t.box, t.colour, w)
	}
	for _, t := range tags { // tags over every outline
		drawTag(img, t)
	}
	return encode(img)
}

// clipShare is the most of the viewport a clip may cover: above it the
// whole viewport costs little more, and shows the regions in context.
const clipShare = 0.5

// clipPad is the margin kept around the boxes a clip holds, CSS px: room
// for the tags outside them.
const clipPad = 24

// Clip is the part of a width×height viewport (CSS px) that holds the
// boxes, with a margin: what a screenshot for them needs. ok is false when
// no box is in view or the part would cover more than half the viewport.
// An image's cost to a model grows with its pixels.
func Clip(boxes [][4]float64, width, height float64) (box [4]float64, ok bool) {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, b := range boxes {
		bx0, by0 := max(b[0]-clipPad, 0), max(b[1]-clipPad, 0)
		bx1, by1 := min(b[0]+b[2]+clipPad, width), min(b[1]+b[3]+clipPad, height)
		if !(bx1 > bx0 && by1 > by0) || !(b[2] > 0 && b[3] > 0) {
			continue // out of view, empty or not a number
		}
		x0, y0, x1, y1 = min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)
	}
	if !(x1 > x0 && y1 > y0) || (x1-x0)*(y1-y0) > clipShare*width*height {
		return [4]float64{}, false
	}
	return [4]float64{x0, y0, x1 - x0, y1 - y0}, true
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

// outlineWidth is 1 CSS px in device pixels: thin, so it hides little of
// a small target.
func outlineWidth(scale float64) int {
	return int(math.Max(1, math.Round(scale)))
}

// tag is a mark in device pixels and where its ref goes.
type tag struct {
	box, label image.Rectangle
	ref        string
	colour     color.RGBA
}

// tagHeight is the height of a ref's tag: basicfont's 13 px and a pixel.
const tagHeight = 14

// layout places the marks' tags, top to bottom and left to right by box
// (the same marks give the same picture), each in the first spot place
// gives it among those already placed.
func layout(marks []Mark, scale float64, bounds image.Rectangle) []tag {
	tags := make([]tag, 0, len(marks))
	for _, m := range marks {
		if r, ok := toPixels(m.Box, scale, bounds); ok {
			tags = append(tags, tag{box: r, ref: m.Ref, colour: Colour(m.Kind)})
		}
	}
	slices.SortStableFunc(tags, func(a, b tag) int {
		return cmp.Or(cmp.Compare(a.box.Min.Y, b.box.Min.Y), cmp.Compare(a.box.Min.X, b.box.Min.X))
	})
	boxes := make([]image.Rectangle, len(tags))
	for i, t := range tags {
		boxes[i] = t.box
	}
	placed := make([]image.Rectangle, 0, len(tags))
	for i := range tags {
		size := image.Pt(font.MeasureString(basicfont.Face7x13, tags[i].ref).Ceil()+4, tagHeight)
		tags[i].label = place(bounds, tags[i].box, size, placed, boxes)
		placed = append(placed, tags[i].label)
	}
	return tags
}

// place chooses where a tag of the given size goes for box: outside it,
// above at its left, below at its left, at its right, at its left, and
// only then inside its top-left corner, each spot slid along the box's
// side into bounds. It takes the first spot inside bounds that overlaps
// no placed tag and no other box (boxes holding this one aside), else the
// first that overlaps no placed tag, else the one inside.
func place(bounds, box image.Rectangle, size image.Point, placed, boxes []image.Rectangle) image.Rectangle {
	at := func(x, y int) image.Rectangle {
		return image.Rectangle{Min: image.Pt(x, y), Max: image.Pt(x+size.X, y+size.Y)}
	}
	across := func(r image.Rectangle) image.Rectangle {
		return r.Add(image.Pt(slide(r.Min.X, r.Max.X, bounds.Min.X, bounds.Max.X), 0))
	}
	down := func(r image.Rectangle) image.Rectangle {
		return r.Add(image.Pt(0, slide(r.Min.Y, r.Max.Y, bounds.Min.Y, bounds.Max.Y)))
	}
	spots := [...]image.Rectangle{
		across(at(box.Min.X, box.Min.Y-size.Y)),
		across(at(box.Min.X, box.Max.Y)),
		down(at(box.Max.X, box.Min.Y)),
		down(at(box.Min.X-size.X, box.Min.Y)),
		down(across(at(box.Min.X, box.Min.Y))).Intersect(bounds),
	}
	for _, overBoxes := range []bool{false, true} {
		for _, s := range spots {
			if s.In(bounds) && !overlapsAny(s, placed) && (overBoxes || !overlapsOther(s, box, boxes)) {
				return s
			}
		}
	}
	return spots[len(spots)-1]
}

// slide is how far to move the span [lo, hi) to lie in [min, max), or to
// start at min where it is longer.
func slide(lo, hi, min, max int) int {
	d := 0
	if hi > max {
		d = max - hi
	}
	if lo+d < min {
		d = min - lo
	}
	return d
}

func outline(img *image.RGBA, r image.Rectangle, c color.RGBA, w int) {
	u := image.NewUniform(c)
	for _, side := range [...]image.Rectangle{
		image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+w),
		image.Rect(r.Min.X, r.Max.Y-w, r.Max.X, r.Max.Y),
		image.Rect(r.Min.X, r.Min.Y, r.Min.X+w, r.Max.Y),
		image.Rect(r.Max.X-w, r.Min.Y, r.Max.X, r.Max.Y),
	} {
		draw.Draw(img, side.Intersect(r), u, image.Point{}, draw.Src)
	}
}

// drawTag fills the tag's label in its colour and writes its ref in white.
func drawTag(img *image.RGBA, t tag) {
	draw.Draw(img, t.label, image.NewUniform(t.colour), image.Point{}, draw.Src)
	d := font.Drawer{Dst: img, Src: image.White, Face: basicfont.Face7x13,
		Dot: fixed.P(t.label.Min.X+2, t.label.Min.Y+11)}
	d.DrawString(t.ref)
}

func overlapsAny(r image.Rectangle, placed []image.Rectangle) bool {
	for _, p := range placed {
		if r.Overlaps(p) {
			return true
		}
	}
	return false
}

// overlapsOther tells whether r overlaps a box other than own and those
// holding own (a tag beside a button in a ref'd panel lies in the panel).
func overlapsOther(r, own image.Rectangle, boxes []image.Rectangle) bool {
	for _, b := range boxes {
		if r.Overlaps(b) && !own.In(b) {
			return true
		}
	}
	return false
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

// Start takes a screenshot in the background, within timeout (and the
// tab's life).
func Start(cam Camera, timeout time.Duration) *Pending {
	ctx, cancel := context.WithTimeout(cam.Context(), timeout)
	p := &Pending{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(p.done)
		p.png, p.err = cam.CapturePNG(ctx)
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
