package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/internal/testkit/golden"
)

// The vocabulary cases (testdata/vocabulary/NAME.html) each hold one kind
// of markup, with NAME.playwright.yaml, what Playwright's aria snapshot
// prints for it (written from the ARIA and HTML-AAM specs and Playwright's
// documented behaviour), and NAME.axfuse.yaml, the fused view's golden
// output. Where the two differ once refs and notes are set aside, the
// difference is a row of docs/compatibility.md, and only then: the table
// cannot drift from the code.

var (
	refMarker  = regexp.MustCompile(` \[ref=e\d+\]`)
	compatRow  = regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|")
	roleOfLine = regexp.MustCompile(`^\s*- '?"?([A-Za-z][A-Za-z0-9_-]*)`)
)

// comparable is a fused snapshot as Playwright would print it, as far as
// axfuse's extras go: no refs, no notes.
func comparable(yaml string) string {
	var out []string
	for _, line := range strings.Split(strings.TrimRight(yaml, "\n"), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "- note:") {
			continue
		}
		out = append(out, refMarker.ReplaceAllString(line, ""))
	}
	return strings.Join(out, "\n") + "\n"
}

// internalRoles lists the roles of a snapshot's lines that are Chrome's
// own names (they start upper-case: LayoutTableCell, DisclosureTriangle).
func internalRoles(yaml string) []string {
	var out []string
	for _, line := range strings.Split(yaml, "\n") {
		if m := roleOfLine.FindStringSubmatch(line); m != nil && m[1][0] >= 'A' && m[1][0] <= 'Z' {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}

func TestVocabularyCases(t *testing.T) {
	needChromium(t)
	dir := filepath.Join("testdata", "vocabulary")
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	compat, err := os.ReadFile(filepath.Join("..", "..", "docs", "compatibility.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, cases0, ok := strings.Cut(string(compat), "## Cases that differ")
	if !ok {
		t.Fatal(`docs/compatibility.md has no "## Cases that differ" section`)
	}
	listed := map[string]bool{}
	for _, m := range compatRow.FindAllStringSubmatch(cases0, -1) {
		listed[m[1]] = true
	}
	cases, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	if len(cases) < 10 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		name := strings.TrimSuffix(filepath.Base(c), ".html")
		t.Run(name, func(t *testing.T) {
			out := mustCLI(t, "snapshot", srv.URL+"/"+name+".html")
			golden.Check(t, filepath.Join(dir, name+".axfuse.yaml"), []byte(out))
			if r := internalRoles(out); len(r) > 0 {
				t.Errorf("Chrome-internal roles printed: %v", r)
			}
			want, err := os.ReadFile(filepath.Join(dir, name+".playwright.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			differs := comparable(out) != string(want)
			switch {
			case differs && !listed[name]:
				t.Errorf("differs from Playwright's snapshot and docs/compatibility.md has no row for %s:\nplaywright:\n%s\naxfuse:\n%s", name, want, comparable(out))
			case !differs && listed[name]:
				t.Errorf("docs/compatibility.md lists %s, which no longer differs from Playwright's snapshot", name)
			}
			delete(listed, name)
		})
	}
	for name := range listed {
		t.Errorf("docs/compatibility.md lists case %s, which does not exist", name)
	}
}
