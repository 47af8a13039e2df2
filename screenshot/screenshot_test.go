package screenshot

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
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

// TestOutlineAndLabelPixels checks the outline colour on the box edges and
// label pixels inside the image, at scale 1 and 2.
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
		// The label tag sits inside the box's top-left corner and holds white text.
		white := 0
		for y := int(40 * scale); y < int(40*scale)+14; y++ {
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

func TestLabelsAvoidEachOther(t *testing.T) {
	var placed []image.Rectangle
	img := image.NewRGBA(image.Rect(0, 0, 300, 300))
	a := label(img, image.Rect(100, 100, 200, 200), "e1", Colour(KindControl), placed)
	placed = append(placed, a)
	b := label(img, image.Rect(100, 100, 200, 200), "e2", Colour(KindControl), placed)
	if a.Overlaps(b) {
		t.Errorf("labels overlap: %v %v", a, b)
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
