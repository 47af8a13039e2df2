package index

import (
	"testing"

	"github.com/axfuse/axfuse/domsnap"
)

// TestValidRef: the refs a table hands out have the shape, and so does a
// frame-prefixed ref, which no table knows.
func TestValidRef(t *testing.T) {
	for s, want := range map[string]bool{
		"e1": true, "e12345": true, "f1e5": true, "f0e0": true,
		"": false, "e": false, "f1": false, "f1e": false, "E1": false, "e1 ": false, " e1": false,
		"ee1": false, "e1f1": false, "fe1": false, "e-1": false, "main": false, "dialog:Cookies": false, "e１": false,
	} {
		if got := ValidRef(s); got != want {
			t.Errorf("ValidRef(%q) = %v, want %v", s, got, want)
		}
	}
	tab := NewTable()
	for i := 0; i < 3; i++ {
		if r := tab.Ref(domsnap.Key{Frame: "F", Backend: int64(i + 1)}); !ValidRef(r) {
			t.Errorf("the table handed out %q, which is no ref", r)
		}
	}
	if _, ok := tab.KeyOf("f1e1"); ok {
		t.Error("a frame-prefixed ref is known to the table")
	}
}
