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
