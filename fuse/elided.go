package fuse

import (
	"fmt"

	"github.com/axfuse/axfuse/domsnap"
)

// A viewport capture fetches only what meets the viewport; the subtrees
// beside it are counted in the page and come as domsnap.Elided runs. Each
// run becomes the line the off-screen pass would have made of it: a
// counted, collapsed line in its place among its siblings.

// elidedOf returns the runs hanging from DOM node dom of the frame's
// document, indexing them on first use.
func (b *builder) elidedOf(fd *frameData, dom int) []domsnap.Elided {
	if fd.doc < 0 || dom < 0 || len(b.c.Documents[fd.doc].Elided) == 0 {
		return nil
	}
	if fd.elided == nil {
		fd.elided = map[int][]domsnap.Elided{}
		for _, e := range b.c.Documents[fd.doc].Elided {
			fd.elided[e.Parent] = append(fd.elided[e.Parent], e)
		}
	}
	return fd.elided[dom]
}

// placeElided puts the runs among the lines of a node's children: a run
// follows the lines of the child it came after in the DOM (afterDOM lists,
// for each child's lines, that child's DOM index), first when it came
// first, last when its sibling was not emitted.
func (b *builder) placeElided(runs []domsnap.Elided, groups [][]*Node, afterDOM []int) []*Node {
	placed := make([]bool, len(runs))
	var out []*Node
	add := func(after int) {
		for k, e := range runs {
			if !placed[k] && e.After == after {
				placed[k] = true
				out = append(out, b.elidedNode(e)...)
			}
		}
	}
	add(-1)
	for g, lines := range groups {
		out = append(out, lines...)
		if afterDOM[g] >= 0 {
			add(afterDOM[g])
		}
	}
	for k, e := range runs {
		if !placed[k] {
			out = append(out, b.elidedNode(e)...)
		}
	}
	return out
}

// elidedNode is a run's line. It prints as collapsed already; the
// off-screen pass (which merges it with collapsed siblings lying the same
// way) reads its counts from elided.
func (b *builder) elidedNode(e domsnap.Elided) []*Node {
	role := clean(e.Role)
	if role == "" {
		role = "group"
	}
	n := &Node{Role: role, Name: clean(e.Name), elided: &e}
	if role == "heading" && e.Level > 0 {
		n.States = []string{fmt.Sprintf("level=%d", e.Level)}
	}
	n.States = append(n.States, collapsed(e.Dir, summary{roles: e.Roles}))
	b.visibleLine(n)
	return []*Node{n}
}

// ownStates are a node's states less the collapsed one an elided run
// carries.
func ownStates(n *Node) []string {
	if n.elided == nil || len(n.States) == 0 {
		return append([]string(nil), n.States...)
	}
	return append([]string(nil), n.States[:len(n.States)-1]...)
}
