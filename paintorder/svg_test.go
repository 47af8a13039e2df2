package paintorder

import "testing"

// TestSVGPaint: how a computed SVG fill or stroke and its opacity read.
func TestSVGPaint(t *testing.T) {
	for _, c := range []struct {
		paint, opacity string
		want           RGBA
		ok             bool
	}{
		{"none", "1", RGBA{}, true},
		{"rgb(0, 0, 0)", "1", RGBA{0, 0, 0, 1}, true},
		{"rgb(0, 0, 0)", "0", RGBA{0, 0, 0, 0}, true},
		{"rgba(255, 255, 255, 0.5)", "0.5", RGBA{255, 255, 255, 0.25}, true},
		{"rgb(0, 0, 0)", "", RGBA{0, 0, 0, 1}, true},    // not recorded: as painted
		{"rgb(0, 0, 0)", "2", RGBA{0, 0, 0, 1}, true},   // out of range: ignored
		{"rgb(0, 0, 0)", "NaN", RGBA{0, 0, 0, 1}, true}, // not a number: ignored
		{`url("#gradient") none`, "1", RGBA{}, false},   // a gradient: unknown
		{"", "", RGBA{}, false},                         // an older capture
		{"context-fill", "1", RGBA{}, false},
	} {
		got, ok := svgPaint(c.paint, c.opacity)
		if got != c.want || ok != c.ok {
			t.Errorf("svgPaint(%q, %q) = %v, %v; want %v, %v", c.paint, c.opacity, got, ok, c.want, c.ok)
		}
	}
	for s, want := range map[string]bool{"1px": true, "0.5px": true, "0px": false, "0": false, "": false, "-1px": false, "NaNpx": false} {
		if positive(s) != want {
			t.Errorf("positive(%q) = %v", s, !want)
		}
	}
}
