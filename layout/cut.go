package layout

// Cut content: nodes that a box hiding its overflow cuts away wholly, or
// cuts through (the browser tells which characters of a cut text show).

import (
	"strings"

	"github.com/axfuse/axfuse/domsnap"
)

// CutAway reports a laid-out node wholly outside the boxes that hide
// what overflows them (overflow hidden or clip, contain: paint, a box of
// no size among them), clipped away, or in SVG never rendered. Unlike
// content scrolled out of a scrollport, nothing of it shows until the page
// itself changes.
func (g *Geometry) CutAway(doc, node int) bool {
	if !g.has(doc, node, hasBox) {
		return false
	}
	dg := &g.Docs[doc]
	box := boxRect(dg.box(node))
	in := box.intersect(dg.hides[dg.clip[node]])
	if in.x1 < in.x0 || in.y1 < in.y0 {
		return true // wholly outside
	}
	// A box of no area (an inline link around positioned content) is cut
	// away only when it lies outside; one with area, when nothing of it is
	// left inside.
	return box.box() != Box{} && in.box() == Box{}
}

// CutOff reports a laid-out node that a box which hides its overflow cuts
// (text-overflow, line-clamp, a fixed-height card): part of its box lies
// outside that clip and part inside. cut is the clip in the document's
// own coordinates (left, top, right, bottom, its top-level offset taken
// back; an infinite edge where that side is not clipped), for the browser
// to tell which characters are inside.
func (g *Geometry) CutOff(doc, node int) (cut [4]float64, ok bool) {
	if !g.has(doc, node, hasBox) {
		return cut, false
	}
	dg := &g.Docs[doc]
	box, hide := dg.box(node), dg.hides[dg.clip[node]]
	in := boxRect(box).intersect(hide).box()
	if in.W*in.H == 0 || (in.X <= box.X+0.5 && in.Y <= box.Y+0.5 && in.X+in.W >= box.X+box.W-0.5 && in.Y+in.H >= box.Y+box.H-0.5) {
		return cut, false
	}
	return [4]float64{hide.x0 - dg.OffsetX, hide.y0 - dg.OffsetY, hide.x1 - dg.OffsetX, hide.y1 - dg.OffsetY}, true
}

// CutText is a text in view that a box hiding its overflow cuts (CutOff):
// the browser tells which of its characters show.
type CutText struct {
	Doc, Node int
	Clip      [4]float64 // left, top, right, bottom (CutOff)
}

// CutTexts lists up to limit non-blank text nodes with a line in view
// that a hiding box cuts, in document order.
func CutTexts(c *domsnap.Capture, g *Geometry, limit int) []CutText {
	var out []CutText
	for d := range c.Documents {
		nodes := c.Documents[d].Nodes
		for i := range nodes {
			n := &nodes[i]
			if n.Type != domsnap.TextNode || n.Layout == nil || strings.TrimSpace(n.Value) == "" {
				continue
			}
			clip, ok := g.CutOff(d, i)
			if !ok || len(g.LinesInView(d, i)) == 0 {
				continue
			}
			if len(out) == limit {
				return out
			}
			out = append(out, CutText{Doc: d, Node: i, Clip: clip})
		}
	}
	return out
}
