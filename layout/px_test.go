package layout

import (
	"math"
	"testing"
)

// TestPx: the one px parser reads a number with or without the px unit,
// keeps its sign, and leaves spaces and range to the caller; nonNegative
// is the padding reading of it (negative, infinite, huge or no length: 0).
func TestPx(t *testing.T) {
	for _, tc := range []struct {
		in      string
		px      float64
		ok      bool
		padding float64
	}{
		{"5px", 5, true, 5},
		{"0px", 0, true, 0},
		{"0", 0, true, 0},
		{"2.5", 2.5, true, 2.5},
		{"0.5px", 0.5, true, 0.5},
		{"-3px", -3, true, 0},
		{"-0.25px", -0.25, true, 0},
		{"1e3px", 1000, true, 1000},
		{"2e9px", 2e9, true, 0}, // beyond finite's bound
		{"", 0, false, 0},
		{"px", 0, false, 0},
		{"auto", 0, false, 0},
		{"5em", 0, false, 0},
		{"5 px", 0, false, 0},
		{" 5px", 0, false, 0}, // spaces are the caller's to trim
		{"5px ", 0, false, 0},
		{"5pxpx", 0, false, 0},
		{"Infpx", math.Inf(1), true, 0},
	} {
		got, ok := Px(tc.in)
		if ok != tc.ok || ok && got != tc.px {
			t.Errorf("Px(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.px, tc.ok)
		}
		if p := nonNegative(Px(tc.in)); p != tc.padding {
			t.Errorf("nonNegative(Px(%q)) = %v; want %v", tc.in, p, tc.padding)
		}
	}
	if f, ok := Px("NaN"); !ok || !math.IsNaN(f) || nonNegative(f, ok) != 0 {
		t.Errorf("Px(NaN) = %v, %v; padding %v", f, ok, nonNegative(f, ok))
	}
}
