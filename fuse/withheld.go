package fuse

import (
	"strconv"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

// Hidden text. Chrome's AX tree already leaves out display:none,
// visibility:hidden, hidden and aria-hidden content. Text it keeps but a
// person cannot see is withheld here: text at opacity 0 or of zero size,
// and text in the colour of the background behind it with nothing else
// (an image, a background image, a canvas) painted there. The view says
// once, with a count, that text was withheld. Text clipped away by an
// overflow container is counted as clipped instead (the agent can scroll
// to it), and screen-reader-only text (clipped to a pixel but announced)
// stays: it is meant to be read.

// withheld reports whether a text line's text is hidden from sight.
func (v *view) withheld(n *Node) bool {
	if n.Role != "text" || !n.at.ok || v.opts.Mode != ModeFused {
		return false
	}
	d, i := n.at.doc, n.at.dom
	nodes := v.c.Documents[d].Nodes
	if nodes[i].Type != domsnap.TextNode || nodes[i].Layout == nil {
		return false
	}
	// Text at opacity 0 or of no area never got here: the builder
	// dropped it before lines joined.
	return v.sameColour(d, i)
}

// unseenText: a laid-out text at opacity 0, or with no area in an element
// of none (font-size 0). The builder drops these before it joins lines of
// text, so a hidden piece cannot ride along with a visible one.
func unseenText(c *domsnap.Capture, g *layout.Geometry, d, i int) bool {
	nodes := c.Documents[d].Nodes
	if i < 0 || i >= len(nodes) || nodes[i].Type != domsnap.TextNode || nodes[i].Layout == nil {
		return false
	}
	if g.IsTangible(d, i) && !g.IsVisible(d, i) {
		return true // opacity 0: laid out and reachable, not seen
	}
	return noArea(c, g, d, i) && noArea(c, g, d, int(nodes[i].Parent))
}

// sameColour: the text's colour is the colour of the nearest opaque
// background behind it, with no background image on the way and nothing
// painted under it but boxes.
func (v *view) sameColour(d, i int) bool {
	doc := &v.c.Documents[d]
	p := int(doc.Nodes[i].Parent)
	st, ok := styleOf(doc, p)
	if !ok {
		return false
	}
	fg, ok := parseRGB(st.Color)
	if !ok || fg.a < 1 {
		return false
	}
	bg := rgba{255, 255, 255, 1} // the canvas, when nothing paints a background
	for k := p; k >= 0; k = int(doc.Nodes[k].Parent) {
		s, ok := styleOf(doc, k)
		if !ok {
			continue
		}
		if s.BackgroundImage != "" && s.BackgroundImage != "none" {
			return false
		}
		if c, ok := parseRGB(s.BackgroundColor); ok && c.a > 0 {
			if c.a < 1 {
				return false // blended: leave it
			}
			bg = c
			break
		}
	}
	if d > 0 && bg == (rgba{255, 255, 255, 1}) {
		return false // an iframe's backdrop is its parent's page
	}
	return fg.r == bg.r && fg.g == bg.g && fg.b == bg.b && !v.paintedUnder(d, i)
}

// paintedUnder reports pixels other than plain boxes under a text: an
// image, video, canvas, svg, embedded frame or a background image.
func (v *view) paintedUnder(d, i int) bool {
	b := v.g.ShownBox(d, i)
	if b.W <= 0 || b.H <= 0 {
		return true // nowhere to look: do not withhold
	}
	found := false
	v.ix.Under(d, b, func(node int) bool {
		n := &v.c.Documents[d].Nodes[node]
		switch n.Name {
		case "IMG", "VIDEO", "CANVAS", "svg", "PICTURE", "EMBED", "OBJECT", "IFRAME":
			found = true
		default:
			if s, ok := styleOf(&v.c.Documents[d], node); ok && s.BackgroundImage != "" && s.BackgroundImage != "none" {
				found = true
			}
		}
		return !found
	})
	return found
}

func styleOf(doc *domsnap.Document, i int) (*domsnap.Style, bool) {
	if i < 0 || i >= len(doc.Nodes) || doc.Nodes[i].Layout == nil {
		return nil, false
	}
	s := doc.Nodes[i].Layout.Style
	if s < 0 || s >= len(doc.Styles) {
		return nil, false
	}
	return &doc.Styles[s], true
}

type rgba struct{ r, g, b, a float64 }

// parseRGB reads Chrome's computed colours: rgb(r, g, b) and
// rgba(r, g, b, a). Anything else (color(), keywords) is unknown.
func parseRGB(s string) (rgba, bool) {
	var inner string
	switch {
	case strings.HasPrefix(s, "rgba(") && strings.HasSuffix(s, ")"):
		inner = s[5 : len(s)-1]
	case strings.HasPrefix(s, "rgb(") && strings.HasSuffix(s, ")"):
		inner = s[4 : len(s)-1]
	default:
		return rgba{}, false
	}
	parts := strings.Split(inner, ",")
	if len(parts) != 3 && len(parts) != 4 {
		return rgba{}, false
	}
	var v [4]float64
	v[3] = 1
	for k, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return rgba{}, false
		}
		v[k] = f
	}
	return rgba{v[0], v[1], v[2], v[3]}, true
}

// withheldNote says, once, how much text was withheld.
func withheldNote(n int) *Node {
	return &Node{Role: "note", Text: plural(n, "text") + " withheld (hidden by opacity 0, zero size, or the colour of their background)"}
}

// invisibleNote says, once, how many elements at opacity 0 that take no
// pointer events lost their lines (layout's ghosts).
func invisibleNote(n int) *Node {
	return &Node{Role: "note", Text: plural(n, "element") + " withheld (opacity 0 and no pointer events, so neither seen nor clickable)"}
}

// onlyWithheld: a line with no name, no ref, and nothing but withheld text
// under it says nothing once the text is gone.
func onlyWithheld(n *Node) bool {
	if n.Name != "" || n.target != nil || n.Value != "" || len(n.Children) == 0 {
		return false
	}
	for _, c := range n.Children {
		if !c.status.withheld {
			return false
		}
	}
	return true
}

// noArea: a laid-out node whose box and line boxes have no area. Chrome's
// AX tree can join several text nodes into one line of text and name the
// first, which may be an empty one: its element must be empty too.
func noArea(c *domsnap.Capture, g *layout.Geometry, d, i int) bool {
	nodes := c.Documents[d].Nodes
	if i < 0 || i >= len(nodes) || nodes[i].Layout == nil {
		return false
	}
	b, ok := g.Box(d, i)
	return ok && (b.W <= 0 || b.H <= 0) && !hasArea(nodes[i].Layout.Fragments)
}

// hasArea: some line box of a text has an area (a text spread over lines
// can report an empty box of its own).
func hasArea(fragments []domsnap.Rect) bool {
	for _, f := range fragments {
		if f.W > 0 && f.H > 0 {
			return true
		}
	}
	return false
}
