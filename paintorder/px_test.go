package paintorder

import (
	"testing"

	"github.com/axfuse/axfuse/domsnap"
)

// TestPxReaders: paintorder's readings of layout.Px each keep their own
// sign and space policy: signedPx (borders, outlines) trims spaces and
// keeps negatives; positive (an SVG stroke width) trims spaces and wants
// more than 0; thickDecoration wants the px unit itself.
func TestPxReaders(t *testing.T) {
	for _, tc := range []struct {
		in       string
		signed   float64
		positive bool
	}{
		{"5px", 5, true},
		{" 5px ", 5, true},
		{"-3px", -3, false},
		{"0px", 0, false},
		{"0.5", 0.5, true},
		{"", 0, false},
		{"thin", 0, false},
		{"5 px", 0, false},
	} {
		if got := signedPx(tc.in); got != tc.signed {
			t.Errorf("signedPx(%q) = %v; want %v", tc.in, got, tc.signed)
		}
		if got := positive(tc.in); got != tc.positive {
			t.Errorf("positive(%q) = %v; want %v", tc.in, got, tc.positive)
		}
	}
	for th, want := range map[string]bool{"auto": false, "from-font": false, "": false, "2px": false, "3px": true, "-1px": false, "3": true, "0.1em": true, "bogus": true} {
		st := &domsnap.Style{TextDecorationLine: "underline", TextDecorationThickness: th}
		if got := thickDecoration(st); got != want {
			t.Errorf("thickDecoration(%q) = %v; want %v", th, got, want)
		}
	}
}
