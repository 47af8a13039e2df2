package fuse

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
)

// yamlLine is a YAML list item.
var yamlLine = regexp.MustCompile(`(?m)^\s*- `)

// plainFormat is a second Format: "role name" lines indented by depth.
type plainFormat struct{}

func (plainFormat) Write(w io.Writer, roots []*Node) error {
	var walk func(ns []*Node, depth int)
	walk = func(ns []*Node, depth int) {
		for _, n := range ns {
			fmt.Fprintf(w, "%s%s %s%s\n", strings.Repeat(" ", depth), n.Role, n.Name, n.Text)
			walk(n.Children, depth+1)
		}
	}
	walk(roots, 0)
	return nil
}

func (plainFormat) LineCost(n *Node) int { return len(n.Role+n.Name+n.Text)/3 + 1 }

func (plainFormat) More() string { return "and more\n" }

func (plainFormat) Screenshot(path, reason string) string {
	return "screenshot " + path + " " + reason + "\n"
}

// TestAnotherFormatIsOneImplementation: a view in another Format is
// written, cut to a budget, diffed and quoted by Find in that Format, and
// the YAML is nowhere in it.
func TestAnotherFormatIsOneImplementation(t *testing.T) {
	c := load(t, "../testdata/captures/shop.capture.json")
	opts := Options{Format: plainFormat{}}
	obs := Snapshot(c, opts)
	if yamlLine.MatchString(obs.Snapshot) || !strings.Contains(obs.Snapshot, "heading Outdoor Shop") {
		t.Fatalf("not the plain format:\n%s", obs.Snapshot)
	}
	obs.AttachScreenshot("shot.png", "canvas")
	if !strings.HasSuffix(obs.Snapshot, "screenshot shot.png canvas\n") {
		t.Errorf("the screenshot line is not the format's: %q", obs.Snapshot[len(obs.Snapshot)-60:])
	}
	cut := Snapshot(c, Options{Format: plainFormat{}, MaxTokens: 150})
	if yamlLine.MatchString(cut.Snapshot) || cut.Stats.Tokens > 150 || cut.Stats.Tokens >= obs.Stats.Tokens {
		t.Errorf("the budget in the plain format: %d tokens of %d:\n%s", cut.Stats.Tokens, obs.Stats.Tokens, cut.Snapshot)
	}
	tree := FromCapture(c, opts)
	if d := Diff(tree, FromCapture(c, opts)); d != "note nothing changed\n" {
		t.Errorf("Diff of a view with itself: %q", d)
	}
	for _, m := range tree.Find(Query{Role: "article"}) {
		if m.Context == "" || yamlLine.MatchString(m.Context) {
			t.Errorf("Find's context is not in the format: %q", m.Context)
		}
	}
}
