package paintorder

import (
	"math"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

// Verdict says what a person at the screen can see and reach of a node.
type Verdict struct {
	// InViewport: some of the node's shown box lies in the viewport.
	InViewport bool
	// Approximate: the index's work bound was spent, covers were not
	// looked for (see maxVisits).
	Approximate bool
	// Fraction of the shown, in-viewport box that no later-painted box
	// covers (0 when covered entirely).
	Fraction float64
	// Occluded: in the viewport and covered entirely.
	Occluded bool
	// Point is where a click reaches the node (viewport CSS px), when it
	// is in the viewport and not occluded.
	Point [2]float64
	// Others are further points of the node's uncovered part, a quarter of
	// its width or height from Point's, for when the browser's hit test at
	// Point finds something the capture does not hold (an outside list
	// marker, which a viewport capture has no box for).
	Others [][2]float64
	// By is the element painted over the centre of the node's box, when
	// something is: the cover to name.
	By    domsnap.Pos
	HasBy bool
}

// maxPieces bounds the rectangle subtraction; past it the remaining
// uncovered area is sampled instead.
const maxPieces = 256

// minArea is the uncovered area (CSS px²) below which a node counts as
// covered, and minSide the narrowest uncovered strip that still counts.
const (
	minArea = 1.0
	minSide = 2.0
)

// MinPeek is how much (CSS px) of a node cut by the viewport's edge must
// show for it to count as in view: less is no place to click, and the
// agent scrolls.
const MinPeek = 8.0

// Check measures node (doc, i): its uncovered area within the viewport,
// by subtracting the shown boxes of every element painted after it that
// receives pointer events — in its own document, and in each document
// above it, over the iframe that holds it.
func (ix *Index) Check(doc, i int) Verdict {
	v := ix.check(doc, i)
	v.Approximate = v.InViewport && ix.visits > maxVisits
	return v
}

// Checks reports whether Check looks at node (doc, i) at all: its shown
// box is in the viewport. For any other node Check says nothing (the zero
// Verdict) and spends nothing of the work bound, whenever it is asked.
func (ix *Index) Checks(doc, i int) bool {
	_, ok := ix.checkedArea(doc, i)
	return ok
}

// ChecksShown is Checks for a node of the capture whose shown box (the
// geometry's ShownBox) is given.
func (ix *Index) ChecksShown(shown layout.Box) bool {
	_, ok := ix.viewOf(shown)
	return ok
}

// checkedArea is the part of a node's shown box in the viewport that
// Check measures, when it measures any.
func (ix *Index) checkedArea(doc, i int) (layout.Box, bool) {
	if doc < 0 || doc >= len(ix.trees) || i < 0 || i >= len(ix.c.Documents[doc].Nodes) {
		return layout.Box{}, false
	}
	return ix.viewOf(ix.g.ShownBox(doc, i))
}

func (ix *Index) viewOf(shown layout.Box) (layout.Box, bool) {
	// The browser hit-tests whole pixels: a point in the last half pixel
	// row or column rounds out of the viewport.
	vp := ix.g.ViewportBox(0)
	vp.W, vp.H = vp.W-0.5, vp.H-0.5
	view := layout.Intersect(shown, vp)
	if view.W <= 0 || view.H <= 0 {
		return layout.Box{}, false
	}
	if view.H < MinPeek && view.H < shown.H || view.W < MinPeek && view.W < shown.W {
		return layout.Box{}, false // peeking in from beyond the viewport's edge by a sliver
	}
	return view, true
}

func (ix *Index) check(doc, i int) Verdict {
	var v Verdict
	view, ok := ix.checkedArea(doc, i)
	if !ok {
		return v
	}
	v.InViewport = true
	// The first piece is made here so that it stays on this stack.
	pieces, exact := ix.uncovered(doc, i, view, []layout.Box{view})
	if !exact {
		return ix.sampled(doc, i, view)
	}
	pieces = withoutSlivers(pieces, view)
	total := area(pieces)
	v.Fraction = math.Min(1, total/(view.W*view.H))
	cx, cy := view.X+view.W/2, view.Y+view.H/2
	if h, ok := ix.coverAt(doc, i, cx, cy); ok {
		v.By, v.HasBy = h, true
	}
	if total < minArea {
		v.Occluded, v.Fraction = true, 0
		return v
	}
	v.Point = ix.clickPoint(doc, i, pieces, cx, cy)
	v.Others = otherPoints(pieces, v.Point)
	return v
}

// otherPoints are up to four points of the piece holding p, beside p: at
// a quarter and three quarters of its width on p's line, then of its
// height on p's column, each inside the uncovered pieces.
func otherPoints(pieces []layout.Box, p [2]float64) [][2]float64 {
	var out [][2]float64
	for _, piece := range pieces {
		if !inAny([]layout.Box{piece}, p[0], p[1]) {
			continue
		}
		for _, q := range [][2]float64{
			{piece.X + piece.W/4, p[1]}, {piece.X + 3*piece.W/4, p[1]},
			{p[0], piece.Y + piece.H/4}, {p[0], piece.Y + 3*piece.H/4},
		} {
			q = snap(q[0], q[1], pieces)
			if inAny(pieces, q[0], q[1]) && (math.Abs(q[0]-p[0]) >= 1 || math.Abs(q[1]-p[1]) >= 1) {
				out = append(out, q)
			}
		}
		break
	}
	return out
}

// uncovered subtracts from pieces, which start as [view], what hides them:
// the covers painted after node (doc, i), and the text of its paint layer.
// It reports false when the pieces outgrow maxPieces: the area must then
// be sampled.
func (ix *Index) uncovered(doc, i int, view layout.Box, pieces []layout.Box) ([]layout.Box, bool) {
	var above []layout.Box // covers painted in a later layer, not ties
	ties := false
	exact := true
	ix.eachCover(doc, i, view, func(h domsnap.Pos, b layout.Box, tie bool) {
		if !exact {
			return
		}
		pieces = subtract(pieces, b)
		if tie {
			ties = true
		} else {
			above = append(above, b)
		}
		if len(pieces) > maxPieces || len(above) > maxPieces {
			exact = false
		}
	})
	if !exact {
		return nil, false
	}
	// Text of the node's layer is hit before any box of it, earlier text
	// included.
	order := ix.c.Documents[doc].Nodes[i].Layout.PaintOrder
	ix.texts[doc].Search([2]float64{view.X, view.Y}, [2]float64{view.X + view.W, view.Y + view.H}, func(lo, hi [2]float64, e entry) bool {
		j := int(e.node)
		if e.order == order && !ix.g.Contains(doc, i, j) && !ix.g.Contains(doc, j, i) && !ix.slotted(doc, i, j) && len(pieces) <= maxPieces {
			pieces = subtract(pieces, layout.Box{X: lo[0], Y: lo[1], W: hi[0] - lo[0], H: hi[1] - lo[1]})
			ties = true
		}
		return true
	})
	if len(pieces) > maxPieces {
		return nil, false
	}
	if ties {
		// Within one paint layer the browser hit-tests text before boxes:
		// a later sibling's box does not cover this node's own text.
		pieces = append(pieces, ix.ownText(doc, i, view, above)...)
	}
	return pieces, true
}

// withoutSlivers drops the pieces thinner than minSide: they are no place
// to click (a link whose last pixel row peeks out under a fixed header).
func withoutSlivers(pieces []layout.Box, view layout.Box) []layout.Box {
	usable := pieces[:0:0]
	for _, p := range pieces {
		// (thin only by cover: a 1px divider is thin by nature)
		if (p.W >= minSide || p.W >= view.W) && (p.H >= minSide || p.H >= view.H) {
			usable = append(usable, p)
		}
	}
	return usable
}

func area(pieces []layout.Box) float64 {
	total := 0.0
	for _, p := range pieces {
		total += p.W * p.H
	}
	return total
}

// clickPoint is where a click on the uncovered pieces reaches the node:
// on its text, else at the centre (cx, cy) of its box, else at the centre
// of the largest piece.
func (ix *Index) clickPoint(doc, i int, pieces []layout.Box, cx, cy float64) [2]float64 {
	// The point keeps half a pixel from every cut: the browser's sub-pixel
	// and snapped geometry disagree at the edges.
	if inner := erode(pieces, 0.5); len(inner) > 0 {
		pieces = inner
	}
	if x, y, ok := ix.onText(doc, i, pieces); ok {
		return snap(x, y, pieces)
	}
	if inAny(pieces, cx, cy) {
		return snap(cx, cy, pieces)
	}
	p := pieces[largest(pieces)]
	return snap(p.X+p.W/2, p.Y+p.H/2, pieces)
}

// erode shrinks every piece by d on each side, dropping those it empties.
func erode(pieces []layout.Box, d float64) []layout.Box {
	var out []layout.Box
	for _, p := range pieces {
		if p.W > 2*d && p.H > 2*d {
			out = append(out, layout.Box{X: p.X + d, Y: p.Y + d, W: p.W - 2*d, H: p.H - 2*d})
		}
	}
	return out
}

func largest(pieces []layout.Box) int {
	best := 0
	for k, p := range pieces {
		if p.W*p.H > pieces[best].W*pieces[best].H {
			best = k
		}
	}
	return best
}

// snap moves a point to whole pixels inside the same uncovered piece when
// it can: the browser hit-tests a fractional point as rounded, which can
// fall on the neighbour of a one-pixel-wide element.
func snap(x, y float64, pieces []layout.Box) [2]float64 {
	for _, p := range pieces {
		if x >= p.X && y >= p.Y && x < p.X+p.W && y < p.Y+p.H {
			return [2]float64{snapAxis(x, p.X, p.X+p.W), snapAxis(y, p.Y, p.Y+p.H)}
		}
	}
	return [2]float64{x, y}
}

func snapAxis(v, lo, hi float64) float64 {
	// Only boxes on whole pixels (which DOMSnapshot reports for pixel-snapped
	// layout) are snapped; sub-pixel layout keeps its exact centre.
	if lo != math.Trunc(lo) || hi != math.Trunc(hi) {
		return v
	}
	for _, c := range []float64{math.Round(v), math.Floor(v), math.Ceil(lo)} {
		if c >= lo && c < hi {
			return c
		}
	}
	return v
}

// onText picks, for an inline element, the centre of its first uncovered
// line of text: the union box of a wrapped inline holds empty space that a
// click would give to the parent.
func (ix *Index) onText(doc, i int, pieces []layout.Box) (float64, float64, bool) {
	n := &ix.c.Documents[doc].Nodes[i]
	if n.Layout == nil || n.Layout.Style < 0 || ix.c.Documents[doc].Styles[n.Layout.Style].Display != "inline" {
		return 0, 0, false
	}
	end := int(ix.g.Docs[doc].End[i])
	nodes := ix.c.Documents[doc].Nodes
	for k, seen := i+1, 0; k <= end && seen < 64; k++ {
		if nodes[k].PseudoType != "" {
			k = int(ix.g.Docs[doc].End[k]) // generated content (quotes, icons)
			continue
		}
		for _, f := range ix.g.Fragments(doc, k) {
			seen++
			x, y := f.X+f.W/2, f.Y+f.H/2
			if inAny(pieces, x, y) {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}

// ownText returns the lines of text inside node (doc, i), within view and
// outside the boxes above it and the later text of its own layer.
func (ix *Index) ownText(doc, i int, view layout.Box, above []layout.Box) []layout.Box {
	order := ix.c.Documents[doc].Nodes[i].Layout.PaintOrder
	ix.texts[doc].Search([2]float64{view.X, view.Y}, [2]float64{view.X + view.W, view.Y + view.H}, func(lo, hi [2]float64, e entry) bool {
		if e.order >= order && ix.paintsOver(doc, i, order, e) {
			above = append(above, layout.Box{X: lo[0], Y: lo[1], W: hi[0] - lo[0], H: hi[1] - lo[1]})
		}
		return true
	})
	var out []layout.Box
	end := int(ix.g.Docs[doc].End[i])
	for k, seen := i+1, 0; k <= end && seen < 64; k++ {
		for _, f := range ix.g.Fragments(doc, k) {
			seen++
			f = layout.Intersect(f, view)
			if f.W <= 0 || f.H <= 0 {
				continue
			}
			rest := []layout.Box{f}
			for _, a := range above {
				rest = subtract(rest, a)
			}
			out = append(out, rest...)
		}
	}
	return out
}

// eachCover calls f with every box painted over node (doc, i) within area,
// following the chain of iframes up to the top-level document; tie says the
// box is in the node's own paint layer (later in tree order), where the
// node's text still wins.
func (ix *Index) eachCover(doc, i int, area layout.Box, f func(h domsnap.Pos, b layout.Box, tie bool)) {
	for depth := 0; doc >= 0 && depth < 32; depth++ {
		order := ix.c.Documents[doc].Nodes[i].Layout.PaintOrder
		first := depth == 0
		ix.trees[doc].Search([2]float64{area.X, area.Y}, [2]float64{area.X + area.W, area.Y + area.H}, func(lo, hi [2]float64, e entry) bool {
			if ix.visits++; ix.visits > maxVisits {
				return false
			}
			if ix.paintsOver(doc, i, order, e) {
				f(domsnap.Pos{Doc: doc, Node: int(e.node)}, layout.Box{X: lo[0], Y: lo[1], W: hi[0] - lo[0], H: hi[1] - lo[1]}, first && e.order == order && e.phase == ix.phase(doc, i))
			}
			return true
		})
		o := ix.owner[doc]
		if o.Doc < 0 || ix.c.Documents[o.Doc].Nodes[o.Node].Layout == nil {
			return
		}
		doc, i = o.Doc, o.Node
	}
}

// coverAt returns the topmost box painted over node (doc, i) at (x, y).
func (ix *Index) coverAt(doc, i int, x, y float64) (domsnap.Pos, bool) {
	var best domsnap.Pos
	var bestOrder int64
	found := false
	ix.eachCover(doc, i, layout.Box{X: x, Y: y}, func(h domsnap.Pos, b layout.Box, _ bool) {
		if x < b.X || y < b.Y || x >= b.X+b.W || y >= b.Y+b.H {
			return
		}
		o := ix.c.Documents[h.Doc].Nodes[h.Node].Layout.PaintOrder
		// Prefer the cover nearest the top-level document, then the top one.
		if !found || h.Doc < best.Doc || h.Doc == best.Doc && (o > bestOrder || o == bestOrder && h.Node > best.Node) {
			best, bestOrder, found = h, o, true
		}
	})
	return best, found
}

// sampled measures coverage on a 16×16 grid when exact subtraction would
// cost too much (hundreds of small covers).
func (ix *Index) sampled(doc, i int, view layout.Box) Verdict {
	v := Verdict{InViewport: true}
	const n = 16
	hits := 0
	bestD := -1.0
	cx, cy := view.X+view.W/2, view.Y+view.H/2
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			x := view.X + (float64(a)+0.5)*view.W/n
			y := view.Y + (float64(b)+0.5)*view.H/n
			if _, covered := ix.coverAt(doc, i, x, y); covered {
				continue
			}
			hits++
			if d := (x-cx)*(x-cx) + (y-cy)*(y-cy); bestD < 0 || d < bestD {
				bestD, v.Point = d, [2]float64{x, y}
			}
		}
	}
	v.Fraction = float64(hits) / (n * n)
	v.Occluded = hits == 0
	if h, ok := ix.coverAt(doc, i, cx, cy); ok {
		v.By, v.HasBy = h, true
	}
	return v
}

// subtract removes box c from every piece, splitting a piece into up to
// four rectangles around c.
func subtract(pieces []layout.Box, c layout.Box) []layout.Box {
	out := pieces[:0:0]
	for _, p := range pieces {
		in := layout.Intersect(p, c)
		if in.W <= 0 || in.H <= 0 {
			out = append(out, p)
			continue
		}
		add := func(b layout.Box) {
			if b.W > 0 && b.H > 0 {
				out = append(out, b)
			}
		}
		add(layout.Box{X: p.X, Y: p.Y, W: p.W, H: in.Y - p.Y})                          // above
		add(layout.Box{X: p.X, Y: in.Y + in.H, W: p.W, H: p.Y + p.H - (in.Y + in.H)})   // below
		add(layout.Box{X: p.X, Y: in.Y, W: in.X - p.X, H: in.H})                        // left
		add(layout.Box{X: in.X + in.W, Y: in.Y, W: p.X + p.W - (in.X + in.W), H: in.H}) // right
	}
	return out
}

func inAny(pieces []layout.Box, x, y float64) bool {
	for _, p := range pieces {
		if x >= p.X && y >= p.Y && x < p.X+p.W && y < p.Y+p.H {
			return true
		}
	}
	return false
}
