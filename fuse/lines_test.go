package fuse

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/internal/testkit/golden"
)

// textLines lists the text lines of a view, in order, at any depth.
func textLines(ns []*Node) []string {
	var out []string
	for _, n := range ns {
		if n.Role == "text" {
			out = append(out, n.Text)
		}
		out = append(out, textLines(n.Children)...)
	}
	return out
}

// TestBlockBoundariesEndLines: on testdata/pages/blocks.html each block,
// flex item, grid item, table cell box, list item, float and <br> ends a
// line of text, while inline boxes (spans, b, i, em, an inline-block chip,
// a display: contents wrapper) inside one block stay one line, around a
// link that is a line of its own. (Lines under a kept node, such as an
// emphasis or a listitem, are its inline text.)
func TestBlockBoundariesEndLines(t *testing.T) {
	c := load(t, "../testdata/captures/blocks.capture.json")
	tree := FromCapture(c, Options{})
	want := []string{
		`Press the link named "Onward".`, // the instruction div before the task area
		"Velvet harbour lanterns drift past the pier.",
		"Opening words", "a nested block", "closing words", // a block inside a block
		"Amber", "Birch", "Cedar", // flex items
		"Tile north", "Tile east", "Tile south", // grid items
		"Upper half of a verse", "lower half of a verse", // <br>
		"Read the", "page, then compare it with", "the map", "and the legend chip beside it.", // a paragraph: the link and the emphasis are lines
		"Plain strong slanted and spanned words on one line",
		"Left cell", "Right cell", // display: table-cell
		"Counting", "one", "two", "done", // inline-flex: its items are flex items
		"Listed first", "Listed second", // display: list-item (listitem lines)
		"Contents run still inline",        // display: contents makes no box
		"Floated aside", "after the float", // a float is block-level
		"Trailing note",
	}
	if got := textLines(tree.Roots); !reflect.DeepEqual(got, want) {
		t.Errorf("text lines:\n%s\nwant:\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), YAML(tree.Roots))
	}
	for _, tc := range []struct{ line, role string }{
		{`- listitem: Listed first`, "list-item boxes"},
		{`- emphasis: the map`, "inline emphasis"},
		{`- link "Onward" [ref=e1]`, "the link"},
	} {
		if !strings.Contains(YAML(tree.Roots), tc.line) {
			t.Errorf("%s: no %q in\n%s", tc.role, tc.line, YAML(tree.Roots))
		}
	}
}

// TestNamesNeverSwallowTargets: on a table whose tbody's one listener
// serves every row, each row's cell holds a button and a cursor: pointer
// span Chrome makes no AX node of; the cell's name (from its contents)
// holds the span's text, and the span still gets its ref, in the full
// capture and the viewport one alike (TestViewportCaptureFusesLikeFull:
// the same elements in view). Its text is not repeated below it, and find
// reaches the rows off-screen too. Likewise a link in the legend a group
// is named from.
func TestNamesNeverSwallowTargets(t *testing.T) {
	for _, name := range []string{"delegated", "delegated-viewport"} {
		c := load(t, "../testdata/captures/"+name+".capture.json")
		tree := FromCapture(c, Options{})
		obs := Snapshot(c, Options{})
		cancels, edits := 0, 0
		for _, el := range obs.Elements {
			switch {
			case el.Role == "clickable" && strings.HasPrefix(el.Name, "Cancel "):
				cancels++
				if el.Tag != "span" || !slices.Equal(el.Reasons, []string{"cursor:pointer", "delegated"}) {
					t.Errorf("%s: %s %q: tag %s, reasons %v", name, el.Ref, el.Name, el.Tag, el.Reasons)
				}
			case el.Role == "button":
				edits++
			case el.Name == "read them" || el.Name == "Reason":
			default:
				t.Errorf("%s: unexpected target %s %s %q", name, el.Ref, el.Role, el.Name)
			}
		}
		if cancels == 0 || cancels != edits {
			t.Errorf("%s: %d Cancel spans and %d Edit buttons with refs:\n%s", name, cancels, edits, obs.Snapshot)
		}
		cell := regexp.MustCompile(`- cell "Edit Cancel 3":\n +- button "Edit" \[ref=e\d+\]\n +- clickable "Cancel 3" \[ref=e\d+\]\n`)
		// The group's name holds its legend's text, the link in it stays.
		legend := regexp.MustCompile(`- group "Refund rules read them":\n +- link "read them" \[ref=e\d+\]`)
		for _, re := range []*regexp.Regexp{cell, legend} {
			if !re.MatchString(obs.Snapshot) {
				t.Errorf("%s: no %s in\n%s", name, re, obs.Snapshot)
			}
		}
		if strings.Contains(obs.Snapshot, "- text: Cancel") {
			t.Errorf("%s: a Cancel span's text is printed again:\n%s", name, obs.Snapshot)
		}
		if name == "delegated" {
			ms := tree.Find(Query{Role: "clickable", Name: "Cancel 400"})
			if len(ms) != 1 || ms[0].Ref == "" {
				t.Errorf("find Cancel 400: %+v", ms)
			}
		}
	}
}

// TestOneLinePerTarget: every target a view gives a ref has a DOM node of
// its own (no element is two lines: a host is made a line once, and only
// when Chrome has no node of it), on every recorded page.
func TestOneLinePerTarget(t *testing.T) {
	for name, path := range golden.Captures(t, "..") {
		c := load(t, path)
		obs := Snapshot(c, Options{})
		seen := map[string]string{}
		for _, el := range obs.Elements {
			k := fmt.Sprint(el.Frame, el.BackendNodeID)
			if prev, dup := seen[k]; dup {
				t.Errorf("%s: %s and %s are one element", name, prev, el.Ref)
			}
			seen[k] = el.Ref
		}
	}
}
