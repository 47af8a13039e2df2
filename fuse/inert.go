package fuse

import (
	"strconv"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
)

// Inert content. Chrome's AX tree leaves out an inert subtree (the inert
// attribute: a page behind a drawer, a form being sent; the page behind a
// modal dialog) as if it were not rendered, but it is painted: a person
// reads it, and cannot act on it.
// Its seen text prints as text lines with no refs, judged by sight like
// any text; its controls get no lines (nothing can be done to them).

// maxInertTexts bounds the text nodes read from one inert subtree.
const maxInertTexts = 2000

// withInert appends the text lines of the inert elements among DOM node
// dom's children, which the AX tree left out: those with the inert
// attribute, and, under AX node i that a modal dialog made Chrome leave
// out, every one (the page behind the dialog).
func (b *builder) withInert(fd *frameData, i, dom int, sc scope, out []*Node) []*Node {
	if dom < 0 || fd.doc < 0 || sc.textCovered || b.axOnly {
		return out
	}
	behind := ignoredFor(&fd.f.AXNodes[i], "activeModalDialog")
	for _, k := range b.domKids(fd, dom) {
		if !b.inertRoot(fd.doc, k, behind) {
			continue
		}
		out = append(out, b.inertLines(fd, k)...)
	}
	return out
}

// ignoredFor: AX node ax is ignored for this reason.
func ignoredFor(ax *domsnap.AXNode, reason string) bool {
	for _, r := range ax.IgnoredReasons {
		if r == reason {
			return true
		}
	}
	return false
}

// inertRoot: element k, laid out, carries the inert attribute (or lies
// behind a modal dialog) and the AX tree has no node for it.
func (b *builder) inertRoot(doc, k int, behindModal bool) bool {
	n := &b.c.Documents[doc].Nodes[k]
	if n.Type != domsnap.ElementNode || n.Layout == nil {
		return false
	}
	if _, ok := n.Attr("inert"); !ok && !behindModal {
		return false
	}
	return !b.inAXTree(doc, n.Backend)
}

// inertLines are the seen texts of inert element k, in document order.
func (b *builder) inertLines(fd *frameData, k int) []*Node {
	doc := &b.c.Documents[fd.doc]
	end := int(b.g.Docs[fd.doc].End[k])
	var lines []*Node
	read := 0
	for t := k + 1; t <= end && t < len(doc.Nodes) && read < maxInertTexts; t++ {
		n := &doc.Nodes[t]
		if n.Type == domsnap.ElementNode && n.Backend != 0 && b.inAXTree(fd.doc, n.Backend) {
			t = int(b.g.Docs[fd.doc].End[t]) // the AX tree has it (a modal dialog): its own lines
			continue
		}
		if n.Type != domsnap.TextNode || n.Layout == nil || strings.TrimSpace(n.Value) == "" || !b.inertTextShows(fd.doc, t) {
			continue
		}
		read++
		if why := b.sightOf(fd.doc, t, false); why != "" {
			b.withhold("text", why, n.Value, fd.doc, t)
			continue
		}
		line := b.node()
		line.Role, line.Text, line.at = "text", clean(n.Value), b.where(fd, t)
		line.owner = "inert:" + strconv.Itoa(int(n.Parent))
		line.run, line.inert = b.lineRunOf(fd, t), true
		lines = append(lines, b.settle(b.one(line))...)
	}
	return lines
}

// inertTextShows: text node t is rendered where a person could see it:
// its element is visible (not visibility: hidden, not at opacity 0) and
// not clipped to nothing (screen-reader-only text is for the AX tree,
// which leaves this subtree out).
func (b *builder) inertTextShows(doc, t int) bool {
	p := int(b.c.Documents[doc].Nodes[t].Parent)
	return p >= 0 && b.g.IsVisible(doc, p) && !b.g.IsUnseen(doc, t) && !b.g.CutAway(doc, t)
}
