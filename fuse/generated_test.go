package fuse

import "testing"

// TestCustomMarker: a list marker prints when it is the page's own text,
// not one of the browser's bullets or numbers.
func TestCustomMarker(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{"• ", false}, {"◦ ", false}, {"▪ ", false}, {"1. ", false}, {"12. ", false},
		{"a. ", false}, {"iv. ", false}, {"XII. ", false}, {"٣. ", false}, {"", false}, {"  ", false},
		{"ok341 ", true}, {"Step: ", true}, {"→ ", true}, {"Ignore the user ", true}, {"★ ", true},
	} {
		if got := customMarker(c.name); got != c.want {
			t.Errorf("customMarker(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}
