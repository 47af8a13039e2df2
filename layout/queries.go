package layout

// What the other stages ask of the geometry: a node's boxes, lines,
// opacity and facts, and boxes against the viewport.

// Box returns the viewport box of a node and whether it has one.
func (g *Geometry) Box(doc, node int) (Box, bool) {
	if doc < 0 || doc >= len(g.Docs) || node < 0 || node >= len(g.Docs[doc].flags) {
		return Box{}, false
	}
	dg := &g.Docs[doc]
	if dg.flags[node]&hasBox == 0 {
		return Box{}, false
	}
	return dg.box(node), true
}

// FrameBox is a node's box in its own frame's viewport, where the frame's
// scripts measure it (getBoundingClientRect): Box less the offset of the
// frame's content in the top-level viewport.
func (g *Geometry) FrameBox(doc, node int) (Box, bool) {
	b, ok := g.Box(doc, node)
	if !ok || doc == 0 {
		return b, ok
	}
	d := &g.c.Documents[doc]
	b.X -= g.Docs[doc].OffsetX + finiteOr(d.ScrollX)
	b.Y -= g.Docs[doc].OffsetY + finiteOr(d.ScrollY)
	return b, true
}

// box is the viewport box of a node that has one.
func (dg *DocGeometry) box(node int) Box { return dg.boxes[node] }

// shown is the part of a node's box its clips leave.
func (dg *DocGeometry) shown(node int) rect {
	if dg.flags[node]&hasBox == 0 {
		return rect{}
	}
	return boxRect(dg.box(node)).intersect(dg.clips[dg.clip[node]])
}

// Boxes returns a node's box and shown box (Box and ShownBox) at once.
func (g *Geometry) Boxes(doc, node int) (box, shown Box, ok bool) {
	if doc < 0 || doc >= len(g.Docs) || node < 0 || node >= len(g.Docs[doc].flags) {
		return Box{}, Box{}, false
	}
	dg := &g.Docs[doc]
	if dg.flags[node]&hasBox == 0 {
		return Box{}, Box{}, false
	}
	box = dg.box(node)
	return box, boxRect(box).intersect(dg.clips[dg.clip[node]]).box(), true
}

// has reports a fact of a node, false for nodes out of range.
func (g *Geometry) has(doc, node int, fact uint8) bool {
	if doc < 0 || doc >= len(g.Docs) || node < 0 || node >= len(g.Docs[doc].flags) {
		return false
	}
	return g.Docs[doc].flags[node]&fact != 0
}

// IsUnseen reports a node inside a visually-hidden element (clip or
// clip-path cutting it to nothing): screen-reader-only content.
func (g *Geometry) IsUnseen(doc, node int) bool { return g.has(doc, node, unseen) }

// IsVisible reports whether a node is rendered visibly (laid out, not
// display:none, visibility:hidden, opacity 0, nor of zero area).
func (g *Geometry) IsVisible(doc, node int) bool { return g.has(doc, node, visible) }

// FragmentsInto appends a text node's line boxes, as Fragments gives
// them, to buf (up to max of them), allocating nothing when buf has room.
func (g *Geometry) FragmentsInto(buf []Box, doc, node, max int) []Box {
	if doc < 0 || doc >= len(g.Docs) || node < 0 || node >= len(g.Docs[doc].flags) {
		return buf
	}
	l := g.c.Documents[doc].Nodes[node].Layout
	if l == nil {
		return buf
	}
	dg := &g.Docs[doc]
	clip := boxRect(dg.shown(node).box())
	for _, f := range l.Fragments {
		if len(buf) >= max {
			break
		}
		if !finite(f.X, f.Y, f.W, f.H) {
			continue
		}
		b := rect{f.X + dg.OffsetX, f.Y + dg.OffsetY, f.X + dg.OffsetX + f.W, f.Y + dg.OffsetY + f.H}.intersect(clip).box()
		if b.W > 0 && b.H > 0 {
			buf = append(buf, b)
		}
	}
	return buf
}

// Fragments returns a text node's line boxes in viewport coordinates,
// clipped like the node.
func (g *Geometry) Fragments(doc, node int) []Box {
	if doc < 0 || doc >= len(g.Docs) || node < 0 || node >= len(g.Docs[doc].flags) {
		return nil
	}
	l := g.c.Documents[doc].Nodes[node].Layout
	if l == nil || len(l.Fragments) == 0 {
		return nil
	}
	return g.FragmentsInto(make([]Box, 0, len(l.Fragments)), doc, node, len(l.Fragments))
}

// LinesInView returns a text node's line boxes cut to the viewport, as
// the occlusion check counts a line in view: one peeking in by a sliver
// at the viewport's edge shows no glyph and is left out.
func (g *Geometry) LinesInView(doc, node int) []Box {
	vp := g.ViewportBox(0)
	var out []Box
	for _, f := range g.Fragments(doc, node) {
		if in := Intersect(f, vp); in.W >= min(8, f.W) && in.H >= min(8, f.H) && in.W*in.H > 0 {
			out = append(out, in)
		}
	}
	return out
}

// Alpha is a node's effective opacity, 0 to 1: opacity and filter
// opacity() multiplied down its ancestors and the iframes that hold it.
func (g *Geometry) Alpha(doc, node int) float64 {
	if doc < 0 || doc >= len(g.Docs) || node < 0 || node >= len(g.Docs[doc].alpha) {
		return 0
	}
	return float64(g.Docs[doc].alpha[node])
}

// IsSunk reports a node inside a positioned element of negative z-index,
// painted under the normal flow around it.
func (g *Geometry) IsSunk(doc, node int) bool { return g.has(doc, node, sunk) }

// IsGhost reports an element at opacity 0 (or inside such an element)
// that takes no pointer events: no one can see or click it.
func (g *Geometry) IsGhost(doc, node int) bool { return g.has(doc, node, ghost) }

// IsTangible reports whether a node can receive a click: laid out, shown,
// not visibility:hidden (opacity does not matter).
func (g *Geometry) IsTangible(doc, node int) bool { return g.has(doc, node, tangible) }

// ShownBox returns the part of a node's box its clips leave.
func (g *Geometry) ShownBox(doc, node int) Box {
	if doc < 0 || doc >= len(g.Docs) || node < 0 || node >= len(g.Docs[doc].flags) {
		return Box{}
	}
	return g.Docs[doc].shown(node).box()
}

// Contains reports whether node b lies in the subtree of node a (a itself
// included) within one document.
func (g *Geometry) Contains(doc, a, b int) bool {
	if doc < 0 || doc >= len(g.Docs) || a < 0 || a >= len(g.Docs[doc].End) {
		return false
	}
	return b >= a && b <= int(g.Docs[doc].End[a])
}

// ViewportBox is the top-level viewport grown by margin on every side.
func (g *Geometry) ViewportBox(margin float64) Box {
	return Box{-margin, -margin, g.Viewport.Width + 2*margin, g.Viewport.Height + 2*margin}
}

// Intersect returns the overlap of two boxes (zero when none).
func Intersect(a, b Box) Box { return boxRect(a).intersect(boxRect(b)).box() }

// InViewport reports whether a box intersects the viewport grown by margin
// CSS px on every side.
func (g *Geometry) InViewport(b Box, margin float64) bool {
	return b.X+b.W > -margin && b.Y+b.H > -margin &&
		b.X < g.Viewport.Width+margin && b.Y < g.Viewport.Height+margin
}
