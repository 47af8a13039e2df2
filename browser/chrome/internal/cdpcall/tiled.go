package cdpcall

import (
	"bytes"
	"image"
	"math"
)

// Headless Chromium (156) emulating a device scale above 1 now and then
// answers Page.captureScreenshot with a frame drawn at scale 1 and
// repeated to fill the picture: for scale 2, four copies of the page at
// half size. Seen about once in 250 screenshots in the first seconds of a
// page on a loaded machine (three busy loops beside two cores). Such a
// picture shows an agent a page that is not there, and to the pixel test
// every text has changed (an invisible text judged shown). A tiled
// screenshot is taken again.

// maxTiledRetakes bounds the screenshots taken again because the last
// was tiled: a page that truly repeats (a blank one) looks tiled every
// time and is then given as it is.
const maxTiledRetakes = 2

// Untiled takes a screenshot, again while it is tiled at scale, up to
// maxTiledRetakes times.
func Untiled[T any](take func() (T, image.Image, error), scale float64) (T, error) {
	for n := 0; ; n++ {
		shot, img, err := take()
		if err != nil || n == maxTiledRetakes || !tiled(img, scale) {
			return shot, err
		}
	}
}

// tiled reports whether img is a picture at scale 1 repeated to fill an
// image meant for scale: it equals itself moved by its size over scale,
// across and down. At scale 1 nothing is tiled.
func tiled(img image.Image, scale float64) bool {
	pix, stride, ok := rawPixels(img)
	if !ok || !(scale > 1) || math.IsInf(scale, 0) {
		return false
	}
	size := img.Bounds().Size()
	periodX, periodY := int(math.Round(float64(size.X)/scale)), int(math.Round(float64(size.Y)/scale))
	if periodX <= 0 || periodY <= 0 || periodX >= size.X || periodY >= size.Y {
		return false
	}
	const bpp = 4
	for y := range size.Y {
		row := pix[y*stride : y*stride+size.X*bpp]
		if !bytes.Equal(row[:(size.X-periodX)*bpp], row[periodX*bpp:]) {
			return false
		}
		if y+periodY < size.Y && !bytes.Equal(row, pix[(y+periodY)*stride:(y+periodY)*stride+size.X*bpp]) {
			return false
		}
	}
	return true
}

// rawPixels gives the 4-byte pixels of the image types PNG decodes a
// screenshot to.
func rawPixels(img image.Image) ([]byte, int, bool) {
	switch m := img.(type) {
	case *image.RGBA:
		return m.Pix[m.PixOffset(m.Rect.Min.X, m.Rect.Min.Y):], m.Stride, true
	case *image.NRGBA:
		return m.Pix[m.PixOffset(m.Rect.Min.X, m.Rect.Min.Y):], m.Stride, true
	}
	return nil, 0, false
}
