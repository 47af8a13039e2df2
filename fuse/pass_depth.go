package fuse

import (
	"fmt"
)

// depth keeps Options.Depth levels.
func (v *view) depth(roots []*Node) []*Node { return limitDepth(roots, v.opts.Depth, 1) }

// limitDepth cuts the tree below depth, with one line saying how much.
func limitDepth(ns []*Node, max, depth int) []*Node {
	out := make([]*Node, len(ns))
	for k, n := range ns {
		switch {
		case len(n.Children) == 0:
			out[k] = n
		case depth >= max:
			hidden := countNodes(n.Children)
			out[k] = n.with([]*Node{{Role: "note", Text: fmt.Sprintf("%s deeper than depth %d", plural(hidden, "node"), max)}})
		default:
			out[k] = n.with(limitDepth(n.Children, max, depth+1))
		}
	}
	return out
}
