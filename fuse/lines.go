package fuse

import (
	"strings"

	"github.com/axfuse/axfuse/domsnap"
)

// Lines of text end where a person sees one end: at a block boundary.
// Adjacent text lines (their wrappers promoted away) join only within one
// inline run, the stretch of a document between two boundaries: the start
// or end of a block-level box (block, flex, grid, list-item, table and its
// parts, flow-root, …), of a flex or grid item, and a <br>. Inline boxes
// (spans, links, b, em, inline-block chips) inside one block stay one line.

// lineRun is the inline run a text line's last piece lies in; ok false
// when the line has no DOM node (it then joins as before).
type lineRun struct {
	doc, run int32
	ok       bool
}

// lineRunOf is the inline run of DOM node dom of the frame's document.
func (b *builder) lineRunOf(fd *frameData, dom int) lineRun {
	if fd.doc < 0 || dom < 0 {
		return lineRun{}
	}
	return lineRun{int32(fd.doc), b.lineRuns(fd)[dom], true}
}

// sameLine: two text lines join only within one inline run.
func sameLine(x, y *Node) bool {
	return !x.run.ok || !y.run.ok || x.run == y.run
}

// lineRuns numbers the inline runs of the frame's document, one pass in
// tree order: the count of boundaries before each node, so that two nodes
// with the same number have no boundary between them. Built on first need.
func (b *builder) lineRuns(fd *frameData) []int32 {
	if fd.runs != nil {
		return fd.runs
	}
	doc := &b.c.Documents[fd.doc]
	end := b.g.Docs[fd.doc].End
	runs := make([]int32, len(doc.Nodes))
	var open []int32 // the last descendants of the boundary boxes open here
	var run int32
	for i := range doc.Nodes {
		for k := len(open) - 1; k >= 0 && int(open[k]) < i; k-- {
			open = open[:k]
			run++ // a box that bounds lines ended
		}
		if endsLine(doc, i) {
			run++
			if int(end[i]) > i {
				open = append(open, end[i])
			}
		}
		runs[i] = run
	}
	fd.runs = runs
	return runs
}

// endsLine: element i's box starts and ends lines of text: a <br>, a
// block-level box, or an item of a flex or grid container.
func endsLine(doc *domsnap.Document, i int) bool {
	n := &doc.Nodes[i]
	if n.Type != domsnap.ElementNode {
		return false
	}
	if n.Name == "BR" {
		return true
	}
	if n.Layout == nil || n.Layout.Style < 0 || n.Layout.Style >= len(doc.Styles) {
		return false // no box of its own (display: none or contents)
	}
	if blockLevel(doc.Styles[n.Layout.Style].Display) {
		return true
	}
	// The box it sits in: display: contents ancestors and shadow roots
	// make none of their own.
	p := int(n.Parent)
	for depth := 0; p >= 0 && depth < 32; depth++ {
		pn := &doc.Nodes[p]
		if pn.Layout != nil && pn.Layout.Style >= 0 && pn.Layout.Style < len(doc.Styles) {
			return itemContainer(doc.Styles[pn.Layout.Style].Display)
		}
		if pn.Type != domsnap.ElementNode && pn.Type != domsnap.FragmentNode {
			return false
		}
		p = int(pn.Parent)
	}
	return false
}

// blockLevel: a computed display whose box is block-level (or a table's
// row, cell or other part), as against inline-level or no box.
func blockLevel(display string) bool {
	switch display {
	case "", "inline", "contents", "none", "ruby", "ruby-text", "ruby-base", "math":
		return false
	}
	return !strings.HasPrefix(display, "inline") && !strings.HasPrefix(display, "-webkit-inline")
}

// itemContainer: a display whose children are flex or grid items.
func itemContainer(display string) bool {
	switch display {
	case "flex", "grid", "inline-flex", "inline-grid", "-webkit-box", "-webkit-inline-box":
		return true
	}
	return strings.HasSuffix(display, " flex") || strings.HasSuffix(display, " grid")
}
