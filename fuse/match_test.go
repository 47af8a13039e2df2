package fuse

import (
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/internal/testkit/golden"
	"go.yaml.in/yaml/v3"
)

var refSuffix = regexp.MustCompile(` \[ref=e\d+\]$`)

// find runs a query on a capture's default view.
func find(t *testing.T, capture string, q Query) []Match {
	t.Helper()
	c := load(t, "../testdata/captures/"+capture+".capture.json")
	return FromCapture(c, Options{}).Find(q)
}

// TestFindQuery: what a Query matches, and what it must not. Role is the
// whole role in any case, Chrome's spelling too; Name a literal substring
// of the name; Text one of the name, text, value or URL; an empty query
// matches nothing. Matches come in document order, with their ancestors.
func TestFindQuery(t *testing.T) {
	for _, tc := range []struct {
		name, capture string
		q             Query
		want          []string // the matches' lines, refs left out
		path          string   // the first match's ancestors
	}{
		{"role", "forms", Query{Role: "radio"}, []string{`radio "Standard" [checked]`, `radio "Express"`}, `main > form > group "Delivery"`},
		{"role in another case", "forms", Query{Role: "RADIO"}, []string{`radio "Standard" [checked]`, `radio "Express"`}, ""},
		{"part of a role", "forms", Query{Role: "rad"}, nil, ""},
		{"Chrome's role name", "drag", Query{Role: "image"}, []string{`img "Board logo"`}, ""},
		{"ARIA's role name", "drag", Query{Role: "img"}, []string{`img "Board logo"`}, ""},
		{"name, in document order", "forms", Query{Name: "EXPRESS"}, []string{`radio "Express"`, `button "Express checkout" [pressed]`}, `main > form > group "Delivery"`},
		{"role and name", "forms", Query{Role: "button", Name: "express"}, []string{`button "Express checkout" [pressed]`}, `main > form`},
		{"name under the wrong role", "forms", Query{Role: "checkbox", Name: "Standard"}, nil, ""},
		{"name nowhere", "forms", Query{Name: "Billing"}, nil, ""},
		{"name, regexp characters literal", "forms", Query{Name: "Pay $42."}, []string{`button "Pay $42.00"`}, ""},
		{"name is no regexp", "forms", Query{Name: "Pay.*"}, nil, ""},
		{"anchored name is no regexp", "forms", Query{Name: "^Pay"}, nil, ""},
		{"a value is not the name", "forms", Query{Name: "Leave at door"}, nil, ""},
		{"text finds a value", "forms", Query{Text: "leave at door"}, []string{`textbox "Notes"`}, `main > form > group "Shipping"`},
		{"text: value then name, in order", "forms", Query{Text: "sweden"}, []string{`combobox "Country" [expanded=false]`, `option "Sweden" [selected]`}, ""},
		{"text finds a URL", "scrolled", Query{Text: "/photo/39"}, []string{`link "Photo 39"`}, `article > paragraph`},
		{"a URL is not the name", "scrolled", Query{Name: "/photo/39"}, nil, ""},
		{"text under the wrong role", "scrolled", Query{Role: "button", Text: "/photo/39"}, nil, ""},
		{"text lines", "headings", Query{Role: "text", Text: "more text"}, []string{`text: More text with`}, ""},
		{"empty query", "forms", Query{}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := find(t, tc.capture, tc.q)
			var got []string
			for _, m := range ms {
				got = append(got, refSuffix.ReplaceAllString(m.Line, ""))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("%+v found %q, want %q", tc.q, got, tc.want)
			}
			if tc.path != "" {
				if p := strings.Join(ms[0].Path, " > "); p != tc.path {
					t.Errorf("path %q, want %q", p, tc.path)
				}
			}
		})
	}
}

// TestFindRefsAndWhere: a match the view leaves out (off-screen, covered)
// still gets a ref to act on, and says where it is.
func TestFindRefsAndWhere(t *testing.T) {
	where := map[string]string{}
	for _, m := range find(t, "scrolled", Query{Role: "link", Name: "photo"}) {
		if m.Ref == "" || !strings.HasSuffix(m.Line, "[ref="+m.Ref+"]") {
			t.Errorf("%q: ref %q", m.Line, m.Ref)
		}
		where[refSuffix.ReplaceAllString(m.Line, "")] = m.Where
	}
	for name, want := range map[string]string{
		`link "Photo 0"`: "off-screen above", `link "Photo 25"`: "in view", `link "Photo 39"`: "off-screen below",
	} {
		if where[name] != want {
			t.Errorf("%s is %q, want %q", name, where[name], want)
		}
	}
	for _, m := range find(t, "banner", Query{Name: "buy pack"}) {
		if m.Where != `covered by dialog "Cookie banner"` || m.Ref == "" {
			t.Errorf("%q: where %q, ref %q", m.Line, m.Where, m.Ref)
		}
	}
}

// TestMatchesYAML renders hand-made matches: each field on its line when
// set, none when not, page strings quoted where YAML needs it.
func TestMatchesYAML(t *testing.T) {
	for _, tc := range []struct {
		name string
		ms   []Match
		want string
	}{
		{"none", nil, ""},
		{"bare", []Match{{Line: `button "OK"`, Where: "no box"}}, "- match: button \"OK\"\n  where: no box\n"},
		{"all fields", []Match{{
			Line: `link "Home" [ref=e3]`, Path: []string{"banner", `navigation "Top"`}, Box: &[4]float64{8, 12.5, 40, 17.25},
			Where: "off-screen below", Ref: "e3", Context: "- link \"Home\" [ref=e3]:\n  - /url: /\n",
		}}, `- match: link "Home" [ref=e3]
  path: banner > navigation "Top"
  box: [8, 12.5, 40, 17.25]
  where: off-screen below
  ref: e3
  context:
    - link "Home" [ref=e3]:
      - /url: /
`},
		{"quoted", []Match{{Line: `heading "a: b"`, Where: `covered by dialog "Cookies"`}}, "- match: 'heading \"a: b\"'\n  where: \"covered by dialog \\\"Cookies\\\"\"\n"},
		{"two", []Match{{Line: "text: x", Where: "in view"}, {Line: `img "y"`, Where: "in view"}}, "- match: 'text: x'\n  where: in view\n- match: img \"y\"\n  where: in view\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := MatchesYAML(tc.ms)
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			readBack(t, got, tc.ms)
		})
	}
}

// TestFindGolden: Find's matches on recorded captures, as MatchesYAML
// prints them, read back field by field.
func TestFindGolden(t *testing.T) {
	for _, tc := range []struct {
		capture string
		q       Query
	}{
		{"forms", Query{Role: "group"}},       // context, one of them cut
		{"banner", Query{Name: "buy"}},        // covered, in view, off-screen
		{"scrolled", Query{Text: "/photo/3"}}, // by URL, off-screen above and below
	} {
		t.Run(tc.capture, func(t *testing.T) {
			ms := find(t, tc.capture, tc.q)
			if len(ms) < 3 {
				t.Fatalf("%+v found %d matches", tc.q, len(ms))
			}
			got := MatchesYAML(ms)
			golden.Check(t, filepath.Join("testdata", tc.capture+".find.yaml"), []byte(got))
			readBack(t, got, ms)
		})
	}
}

// readBack parses MatchesYAML's output and checks each item against its
// match.
func readBack(t *testing.T, out string, ms []Match) {
	t.Helper()
	var items []map[string]any
	if err := yaml.Unmarshal([]byte(out), &items); err != nil {
		t.Fatalf("not YAML: %v\n%s", err, out)
	}
	if len(items) != len(ms) {
		t.Fatalf("%d items for %d matches", len(items), len(ms))
	}
	for i, m := range ms {
		want := map[string]any{"match": m.Line, "where": m.Where}
		if len(m.Path) > 0 {
			want["path"] = strings.Join(m.Path, " > ")
		}
		if m.Box != nil {
			want["box"] = fmt.Sprint(m.Box[:])
		}
		if m.Ref != "" {
			want["ref"] = m.Ref
		}
		if m.Context != "" {
			var ctx any
			if err := yaml.Unmarshal([]byte(m.Context), &ctx); err != nil {
				t.Fatalf("context is not YAML: %v", err)
			}
			want["context"] = ctx
		}
		got := items[i]
		if b, ok := got["box"].([]any); ok {
			got["box"] = fmt.Sprint(floats(b))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("item %d reads back as\n%v\nwant\n%v", i, got, want)
		}
	}
}

func floats(xs []any) []float64 {
	var out []float64
	for _, x := range xs {
		switch v := x.(type) {
		case int:
			out = append(out, float64(v))
		case float64:
			out = append(out, v)
		}
	}
	return out
}
