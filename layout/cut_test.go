package layout

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/axfuse/axfuse/domsnap"
)

// TestCutTexts: on the recorded tails page, the texts a box hiding its
// overflow cuts (ellipsis, line-clamp, fixed-height card, overflow clip,
// contain: paint) are listed for the browser, each hidden token's text
// once; a scroll box's text (the agent can scroll to it) and texts that
// fit are not. A text wholly below its card's hidden line is cut away.
func TestCutTexts(t *testing.T) {
	c, err := domsnap.Load(filepath.Join("..", "testdata", "captures", "tails.capture.json"))
	if err != nil {
		t.Fatal(err)
	}
	g := Compute(c)
	qz := regexp.MustCompile(`qz\d+`)
	got := map[string]bool{}
	for _, ct := range CutTexts(c, g, 100) {
		v := c.Documents[ct.Doc].Nodes[ct.Node].Value
		tok := qz.FindString(v)
		if tok == "" {
			t.Errorf("a text with nothing hidden listed as cut: %q", v)
			continue
		}
		if !(ct.Clip[0] < ct.Clip[2] && ct.Clip[1] < ct.Clip[3]) {
			t.Errorf("%s: clip %v has no area", tok, ct.Clip)
		}
		got[tok] = true
	}
	for _, tok := range []string{"qz170", "qz171", "qz172", "qz173", "qz174", "qz175", "qz176"} {
		if !got[tok] {
			t.Errorf("%s's text is not listed as cut", tok)
		}
	}
	for d, doc := range c.Documents {
		for i, n := range doc.Nodes {
			if n.Type != domsnap.TextNode {
				continue
			}
			switch tok := qz.FindString(n.Value); {
			case tok == "qz177" && !g.CutAway(d, i):
				t.Errorf("qz177's text below the card's line is not cut away")
			case regexp.MustCompile(`ok1(38|40|41)`).MatchString(n.Value) && g.CutAway(d, i):
				t.Errorf("%q is cut away", n.Value)
			}
		}
	}
	if got := CutTexts(c, g, 2); len(got) != 2 {
		t.Errorf("CutTexts with limit 2 gave %d", len(got))
	}
}

// TestCutAwayBoxesOfNoArea: a box of no area (an inline link whose
// content is positioned elsewhere) is cut away only when it lies outside
// the box that hides its overflow, not for having no area.
func TestCutAwayBoxesOfNoArea(t *testing.T) {
	styles := []domsnap.Style{
		{Display: "block", Visibility: "visible", Opacity: "1", OverflowX: "hidden", OverflowY: "hidden"},
		{Display: "inline", Visibility: "visible", Opacity: "1"},
	}
	lay := func(style int, x, y, w, h float64) *domsnap.Layout {
		return &domsnap.Layout{Bounds: domsnap.Rect{X: x, Y: y, W: w, H: h}, Style: style}
	}
	c := &domsnap.Capture{Version: 1, Viewport: domsnap.Viewport{Width: 400, Height: 400}, Documents: []domsnap.Document{{
		Styles: styles,
		Nodes: []domsnap.Node{
			{Parent: -1, Type: domsnap.ElementNode, Layout: lay(1, 0, 0, 400, 400)},
			{Parent: 0, Type: domsnap.ElementNode, Layout: lay(0, 10, 10, 100, 100)}, // 1 hides its overflow
			{Parent: 1, Type: domsnap.ElementNode, Layout: lay(1, 50, 50, 0, 0)},     // 2 no area, inside
			{Parent: 1, Type: domsnap.ElementNode, Layout: lay(1, 10, 10, 0, 18)},    // 3 no width, on the edge
			{Parent: 1, Type: domsnap.ElementNode, Layout: lay(1, 200, 50, 0, 0)},    // 4 no area, outside
			{Parent: 1, Type: domsnap.ElementNode, Layout: lay(1, 120, 50, 30, 10)},  // 5 area, outside
			{Parent: 1, Type: domsnap.ElementNode, Layout: lay(1, 100, 50, 30, 10)},  // 6 area, cut
		},
	}}}
	g := Compute(c)
	for i, want := range map[int]bool{1: false, 2: false, 3: false, 4: true, 5: true, 6: false} {
		if got := g.CutAway(0, i); got != want {
			t.Errorf("node %d: CutAway %v, want %v", i, got, want)
		}
	}
}
