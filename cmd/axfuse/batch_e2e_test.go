package main

import (
	"bufio"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBatch: every listed page yields one JSON line, a dead one an error
// line, and the run says how many failed.
func TestBatch(t *testing.T) {
	needChromium(t)
	dead := httptest.NewServer(nil)
	deadURL := dead.URL + "/"
	dead.Close()
	list := filepath.Join(t.TempDir(), "pages.txt")
	pages := []string{servePage(t, "forms.html"), "# a comment", "", servePage(t, "links.html"), deadURL, servePage(t, "listeners.html")}
	if err := os.WriteFile(list, []byte(strings.Join(pages, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI(t, "batch", "--parallel", "2", list)
	if err == nil || !strings.Contains(err.Error(), "1 of 4 pages failed") {
		t.Errorf("batch error %v, want 1 of 4 failed", err)
	}
	seen := map[int]batchLine{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var l batchLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("not a JSON line: %v: %.200s", err, sc.Text())
		}
		seen[l.Index] = l
	}
	if len(seen) != 4 {
		t.Fatalf("%d lines for 4 pages:\n%s", len(seen), out)
	}
	for i, l := range seen {
		failed := l.URL == deadURL
		if failed != (l.Error != "") || failed == (l.Observation != nil) {
			t.Errorf("line %d (%s): error %q, observation %v", i, l.URL, l.Error, l.Observation != nil)
		}
		if l.Observation != nil && !strings.Contains(l.Observation.Snapshot, "[ref=e1]") {
			t.Errorf("line %d: no refs in %q", i, l.Observation.Snapshot)
		}
	}
	if got := summarize([]batchLine{seen[0], seen[1], seen[2], seen[3]}); got.Pages != 4 || got.Failures != 1 || got.MedianMS <= 0 {
		t.Errorf("summary %+v", got)
	}
}
