package act_test

import (
	"path/filepath"
	"testing"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/internal/testkit/replay"
)

// TestFrameRefIsUnknown: a frame-prefixed ref has a ref's shape (index's
// grammar, the one the MCP schema publishes), so the command line takes
// it as a ref, and the session answers it as unknown in one line,
// sending nothing.
func TestFrameRefIsUnknown(t *testing.T) {
	rec, err := replay.Load(filepath.Join("..", "testdata", "sessions", "act-stale-ref.session.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	tab := replay.NewTab(rec.Tabs[0])
	s, err := act.Open(tab, "replay", fuse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, words := range [][]string{{"click", "f1e5"}, {"scroll", "f1e5"}, {"fill", "f1e5=x"}, {"press", "f1e5", "Enter"}} {
		v, _ := act.Lookup(words[0])
		in, err := v.Parse(words[1:])
		if err != nil {
			t.Errorf("%q: %v, want f1e5 taken as a ref", words, err)
			continue
		}
		err = v.Run(s, in)
		if want := "Ref f1e5 not found in the current page snapshot"; err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", words, err, want)
		}
		if sent := tab.TakeSent(); len(sent) > 0 {
			t.Errorf("%q sent %v", words, sent)
		}
	}
}
