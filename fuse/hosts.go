package fuse

import (
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
)

// Hosts: targets Chrome made no AX node of. Chrome leaves many plain
// elements out of its accessibility tree: a <span style="cursor: pointer">
// beside a delegated row's button has no node, its text hangs straight
// from the cell, and the cell's name (from its contents) holds that text.
// Pruning the text already in a parent's name would then take the target
// with it. So as the children of a node are emitted, a run of them that
// such an element holds (an element between them and the node in the
// DOM, with DOM signals of a target) becomes that element's line, as an
// ignored element with the same signals would (roleless): a "clickable"
// named from its text, the text below it not repeated. Text folded into a
// parent's name never swallows a target.

// childLines gathers a node's child lines: merged as they come, or by
// child when a viewport capture's elided runs go among them.
type childLines struct {
	out    []*Node
	elided bool
	groups [][]*Node
	after  []int // per group, the DOM node the group stands for
}

// add takes the lines of one child (or of a host's run of children), from
// DOM node dom; left is how many children are still to come.
func (b *builder) addChild(acc *childLines, lines []*Node, dom, left int) {
	if acc.elided {
		acc.groups = append(acc.groups, lines)
		acc.after = append(acc.after, dom)
		return
	}
	if acc.out == nil && len(lines) > 0 {
		acc.out = make([]*Node, 0, max(len(lines), left))
	}
	acc.out = b.appendMerging(acc.out, lines)
}

// emitChildren emits AX nodes ids, the children of a node whose DOM node
// is top, into acc: each alone, or a run of consecutive ones that a host
// holds as the host's line.
func (b *builder) emitChildren(fd *frameData, ids []string, top int, sc scope, acc *childLines) {
	for j := 0; j < len(ids); j++ {
		k, ok := fd.byID.get(ids[j])
		if !ok {
			continue
		}
		h, reasons := b.hostOf(fd, k, top)
		if h < 0 {
			b.addChild(acc, b.emit(fd, k, sc), b.domIndex(fd, fd.f.AXNodes[k].Backend), len(ids)-j)
			continue
		}
		end := j + 1
		for ; end < len(ids); end++ {
			if k2, ok := fd.byID.get(ids[end]); ok {
				if h2, _ := b.hostOf(fd, k2, top); h2 != h {
					break
				}
			}
		}
		b.addChild(acc, b.hosted(fd, h, reasons, ids[j:end], sc), h, len(ids)-end+1)
		j = end - 1
	}
}

// hostAX stands for the AX node a host lacks when its signals are read.
var hostAX = domsnap.AXNode{Role: "generic"}

// hostOf finds the host of AX node k, a child of the node whose DOM node
// is top: the outermost element between the two in the DOM (Chrome made
// no AX node of any of them) with DOM signals of a target — a listener,
// isClickable, draggable="true", the start of a cursor: pointer run. -1
// when there is none (most nodes: their DOM parent is top).
func (b *builder) hostOf(fd *frameData, k, top int) (int, []string) {
	if b.axOnly || top < 0 {
		return -1, nil
	}
	d := b.domIndex(fd, fd.f.AXNodes[k].Backend)
	if d < 0 {
		return -1, nil
	}
	nodes := b.c.Documents[fd.doc].Nodes
	p := int(nodes[d].Parent)
	if p == top || p < 0 {
		return -1, nil
	}
	f := b.facts(fd)
	host, hostReasons := -1, []string(nil)
	for steps := 0; p != top; steps++ {
		if p < 0 || steps > 32 {
			return -1, nil // not below top (aria-owns moved it): no host
		}
		if f.kinds[p]&(hasListeners|isClickable|isDraggable) != 0 || f.has(p, cursorStart) {
			r := b.reasons(b.signals(fd, &hostAX, p))
			if len(r) > 0 && !(len(r) == 1 && r[0] == index.ReasonScrollable) && !b.g.IsGhost(fd.doc, p) {
				host, hostReasons = p, r
			}
		}
		p = int(nodes[p].Parent)
	}
	return host, hostReasons
}

// hosted is host h's line over the AX nodes ids it holds; or their lines
// as they are when h is no target of its own here: the ref'd ancestor's
// target (sameTarget), no place to click (arealess), a line already, or
// one of the nodes is a target with h's box.
func (b *builder) hosted(fd *frameData, h int, reasons []string, ids []string, sc scope) []*Node {
	var acc childLines
	if fd.hosts[h] || b.sameTarget(fd, h, sc) || b.arealess(fd.doc, h) || b.holdsSameTarget(fd, h, ids) {
		b.emitChildren(fd, ids, h, sc, &acc)
		return acc.out
	}
	if fd.hosts == nil {
		fd.hosts = map[int]bool{}
	}
	fd.hosts[h] = true
	n := b.node()
	name, fromText := b.rolelessName(fd, &hostAX, h)
	n.Role, n.Name = "clickable", name
	hs := b.markTarget(n, fd, -1-h, h, reasons, sc)
	hs.textCovered = hs.textCovered || fromText
	hs.depth++
	b.emitChildren(fd, ids, h, hs, &acc)
	n.Children = normalize(acc.out, b.textJoins)
	return b.settle(b.one(n))
}

// holdsSameTarget: one of AX nodes ids is a target with host h's box (a
// link the host's cursor run starts at): that target stands for h.
func (b *builder) holdsSameTarget(fd *frameData, h int, ids []string) bool {
	box, ok := b.g.Box(fd.doc, h)
	if !ok {
		return false
	}
	for _, id := range ids {
		k, ok := fd.byID.get(id)
		if !ok {
			continue
		}
		ax := &fd.f.AXNodes[k]
		d := b.domIndex(fd, ax.Backend)
		if d < 0 || textOnlyRoles[ax.Role] {
			continue
		}
		if c, ok := b.g.Box(fd.doc, d); ok && near(c, box) && len(b.reasons(b.signals(fd, ax, d))) > 0 {
			return true
		}
	}
	return false
}
