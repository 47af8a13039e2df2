// Package paintorder indexes painted boxes by position in an R-tree
// (github.com/tidwall/rtree), with their DOMSnapshot paint order, to answer
// which node a click at a point reaches.
//
// It reads a capture and its layout geometry; it never talks to the browser.
// Clips from overflow and cross-document hits are the occlusion issue's
// work; this package answers for each document on its own.
package paintorder

import (
	"github.com/tidwall/rtree"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

// Hit is one node of one document.
type Hit struct {
	Doc, Node int
}

// entry is what the tree stores: the node and its paint order.
type entry struct {
	node  int
	order int64
}

// Index is one R-tree of painted, hit-testable boxes per document.
type Index struct {
	c     *domsnap.Capture
	trees []rtree.RTreeG[entry]
}

// Build indexes every visible box that receives pointer events.
func Build(c *domsnap.Capture, g *layout.Geometry) *Index {
	ix := &Index{c: c, trees: make([]rtree.RTreeG[entry], len(c.Documents))}
	for d := range c.Documents {
		doc := &c.Documents[d]
		for i := range doc.Nodes {
			n := &doc.Nodes[i]
			if n.Layout == nil || n.Type != domsnap.ElementNode || !g.IsVisible(d, i) || noPointer(doc, n) {
				continue
			}
			b, _ := g.Box(d, i)
			ix.trees[d].Insert([2]float64{b.X, b.Y}, [2]float64{b.X + b.W, b.Y + b.H}, entry{i, n.Layout.PaintOrder})
		}
	}
	return ix
}

// noPointer: pointer-events none lets clicks through (it is inherited, so
// the computed value of each node already says it).
func noPointer(doc *domsnap.Document, n *domsnap.Node) bool {
	s := n.Layout.Style
	return s >= 0 && doc.Styles[s].PointerEvents == "none"
}

// TopAt returns the element of document doc painted last at (x, y), in
// viewport CSS px: the node a click there reaches.
func (ix *Index) TopAt(doc int, x, y float64) (Hit, bool) {
	if doc < 0 || doc >= len(ix.trees) {
		return Hit{}, false
	}
	best, found := entry{order: -1}, false
	ix.trees[doc].Search([2]float64{x, y}, [2]float64{x, y}, func(_, _ [2]float64, e entry) bool {
		// Later paint wins; on a tie (painted together) the deeper node,
		// which comes later in tree order, wins.
		if e.order > best.order || e.order == best.order && e.node > best.node {
			best, found = e, true
		}
		return true
	})
	return Hit{doc, best.node}, found
}

// Len is the number of indexed boxes of a document.
func (ix *Index) Len(doc int) int {
	if doc < 0 || doc >= len(ix.trees) {
		return 0
	}
	return ix.trees[doc].Len()
}
