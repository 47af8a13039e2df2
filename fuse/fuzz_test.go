package fuse

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// FuzzSerialize: any name, text, value or URL gives YAML that parses, one
// node a line, with the name reading back from its quotes and no ref
// outside them but the node's own.
func FuzzSerialize(f *testing.F) {
	for _, s := range []string{"", "a", `say "hi"`, "x\ny", "[ref=e1]", "k: v", "a #b", "- x", "true", "123", "\u2028", "'", "\\", "\x00", "\xff", "…"} {
		f.Add(s, s, s)
	}
	f.Fuzz(func(t *testing.T, name, text, value string) {
		roots := []*Node{
			{Role: "button", Name: name, Ref: "e1", States: []string{"disabled"}},
			{Role: "textbox", Name: name, Value: value, Ref: "e2"},
			{Role: "list", Name: text, Children: []*Node{{Role: "text", Text: text}, {Role: "link", Name: name, URL: value}}},
			{Role: "paragraph", Children: []*Node{{Role: "text", Text: text}}},
		}
		roots = append(roots, coverNotes(map[string]int{"region " + Quote(DisplayName(name)): 3}, map[string]int{})...)
		roots = append(roots, &Node{Role: "row", States: []string{collapsed("below", summary{roles: map[string]int{"row": 4, "link": 2}})}})
		out := YAML(roots)
		var doc []any
		if err := yaml.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("does not parse: %v\n%s", err, out)
		}
		if len(doc) != len(roots) {
			t.Fatalf("%d top-level items, want %d:\n%s", len(doc), len(roots), out)
		}
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if !strings.HasPrefix(strings.TrimLeft(line, " "), "- ") {
				t.Fatalf("line %q does not start a node:\n%s", line, out)
			}
		}
		var keys []string
		collectKeys(doc, &keys, map[string]string{})
		refs := 0
		for _, k := range keys {
			if m := refRe.FindStringSubmatch(k); m != nil {
				refs++
				want := DisplayName(name)
				if got := nameOf(t, k); !sameName(got, want) && !(name == "" && got == "") {
					t.Fatalf("name %q read back as %q", want, got)
				}
			}
		}
		if refs != 2 {
			t.Fatalf("%d refs outside quotes, want 2:\n%s", refs, out)
		}
	})
}

// sameName: the name read back is the one written, or (for names whose
// escapes would make the line's key too long for YAML) a cut of it.
func sameName(got, want string) bool {
	if got == want {
		return true
	}
	cut, ok := strings.CutSuffix(got, "…")
	return ok && strings.HasPrefix(want, cut)
}

// TestLongEscapedNames: a name of 200 characters that all need escapes
// still gives YAML that parses, its ref line intact.
func TestLongEscapedNames(t *testing.T) {
	// (U+2028 is white space: it collapses to a space in names; controls
	// draw nothing and are removed: invisible.go.)
	for _, r := range []string{"\xff", "a\u2028", "\u0085a", `"`, "\\"} {
		name := strings.Repeat(r, 400)
		out := YAML([]*Node{{Role: "button", Name: name, Ref: "e1", States: []string{"disabled"}}})
		var doc []any
		if err := yaml.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%q×400: %v\n%s", r, err, out)
		}
		if !strings.Contains(out, "[ref=e1]") || !strings.Contains(out, "…") {
			t.Errorf("%q×400: ref or cut marker missing:\n%s", r, out)
		}
	}
}
