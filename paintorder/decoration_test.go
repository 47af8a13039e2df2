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
