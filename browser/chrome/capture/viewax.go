package capture

import (
	"context"
	"fmt"
	"time"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
)

// The AX nodes of the nodes a viewport pass kept, fetched per node or
// per query with bounded concurrency.

// axConcurrency bounds the per-node CDP calls in flight.
const axConcurrency = 64

// axPlan lists a document's kept nodes for fetching: every one (AX), and
// split into whole kept subtrees (roots) and the nodes above them
// (singles), for listeners.
type axPlan struct {
	roots, singles []int64
	nodes          []int64
}

func planOf(vd *viewDoc, doc *domsnap.Document) axPlan {
	var p axPlan
	for _, n := range doc.Nodes {
		if n.Type != domsnap.FragmentNode && n.Backend != 0 {
			p.nodes = append(p.nodes, n.Backend)
		}
	}
	pick := func(ks []int) []int64 {
		var out []int64
		for _, k := range ks {
			if k >= 0 && k < len(doc.Nodes) && doc.Nodes[k].Backend != 0 {
				out = append(out, doc.Nodes[k].Backend)
			}
		}
		return out
	}
	p.roots, p.singles = pick(vd.Whole), pick(vd.Above)
	return p
}

// partialAX fetches the AX node of every kept node with getPartialAXTree
// (fetchRelatives off: a row's siblings are the other 4,999 rows),
// documents in order. A node whose AX parent has no DOM node of its own (a
// select's popup, a slot of a details element's built-in shadow tree) is
// then fetched again with its relatives, which brings that parent in.
// (Accessibility.queryAXTree would fetch a whole subtree in one call, but
// crashed Chromium 156's renderer on a page still loading: 1 run in 5.)
// With reuse, the top document's nodes the last capture fetched and that
// are not fresh are taken from it (unless the result does not fit
// together, see fitsTogether); it returns what was fetched for each of
// the top document's nodes, for the next capture.
// answered, if not nil, is called once every query was answered, before
// the answers are converted.
func (e *Engine) partialAX(plans []axPlan, p *parts, reuse *axReuse, answered func()) ([][]domsnap.AXNode, map[int64][]*accessibility.Node) {
	start := time.Now()
	merged := make([][]*accessibility.Node, len(plans))
	calls, reused := 0, 0
	var keep map[int64][]*accessibility.Node
	for d, plan := range plans {
		r := reuse
		if d > 0 {
			r = nil
		}
		per, asked := e.fetchAXEach(plan.nodes, r)
		calls += asked
		if r != nil {
			reused += len(plan.nodes) - asked
			if !fitsTogether(per) {
				per, asked = e.fetchAXEach(plan.nodes, nil)
				calls += asked
				reused, r.alongside = 0, 0
			}
		}
		nodes := mergeAX(nil, per...)
		for round := 0; round < 3; round++ {
			orphans := orphanBackends(nodes)
			if len(orphans) == 0 {
				break
			}
			calls += len(orphans)
			nodes = mergeAX(nodes, e.fetchAX(orphans, axRelatives))
		}
		if d == 0 {
			keep = make(map[int64][]*accessibility.Node, len(plan.nodes))
			for i, b := range plan.nodes {
				if per[i] != nil {
					keep[b] = per[i]
				}
			}
		}
		merged[d] = nodes
	}
	if answered != nil {
		answered()
	}
	out := make([][]domsnap.AXNode, len(plans))
	for d, nodes := range merged {
		out[d] = convertAX(nodes)
	}
	step := fmt.Sprintf("AX of kept nodes (%d queries)", calls)
	if reuse != nil {
		step = fmt.Sprintf("AX of kept nodes (%d queries, %d as at the last capture)", calls, reused-reuse.alongside)
		if reuse.alongside > 0 {
			step = fmt.Sprintf("AX of kept nodes (%d queries, %d as at the last capture, %d asked alongside the pass)", calls, reused-reuse.alongside, reuse.alongside)
		}
	}
	p.time(step, start)
	return out, keep
}

// What fetchAX asks for each node.
const (
	axNode      = iota // the node itself
	axRelatives        // the node, its ancestors, siblings and children
)

// fetchAX runs getPartialAXTree on each node concurrently; the results keep
// the nodes' order, each AX node once.
func (e *Engine) fetchAX(backends []int64, what int) []*accessibility.Node {
	return mergeAX(nil, e.fetchAXQueries(backends, what)...)
}

// fetchAXEach gives each node's getPartialAXTree answer, taken from reuse
// where it may be, and how many were asked.
func (e *Engine) fetchAXEach(backends []int64, reuse *axReuse) ([][]*accessibility.Node, int) {
	out := make([][]*accessibility.Node, len(backends))
	var ask []int64
	var at []int
	for i, b := range backends {
		if ns := reuse.take(b); ns != nil {
			out[i] = ns
			continue
		}
		ask = append(ask, b)
		at = append(at, i)
	}
	for k, ns := range e.fetchAXQueries(ask, axNode) {
		out[at[k]] = ns
	}
	return out, len(ask)
}

func (e *Engine) fetchAXQueries(backends []int64, what int) [][]*accessibility.Node {
	got := make([][]*accessibility.Node, len(backends))
	parallel(len(backends), axConcurrency, func(i int) {
		_ = e.call("Accessibility.getPartialAXTree", func(ctx context.Context) error {
			r, err := cdpcall.Do(ctx, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{
				BackendNodeID: cdp.BackendNodeID(backends[i]), FetchRelatives: new(what == axRelatives)})
			if err == nil {
				got[i] = r.Nodes
			}
			return err
		})
	})
	return got
}

// mergeAX appends the nodes of each of more that nodes lacks, each once
// (one set for all: a capture merges hundreds of one-node answers).
func mergeAX(nodes []*accessibility.Node, more ...[]*accessibility.Node) []*accessibility.Node {
	seen := make(map[accessibility.NodeID]bool, len(nodes)+len(more))
	for _, a := range nodes {
		if a != nil {
			seen[a.NodeID] = true
		}
	}
	for _, ns := range more {
		for _, a := range ns {
			if a != nil && !seen[a.NodeID] {
				seen[a.NodeID] = true
				nodes = append(nodes, a)
			}
		}
	}
	return nodes
}

// orphanBackends are the nodes whose AX parent was not fetched.
func orphanBackends(nodes []*accessibility.Node) []int64 {
	have := make(map[accessibility.NodeID]bool, len(nodes))
	for _, a := range nodes {
		have[a.NodeID] = true
	}
	var out []int64
	for _, a := range nodes {
		if a.ParentID != "" && !have[a.ParentID] && a.BackendDOMNodeID != 0 {
			out = append(out, int64(a.BackendDOMNodeID))
		}
	}
	return out
}
