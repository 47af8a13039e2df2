package fuse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/domsnap"
)

// pixel is an element added to a recorded capture: a canvas, svg or img
// with the AX node Chrome would give it.
type pixel struct {
	tag       string
	box       domsnap.Rect
	attrs     []string
	listeners []string
	role      string // AX role; "" for the tag's own
	name      string // AX name
	fallback  string // a text child (a canvas's fallback content)
	elided    bool   // fallback elements a viewport capture left out
	parent    int    // index of an earlier pixel to nest in, -1 for the body
}

// withPixels is the headings capture with the pixels appended to its body,
// painted above the page.
func withPixels(t *testing.T, ps []pixel) *domsnap.Capture {
	t.Helper()
	c := load(t, "../testdata/captures/headings.capture.json")
	doc, frame := &c.Documents[0], &c.Frames[0]
	body := -1
	var backend, order int64
	for i, n := range doc.Nodes {
		if n.Name == "BODY" {
			body = i
		}
		backend = max(backend, n.Backend)
		if n.Layout != nil {
			order = max(order, n.Layout.PaintOrder)
		}
	}
	axOfBackend := func(b int64) *domsnap.AXNode {
		for k := range frame.AXNodes {
			if frame.AXNodes[k].Backend == b {
				return &frame.AXNodes[k]
			}
		}
		t.Fatalf("no AX node for backend %d", b)
		return nil
	}
	if body < 0 {
		t.Fatal("no body in the headings capture")
	}
	style := -1
	for s, st := range doc.Styles {
		if st.Display == "block" && st.Visibility == "visible" && st.Opacity == "1" && st.Cursor == "auto" && st.OverflowX == "visible" {
			style = s
			break
		}
	}
	if style < 0 {
		t.Fatal("no plain block style in the headings capture")
	}
	add := func(n domsnap.Node, ax domsnap.AXNode, parentBackend int64) int {
		backend++
		n.Backend, ax.Backend, ax.ID = backend, backend, fmt.Sprint("added-", backend)
		doc.Nodes = append(doc.Nodes, n)
		p := axOfBackend(parentBackend)
		ax.Parent = p.ID
		p.Children = append(p.Children, ax.ID)
		frame.AXNodes = append(frame.AXNodes, ax)
		return len(doc.Nodes) - 1
	}
	idx := make([]int, len(ps))
	for k, p := range ps {
		parent := body
		if p.parent >= 0 {
			parent = idx[p.parent]
		}
		order++
		role := p.role
		if role == "" {
			role = map[string]string{"CANVAS": "Canvas", "svg": "image", "IMG": "image", "A": "link"}[p.tag]
		}
		idx[k] = add(domsnap.Node{Parent: int32(parent), Type: domsnap.ElementNode, Name: p.tag, Attrs: p.attrs, Listeners: p.listeners,
			Clickable: len(p.listeners) > 0 || p.tag == "A",
			Layout:    &domsnap.Layout{Bounds: p.box, Style: style, PaintOrder: order}},
			domsnap.AXNode{Role: role, Name: p.name}, doc.Nodes[parent].Backend)
		if p.fallback != "" {
			add(domsnap.Node{Parent: int32(idx[k]), Type: domsnap.TextNode, Name: "#text", Value: p.fallback},
				domsnap.AXNode{Role: "StaticText", Name: p.fallback}, doc.Nodes[idx[k]].Backend)
		}
		if p.elided {
			doc.Elided = append(doc.Elided, domsnap.Elided{Parent: idx[k], After: -1, Dir: "below", Role: "paragraph", Nodes: 1})
		}
	}
	return c
}

// TestContentPixelsGetAScreenshot: a canvas, or an svg that is not an
// icon, showing more than a few icons' worth of pixels in view with
// nothing in the tree to describe it is content the agent must see (a
// puzzle drawn on a canvas): the snapshot attaches the screenshot and says
// why. Icons, slivers, described and decorative ones do not.
func TestContentPixelsGetAScreenshot(t *testing.T) {
	at := func(x, y, w, h float64) domsnap.Rect { return domsnap.Rect{X: x, Y: y, W: w, H: h} }
	canvas := func(b domsnap.Rect) pixel { return pixel{tag: "CANVAS", box: b, parent: -1} }
	svg := func(b domsnap.Rect) pixel { return pixel{tag: "svg", box: b, parent: -1} }
	with := func(p pixel, f func(*pixel)) pixel { f(&p); return p }
	icons := func(n int, size float64) []pixel {
		var ps []pixel
		for k := range n {
			ps = append(ps, svg(at(600+float64(k)*(size+8), 100, size, size)))
		}
		return ps
	}
	for _, tc := range []struct {
		name   string
		pixels []pixel
		want   []string // the regions' reasons
	}{
		{"150×100 canvas, no listener", []pixel{canvas(at(600, 100, 150, 100))},
			[]string{"canvas 150×100 at (600,100) with no accessible content"}},
		{"20×20 canvas", []pixel{canvas(at(600, 100, 20, 20))}, nil},
		{"48×48 canvas, an icon's size", []pixel{canvas(at(600, 100, 48, 48))}, nil},
		{"64×64 canvas, the threshold", []pixel{canvas(at(600, 100, 64, 64))},
			[]string{"canvas 64×64 at (600,100) with no accessible content"}},
		{"600×24 canvas, one icon high", []pixel{canvas(at(600, 100, 600, 24))}, nil},
		{"20×20 canvas with a click listener", []pixel{with(canvas(at(600, 100, 20, 20)), func(p *pixel) { p.listeners = []string{"click"} })},
			[]string{"canvas 20×20 at (600,100) has a click listener and no accessible content"}},
		{"600×400 canvas mostly below, a 20-px sliver in view", []pixel{canvas(at(600, 700, 600, 400))}, nil},
		{"600×400 canvas mostly below, 60 px in view", []pixel{canvas(at(600, 660, 600, 400))},
			[]string{"canvas 600×400 at (600,660) with no accessible content"}},
		{"600×400 canvas beyond the viewport", []pixel{canvas(at(600, 800, 600, 400))}, nil},
		{"canvas with an aria-label", []pixel{with(canvas(at(600, 100, 150, 100)), func(p *pixel) {
			p.attrs, p.name = []string{"aria-label", "Puzzle: 3 + 4"}, "Puzzle: 3 + 4"
		})}, nil},
		{"canvas with fallback text", []pixel{with(canvas(at(600, 100, 150, 100)), func(p *pixel) { p.fallback = "Three plus four" })}, nil},
		{"canvas whose fallback a viewport capture left out", []pixel{with(canvas(at(600, 100, 150, 100)), func(p *pixel) { p.elided = true })}, nil},
		{"five 24-px svg icons", icons(5, 24), nil},
		{"three 48-px svg icons", icons(3, 48), nil},
		{"300×200 unnamed svg", []pixel{svg(at(600, 100, 300, 200))},
			[]string{"svg 300×200 at (600,100) with no accessible content"}},
		{"named svg", []pixel{with(svg(at(600, 100, 300, 200)), func(p *pixel) { p.role, p.name = "img", "Sales by month" })}, nil},
		{"aria-hidden svg", []pixel{with(svg(at(600, 100, 300, 200)), func(p *pixel) { p.attrs = []string{"aria-hidden", "true"} })}, nil},
		{"presentational svg", []pixel{with(svg(at(600, 100, 300, 200)), func(p *pixel) { p.attrs = []string{"role", "presentation"} })}, nil},
		{"svg logo in a named link", []pixel{{tag: "A", box: at(600, 100, 300, 200), name: "Home", parent: -1, attrs: []string{"href", "/"}},
			{tag: "svg", box: at(600, 100, 300, 200), parent: 0}}, nil},
		{"svg in an svg", []pixel{svg(at(600, 100, 300, 200)), {tag: "svg", box: at(610, 110, 200, 150), parent: 0}},
			[]string{"svg 300×200 at (600,100) with no accessible content"}},
		{"unnamed img of the same size", []pixel{{tag: "IMG", box: at(600, 100, 150, 100), parent: -1}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obs := Snapshot(withPixels(t, tc.pixels), Options{})
			var got []string
			for _, r := range obs.Regions {
				got = append(got, r.Reason)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("regions %q, want %q", got, tc.want)
			}
			if len(tc.want) > 0 && Reasons(obs.Regions) != strings.Join(tc.want, "; ") {
				t.Errorf("reason line %q", Reasons(obs.Regions))
			}
		})
	}
}
