package fuse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/internal/testkit/golden"
	"github.com/axfuse/axfuse/layout"
	"go.yaml.in/yaml/v3"
)

func load(t testing.TB, path string) *domsnap.Capture {
	t.Helper()
	c, err := domsnap.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestGolden fuses every recorded capture in both modes and compares the
// YAML and the element table with the golden files.
func TestGolden(t *testing.T) {
	for name, path := range golden.Captures(t, "..") {
		t.Run(name, func(t *testing.T) {
			c := load(t, path)
			for _, mode := range Modes {
				obs := Snapshot(c, Options{Mode: mode})
				golden.Check(t, filepath.Join("testdata", name+"."+string(mode)+".yaml"), []byte(obs.Snapshot))
				checkParses(t, obs)
				if mode == ModeFused {
					els, _ := json.MarshalIndent(obs.Elements, "", " ")
					golden.Check(t, filepath.Join("testdata", name+".elements.json"), append(els, '\n'))
				}
			}
		})
	}
}

var refRe = regexp.MustCompile(`\[ref=(e\d+)\]$`)

// checkParses parses the YAML, collects every key, and checks that the refs
// outside quotes are exactly the elements' refs and each name reads back.
func checkParses(t *testing.T, obs *Observation) {
	t.Helper()
	var doc any
	if err := yaml.Unmarshal([]byte(obs.Snapshot), &doc); err != nil {
		t.Fatalf("YAML does not parse: %v\n%s", err, obs.Snapshot)
	}
	var keys []string
	texts := map[string]string{}
	collectKeys(doc, &keys, texts)
	names := map[string]string{}
	for _, k := range keys {
		if m := refRe.FindStringSubmatch(k); m != nil {
			names[m[1]] = nameOf(t, k)
			if names[m[1]] == "" && strings.HasPrefix(k, "group ") {
				names[m[1]] = texts[k] // a details group holds its summary's ref and text
			}
		}
	}
	if len(names) != len(obs.Elements) {
		t.Fatalf("%d refs in the YAML, %d elements", len(names), len(obs.Elements))
	}
	for _, el := range obs.Elements {
		want := el.Name
		if got, ok := names[el.Ref]; !ok || !sameName(got, want) {
			t.Errorf("ref %s: name %q read back from YAML, want %q", el.Ref, got, want)
		}
	}
}

func collectKeys(v any, keys *[]string, texts map[string]string) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			collectKeys(e, keys, texts)
		}
	case map[string]any:
		// Keys are aria lines; a scalar value is content (text, /url,
		// an inline value), a list value is children.
		for k, e := range x {
			*keys = append(*keys, k)
			switch c := e.(type) {
			case []any:
				collectKeys(c, keys, texts)
				if len(c) > 0 {
					if m, ok := c[0].(map[string]any); ok {
						if s, ok := m["text"].(string); ok {
							texts[k] = s
						}
					}
				}
			case string:
				texts[k] = c
			}
		}
	case string:
		*keys = append(*keys, x)
	}
}

// nameOf reads the quoted name out of an aria key: the JSON string after
// the role.
func nameOf(t *testing.T, key string) string {
	t.Helper()
	_, rest, ok := strings.Cut(key, " ")
	if !ok || !strings.HasPrefix(rest, `"`) {
		return ""
	}
	dec := json.NewDecoder(strings.NewReader(rest))
	var s string
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("key %q: name does not decode: %v", key, err)
	}
	return s
}

func TestHiddenContentNeverPrinted(t *testing.T) {
	c := load(t, "../testdata/captures/hidden.capture.json")
	obs := Snapshot(c, Options{})
	for _, s := range []string{"NONE-TEXT", "HIDDEN-TEXT", "ATTR-TEXT", "ARIA-TEXT", "TEMPLATE", "None button", "Hidden button", "Attr link", "Listener hidden"} {
		if strings.Contains(obs.Snapshot, s) {
			t.Errorf("hidden %q printed:\n%s", s, obs.Snapshot)
		}
	}
	// A button under aria-hidden that a person sees is printed as such.
	for _, s := range []string{"Visible heading", "Revealed child", "Screen reader note", `button "Aria button" [aria-hidden] [ref=`} {
		if !strings.Contains(obs.Snapshot, s) {
			t.Errorf("visible %q missing:\n%s", s, obs.Snapshot)
		}
	}
}

func TestListenerDivsGetRefsAXModeDoesNot(t *testing.T) {
	c := load(t, "../testdata/captures/listeners.capture.json")
	fused := Snapshot(c, Options{})
	ax := Snapshot(c, Options{Mode: ModeAX})
	count := func(o *Observation) (n int) {
		for _, el := range o.Elements {
			for _, r := range el.Reasons {
				if strings.HasPrefix(r, "listener:") {
					n++
					break
				}
			}
		}
		return n
	}
	if got := count(fused); got < 5 {
		t.Errorf("fused view: %d listener targets, want at least 5:\n%s", got, fused.Snapshot)
	}
	if got := count(ax); got != 0 {
		t.Errorf("ax view: %d listener targets, want 0", got)
	}
	for _, el := range fused.Elements {
		if el.Tag == "body" || el.Tag == "html" || el.Tag == "#document" {
			t.Errorf("delegated root %s got ref %s", el.Tag, el.Ref)
		}
		if el.Box == nil || el.Box[2] <= 0 || el.Box[3] <= 0 {
			t.Errorf("%s has no box", el.Ref)
		}
	}
	if strings.Count(fused.Snapshot, `"Buy now"`) != 1 {
		t.Errorf("listener span inside a button got its own ref:\n%s", fused.Snapshot)
	}
}

func TestStatsAddUp(t *testing.T) {
	c := load(t, "../testdata/captures/forms.capture.json")
	obs := Snapshot(c, Options{})
	if obs.Stats.Refs != len(obs.Elements) || obs.Stats.Lines != strings.Count(obs.Snapshot, "\n") {
		t.Errorf("stats %+v disagree with the output", obs.Stats)
	}
	if obs.Stats.Tokens <= 0 || obs.Stats.Tokens > len(obs.Snapshot) {
		t.Errorf("token count %d for %d bytes", obs.Stats.Tokens, len(obs.Snapshot))
	}
	var buf bytes.Buffer
	if err := obs.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"url", "title", "viewport", "mode", "snapshot", "elements", "screenshot", "stats"} {
		if _, ok := back[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if back["snapshot"] != obs.Snapshot {
		t.Error("JSON snapshot differs from the YAML")
	}
}

func BenchmarkFuse(b *testing.B) {
	c := load(b, "../testdata/captures/big.capture.json")
	nodes := 0
	for _, d := range c.Documents {
		nodes += len(d.Nodes)
	}
	if nodes < 10000 {
		b.Fatalf("big capture has %d DOM nodes, want >= 10000", nodes)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		g := layout.Compute(c)
		t := Build(c, g, Options{})
		_ = YAML(t.Roots)
	}
	b.ReportMetric(float64(nodes), "domnodes")
	b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// TestBudget: a 1,200-row table cut to a token budget stays under it, keeps
// the rows in view, never cuts a line, and says what it left out.
func TestBudget(t *testing.T) {
	c := load(t, "../testdata/captures/big.capture.json")
	for _, tc := range []struct {
		mode      Mode
		offscreen Offscreen
		max       int
	}{
		{ModeAX, "", 8000}, {ModeAX, "", 2000}, {ModeAX, "", 500},
		{ModeFused, OffscreenKeep, 4000}, {ModeFused, OffscreenKeep, 600},
	} {
		obs := Snapshot(c, Options{Mode: tc.mode, Offscreen: tc.offscreen, MaxTokens: tc.max, FindHint: "use find"})
		if obs.Stats.Tokens > tc.max {
			t.Errorf("%s max %d: %d tokens", tc.mode, tc.max, obs.Stats.Tokens)
		}
		if !strings.Contains(obs.Snapshot, `link "Item 0"`) {
			t.Errorf("%s max %d: the first row in view was cut", tc.mode, tc.max)
		}
		lines := strings.Split(strings.TrimSpace(obs.Snapshot), "\n")
		if last := lines[len(lines)-1]; !strings.HasPrefix(last, `- note: "cut to fit`) || !strings.Contains(last, "left out; use find") {
			t.Errorf("%s max %d: last line %q", tc.mode, tc.max, last)
		}
		checkParses(t, obs)
	}
	// Under the budget nothing changes.
	plain := Snapshot(c, Options{})
	if same := Snapshot(c, Options{MaxTokens: plain.Stats.Tokens + 50}); same.Snapshot != plain.Snapshot {
		t.Error("a view within its budget was cut")
	}
}

// TestDiff: one changed name in a recorded capture shows up as that line
// under its ancestors; the rest is counted. (TestDiffRefsThatWent: the
// refs that went.)
func TestDiff(t *testing.T) {
	before := load(t, "../testdata/captures/forms.capture.json")
	after := load(t, "../testdata/captures/forms.capture.json")
	changed := ""
	for i := range after.Frames[0].AXNodes {
		n := &after.Frames[0].AXNodes[i]
		if n.Role == "button" && n.Name != "" {
			changed, n.Name = n.Name, n.Name+" now"
			break
		}
	}
	if changed == "" {
		t.Fatal("no button in the forms capture")
	}
	g1, g2 := layout.Compute(before), layout.Compute(after)
	refs := index.NewTable()
	t1 := Build(before, g1, Options{Refs: refs})
	t2 := Build(after, g2, Options{Refs: refs})
	d := Diff(t1, t2)
	if !strings.Contains(d, Quote(changed+" now")) || !strings.Contains(d, "unchanged") {
		t.Errorf("diff lacks the change or the unchanged summary:\n%s", d)
	}
	if strings.Contains(d, "gone: ") || strings.Contains(d, "out of view: ") {
		t.Errorf("a renamed button is neither gone nor out of view:\n%s", d)
	}
	if full := YAML(t2.Roots); CountTokens(d) >= CountTokens(full) {
		t.Errorf("diff (%d tokens) is no smaller than the view (%d)", CountTokens(d), CountTokens(full))
	}
	if same := Diff(t2, t2); same != "- note: nothing changed\n" {
		t.Errorf("diff of a view with itself: %q", same)
	}
	var doc any
	if err := yaml.Unmarshal([]byte(d), &doc); err != nil {
		t.Errorf("diff is not YAML: %v\n%s", err, d)
	}
}

// TestDragTargets: on a kanban board, draggable="true" cards (no role, no
// listener of their own) and drop zones (dragover and drop listeners) are
// targets that print like listener divs; a plain div, an image (draggable
// by default, not by attribute) and the document's delegated dragstart
// listener make none. The viewport capture of the page gives the same.
func TestDragTargets(t *testing.T) {
	full := load(t, "../testdata/captures/drag.capture.json")
	view := load(t, "../testdata/captures/drag-viewport.capture.json")
	if full.Mode != "full" || view.Mode != "viewport" {
		t.Fatalf("modes %q and %q", full.Mode, view.Mode)
	}
	want := map[string]string{
		"Write tests":                     "draggable",
		"Fix login bug":                   "draggable",
		"Update docs":                     "listener:dragstart draggable",
		"To do Write tests Fix login bug": "listener:dragover listener:drop",
		"Done Update docs":                "listener:dragover listener:drop",
	}
	var shapes [2][]string
	for k, c := range []*domsnap.Capture{full, view} {
		obs := Snapshot(c, Options{})
		got := map[string]string{}
		for _, el := range obs.Elements {
			got[el.Name] = strings.Join(el.Reasons, " ")
			if el.Role != "clickable" || el.Tag != "div" {
				t.Errorf("%s: %s %s %q, want a clickable div", c.Mode, el.Ref, el.Role, el.Name)
			}
			shapes[k] = append(shapes[k], fmt.Sprintf("%s %s %q %v %v", el.Ref, el.Role, el.Name, *el.Box, el.Reasons))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s capture: targets %v, want %v\n%s", c.Mode, got, want, obs.Snapshot)
		}
		for _, line := range []string{`- clickable "Write tests" [ref=`, `- img "Board logo"` + "\n", `- text: "Plain note: no listeners, not draggable"` + "\n"} {
			if !strings.Contains(obs.Snapshot, line) {
				t.Errorf("%s capture: no %q in\n%s", c.Mode, line, obs.Snapshot)
			}
		}
		if ax := Snapshot(c, Options{Mode: ModeAX}); len(ax.Elements) != 0 {
			t.Errorf("%s capture: the AX-only view has %d targets, want none", c.Mode, len(ax.Elements))
		}
	}
	if a, b := strings.Join(shapes[0], "\n"), strings.Join(shapes[1], "\n"); a != b {
		t.Errorf("the captures differ:\nfull:\n%s\nviewport:\n%s", a, b)
	}
}

// TestDraggableAttribute: only an explicit draggable="true" (any ASCII
// case) makes a target; "false", "auto", an empty value or an image's
// default draggability do not. An image that says draggable="true" is a
// target.
func TestDraggableAttribute(t *testing.T) {
	for _, tc := range []struct {
		id, value string
		target    bool
	}{
		{"plain", "true", true}, {"plain", "TRUE", true}, {"plain", "false", false},
		{"plain", "auto", false}, {"plain", "", false}, {"plain", " true", false},
		{"", "true", true}, // the img (found by its alt)
	} {
		c := load(t, "../testdata/captures/drag.capture.json")
		nodes := c.Documents[0].Nodes
		found := false
		for i := range nodes {
			n := &nodes[i]
			id, _ := n.Attr("id")
			alt, _ := n.Attr("alt")
			if tc.id != "" && id == tc.id || tc.id == "" && alt == "Board logo" {
				n.Attrs = append(n.Attrs, "draggable", tc.value)
				found = true
			}
		}
		if !found {
			t.Fatalf("no element %q in the drag capture", tc.id)
		}
		obs := Snapshot(c, Options{})
		name := "Plain note: no listeners, not draggable"
		if tc.id == "" {
			name = "Board logo"
		}
		var reasons []string
		for _, el := range obs.Elements {
			if el.Name == name {
				reasons = el.Reasons
			}
		}
		if got := slices.Contains(reasons, "draggable"); got != tc.target {
			t.Errorf("%s draggable=%q: target %v (reasons %v), want %v\n%s", name, tc.value, got, reasons, tc.target, obs.Snapshot)
		}
	}
}

// TestNoPointerIsMarked: a target whose computed pointer-events is none
// prints [no pointer] and keeps its ref (keys reach it), and Locate says
// so; the AX-only view, Puppeteer's, prints no such state.
func TestNoPointerIsMarked(t *testing.T) {
	c := load(t, "../testdata/captures/actguard.capture.json")
	doc := &c.Documents[0]
	var backend int64
	for i := range doc.Nodes {
		n := &doc.Nodes[i]
		if id, _ := n.Attr("id"); id == "throw" && n.Layout != nil && n.Layout.Style >= 0 {
			st := doc.Styles[n.Layout.Style]
			st.PointerEvents = "none"
			doc.Styles = append(doc.Styles, st)
			n.Layout.Style = len(doc.Styles) - 1
			backend = n.Backend
		}
	}
	if backend == 0 {
		t.Fatal("no button#throw in the actguard capture")
	}
	obs := Snapshot(c, Options{})
	if !strings.Contains(obs.Snapshot, `button "Throw" [no pointer] [ref=`) {
		t.Errorf("the button that takes no pointer events is not marked:\n%s", obs.Snapshot)
	}
	if strings.Count(obs.Snapshot, "[no pointer]") != 1 {
		t.Errorf("other targets are marked too:\n%s", obs.Snapshot)
	}
	loc, ok := FromCapture(c, Options{}).Locate(domsnap.Key{Frame: c.Frames[0].FrameID, Backend: backend})
	if !ok || !loc.NoPointer {
		t.Errorf("Locate: %+v %v, want NoPointer", loc, ok)
	}
	if ax := Snapshot(c, Options{Mode: ModeAX}); strings.Contains(ax.Snapshot, "no pointer") {
		t.Errorf("the AX-only view prints the mark:\n%s", ax.Snapshot)
	}
}
