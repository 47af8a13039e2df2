// Package layout turns a capture's per-document layout into geometry in one
// frame of reference: border boxes in CSS px relative to the top-level
// viewport, and whether each node is rendered visibly.
//
// It reads a domsnap.Capture and nothing else; its result is plain data that
// paintorder and fuse consume.
package layout

import (
	"math"
	"strconv"

	"github.com/axfuse/axfuse/domsnap"
)

// Box is a rectangle in CSS px relative to the top-level viewport.
type Box struct{ X, Y, W, H float64 }

// Geometry holds, per document and node, the viewport box and visibility.
type Geometry struct {
	Viewport domsnap.Viewport
	Docs     []DocGeometry
}

// DocGeometry is one document's geometry, indexed like Document.Nodes.
type DocGeometry struct {
	// OffsetX, OffsetY move the document's own coordinates into the
	// top-level viewport (iframe position, border, and scrolls).
	OffsetX, OffsetY float64
	Boxes            []Box
	HasBox           []bool
	Visible          []bool
}

// Compute derives the geometry of every node of the capture.
func Compute(c *domsnap.Capture) *Geometry {
	g := &Geometry{Viewport: c.Viewport, Docs: make([]DocGeometry, len(c.Documents))}
	g.Docs[0].OffsetX, g.Docs[0].OffsetY = -c.Viewport.ScrollX, -c.Viewport.ScrollY
	for d := range c.Documents {
		g.computeDocument(c, d)
	}
	return g
}

func (g *Geometry) computeDocument(c *domsnap.Capture, d int) {
	doc := &c.Documents[d]
	dg := &g.Docs[d]
	n := len(doc.Nodes)
	dg.Boxes, dg.HasBox, dg.Visible = make([]Box, n), make([]bool, n), make([]bool, n)
	// hiddenByAncestor carries opacity 0 down: it is not inherited in CSS
	// but hides the whole subtree.
	transparent := make([]bool, n)
	for i := range doc.Nodes {
		node := &doc.Nodes[i]
		if p := node.Parent; p >= 0 {
			transparent[i] = transparent[p]
		}
		l := node.Layout
		if l == nil {
			continue
		}
		b := l.Bounds
		if !finite(b.X, b.Y, b.W, b.H) {
			continue
		}
		dg.Boxes[i] = Box{b.X + dg.OffsetX, b.Y + dg.OffsetY, math.Max(b.W, 0), math.Max(b.H, 0)}
		dg.HasBox[i] = true
		var st domsnap.Style
		if l.Style >= 0 {
			st = doc.Styles[l.Style]
		}
		if op, err := strconv.ParseFloat(st.Opacity, 64); err == nil && op <= 0 {
			transparent[i] = true
		}
		dg.Visible[i] = !transparent[i] && st.Display != "none" &&
			st.Visibility != "hidden" && st.Visibility != "collapse" &&
			(b.W > 0 && b.H > 0 || node.Type == domsnap.TextNode)
		if cd := node.ContentDocument; cd > d {
			g.placeChild(c, d, i, cd)
		}
	}
}

// placeChild sets the offset of the iframe document cd owned by node i of
// document d: the iframe's box plus its border (clientLeft/Top), less the
// child document's own scroll.
func (g *Geometry) placeChild(c *domsnap.Capture, d, i, cd int) {
	owner := c.Documents[d].Nodes[i].Layout
	box := g.Docs[d].Boxes[i]
	x, y := box.X, box.Y
	if owner.Client != nil && finite(owner.Client.X, owner.Client.Y) {
		x += owner.Client.X
		y += owner.Client.Y
	}
	child := &c.Documents[cd]
	g.Docs[cd].OffsetX = x - finiteOr(child.ScrollX)
	g.Docs[cd].OffsetY = y - finiteOr(child.ScrollY)
}

// Box returns the viewport box of a node and whether it has one.
func (g *Geometry) Box(doc, node int) (Box, bool) {
	if doc < 0 || doc >= len(g.Docs) || node < 0 || node >= len(g.Docs[doc].Boxes) {
		return Box{}, false
	}
	return g.Docs[doc].Boxes[node], g.Docs[doc].HasBox[node]
}

// IsVisible reports whether a node is rendered visibly (laid out, not
// display:none, visibility:hidden, opacity 0, nor of zero area).
func (g *Geometry) IsVisible(doc, node int) bool {
	if doc < 0 || doc >= len(g.Docs) || node < 0 || node >= len(g.Docs[doc].Visible) {
		return false
	}
	return g.Docs[doc].Visible[node]
}

// InViewport reports whether a box intersects the viewport grown by margin
// CSS px on every side.
func (g *Geometry) InViewport(b Box, margin float64) bool {
	return b.X+b.W > -margin && b.Y+b.H > -margin &&
		b.X < g.Viewport.Width+margin && b.Y < g.Viewport.Height+margin
}

func finite(fs ...float64) bool {
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e9 {
			return false
		}
	}
	return true
}

func finiteOr(f float64) float64 {
	if finite(f) {
		return f
	}
	return 0
}
