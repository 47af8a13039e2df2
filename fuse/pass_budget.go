package fuse

import (
	"fmt"
	"math"
	"sort"
)

// The token budget. When the view is larger than Options.MaxTokens, whole
// lines are kept in this order until the budget is spent: what is in the
// viewport, then by distance from it, interactive elements before the rest
// at the same distance, then document order. A kept line brings its
// ancestors. Each run of siblings left out becomes one counted line, and a
// last note says what was left out and how to reach it. Lines are never cut.

// refTokens is what "[ref=e123]" adds to a line once refs are handed out.
const refTokens = 6

// budgetNode is one line of the view, flattened for ranking.
type budgetNode struct {
	n      *Node
	parent int // index in the flat list, -1 for a root
	cost   int
	inView bool
	dist   float64
	target bool
	kept   bool
}

// budgeted cuts the view to Options.MaxTokens.
func (v *view) budgeted(roots []*Node) []*Node { return v.budget(roots, v.opts.MaxTokens) }

// budget cuts roots to fit max tokens, counting refs to come.
func (v *view) budget(roots []*Node, max int) []*Node {
	if fits(formatOf(v.opts), roots, max) {
		return roots
	}
	limit := max * 9 / 10
	var out []*Node
	for range 6 {
		var left summary
		out, left = v.cut(roots, limit)
		out = append(out, budgetNote(max, left, v.opts.FindHint))
		if fits(formatOf(v.opts), out, max) {
			return out
		}
		limit = limit * 8 / 10
	}
	return out
}

// fits counts the text's tokens exactly, plus the refs it will get.
func fits(f Format, roots []*Node, max int) bool {
	targets := 0
	walkNodes(roots, func(n *Node) {
		if n.target != nil {
			targets++
		}
	})
	return CountTokens(Text(f, roots))+targets*refTokens <= max
}

func walkNodes(ns []*Node, f func(*Node)) {
	for _, n := range ns {
		f(n)
		walkNodes(n.Children, f)
	}
}

// cut keeps the best-ranked lines within about limit tokens (estimated)
// and returns the new roots and what was left out.
func (v *view) cut(roots []*Node, limit int) ([]*Node, summary) {
	flat := v.flatten(roots)
	order := make([]int, len(flat))
	for i := range order {
		order[i] = i
	}
	bucket := math.Max(v.g.Viewport.Height/2, 1)
	sort.SliceStable(order, func(a, b int) bool {
		x, y := &flat[order[a]], &flat[order[b]]
		if x.inView != y.inView {
			return x.inView
		}
		if bx, by := math.Floor(x.dist/bucket), math.Floor(y.dist/bucket); bx != by {
			return bx < by
		}
		if x.target != y.target {
			return x.target
		}
		return order[a] < order[b]
	})
	spent := 0
	for _, i := range order {
		cost := 0
		for k := i; k >= 0 && !flat[k].kept; k = flat[k].parent {
			cost += flat[k].cost
		}
		if spent+cost > limit {
			continue
		}
		spent += cost
		for k := i; k >= 0 && !flat[k].kept; k = flat[k].parent {
			flat[k].kept = true
		}
	}
	left := summary{roles: map[string]int{}}
	return rebuild(roots, flat, new(int), &left), left
}

// flatten lists the view's nodes in document order with their rank data.
func (v *view) flatten(roots []*Node) []budgetNode {
	var flat []budgetNode
	var walk func(ns []*Node, parent int, dist float64, inView bool)
	walk = func(ns []*Node, parent int, dist float64, inView bool) {
		for _, n := range ns {
			d, in := dist, inView
			if n.status.hasSpan {
				d, in = v.distance(n), v.direction(n) == ""
			}
			flat = append(flat, budgetNode{n: n, parent: parent, cost: v.lineCost(n), inView: in, dist: d, target: n.target != nil})
			walk(n.Children, len(flat)-1, d, in)
		}
	}
	walk(roots, -1, 0, true)
	return flat
}

// distance is how far a node's subtree lies outside the viewport, in px.
func (v *view) distance(n *Node) float64 {
	s := n.status.span
	vw, vh := v.g.Viewport.Width, v.g.Viewport.Height
	dx := math.Max(0, math.Max(-(s.X+s.W), s.X-vw))
	dy := math.Max(0, math.Max(-(s.Y+s.H), s.Y-vh))
	return dx + dy
}

// lineCost estimates a node's own line in tokens, its ref included.
func (v *view) lineCost(n *Node) int {
	c := formatOf(v.opts).LineCost(n)
	if n.target != nil {
		c += refTokens
	}
	return c
}

// rebuild copies the kept nodes; each run of dropped siblings becomes one
// counted line. i walks the flat list in step with the tree.
func rebuild(ns []*Node, flat []budgetNode, i *int, left *summary) []*Node {
	var out []*Node
	var run []*Node
	flush := func() {
		if len(run) > 0 {
			s := summarize(run)
			out = append(out, &Node{Role: "note", Text: leftOut(s, run)})
			left.add(s)
			run = nil
		}
	}
	runCost := 0
	for _, n := range ns {
		k := *i
		*i += 1
		if !flat[k].kept {
			runCost += subtreeCost(flat, k, i)
			run = append(run, n)
			continue
		}
		if runCost <= noteCost {
			out, run = append(out, run...), nil // cheaper than saying it was cut
		}
		flush()
		runCost = 0
		out = append(out, n.with(rebuild(n.Children, flat, i, left)))
	}
	if runCost <= noteCost {
		out, run = append(out, run...), nil
	}
	flush()
	return out
}

// noteCost is about what a "left out" line costs; a smaller run is kept.
const noteCost = 12

// subtreeCost sums the costs of node k's subtree and advances i past it.
func subtreeCost(flat []budgetNode, k int, i *int) int {
	c := flat[k].cost
	end := *i
	skip(flat[k].n.Children, &end)
	for j := *i; j < end; j++ {
		c += flat[j].cost
	}
	*i = end
	return c
}

// skip advances i past a dropped subtree.
func skip(ns []*Node, i *int) {
	for _, n := range ns {
		*i += 1
		skip(n.Children, i)
	}
}

// leftOut words a run of dropped siblings, s summing them up: "1193
// rows, 1193 links, 1193 buttons left out for the token budget" (the big
// capture's table with OffscreenKeep, cut to 600 tokens).
func leftOut(s summary, run []*Node) string {
	return fmt.Sprintf("%s left out for the token budget", describeCounts(s, countNodes(run)))
}

// budgetNote is the last line of a cut view: what is missing and how to
// get it, such as "cut to fit 600 tokens: 1194 rows, 1193 links, 1194
// buttons left out; search with find (role, name, text) or print one part
// with a scope" (hint empty).
func budgetNote(max int, left summary, hint string) *Node {
	total := 0
	for _, c := range left.roles {
		total += c
	}
	if hint == "" {
		hint = "search with find (role, name, text) or print one part with a scope"
	}
	return &Node{Role: "note", Text: fmt.Sprintf("cut to fit %d tokens: %s left out; %s", max, describeCounts(left, total), hint)}
}
