package screenshot

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func blank(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func same(c color.Color, want color.RGBA) bool {
	r, g, b, _ := c.RGBA()
	return uint8(r>>8) == want.R && uint8(g>>8) == want.G && uint8(b>>8) == want.B
}

// TestOutlineAndLabelPixels checks the outline colour on the box edges,
// 1 CSS px thick, and label pixels above the box, at scale 1 and 2.
func TestOutlineAndLabelPixels(t *testing.T) {
	for _, scale := range []float64{1, 2} {
		w, h := int(200*scale), int(100*scale)
		out, err := Annotate(blank(w, h), []Mark{
			{Ref: "e1", Kind: KindListener, Box: [4]float64{50, 40, 60, 30}},
			{Ref: "e2", Kind: KindLink, Box: [4]float64{150, 0, 80, 20}}, // runs off the right edge
		}, scale)
		if err != nil {
			t.Fatal(err)
		}
		img := decode(t, out)
		if img.Bounds().Dx() != w || img.Bounds().Dy() != h {
			t.Fatalf("size changed: %v", img.Bounds())
		}
		orange := Colour(KindListener)
		// Edges of box e1 in device pixels: left edge mid-height, bottom edge.
		if !same(img.At(int(50*scale), int(60*scale)), orange) || !same(img.At(int(100*scale), int(70*scale)-1), orange) {
			t.Errorf("scale %v: outline not drawn at the box edges", scale)
		}
		if white := (color.RGBA{0xff, 0xff, 0xff, 0xff}); !same(img.At(int(51*scale), int(60*scale)), white) {
			t.Errorf("scale %v: outline thicker than 1 CSS px", scale)
		}
		// The label tag sits above the box at its left and holds white text.
		white := 0
		for y := int(40*scale) - tagHeight; y < int(40*scale); y++ {
			for x := int(50 * scale); x < int(50*scale)+18; x++ {
				if same(img.At(x, y), color.RGBA{0xff, 0xff, 0xff, 0xff}) {
					white++
				}
			}
		}
		if white == 0 || white > 14*18-20 {
			t.Errorf("scale %v: label text pixels %d", scale, white)
		}
		if !same(img.At(w-1, int(10*scale)), Colour(KindLink)) {
			t.Errorf("scale %v: clipped box lost its right edge", scale)
		}
	}
}

// TestPlaceOrder takes the spots of one box away one by one: above at its
// left, below, right, left, inside; with all taken, inside.
func TestPlaceOrder(t *testing.T) {
	bounds := image.Rect(0, 0, 300, 300)
	box := image.Rect(100, 100, 120, 120)
	size := image.Pt(18, 14)
	var placed []image.Rectangle
	for _, want := range []image.Point{{100, 86}, {100, 120}, {120, 100}, {82, 100}, {100, 100}, {100, 100}} {
		got := place(bounds, box, size, placed, []image.Rectangle{box})
		if got.Min != want || got.Size() != size {
			t.Fatalf("with %d spots taken: %v, want at %v", len(placed), got, want)
		}
		placed = append(placed, got)
	}
}

// grid is rows×cols boxes of 20×20 CSS px from (x, y), dx and dy apart,
// refs e1… in reading order, kinds in turn (neighbours differ in colour).
func grid(x, y, dx, dy float64, rows, cols int) []Mark {
	kinds := []string{KindControl, KindLink, KindListener, KindTextField, KindCanvas}
	var marks []Mark
	for r := range rows {
		for c := range cols {
			n := len(marks)
			marks = append(marks, Mark{Ref: fmt.Sprintf("e%d", n+1), Kind: kinds[n%len(kinds)],
				Box: [4]float64{x + float64(c)*dx, y + float64(r)*dy, 20, 20}})
		}
	}
	return marks
}

func filled(w, h int, c color.RGBA) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(c), image.Point{}, draw.Src)
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

// TestLabelPlacement annotates small targets on a grey page, decodes the
// PNG and checks: every label inside the image, on no other label, drawn
// whole in its colour with white text, outside its box; no label pixel in
// a box's interior; outlines 1 CSS px thick.
func TestLabelPlacement(t *testing.T) {
	grey := color.RGBA{0x80, 0x80, 0x80, 0xff}
	white := color.RGBA{0xff, 0xff, 0xff, 0xff}
	for _, tc := range []struct {
		name    string
		w, h    int // CSS px
		marks   []Mark
		open    string            // a panel whose interior holds others and their labels
		crowded bool              // no room outside: labels may lie over boxes
		at      map[string][2]int // label's top-left at scale 1
	}{
		{name: "answer buttons in a grid", w: 150, h: 130, marks: grid(10, 20, 30, 34, 3, 4),
			at: map[string][2]int{"e1": {10, 6}, "e12": {100, 74}}},
		{name: "grid at the top-left edge", w: 130, h: 110, marks: grid(0, 0, 30, 34, 3, 4),
			at: map[string][2]int{"e1": {0, 20}, "e5": {0, 54}}},
		{name: "box in the top-left corner", w: 100, h: 100, marks: grid(0, 0, 0, 0, 1, 1),
			at: map[string][2]int{"e1": {0, 20}}},
		{name: "box in the top-right corner", w: 100, h: 100, marks: []Mark{{Ref: "e123", Box: [4]float64{80, 0, 20, 20}}},
			at: map[string][2]int{"e123": {68, 20}}}, // slid left into the image
		{name: "box in the bottom-right corner", w: 100, h: 100, marks: []Mark{{Ref: "e123", Box: [4]float64{80, 80, 20, 20}}},
			at: map[string][2]int{"e123": {68, 66}}},
		{name: "box over the whole image", w: 20, h: 20, marks: grid(0, 0, 0, 0, 1, 1), crowded: true,
			at: map[string][2]int{"e1": {0, 0}}},
		{name: "same box twice", w: 100, h: 100, marks: append(grid(40, 40, 0, 0, 1, 1), Mark{Ref: "e2", Kind: KindControl, Box: [4]float64{40, 40, 20, 20}}),
			at: map[string][2]int{"e1": {40, 26}, "e2": {40, 60}}},
		{name: "button in a ref'd panel", w: 200, h: 130, open: "e1",
			marks: []Mark{{Ref: "e1", Kind: KindListener, Box: [4]float64{10, 20, 180, 100}}, {Ref: "e2", Box: [4]float64{30, 50, 20, 20}}},
			at:    map[string][2]int{"e1": {10, 6}, "e2": {30, 36}}},
		{name: "packed with no room", w: 120, h: 120, marks: grid(30, 30, 22, 22, 3, 3), crowded: true},
	} {
		for _, scale := range []float64{1, 2} {
			t.Run(fmt.Sprintf("%s/scale %v", tc.name, scale), func(t *testing.T) {
				w, h := int(float64(tc.w)*scale), int(float64(tc.h)*scale)
				out, err := Annotate(filled(w, h, grey), tc.marks, scale)
				if err != nil {
					t.Fatal(err)
				}
				img := decode(t, out)
				tags := layout(tc.marks, scale, img.Bounds())
				if len(tags) != len(tc.marks) {
					t.Fatalf("%d tags for %d marks", len(tags), len(tc.marks))
				}
				ow := outlineWidth(scale)
				for i, tg := range tags {
					if !tg.label.In(img.Bounds()) {
						t.Errorf("%s: label %v outside the image", tg.ref, tg.label)
					}
					for _, o := range tags[:i] {
						if tg.label.Overlaps(o.label) {
							t.Errorf("labels of %s %v and %s %v overlap", tg.ref, tg.label, o.ref, o.label)
						}
					}
					if want, ok := tc.at[tg.ref]; ok && scale == 1 && tg.label.Min != image.Pt(want[0], want[1]) {
						t.Errorf("%s: label at %v, want %v", tg.ref, tg.label.Min, want)
					}
					text := 0
					for y := tg.label.Min.Y; y < tg.label.Max.Y; y++ {
						for x := tg.label.Min.X; x < tg.label.Max.X; x++ {
							switch c := img.At(x, y); {
							case same(c, white):
								text++
							case !same(c, tg.colour):
								t.Fatalf("%s: pixel (%d,%d) of its label is %v, not its colour: covered", tg.ref, x, y, c)
							}
						}
					}
					if text == 0 {
						t.Errorf("%s: no text on its label", tg.ref)
					}
					if tc.crowded {
						continue
					}
					if tg.label.Overlaps(tg.box) {
						t.Errorf("%s: label %v over its own box %v", tg.ref, tg.label, tg.box)
					}
					if tg.ref != tc.open {
						in := tg.box.Inset(ow)
						for y := in.Min.Y; y < in.Max.Y; y++ {
							for x := in.Min.X; x < in.Max.X; x++ {
								if !same(img.At(x, y), grey) {
									t.Fatalf("%s: pixel (%d,%d) inside the box is drawn on", tg.ref, x, y)
								}
							}
						}
					}
					// Left edge half-way down, top edge half-way across: the
					// outline's pixels, then the two after them untouched.
					mid := tg.box.Min.Add(tg.box.Size().Div(2))
					for d := range ow + 2 {
						left, top := img.At(tg.box.Min.X+d, mid.Y), img.At(mid.X, tg.box.Min.Y+d)
						if drawn := d < ow; drawn == same(left, grey) || drawn == same(top, grey) {
							t.Errorf("%s: outline pixel %d in from the edge: left %v, top %v, want drawn %v", tg.ref, d, left, top, drawn)
						}
					}
				}
			})
		}
	}
}

// BenchmarkAnnotate outlines and labels 300 small targets on a recorded
// screenshot, encoding included.
func BenchmarkAnnotate(b *testing.B) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, recorded(b, "demo.png")); err != nil {
		b.Fatal(err)
	}
	marks := grid(10, 20, 50, 36, 15, 20)
	for b.Loop() {
		if _, err := Annotate(buf.Bytes(), marks, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func TestAnnotateRejectsGarbage(t *testing.T) {
	if _, err := Annotate([]byte("not a png"), nil, 1); err == nil {
		t.Error("garbage accepted")
	}
	if _, err := Annotate(blank(10, 10), []Mark{{Ref: "e1", Box: [4]float64{1e300, -1e300, 5, 5}}}, 1); err != nil {
		t.Error(err)
	}
}

// recorded is a screenshot the tool took (axfuse snapshot --screenshot),
// decoded: of its demo page (demo.png) or of the corpus page
// C/sb-admin-2/charts.html (sb-admin-2-charts.png).
func recorded(t testing.TB, name string) *image.RGBA {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "screenshots", name))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return rgba(img)
}

// TestEncodeRoundTrip decodes what encode wrote and compares every pixel.
func TestEncodeRoundTrip(t *testing.T) {
	translucent := image.NewRGBA(image.Rect(0, 0, 7, 5))
	for i := range translucent.Pix {
		translucent.Pix[i] = byte(i * 37)
	}
	demo := recorded(t, "demo.png")
	for _, tc := range []struct {
		name string
		img  *image.RGBA
		want string // colour model of the decoded image
	}{
		{"screenshot, opaque: RGB", demo, "RGB"},
		{"canvas charts", recorded(t, "sb-admin-2-charts.png"), "RGB"},
		{"translucent: RGBA", translucent, "NRGBA"},
		{"sub-image off the origin", demo.SubImage(image.Rect(301, 77, 640, 400)).(*image.RGBA), "RGB"},
		{"one pixel", image.NewRGBA(image.Rect(0, 0, 1, 1)), "NRGBA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := encode(tc.img)
			if err != nil {
				t.Fatal(err)
			}
			back := decode(t, out)
			if got := back.Bounds().Size(); got != tc.img.Rect.Size() {
				t.Fatalf("size %v, want %v", got, tc.img.Rect.Size())
			}
			kind := "NRGBA"
			if _, ok := back.(*image.RGBA); ok {
				kind = "RGB" // the decoder gives RGB data as opaque RGBA
			}
			if kind != tc.want {
				t.Errorf("decoded as %s, want %s", kind, tc.want)
			}
			min := tc.img.Rect.Min
			for y := 0; y < tc.img.Rect.Dy(); y++ {
				for x := 0; x < tc.img.Rect.Dx(); x++ {
					want := color.NRGBAModel.Convert(tc.img.At(min.X+x, min.Y+y))
					if got := color.NRGBAModel.Convert(back.At(x, y)); got != want {
						t.Fatalf("pixel (%d,%d): %v, want %v", x, y, got, want)
					}
				}
			}
		})
	}
}

// BenchmarkEncode sets encode beside the standard encoder at its fastest
// level, on real screenshots.
func BenchmarkEncode(b *testing.B) {
	for _, name := range []string{"demo.png", "sb-admin-2-charts.png"} {
		img := recorded(b, name)
		for _, bc := range []struct {
			name string
			f    func() ([]byte, error)
		}{
			{"axfuse", func() ([]byte, error) { return encode(img) }},
			{"jpeg-q80", func() ([]byte, error) {
				var out bytes.Buffer
				err := jpeg.Encode(&out, img, &jpeg.Options{Quality: 80})
				return out.Bytes(), err
			}},
			{"image-png-BestSpeed", func() ([]byte, error) {
				var out bytes.Buffer
				err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&out, img)
				return out.Bytes(), err
			}},
		} {
			b.Run(name+"/"+bc.name, func(b *testing.B) {
				var n int
				for b.Loop() {
					out, err := bc.f()
					if err != nil {
						b.Fatal(err)
					}
					n = len(out)
				}
				b.ReportMetric(float64(n), "bytes")
			})
		}
	}
}

func TestClip(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name  string
		boxes [][4]float64
		want  [4]float64
		ok    bool
	}{
		{"one small box, padded", [][4]float64{{100, 200, 300, 100}}, [4]float64{76, 176, 348, 148}, true},
		{"two boxes: their union", [][4]float64{{100, 100, 50, 50}, {300, 150, 50, 50}}, [4]float64{76, 76, 298, 148}, true},
		{"padding stops at the edges", [][4]float64{{0, 0, 100, 100}}, [4]float64{0, 0, 124, 124}, true},
		{"more than half the viewport", [][4]float64{{0, 0, 1000, 500}}, [4]float64{}, false},
		{"boxes far apart: the union is too big", [][4]float64{{0, 0, 10, 10}, {1200, 700, 10, 10}}, [4]float64{}, false},
		{"out of view: ignored", [][4]float64{{100, 100, 50, 50}, {5000, 5000, 10, 10}}, [4]float64{76, 76, 98, 98}, true},
		{"only out of view", [][4]float64{{-500, 100, 50, 50}}, [4]float64{}, false},
		{"empty and odd boxes ignored", [][4]float64{{100, 100, 0, 50}, {nan, 1, 2, 3}, {math.Inf(-1), 0, math.Inf(1), 5}, {100, 100, 50, 50}}, [4]float64{76, 76, 98, 98}, true},
		{"none", nil, [4]float64{}, false},
	} {
		got, ok := Clip(tc.boxes, 1280, 720)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: %v %v, want %v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := Clip([][4]float64{{1, 1, 2, 2}}, nan, 720); ok {
		t.Error("a viewport of no width gave a clip")
	}
}

// TestAnnotateClipped: the picture is the clip's part, its marks drawn
// where the whole picture has them; marks outside it are left out.
func TestAnnotateClipped(t *testing.T) {
	marks := []Mark{{Ref: "e1", Kind: KindCanvas, Box: [4]float64{60, 50, 40, 30}}, {Ref: "e2", Kind: KindLink, Box: [4]float64{5, 5, 10, 10}}}
	for _, scale := range []float64{1, 2} {
		src := blank(int(200*scale), int(120*scale))
		out, err := AnnotateClipped(src, marks, scale, &[4]float64{40, 30, 100, 70})
		if err != nil {
			t.Fatal(err)
		}
		img := decode(t, out)
		if got, want := img.Bounds().Size(), image.Pt(int(100*scale), int(70*scale)); got != want {
			t.Fatalf("scale %v: %v, want %v", scale, got, want)
		}
		// e1's outline: its top-left corner is at (20, 20) CSS px in the clip.
		at := func(x, y float64) color.RGBA {
			return color.RGBAModel.Convert(img.At(int(x*scale), int(y*scale))).(color.RGBA)
		}
		if c := at(20, 40); c != Colour(KindCanvas) {
			t.Errorf("scale %v: e1's left edge is %v, want its colour", scale, c)
		}
		for y := 0.0; y < 70; y++ {
			for x := 0.0; x < 100; x++ {
				if at(x, y) == Colour(KindLink) {
					t.Fatalf("scale %v: e2, outside the clip, drawn at %v,%v", scale, x, y)
				}
			}
		}
	}
	if _, err := AnnotateClipped(blank(100, 100), marks, 1, &[4]float64{500, 500, 10, 10}); err == nil {
		t.Error("a clip outside the picture was accepted")
	}
}
