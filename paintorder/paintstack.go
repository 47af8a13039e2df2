package paintorder

// What paints where: per document, the boxes that paint a colour, a
// picture, a pattern or decor, stacked at a point in paint order across
// the iframes that hold it.

import (
	"github.com/tidwall/rtree"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

// paint kinds
const (
	paintColour  uint8 = iota // a background colour
	paintPicture              // an image or video: opaque pixels of unknown colour
	paintPattern              // a background image, canvas or svg: unknown, maybe clear
	paintUnknown              // a background colour sight cannot read: unsure
	paintDecor                // borders, shadows, outlines, a backdrop filter (decor.go)
	paintFrame                // an iframe: another document's paint, opaque or clear
)

type paintEntry struct {
	node  int32
	kind  uint8
	rank  int8 // 0 the document's canvas, 1 sunk (negative z-index), 2 the rest
	order int64
	c     RGBA // alpha times the node's effective opacity
}

// paintDoc holds one document's painting boxes, built on first use.
type paintDoc struct {
	built  bool
	tree   rtree.RTreeG[paintEntry]
	canvas RGBA // the root's background, propagated to the canvas
	// hasCanvas: the root paints its canvas (a child document's canvas
	// is clear unless it sets a background).
	hasCanvas bool
	// canvasUnknown: the root's background is a colour sight cannot
	// read: what is behind every text is unknown.
	canvasUnknown bool
}

func (ix *Index) paintDoc(d int) *paintDoc {
	if ix.paints == nil {
		ix.paints = make([]paintDoc, len(ix.c.Documents))
	}
	p := &ix.paints[d]
	if !p.built {
		p.built = true
		ix.buildPaint(d, p)
	}
	return p
}

var pictures = map[string]bool{"IMG": true, "VIDEO": true, "EMBED": true, "OBJECT": true}

// buildPaint gathers document d's painting boxes and its canvas.
func (ix *Index) buildPaint(d int, p *paintDoc) {
	doc := &ix.c.Documents[d]
	if d == 0 {
		p.canvas, p.hasCanvas = White, true
	}
	htmlPaints := false // the root sets a background, so the body's paints its own box
	for i := range doc.Nodes {
		n := &doc.Nodes[i]
		if n.Type != domsnap.ElementNode || n.Layout == nil || n.Layout.Style < 0 || n.Layout.Style >= len(doc.Styles) {
			continue
		}
		a := ix.g.Alpha(d, i)
		if a < 0.01 {
			continue
		}
		if !ix.g.IsTangible(d, i) {
			ix.paintEdges(d, i, p, a)
			continue
		}
		sc, _ := ix.colours(d, i)
		if n.Name == "HTML" || n.Name == "BODY" && !htmlPaints {
			if n.Name == "HTML" {
				htmlPaints = sc.bgOK || sc.bgUnknown
			}
			ix.paintCanvas(d, i, p, sc, a)
			continue
		}
		ix.paintBox(d, i, p, sc, a)
	}
}

// paintEdges adds the decorations of element (d, i), a box of no area at
// alpha a: it still paints its border, shadow and outline, unless hidden.
func (ix *Index) paintEdges(d, i int, p *paintDoc, a float64) {
	doc := &ix.c.Documents[d]
	n := &doc.Nodes[i]
	if st := &doc.Styles[n.Layout.Style]; st.Visibility != "hidden" && st.Visibility != "collapse" {
		ix.insertDecor(d, i, p, paintEntry{node: int32(i), rank: 2, order: n.Layout.PaintOrder, c: RGBA{A: a}})
	}
}

// paintCanvas paints the background of root or body element (d, i), at
// alpha a, over the whole canvas, as the root's does (or the body's, when
// the root sets none).
func (ix *Index) paintCanvas(d, i int, p *paintDoc, sc *styleColours, a float64) {
	n := &ix.c.Documents[d].Nodes[i]
	bg, hasBg := sc.bg, sc.bgOK
	if sc.bgUnknown || n.Name == "HTML" && !hasBg && darkScheme(ix.c.Documents[d].Styles[n.Layout.Style].ColorScheme) {
		// An unreadable colour, or a dark color-scheme and no
		// background: Chrome paints the canvas a dark colour of
		// its own.
		p.canvasUnknown = true
	}
	if hasBg {
		if bg.A >= 0.999 {
			p.canvasUnknown = false // the body's background paints it
		}
		p.canvas, p.hasCanvas = over(bg, bg.A*a, p.canvas), true
		if d > 0 && bg.A < 1 {
			p.hasCanvas = false // blended with the page behind: leave it
		}
	}
}

// paintBox adds tangible element (d, i)'s decorations and, when its box
// lies within sight, what that box paints.
func (ix *Index) paintBox(d, i int, p *paintDoc, sc *styleColours, a float64) {
	n := &ix.c.Documents[d].Nodes[i]
	rank := int8(2)
	if ix.g.IsSunk(d, i) {
		rank = 1
	}
	ix.insertDecor(d, i, p, paintEntry{node: int32(i), rank: rank, order: n.Layout.PaintOrder, c: RGBA{A: a}})
	shown := ix.g.ShownBox(d, i)
	if shown.W <= 0 || shown.H <= 0 || !ix.nearSight(shown) {
		return
	}
	if kind, c, ok := boxPaint(n.Name, sc, a); ok {
		e := paintEntry{node: int32(i), kind: kind, rank: rank, order: n.Layout.PaintOrder, c: c}
		p.tree.Insert([2]float64{shown.X, shown.Y}, [2]float64{shown.X + shown.W, shown.Y + shown.H}, e)
	}
}

// boxPaint is what the box of an element named name, of colours sc at
// alpha a, paints (ok false: nothing but its decorations).
func boxPaint(name string, sc *styleColours, a float64) (kind uint8, c RGBA, ok bool) {
	switch {
	case pictures[name]:
		return paintPicture, RGBA{A: a}, true
	case (name == "IFRAME" || name == "FRAME") && !(sc.bgOK && sc.bg.A >= 0.999):
		return paintFrame, RGBA{A: a}, true
	case name == "CANVAS" || name == "svg" || sc.pattern:
		return paintPattern, RGBA{A: a}, true
	case sc.bgOK:
		return paintColour, RGBA{sc.bg.R, sc.bg.G, sc.bg.B, sc.bg.A * a}, true
	case sc.bgUnknown:
		return paintUnknown, RGBA{A: a}, true
	}
	return 0, RGBA{}, false
}

// layer is a paint entry of some document.
type layer struct {
	doc int
	e   paintEntry
}

// stack returns what paints at (x, y) under and over node (doc, i), each
// in paint order, bottom first, through the iframes that hold doc. The
// slices are the index's scratch space, valid until the next call.
func (ix *Index) stack(doc, i int, x, y float64) (under, overIt []layer) {
	type level struct{ doc, i int }
	var chainBuf [8]level
	chain := chainBuf[:0]
	for d, k := doc, i; d >= 0 && d < len(ix.c.Documents) && len(chain) < 32; {
		chain = append(chain, level{d, k})
		o := ix.owner[d]
		if d == 0 || o.Doc < 0 {
			break
		}
		d, k = o.Doc, o.Node
	}
	under, levels := ix.scratchUnder[:0], ix.scratchLevel[:0]
	var bounds [33]int // levels[bounds[c]:bounds[c+1]] are chain[c]'s covers
	for c := len(chain) - 1; c >= 0; c-- {
		d, k := chain[c].doc, chain[c].i
		p := ix.paintDoc(d)
		if p.hasCanvas {
			// An opaque canvas hides the page behind its iframe.
			under = append(under[:0], layer{d, paintEntry{node: -1, kind: paintColour, c: p.canvas}})
		}
		nodes := ix.c.Documents[d].Nodes
		var order int64
		if k >= 0 && k < len(nodes) && nodes[k].Layout != nil {
			order = nodes[k].Layout.PaintOrder
		}
		sunk := ix.g.IsSunk(d, k)
		from := len(under)
		bounds[c] = len(levels)
		p.tree.Search([2]float64{x, y}, [2]float64{x, y}, func(lo, hi [2]float64, e paintEntry) bool {
			if x >= hi[0] || y >= hi[1] {
				return true
			}
			if ix.visits++; ix.visits > maxVisits {
				return false
			}
			if ix.paintsUnder(d, k, order, sunk, e) {
				under = append(under, layer{d, e})
			} else if !ix.g.Contains(d, k, int(e.node)) {
				levels = append(levels, layer{d, e})
			}
			return true
		})
		byPaint(under[from:])
		byPaint(levels[bounds[c]:])
		bounds[c+1] = len(levels)
	}
	// Covers: the node's own document first, then each one around it.
	overIt = ix.scratchAbove[:0]
	for c := range chain {
		overIt = append(overIt, levels[bounds[c]:bounds[c+1]]...)
	}
	ix.scratchUnder, ix.scratchAbove, ix.scratchLevel = under, overIt, levels
	return under, overIt
}

// paintsUnder: entry e paints before node i: an ancestor, a sunk layer
// under the normal flow, an earlier layer, or a box of the node's own
// layer (backgrounds paint before the layer's text).
func (ix *Index) paintsUnder(doc, i int, order int64, sunk bool, e paintEntry) bool {
	j := int(e.node)
	switch {
	case ix.g.Contains(doc, j, i):
		return true
	case ix.g.Contains(doc, i, j):
		return false
	case e.rank == 1 && !sunk:
		return true
	case sunk && e.rank == 2:
		return false
	}
	return e.order <= order
}

// byPaint sorts a stack in paint order (insertion sort: stacks hold a
// handful of boxes).
func byPaint(ls []layer) {
	for a := 1; a < len(ls); a++ {
		for b := a; b > 0 && paintsBefore(ls[b].e, ls[b-1].e); b-- {
			ls[b], ls[b-1] = ls[b-1], ls[b]
		}
	}
}

func paintsBefore(x, y paintEntry) bool {
	if x.rank != y.rank {
		return x.rank < y.rank
	}
	if x.order != y.order {
		return x.order < y.order
	}
	return x.node < y.node
}

// nearSight: a box within a screen of the viewport, where sight stacks
// what is painted. Farther out the cost would not follow the screen (a
// long page's every text): there the colour behind a text is its nearest
// painting ancestor's (chainSight), and the next snapshot, scrolled
// there, stacks it.
func (ix *Index) nearSight(b layout.Box) bool {
	return ix.everywhere || ix.meets(b, ix.g.Viewport.Height)
}

// SightEverywhere makes sight stack what is painted all over the page,
// for a tree whose every line is printed or searched (off-screen content
// kept, find): nothing far away is judged by its ancestors alone.
func (ix *Index) SightEverywhere() {
	if !ix.everywhere {
		ix.everywhere, ix.paints = true, nil
	}
}

// canvasUnknownAt: the canvas of doc, or of a document around it, is a
// colour sight cannot read.
func (ix *Index) canvasUnknownAt(doc int) bool {
	for d, depth := doc, 0; d >= 0 && d < len(ix.c.Documents) && depth < 32; depth++ {
		if ix.paintDoc(d).canvasUnknown {
			return true
		}
		if d == 0 {
			return false
		}
		d = ix.owner[d].Doc
	}
	return false
}
