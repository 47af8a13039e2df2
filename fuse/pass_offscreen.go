package fuse

import (
	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/paintorder"
)

// offscreen collapses every subtree, or run of siblings, that lies wholly
// outside the viewport grown by the margin. (It counts with keptNodes: a
// folded node holds what the uncovered pass kept below it.)
func (v *view) offscreen(ns []*Node) []*Node {
	var out []*Node
	for k := 0; k < len(ns); k++ {
		n := ns[k]
		dir := v.direction(n)
		switch {
		case dir == "":
			out = append(out, n.with(v.offscreen(n.Children)))
		case n.Role == "heading":
			// The heading stays named and carries the run that follows it.
			run := n.Children
			for k+1 < len(ns) && v.direction(ns[k+1]) == dir && ns[k+1].Role != "heading" && !landmarks[ns[k+1].Role] {
				k++
				run = append(run, ns[k])
			}
			v.counts.Offscreen += keptNodes(run) + foldedBelow(n)
			if n.elided != nil {
				v.counts.Offscreen += n.elided.Nodes
			}
			states := ownStates(n)
			if v.opts.Offscreen == OffscreenDrop {
				continue
			}
			out = append(out, &Node{Role: n.Role, Name: n.Name, bidi: n.bidi, States: append(states, collapsed(dir, below(n, run)))})
		case landmarks[n.Role] && (n.Name != "" || n.Role != "list"):
			if v.opts.Offscreen == OffscreenDrop {
				v.counts.Offscreen += keptNodes([]*Node{n})
				continue
			}
			counts := below(n, n.Children)
			v.counts.Offscreen += keptNodes(n.Children) + foldedBelow(n)
			if n.elided != nil {
				v.counts.Offscreen += n.elided.Nodes
			}
			out = append(out, &Node{Role: n.Role, Name: n.Name, bidi: n.bidi, States: append(ownStates(n), collapsed(dir, counts))})
		default:
			run := []*Node{n}
			for k+1 < len(ns) && v.direction(ns[k+1]) == dir && ns[k+1].Role != "heading" && !landmarks[ns[k+1].Role] {
				k++
				run = append(run, ns[k])
			}
			v.counts.Offscreen += keptNodes(run)
			if v.opts.Offscreen == OffscreenDrop {
				continue
			}
			out = append(out, &Node{Role: runRole(run), States: []string{collapsed(dir, summarize(run))}})
		}
	}
	return out
}

// foldedBelow is how many lines below a folded node the uncovered pass
// kept (0 for other nodes).
func foldedBelow(n *Node) int {
	if n.fold == nil {
		return 0
	}
	return n.fold.kept
}

// below sums up what a collapsed line n stands for: what it holds below
// it when elided or folded, then lines (its children, or the run after a
// heading).
func below(n *Node, lines []*Node) summary {
	s := summary{roles: map[string]int{}}
	s.addBelow(n)
	s.addLines(lines)
	return s
}

// direction says where a node's subtree lies when it is wholly outside the
// viewport (plus margin): "above", "below", "left", "right"; "" when any of
// it is inside, or its place is unknown.
func (v *view) direction(n *Node) string {
	if n.elided != nil {
		return n.elided.Dir
	}
	if n.fold != nil {
		return n.fold.dir
	}
	if !n.status.hasSpan {
		return ""
	}
	s, m := n.status.span, v.opts.Margin
	vw, vh := v.g.Viewport.Width, v.g.Viewport.Height
	switch {
	case s.Y >= vh+m:
		return "below"
	case s.Y+s.H <= -m:
		return "above"
	case s.X >= vw+m:
		return "right"
	case s.X+s.W <= -m:
		return "left"
	}
	// A subtree that only peeks in across an edge by a few pixels is no
	// place to click yet (paintorder draws the same line).
	in := layout.Intersect(s, v.g.ViewportBox(m))
	switch {
	case in.H < paintorder.MinPeek && in.H < s.H && s.Y+s.H/2 > vh/2:
		return "below"
	case in.H < paintorder.MinPeek && in.H < s.H:
		return "above"
	case in.W < paintorder.MinPeek && in.W < s.W && s.X+s.W/2 > vw/2:
		return "right"
	case in.W < paintorder.MinPeek && in.W < s.W:
		return "left"
	}
	return ""
}

func runRole(run []*Node) string {
	role := run[0].Role
	for _, n := range run[1:] {
		if n.Role != role {
			return "group"
		}
	}
	return role
}
