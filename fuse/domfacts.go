package fuse

// DOM facts: per-document signals that need the tree around a node (a
// pointer cursor that starts there, delegated click listeners, scroll
// states), worked out once per document.

import (
	"fmt"
	"math"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
)

// domFacts are per-document DOM signals that need the tree around a node,
// one byte of bits per node (the scroll states, rare, by node), and a
// compact copy of what signals reads of every node: its kind and tag.
type domFacts struct {
	bits   []uint8
	scroll map[int]string // "scroll: 0% ↓ 2.1 screens" for scrollable containers
	kinds  []uint8
	tags   []string // lower-case node names
}

// Node kinds, one bit each.
const (
	isElement uint8 = 1 << iota
	isDocument
	isClickable  // DOMSnapshot's isClickable
	hasListeners // some listener
	ownsDocument // an iframe's document is in the capture
	mayPaint     // an iframe or pixelTag element: maybe a region (fallback.go)
	isDraggable  // draggable="true"
)

// DOM facts, one bit each.
const (
	cursorStart uint8 = 1 << iota // cursor: pointer where the parent's is not
	appRoot                       // a click listener serving three or more targets below
	delegated                     // below an app root, or below a root with a click listener
	pointer                       // computed cursor is pointer
	scrolls                       // has a scroll state
	// While the facts are worked out: a likely target (targetSignal), a
	// click listener, the document root (isRoot).
	signal
	listens
	root
)

func (f *domFacts) has(i int, bit uint8) bool { return f.bits[i]&bit != 0 }

// scrollOf is node i's scroll state, "" for none.
func (f *domFacts) scrollOf(i int) string {
	if !f.has(i, scrolls) {
		return ""
	}
	return f.scroll[i]
}

// minDelegated is how many targets below an element make its click
// listener a delegated one.
const minDelegated = 3

// facts works out the document's DOM facts: one pass over the nodes, then
// two over compact copies of what the others need (parents, bits).
func (b *builder) facts(fd *frameData) *domFacts {
	if fd.facts != nil {
		return fd.facts
	}
	doc := &b.c.Documents[fd.doc]
	n := len(doc.Nodes)
	f := &domFacts{bits: make([]uint8, n), scroll: map[int]string{}, kinds: make([]uint8, n), tags: make([]string, n)}
	below := make([]int, n) // target signals in the subtree, self excluded
	parents := make([]int32, n)
	for i := range doc.Nodes {
		node := &doc.Nodes[i]
		below[i], parents[i] = node.ElidedTargets, node.Parent
		f.bits[i] = b.ownFacts(fd, node, i, f)
		f.kinds[i], f.tags[i] = kindOf(node), b.lower(node.Name)
	}
	for i := n - 1; i > 0; i-- {
		if p := parents[i]; p >= 0 {
			below[p] += below[i]
			if f.has(i, signal) {
				below[p]++
			}
		}
	}
	for i := range f.bits {
		if f.has(i, listens) && !f.has(i, root) && below[i] >= minDelegated {
			f.bits[i] |= appRoot
		}
		if p := int(parents[i]); p >= 0 && (f.has(p, delegated|appRoot) || f.bits[p]&(root|listens) == root|listens) {
			f.bits[i] |= delegated
		}
	}
	for i := range f.bits {
		f.bits[i] &^= signal | listens | root
	}
	fd.facts = f
	return f
}

// ownFacts are node i's own bits: its cursor (pointer inherited), scroll
// state, and the signals the later passes read.
func (b *builder) ownFacts(fd *frameData, node *domsnap.Node, i int, f *domFacts) uint8 {
	var bits uint8
	if hasClick(node.Listeners) {
		bits |= listens
	}
	if isRoot(node) {
		bits |= root
	}
	if node.Type != domsnap.ElementNode || node.Layout == nil || node.Layout.Style < 0 {
		if p := node.Parent; p >= 0 {
			bits |= f.bits[p] & pointer
		}
		if targetSignal(node, false) {
			bits |= signal
		}
		return bits
	}
	doc := &b.c.Documents[fd.doc]
	st := &doc.Styles[node.Layout.Style]
	if st.Cursor == "pointer" {
		bits |= pointer
		parentPointer := node.Parent >= 0 && f.has(int(node.Parent), pointer)
		if !parentPointer && b.g.IsVisible(fd.doc, i) {
			bits |= cursorStart
		}
	}
	if s := scrollState(node, st); s != "" {
		bits |= scrolls
		f.scroll[i] = s
	}
	if targetSignal(node, bits&cursorStart != 0) {
		bits |= signal
	}
	return bits
}

func kindOf(n *domsnap.Node) uint8 {
	var k uint8
	switch n.Type {
	case domsnap.ElementNode:
		k |= isElement
		if draggable(n) {
			k |= isDraggable
		}
	case domsnap.DocumentNode:
		k |= isDocument
	}
	if n.Clickable {
		k |= isClickable
	}
	if len(n.Listeners) > 0 {
		k |= hasListeners
	}
	if n.ContentDocument > 0 {
		k |= ownsDocument
	}
	if n.Name == "IFRAME" || pixelTag(n.Name) {
		k |= mayPaint
	}
	return k
}

// isRoot: the document, html or body, where a listener is a delegated one.
func isRoot(n *domsnap.Node) bool {
	return n.Type == domsnap.DocumentNode || n.Name == "HTML" || n.Name == "BODY"
}

// hasClick: a click listener among the types (drag listeners never make
// an element a delegating app root).
func hasClick(types []string) bool {
	for _, t := range types {
		if index.IsClickListener(t) {
			return true
		}
	}
	return false
}

// draggable: the element says draggable="true" (an enumerated attribute,
// matched without regard to ASCII case, as the browser does). Images and
// links, draggable by default, are not targets for that.
func draggable(n *domsnap.Node) bool {
	v, ok := n.Attr("draggable")
	return ok && len(v) == 4 && strings.EqualFold(v, "true")
}

// targetSignal: what marks a likely target below a listener.
func targetSignal(n *domsnap.Node, cursorStart bool) bool {
	if n.Type != domsnap.ElementNode {
		return false
	}
	if cursorStart {
		return true
	}
	switch n.Name {
	case "BUTTON", "INPUT", "SELECT", "TEXTAREA":
		return true
	case "A":
		_, href := n.Attr("href")
		return href
	}
	if v, ok := n.Attr("tabindex"); ok && !strings.HasPrefix(strings.TrimSpace(v), "-") {
		return true
	}
	return false
}

// scrollState describes a container with content to scroll to, where it
// stands and how much is left: "scroll: 0% ↓ 2.1 screens".
func scrollState(n *domsnap.Node, st *domsnap.Style) string {
	l := n.Layout
	if l.Client == nil || l.Scroll == nil || n.Name == "HTML" || n.Name == "BODY" {
		return ""
	}
	scrollable := func(o string) bool { return o == "auto" || o == "scroll" || o == "overlay" }
	c, sc := l.Client, l.Scroll
	axis := func(pos, total, view float64, arrow string) string {
		if view <= 0 || total-view < 2 {
			return ""
		}
		pct := 100 * pos / (total - view)
		left := (total - pos - view) / view
		return fmt.Sprintf("scroll: %.0f%% %s %.1f screens", math.Max(0, math.Min(100, pct)), arrow, math.Max(0, left))
	}
	if scrollable(st.OverflowY) {
		if s := axis(sc.Y, sc.H, c.H, "↓"); s != "" {
			return s
		}
	}
	if scrollable(st.OverflowX) {
		return axis(sc.X, sc.W, c.W, "→")
	}
	return ""
}
