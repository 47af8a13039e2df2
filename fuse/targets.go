package fuse

// Targets: interactive elements marked on their lines (refs come later,
// in output order), and the DOM-only ones: when an element that only DOM
// signals mark is a target of its own.

import (
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/layout"
)

// target is an interactive element before it gets its ref.
type target struct {
	key     domsnap.Key
	ax      int // the AX node of the line, in its frame (-1-dom for a host)
	reasons []string
	tag     string
}

// roleless makes a "clickable" line for an element that only DOM signals
// (a listener, isClickable) mark as interactive; nil when there are none.
func (b *builder) roleless(fd *frameData, i, dom int, sc scope) []*Node {
	if dom < 0 {
		return nil
	}
	ax := &fd.f.AXNodes[i]
	reasons := b.reasons(b.signals(fd, ax, dom))
	if len(reasons) == 0 || b.sameTarget(fd, dom, sc) || b.arealess(fd.doc, dom) {
		return nil
	}
	if len(reasons) == 1 && reasons[0] == index.ReasonScrollable {
		// A scroll container: no name from its (long) text.
		n := b.node()
		n.Role, n.States = "scrollable", []string{b.facts(fd).scrollOf(dom)}
		if v, ok := b.c.Documents[fd.doc].Nodes[dom].Attr("aria-label"); ok {
			n.Name = clean(v)
		}
		sc = b.markTarget(n, fd, i, dom, reasons, sc)
		n.Children = b.children(fd, i, dom, sc)
		return b.one(n)
	}
	name, fromText := b.rolelessName(fd, ax, dom)
	n := b.node()
	n.Role, n.Name = "clickable", name
	sc = b.markTarget(n, fd, i, dom, reasons, sc)
	sc.textCovered = sc.textCovered || fromText
	n.Children = b.children(fd, i, dom, sc)
	return b.one(n)
}

// arealess: an element laid out with no area and nothing with an area
// inside it (an empty 1280×0 div with an onclick) is no place to click.
// Past a few dozen descendants it is assumed to have some.
func (b *builder) arealess(doc, dom int) bool {
	box, ok := b.g.Box(doc, dom)
	if !ok || box.W > 0 && box.H > 0 {
		return false
	}
	end := int(b.g.Docs[doc].End[dom])
	if end-dom > 64 {
		return false
	}
	for k := dom + 1; k <= end; k++ {
		if c, ok := b.g.Box(doc, k); ok && c.W > 0 && c.H > 0 {
			return false
		}
	}
	return true
}

// sameTarget: a DOM-only target with the box of the ref'd ancestor it sits
// in, or inside a button or link (whose activation it triggers anyway), is
// that ancestor: one target, one ref.
func (b *builder) sameTarget(fd *frameData, dom int, sc scope) bool {
	if !sc.hasRefBox {
		return false
	}
	box, ok := b.g.Box(fd.doc, dom)
	if !ok {
		return false
	}
	return near(box, sc.refBox) || (activators[sc.refRole] && inside(box, sc.refBox))
}

var activators = map[string]bool{"button": true, "link": true, "menuitem": true, "tab": true, "option": true, "checkbox": true, "radio": true, "switch": true}

func inside(a, b layout.Box) bool {
	return a.X >= b.X-1 && a.Y >= b.Y-1 && a.X+a.W <= b.X+b.W+1 && a.Y+a.H <= b.Y+b.H+1
}

func near(a, b layout.Box) bool {
	d := func(x, y float64) bool { return x-y < 2 && y-x < 2 }
	return d(a.X, b.X) && d(a.Y, b.Y) && d(a.W, b.W) && d(a.H, b.H)
}

// markTarget records an interactive element; refs are handed out later,
// in output order, to the targets that stay in the view. i is its AX node,
// or -1-dom for an element Chrome made no AX node of (hosts.go).
func (b *builder) markTarget(n *Node, fd *frameData, i, dom int, reasons []string, sc scope) scope {
	n.at = b.where(fd, dom)
	if len(reasons) == 0 {
		return sc
	}
	var backend int64
	if i >= 0 {
		backend = fd.f.AXNodes[i].Backend
	} else {
		backend = b.c.Documents[fd.doc].Nodes[dom].Backend // a host (hosts.go)
	}
	t := &target{key: domsnap.Key{Frame: fd.f.FrameID, Backend: backend}, ax: i, reasons: reasons}
	if dom >= 0 {
		t.tag = b.facts(fd).tags[dom]
		if box, ok := b.g.Box(fd.doc, dom); ok {
			sc.refBox, sc.hasRefBox, sc.refRole = box, true, n.Role
		}
	}
	n.target = t
	if dom >= 0 && !b.axOnly && b.takesNoPointer(fd.doc, dom) {
		// No click reaches it: a press there goes to what lies under it.
		// It keeps its ref (the keyboard reaches it), marked so.
		n.States = append(n.States, NoPointer)
	}
	return sc
}

// NoPointer is the state of a target no click reaches (pointer-events:
// none on it, computed, so set on it or inherited from above): a click
// there lands on what lies under it, and act refuses one before any event.
const NoPointer = "no pointer"

// takesNoPointer: the element's computed pointer-events is none.
func (b *builder) takesNoPointer(doc, dom int) bool {
	d := &b.c.Documents[doc]
	node := &d.Nodes[dom]
	if node.Layout == nil || node.Layout.Style < 0 || node.Layout.Style >= len(d.Styles) {
		return false
	}
	return d.Styles[node.Layout.Style].PointerEvents == "none"
}
