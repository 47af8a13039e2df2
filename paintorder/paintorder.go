// Package paintorder indexes painted boxes by position in an R-tree
// (github.com/tidwall/rtree), one per document, with their DOMSnapshot
// paint order, and answers what a person at the screen can reach: which
// node a click at a point hits, and for each node whether boxes painted
// after it cover it, what fraction stays visible, and a point where a click
// would reach it.
//
// It reads a capture and its layout geometry; it never talks to the browser.
package paintorder

import (
	"math"

	"github.com/tidwall/rtree"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

// entry is what a tree stores: the node, its paint order, and its phase
// within that order: block boxes, then floats, then text — the browser
// hit-tests a layer's text first, then its floats, then its blocks.
type entry struct {
	node  int32
	phase int8
	// sunk: inside a negative z-index layer, which paints (and is hit)
	// under the normal flow around it though DOMSnapshot numbers it after.
	sunk  bool
	order int64
}

const (
	phaseBlock int8 = iota
	phaseFloat
	phaseText
)

// above reports whether a is hit before b: later paint, then later phase,
// then later in tree order.
func (a entry) above(b entry) bool {
	if a.sunk != b.sunk {
		return b.sunk
	}
	if a.order != b.order {
		return a.order > b.order
	}
	if a.phase != b.phase {
		return a.phase > b.phase
	}
	return a.node > b.node
}

// Index holds one R-tree of hit-testable boxes per document.
type Index struct {
	c     *domsnap.Capture
	g     *layout.Geometry
	trees []rtree.RTreeG[entry]
	// texts holds each document's lines of text, keyed to the element they
	// belong to: hit tests try text before boxes of the same layer.
	texts []rtree.RTreeG[entry]
	// owner is, per document, the iframe node that holds it (Doc -1 for the
	// top-level document).
	owner []domsnap.Pos
	// docs holds what is learnt of each document's nodes, as asked
	// (lazy.go): only nodes near the viewport are asked about.
	docs []docFacts
	// visits counts cover candidates examined; past maxVisits (a hostile
	// page of thousands of boxes stacked on one spot) covers are no longer
	// looked for and verdicts are marked approximate. Queries are not safe
	// for concurrent use.
	visits int
	// paints holds each document's painting boxes, for what a person
	// sees (paintstack.go), built when first asked.
	paints []paintDoc
	// colourMemo holds each document's style colours, parsed as asked;
	// the scratch slices hold the paint stacks sight builds, reused.
	colourMemo [][]styleColours
	colourDone [][]bool
	textClip   []int8 // per document: 0 not asked, 1 no, 2 some style clips a background to text
	svgMemo    map[domsnap.Pos]svgShapes
	// unmodelled memoizes unmodelledAround per document and node (0
	// unknown, 1 yes, -1 no), unmodelledStyles UnmodelledEffect per
	// document and style; pixels holds the capture's pixel verdicts
	// (Capture.TextPixels) by node.
	unmodelled, unmodelledStyles [][]int8
	// decorMemo memoizes decorOf per document and style.
	decorMemo [][]decorMemo
	pixels    map[domsnap.Pos]bool
	// modal marks the documents with a modal dialog open (modal.go).
	modal []bool
	// firstLines holds Capture.FirstLines, made on first use.
	firstLines map[domsnap.Pos]bool
	// visited maps each document's links that change once visited to
	// their colours (Document.VisitedLinks), made on first use.
	visited map[int]map[int][]int
	// everywhere: sight stacks paint all over the page (SightEverywhere).
	everywhere                               bool
	scratchUnder, scratchAbove, scratchLevel []layer
}

// maxVisits bounds the work of all occlusion queries on one index: real
// pages use well under a million.
const maxVisits = 5_000_000

// Build indexes every visible element box (as its clips leave it) that
// receives pointer events. pointer-events: none never occludes.
func Build(c *domsnap.Capture, g *layout.Geometry) *Index {
	ix := &Index{c: c, g: g, trees: make([]rtree.RTreeG[entry], len(c.Documents)), texts: make([]rtree.RTreeG[entry], len(c.Documents)), owner: make([]domsnap.Pos, len(c.Documents)), docs: make([]docFacts, len(c.Documents))}
	for d := range ix.owner {
		ix.owner[d] = domsnap.Pos{Doc: -1, Node: -1}
	}
	for d := range c.Documents {
		doc := &c.Documents[d]
		ix.docs[d] = newDocFacts(len(doc.Nodes))
		for i := range doc.Nodes {
			n := &doc.Nodes[i]
			shown := g.ShownBox(d, i)
			if n.Type == domsnap.TextNode {
				if ix.nearViewport(shown) { // its lines lie within
					ix.insertLines(d, i)
					ix.insertText(d, i)
				}
				continue
			}
			if n.PseudoType != "" && ix.nearViewport(shown) {
				ix.insertText(d, i) // generated text: list markers, quotes
			}
			if !ix.meets(shown, 1) && n.ContentDocument <= d && (d != 0 || n.Name != "DIALOG") {
				continue // nothing to index, nor a document's owner
			}
			if ix.wrapped(d, i) {
				continue // its lines stand for it (insertLines)
			}
			if cd := n.ContentDocument; cd > d && cd < len(ix.owner) && ix.owner[cd].Doc < 0 {
				ix.owner[cd] = domsnap.Pos{Doc: d, Node: i}
			}
			target := ix.foreignRoot(d, i)
			if n.PseudoType != "" && n.Parent >= 0 {
				target = int(n.Parent) // ::before, ::marker... hit their element
			}
			if !ix.paintable(d, i) || !ix.HitTestable(d, target) {
				continue
			}
			ix.insert(&ix.trees[d], g.ShownBox(d, i), entry{int32(target), ix.phase(d, i), g.IsSunk(d, target), n.Layout.PaintOrder})
			if d == 0 && ix.modalDialog(d, i) {
				// Its ::backdrop (absent from DOMSnapshot) fills the viewport in
				// the top layer and answers hits for the dialog.
				ix.insert(&ix.trees[d], g.ViewportBox(0), entry{int32(i), ix.phase(d, i), false, n.Layout.PaintOrder})
			}
		}
	}
	return ix
}

// paintable: a visible laid-out element box that is not a table row or
// section (whose gaps between cells hit the table, not the row).
func (ix *Index) paintable(d, i int) bool {
	n := &ix.c.Documents[d].Nodes[i]
	if n.Layout == nil || n.Type != domsnap.ElementNode || !ix.g.IsTangible(d, i) || ix.isHollow(d, i) {
		return false
	}
	if s := n.Layout.Style; s >= 0 {
		switch ix.c.Documents[d].Styles[s].Display {
		case "table-row", "table-row-group", "table-header-group", "table-footer-group", "table-column", "table-column-group":
			return false
		}
	}
	return true
}

// insert adds a box unless it is empty or wholly outside the viewport:
// every question the index answers (covers, hit tests) is about points and
// boxes in the viewport, so off-screen boxes would only cost time and
// memory on long pages.
func (ix *Index) insert(t *rtree.RTreeG[entry], b layout.Box, e entry) {
	if !ix.meets(b, 1) {
		return
	}
	t.Insert([2]float64{b.X, b.Y}, [2]float64{b.X + b.W, b.Y + b.H}, e)
}

// meets: a box with an area, not wholly outside the viewport grown by
// slack on every side.
func (ix *Index) meets(b layout.Box, slack float64) bool {
	if b.W <= 0 || b.H <= 0 {
		return false
	}
	vp := ix.g.Viewport
	return !(b.X > vp.Width+slack || b.Y > vp.Height+slack || b.X+b.W < -slack || b.Y+b.H < -slack)
}

// nearViewport: a node's shown box might hold lines insert keeps. The
// lines lie within it; the wider slack leaves room for rounding as they
// are cut to it.
func (ix *Index) nearViewport(shown layout.Box) bool {
	return ix.meets(shown, 2)
}

// wrappedInlines marks inline elements whose text wraps onto several
// lines: their union box holds space that belongs to their neighbours, so
// their hit area is their lines of text instead.
func (ix *Index) wrappedInlines(d int) map[int]bool {
	doc := &ix.c.Documents[d]
	top, bottom := map[int]float64{}, map[int]float64{}
	for k := range doc.Nodes {
		n := &doc.Nodes[k]
		if n.Type != domsnap.TextNode || n.Layout == nil || len(n.Layout.Fragments) == 0 {
			continue
		}
		ix.eachInlineOwner(d, k, func(p int) {
			for _, f := range n.Layout.Fragments {
				if t, ok := top[p]; !ok || f.Y < t {
					top[p] = f.Y
				}
				if f.Y > bottom[p] {
					bottom[p] = f.Y
				}
			}
		})
	}
	out := map[int]bool{}
	for p, t := range top {
		if bottom[p]-t > 2 {
			out[p] = true
		}
	}
	return out
}

// eachInlineOwner calls f with every inline element a text node's lines
// belong to: its parent and the inline ancestors above it, up to the first
// block (pseudo elements count as their element).
func (ix *Index) eachInlineOwner(d, k int, f func(int)) {
	nodes := ix.c.Documents[d].Nodes
	for p, depth := int(nodes[k].Parent), 0; p >= 0 && depth < 64; p, depth = int(nodes[p].Parent), depth+1 {
		if nodes[p].PseudoType != "" {
			continue
		}
		if !ix.inline(d, p) {
			return
		}
		f(p)
	}
}

func (ix *Index) inline(d, i int) bool {
	n := &ix.c.Documents[d].Nodes[i]
	return n.Type == domsnap.ElementNode && n.Layout != nil && n.Layout.Style >= 0 &&
		ix.c.Documents[d].Styles[n.Layout.Style].Display == "inline"
}

// insertLines indexes the lines of text node k for each wrapped inline
// element it lies in.
func (ix *Index) insertLines(d, k int) {
	frags := ix.g.Fragments(d, k)
	if len(frags) == 0 {
		return
	}
	ix.eachInlineOwner(d, k, func(p int) {
		if !ix.wrapped(d, p) || !ix.HitTestable(d, p) {
			return
		}
		order := ix.c.Documents[d].Nodes[p].Layout.PaintOrder
		for _, f := range frags {
			ix.insert(&ix.trees[d], f, entry{int32(p), ix.phase(d, p), ix.g.IsSunk(d, p), order})
		}
	})
}

// insertText indexes text node k's lines for the element they belong to.
func (ix *Index) insertText(d, k int) {
	n := &ix.c.Documents[d].Nodes[k]
	p := k
	if n.Type == domsnap.TextNode {
		p = int(n.Parent)
	}
	for p >= 0 && ix.c.Documents[d].Nodes[p].PseudoType != "" {
		p = int(ix.c.Documents[d].Nodes[p].Parent)
	}
	if n.Layout == nil || p < 0 || !ix.HitTestable(d, p) {
		return
	}
	p = ix.foreignRoot(d, p)
	for _, f := range ix.g.Fragments(d, k) {
		ix.insert(&ix.texts[d], f, entry{int32(p), phaseText, ix.g.IsSunk(d, p), n.Layout.PaintOrder})
	}
}

// modalDialog: an open <dialog> shown with showModal() sits in the top
// layer, which the user-agent style makes position: fixed (a dialog opened
// with show() is absolute).
func (ix *Index) modalDialog(d, i int) bool {
	n := &ix.c.Documents[d].Nodes[i]
	if n.Name != "DIALOG" || n.Layout == nil || n.Layout.Style < 0 {
		return false
	}
	_, open := n.Attr("open")
	return open && ix.c.Documents[d].Styles[n.Layout.Style].Position == "fixed"
}

// foreignRoot maps an element inside an <svg> or <math> tree to that tree's
// root: hits on shapes and glyphs follow their geometry, not their boxes,
// so the root stands for them. Other nodes map to themselves. (SVG and
// MathML elements keep lower-case node names; HTML ones are upper case.)
func (ix *Index) foreignRoot(d, i int) int {
	nodes := ix.c.Documents[d].Nodes
	root := i
	for k, depth := i, 0; k >= 0 && depth < 4096; k, depth = int(nodes[k].Parent), depth+1 {
		name := nodes[k].Name
		if name == "" || nodes[k].Type != domsnap.ElementNode || name[0] < 'a' || name[0] > 'z' {
			break
		}
		if name == "svg" || name == "math" {
			root = k
		}
	}
	return root
}

// ownContent: a node that gives an inline element around it something to
// hit: a line of text, or a tangible box that is not inline.
func (ix *Index) ownContent(d, i int) bool {
	node := &ix.c.Documents[d].Nodes[i]
	return node.Layout != nil && (len(node.Layout.Fragments) > 0 ||
		node.Type == domsnap.ElementNode && !ix.inline(d, i) && ix.g.IsTangible(d, i))
}

// hollowInline: an inline element whose subtree holds no text line and no
// tangible non-inline box.
func (ix *Index) hollowInline(d, i int) bool {
	doc := &ix.c.Documents[d]
	if !ix.inline(d, i) || ix.hasContent(d, i) || replaced[doc.Nodes[i].Name] {
		return false
	}
	// An empty inline with padding or a background image still has a
	// box in its line; one a pixel wide has nothing to hit.
	b, _ := ix.g.Box(d, i)
	return b.W < 2 || b.H < 2
}

// replaced elements have content of their own, inline or not.
var replaced = map[string]bool{"IMG": true, "svg": true, "VIDEO": true, "CANVAS": true, "INPUT": true,
	"BUTTON": true, "SELECT": true, "TEXTAREA": true, "IFRAME": true, "OBJECT": true, "EMBED": true, "math": true}

func (ix *Index) isHollow(d, i int) bool {
	if d >= len(ix.docs) || i >= len(ix.c.Documents[d].Nodes) {
		return false
	}
	m := ix.docs[d].hollow
	if m[i] == 0 {
		m.set(i, ix.hollowInline(d, i))
	}
	return m[i] == 2
}

// HitTestable reports whether a click can land on the node: a visible
// element (not a pseudo element) that receives pointer events.
func (ix *Index) HitTestable(d, i int) bool {
	n := &ix.c.Documents[d].Nodes[i]
	if n.Layout == nil || n.Type != domsnap.ElementNode || n.PseudoType != "" || !ix.g.IsTangible(d, i) || ix.isHollow(d, i) {
		return false
	}
	s := n.Layout.Style
	return s < 0 || ix.c.Documents[d].Styles[s].PointerEvents != "none"
}

// Len is the number of indexed boxes of a document.
func (ix *Index) Len(doc int) int {
	if doc < 0 || doc >= len(ix.trees) {
		return 0
	}
	return ix.trees[doc].Len()
}

// Owner returns the iframe node that holds document doc.
func (ix *Index) Owner(doc int) (domsnap.Pos, bool) {
	if doc <= 0 || doc >= len(ix.owner) || ix.owner[doc].Doc < 0 {
		return domsnap.Pos{}, false
	}
	return ix.owner[doc], true
}

// Under calls f with each element whose painted box in document doc meets
// b (viewport px), until f returns false. Only boxes in the viewport are
// indexed.
func (ix *Index) Under(doc int, b layout.Box, f func(node int) bool) {
	if doc < 0 || doc >= len(ix.trees) {
		return
	}
	ix.trees[doc].Search([2]float64{b.X, b.Y}, [2]float64{b.X + b.W, b.Y + b.H}, func(lo, hi [2]float64, e entry) bool {
		return f(int(e.node))
	})
}

// TopAt returns the element painted last at (x, y) in viewport CSS px — the
// node a click there reaches — descending into iframe documents.
func (ix *Index) TopAt(x, y float64) (domsnap.Pos, bool) {
	return ix.topIn(0, x, y, 0)
}

func (ix *Index) topIn(doc int, x, y float64, depth int) (domsnap.Pos, bool) {
	if doc < 0 || doc >= len(ix.trees) || depth > 32 {
		return domsnap.Pos{}, false
	}
	best, found := entry{order: math.MinInt64}, false
	ix.trees[doc].Search([2]float64{x, y}, [2]float64{x, y}, func(lo, hi [2]float64, e entry) bool {
		if x >= hi[0] || y >= hi[1] {
			return true // boxes are half-open, as in the browser's hit test
		}
		if !found || e.above(best) {
			best, found = e, true
		}
		return true
	})
	// Text of the same or a later layer is hit before boxes.
	text, foundText := entry{order: math.MinInt64}, false
	ix.texts[doc].Search([2]float64{x, y}, [2]float64{x, y}, func(lo, hi [2]float64, e entry) bool {
		if x < hi[0] && y < hi[1] && (!foundText || e.above(text)) {
			text, foundText = e, true
		}
		return true
	})
	if foundText && (!found || text.above(best)) {
		best, found = text, true
	}
	if !found {
		return domsnap.Pos{}, false
	}
	hit := domsnap.Pos{Doc: doc, Node: int(best.node)}
	if cd := ix.c.Documents[doc].Nodes[hit.Node].ContentDocument; cd > doc {
		if inner, ok := ix.topIn(cd, x, y, depth+1); ok {
			return inner, true
		}
	}
	return hit, true
}

// paintsOver reports whether entry e (in the same document as node i) is
// hit before node i's box and is neither its ancestor nor its descendant.
func (ix *Index) paintsOver(doc, i int, order int64, e entry) bool {
	j := int(e.node)
	sunk := ix.g.IsSunk(doc, i)
	if sunk && !e.sunk && ix.g.Contains(doc, j, i) && ix.c.Documents[doc].Nodes[j].Name != "HTML" {
		return true // the normal flow around a negative z-index layer is hit first
	}
	if ix.g.Contains(doc, i, j) || ix.g.Contains(doc, j, i) || ix.slotted(doc, i, j) {
		return false
	}
	return e.above(entry{node: int32(i), phase: ix.phase(doc, i), sunk: sunk, order: order})
}

// phase is a node's hit-test phase within its paint order.
func (ix *Index) phase(d, i int) int8 {
	if d < len(ix.docs) && i < len(ix.c.Documents[d].Nodes) && ix.floated(d, i) {
		return phaseFloat
	}
	return phaseBlock
}

// slotted: DOMSnapshot parents a host's light-DOM children to the host,
// beside its shadow tree, though they render inside the shadow tree's
// slots; light content of the host never covers that host's shadow nodes.
func (ix *Index) slotted(doc, i, j int) bool {
	nodes := ix.c.Documents[doc].Nodes
	if nodes[i].ShadowRootType == "" || nodes[j].ShadowRootType != "" {
		return false
	}
	host := ix.outsideShadow(doc, i)
	return host >= 0 && ix.g.Contains(doc, host, j)
}
