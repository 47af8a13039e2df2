package act

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/axfuse/axfuse/index"
)

// TestSessionsExpire: saving a session removes the sessions (and stray
// temporaries) unused for longer than SessionLifetime, and keeps the rest.
func TestSessionsExpire(t *testing.T) {
	dir := t.TempDir()
	old, fresh, tmp, other := filepath.Join(dir, "old.json"), filepath.Join(dir, "fresh.json"), filepath.Join(dir, "x.json.tmp"), filepath.Join(dir, "notes.txt")
	for _, p := range []string{old, fresh, tmp, other} {
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-SessionLifetime - time.Hour)
	for _, p := range []string{old, tmp, other} {
		os.Chtimes(p, long, long)
	}
	if err := SaveTable(filepath.Join(dir, "new.json"), index.NewTable()); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{old: false, tmp: false, fresh: true, other: true, filepath.Join(dir, "new.json"): true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}
