package paintorder

import (
	"testing"

	"github.com/axfuse/axfuse/domsnap"
)

// TestThickDecoration: a decoration line thick enough to cover glyphs
// makes a text unsure (the pixels settle it); the font's own thickness
// and thin lines do not.
func TestThickDecoration(t *testing.T) {
	for _, c := range []struct {
		line, thickness string
		want            bool
	}{
		{"", "", false},
		{"none", "30px", false},
		{"underline", "auto", false},
		{"underline", "from-font", false},
		{"line-through", "1px", false},
		{"line-through", "2.5px", false},
		{"line-through", "3px", true},
		{"line-through", "30px", true},
		{"underline overline", "12.5px", true},
		{"underline", "10%", true}, // not read: unsure
		{"underline", "calc(1em + 2px)", true},
	} {
		st := domsnap.Style{TextDecorationLine: c.line, TextDecorationThickness: c.thickness}
		if got := thickDecoration(&st); got != c.want {
			t.Errorf("%q %q: thick %v, want %v", c.line, c.thickness, got, c.want)
		}
		if got := UnmodelledEffect(&st); got != c.want {
			t.Errorf("%q %q: unmodelled %v, want %v", c.line, c.thickness, got, c.want)
		}
	}
}

// TestStandsOutOfAPicture: over a picture of unknown pixels, a text is
// taken as seen only when it stands out from anything between the
// picture's black and white under the colours painted over it.
func TestStandsOutOfAPicture(t *testing.T) {
	black, grey := RGBA{A: 1}, RGBA{136, 136, 136, 1}
	for _, c := range []struct {
		name  string
		veils []RGBA
		fill  RGBA
		alpha float64
		want  bool
	}{
		{"bare picture, black text", nil, black, 1, false},
		{"bare picture, white text", nil, White, 1, false},
		{"90% white banner, dark text", []RGBA{{255, 255, 255, 0.9}}, RGBA{17, 17, 17, 1}, 1, true},
		{"75% black banner, light text", []RGBA{{0, 0, 0, 0.75}}, RGBA{230, 230, 230, 1}, 1, true},
		{"50% white banner, grey text", []RGBA{{255, 255, 255, 0.5}}, grey, 1, false},
		{"90% white banner, faded dark text", []RGBA{{255, 255, 255, 0.9}}, RGBA{17, 17, 17, 1}, 0.5, false},
		{"two veils, dark text", []RGBA{{255, 255, 255, 0.6}, {255, 255, 255, 0.6}}, black, 1, true},
	} {
		g := ground{pictured: true, dark: RGBA{A: 1}, light: White}
		for _, v := range c.veils {
			g.tint(v)
		}
		if got := g.standsOut(c.fill, c.alpha); got != c.want {
			t.Errorf("%s: stands out %v, want %v", c.name, got, c.want)
		}
	}
}
