package screenshot

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
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
