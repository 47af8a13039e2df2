package main

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

// updating: the test binary runs with -update (internal/testkit/golden's flag).
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// TestCLIReference: docs/cli.md, the command reference, is what
// `axfuse CMD --help` prints, for every command.
func TestCLIReference(t *testing.T) {
	const path = "../../docs/cli.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- commands:begin -->\n", "<!-- commands:end -->"
	doc := string(b)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q … %q section", path, begin, end)
	}
	var sb strings.Builder
	for _, c := range commandList() {
		sb.WriteString("### axfuse " + c.name + "\n\n```\n")
		writeHelp(&sb, c)
		sb.WriteString("```\n\n")
	}
	want := sb.String()
	if got := doc[i+len(begin) : j]; got != want {
		if updating() {
			if err := os.WriteFile(path, []byte(doc[:i+len(begin)]+want+doc[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s differs from the commands' --help (run go test ./cmd/axfuse -run CLIReference -update)", path)
	}
}

// TestREADMEDemoExcerpt: the README's excerpt of `make demo` is the demo
// page's real snapshot: its lines appear in it, in order ("..." stands
// for lines left out).
func TestREADMEDemoExcerpt(t *testing.T) {
	needChromium(t)
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	const start = "Output of `make demo` (excerpt; the embedded demo shop page):\n\n```yaml\n"
	i := strings.Index(readme, start)
	if i < 0 {
		t.Fatal("the README has no demo excerpt")
	}
	excerpt, _, _ := strings.Cut(readme[i+len(start):], "```")
	got := strings.Split(mustCLI(t, "snapshot"), "\n")
	k := 0
	for _, line := range strings.Split(strings.TrimRight(excerpt, "\n"), "\n") {
		if strings.TrimSpace(line) == "..." {
			continue
		}
		for k < len(got) && got[k] != line {
			k++
		}
		if k == len(got) {
			t.Errorf("the README's demo excerpt has %q, which the demo's snapshot does not (in that order); run make demo", line)
			return
		}
		k++
	}
}

// TestDecisionIndex: docs/decisions/README.md links every record in
// docs/decisions, and only records that exist.
func TestDecisionIndex(t *testing.T) {
	const dir = "../../docs/decisions/"
	index, err := os.ReadFile(dir + "README.md")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	records := map[string]bool{}
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".md") && name != "README.md" {
			records[name] = true
			if !strings.Contains(string(index), "]("+name+")") {
				t.Errorf("docs/decisions/README.md does not link %s", name)
			}
		}
	}
	for _, m := range regexp.MustCompile(`\]\(([^)#]+\.md)\)`).FindAllStringSubmatch(string(index), -1) {
		if !records[m[1]] {
			t.Errorf("docs/decisions/README.md links %s, which is not a record", m[1])
		}
	}
}
