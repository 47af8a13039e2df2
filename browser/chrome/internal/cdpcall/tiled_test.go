package cdpcall

import (
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"
)

// The testdata/tiled screenshots are Chromium's own, of pixelsPage at
// scale 2: page.png as it is, the tiled-*.png ones as a loaded machine
// sometimes answers (the page at scale 1, four times).
func loadPNG(t *testing.T, name string) image.Image {
	t.Helper()
	f, err := os.Open("testdata/tiled/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestTiled(t *testing.T) {
	blank := image.NewRGBA(image.Rect(0, 0, 160, 120))
	for i := range blank.Pix {
		blank.Pix[i] = 0xff
	}
	oneDot := image.NewNRGBA(image.Rect(0, 0, 160, 120))
	oneDot.Set(100, 30, color.Black)
	for _, tc := range []struct {
		name  string
		img   image.Image
		scale float64
		want  bool
	}{
		{"the page", loadPNG(t, "page.png"), 2, false},
		{"tiled page", loadPNG(t, "tiled-red.png"), 2, true},
		{"tiled page, texts transparent", loadPNG(t, "tiled-hidden.png"), 2, true},
		{"at scale 1 nothing is tiled", loadPNG(t, "tiled-red.png"), 1, false},
		{"scale 1.5: another period", loadPNG(t, "tiled-red.png"), 1.5, false},
		{"blank: repeats", blank, 2, true},
		{"one dot: no", oneDot, 2, false},
		{"odd scale", blank, 0, false},
		{"huge scale", blank, 1e9, false},
		{"paletted: not a screenshot", image.NewPaletted(image.Rect(0, 0, 4, 4), nil), 2, false},
	} {
		if got := tiled(tc.img, tc.scale); got != tc.want {
			t.Errorf("%s: tiled %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestUntiledTakesAgain(t *testing.T) {
	page, tiledPage := loadPNG(t, "page.png"), loadPNG(t, "tiled-red.png")
	blank := image.NewRGBA(image.Rect(0, 0, 16, 12))
	boom := errors.New("boom")
	for _, tc := range []struct {
		name      string
		shots     []image.Image
		err       error
		wantTakes int
		want      image.Image
	}{
		{"good at once", []image.Image{page}, nil, 1, page},
		{"tiled, then good", []image.Image{tiledPage, page}, nil, 2, page},
		{"blank stays blank", []image.Image{blank, blank, blank, blank}, nil, maxTiledRetakes + 1, blank},
		{"an error ends it", []image.Image{tiledPage, page}, boom, 1, nil},
	} {
		takes := 0
		got, err := Untiled(func() (image.Image, image.Image, error) {
			if tc.err != nil {
				takes++
				return nil, nil, tc.err
			}
			img := tc.shots[takes]
			takes++
			return img, img, nil
		}, 2)
		if takes != tc.wantTakes || got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("%s: %d takes, same image %v, err %v; want %d takes", tc.name, takes, got == tc.want, err, tc.wantTakes)
		}
	}
}
