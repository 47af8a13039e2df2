package fuse

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/paintorder"
)

// occlusion asks, in tree order, which nodes something painted later
// covers. A folded subtree holds nothing for it to look at.
func (v *view) occlusion(n *Node) {
	if n.fold != nil {
		return
	}
	if v.checks(n) {
		vd := v.coverCheck(n)
		if vd.Approximate {
			v.counts.Unchecked++
		}
		if vd.Occluded {
			n.status.occluded = true
			if vd.HasBy {
				n.status.cover = v.coverName(where{vd.By, true})
			}
		}
		if v.b.folded > 0 {
			v.covers[n.at] = append(v.covers[n.at], cover{n.status.occluded, n.status.cover})
		}
	}
	for _, c := range n.Children {
		v.occlusion(c)
	}
}

// coverCheck asks whether a node is covered: for a target, whether a
// click reaches it (hit testing); for text and other content, whether
// something opaque is painted over it. A clear overlay that takes clicks
// hides no text; an opaque one that takes none hides it.
func (v *view) coverCheck(n *Node) paintorder.Verdict {
	d, i := n.at.Doc, n.at.Node
	switch {
	case n.target != nil:
		return v.ix.Check(d, i)
	case n.Role == "text":
		s := v.ix.TextSight(d, i)
		return paintorder.Verdict{InViewport: true, Occluded: s.Reason == paintorder.SeenCovered, By: s.By, HasBy: s.HasBy}
	}
	return v.ix.PaintCheck(d, i)
}

func union(a, b layout.Box) layout.Box {
	x0, y0 := math.Min(a.X, b.X), math.Min(a.Y, b.Y)
	x1, y1 := math.Max(a.X+a.W, b.X+b.W), math.Max(a.Y+a.H, b.Y+b.H)
	return layout.Box{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

// coverName names what covers a node: the nearest element at or above the
// covering one that has an accessible name (role "name"), else its tag.
func (v *view) coverName(w where) string {
	if s, ok := v.names[w]; ok {
		return s
	}
	name := ""
	nodes := v.c.Documents[w.Doc].Nodes
	for k, depth := w.Node, 0; k >= 0 && depth < 256; k, depth = int(nodes[k].Parent), depth+1 {
		role, n, ok := v.b.axOf(w.Doc, nodes[k].Backend)
		if !ok || role == "RootWebArea" || role == "WebArea" {
			continue
		}
		if n != "" {
			name = safeRole(role) + " " + Quote(DisplayName(n))
			break
		}
		if landmarks[role] {
			name = safeRole(role)
			break
		}
	}
	if name == "" {
		name = strings.ToLower(nodes[w.Node].Name)
	}
	v.names[w] = name
	return name
}

// uncovered drops nodes that something painted later covers entirely; a run
// of them becomes one line naming the cover.
func (v *view) uncovered(ns []*Node) []*Node {
	var out []*Node
	lastCovered := -1
	for k, n := range ns {
		if n.status.occluded {
			lastCovered = k
		}
	}
	for k := 0; k < len(ns); k++ {
		n := ns[k]
		if n.status.clipped && n.target == nil || n.status.clipped && v.opts.Scope == "" {
			clipped := 0
			for ; k < len(ns) && ns[k].status.clipped; k++ {
				clipped += countNodes([]*Node{ns[k]})
			}
			k--
			v.counts.Clipped += clipped
			out = append(out, &Node{Role: "note", Text: plural(clipped, "element") + " clipped out of view by a scrolling or overflow-hidden container"})
			continue
		}
		if n.fold != nil {
			// Done when it was folded: count what it found.
			v.counts.Clipped += n.fold.clipped
			out = append(out, n)
			continue
		}
		if !n.status.occluded {
			out = append(out, n.withIfChanged(v.uncovered(n.Children)))
			continue
		}
		if v.opts.Scope != "" {
			// Asked for by name: print it, marked, with no ref to act on.
			cp := n.with(v.uncovered(n.Children))
			cp.States = append(append([]string(nil), n.States...), "covered")
			cp.target = nil
			out = append(out, cp)
			continue
		}
		// The run goes on through off-screen siblings that lie between
		// covered ones (a grid's rows under a banner and below the fold).
		covered, beyond := map[string]int{}, map[string]int{}
		cover := n.status.cover
		for ; k < len(ns) && (ns[k].status.occluded || k < lastCovered && v.direction(ns[k]) != ""); k++ {
			if ns[k].status.occluded {
				cover = ns[k].status.cover
			}
			c, o := v.splitCovered(ns[k])
			covered[cover] += c
			beyond[cover] += o
			v.counts.Occluded += c
			v.counts.Offscreen += o
		}
		k--
		out = append(out, coverNotes(covered, beyond)...)
	}
	return out
}

// splitCovered counts a covered subtree's nodes: those in the viewport
// (covered) and those wholly outside it (which the cover does not hide).
func (v *view) splitCovered(n *Node) (covered, beyond int) {
	if v.direction(n) != "" {
		return 0, countNodes([]*Node{n})
	}
	covered = 1
	for _, c := range n.Children {
		a, b := v.splitCovered(c)
		covered, beyond = covered+a, beyond+b
	}
	return covered, beyond
}

func coverNotes(covered, beyond map[string]int) []*Node {
	keys := make([]string, 0, len(covered))
	for k := range covered {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []*Node
	for _, k := range keys {
		by := k
		if by == "" {
			by = "another element"
		}
		text := fmt.Sprintf("%s covered by %s", plural(covered[k], "element"), by)
		if beyond[k] > 0 {
			text += fmt.Sprintf(" (%d more of it off-screen)", beyond[k])
		}
		out = append(out, &Node{Role: "note", Text: text})
	}
	return out
}
