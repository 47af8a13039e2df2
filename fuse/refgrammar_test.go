package fuse

import "testing"

// TestFrameRefScope: a frame-prefixed ref has a ref's shape (index's
// grammar), so a scope naming one is looked up as a ref, which no
// snapshot hands out: the view says, in one note, that nothing matches.
func TestFrameRefScope(t *testing.T) {
	if !refPattern.MatchString("f1e5") || refPattern.MatchString("f1") {
		t.Errorf("refPattern is not index's grammar")
	}
	c := load(t, "../testdata/captures/shop.capture.json")
	if got, want := Snapshot(c, Options{Scope: "f1e5"}).Snapshot, "- note: nothing matches the scope f1e5\n"; got != want {
		t.Errorf("scope f1e5: %q, want %q", got, want)
	}
}
