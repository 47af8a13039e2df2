package capture

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/axfuse/axfuse/domsnap"

	"github.com/axfuse/axfuse/index"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/domdebugger"
	"github.com/chromedp/cdproto/runtime"
)

// listenerGroup is the object group that holds the handles the scan creates,
// released after each scan so that repeated snapshots do not pin objects.
const listenerGroup = "axfuse-listeners"

// discoverListeners fills p.listeners for one session's process. One
// DOMDebugger.getEventListeners on the document with depth -1 and pierce
// returns every listener below it — open and closed shadow roots and
// same-process iframes included — each with its node's backendNodeId: one
// round trip, no cap, and nothing runs in the page's world, so a page cannot
// hide or fake its listeners. A failed scan is a timing note; the snapshot's
// isClickable flags still stand.
func (e *Engine) discoverListeners(ctx context.Context, p *parts) {
	start := time.Now()
	found, err := e.documentListeners(ctx)
	step := "listener discovery"
	p.mu.Lock()
	p.listeners = found
	p.mu.Unlock()
	p.timeFailed(step, err, start)
}

// documentListeners scans the document of a session for target listeners
// (click and drag, index.IsTargetListener): one getEventListeners call.
func (e *Engine) documentListeners(ctx context.Context) (map[int64][]string, error) {
	var found map[int64][]string
	err := e.callIn(ctx, "listener discovery", func(ctx context.Context) error {
		doc, err := cdpcall.Do(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: "document", ObjectGroup: listenerGroup, Silent: new(true)})
		if err != nil {
			return err
		}
		defer cdpcall.Do(ctx, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: listenerGroup})
		if doc.Result == nil || doc.Result.ObjectID == "" {
			return fmt.Errorf("no document object")
		}
		res, err := cdpcall.Do(ctx, domdebugger.GetEventListeners, domdebugger.GetEventListenersParams{
			ObjectID: doc.Result.ObjectID, Depth: new(int64(-1)), Pierce: new(true),
		})
		if err != nil {
			return err
		}
		found = targetListeners(res.Listeners)
		return nil
	})
	return found, err
}

// targetListeners groups the listeners that make targets (click and drag
// types, index.IsTargetListener) by node: backendNodeId to the sorted,
// distinct types.
func targetListeners(ls []*domdebugger.EventListener) map[int64][]string {
	out := map[int64][]string{}
	for _, l := range ls {
		if l == nil || l.BackendNodeID == 0 || !index.IsTargetListener(l.Type) {
			continue
		}
		id := int64(l.BackendNodeID)
		if !slices.Contains(out[id], l.Type) {
			out[id] = append(out[id], l.Type)
		}
	}
	for _, types := range out {
		slices.Sort(types)
	}
	return out
}

// viewListeners finds the target listeners (click and drag) of the kept
// nodes. Each DevTools call costs ~0.3 ms of the renderer whatever it
// returns, while a scan of the whole document costs ~2 µs an element (plus
// ~25 µs a listener): on a page of a few thousand elements, one scan (the full
// capture's) beats hundreds of per-node queries (measured on the corpus:
// 341 queries 330 ms, the scan 6–14 ms). Past wholeScanFactor elements per
// query, the kept nodes are asked one by one: DOMDebugger.getEventListeners
// with depth -1 (pierce) on each whole kept subtree, depth 0 on each node
// above them, so that a huge page is not walked.
func (e *Engine) viewListeners(docs []domsnap.Document, plans []axPlan, walked int, p *parts) error {
	start := time.Now()
	byBackend := map[int64]*domsnap.Node{}
	for d := range docs {
		for i := range docs[d].Nodes {
			if n := &docs[d].Nodes[i]; n.Type == domsnap.ElementNode || n.Type == domsnap.DocumentNode {
				byBackend[n.Backend] = n
			}
		}
	}
	var asks []listenerAsk
	for _, plan := range plans {
		for _, b := range plan.roots {
			asks = append(asks, listenerAsk{b, -1})
		}
		for _, b := range plan.singles {
			if byBackend[b] != nil {
				asks = append(asks, listenerAsk{b, 0})
			}
		}
	}
	var found map[int64][]string
	var err error
	step := "listeners of kept nodes (one document scan)"
	if walked <= wholeScanFactor*len(asks) {
		found, err = e.documentListeners(e.ctx())
	} else {
		step = fmt.Sprintf("listeners of kept nodes (%d queries)", len(asks))
		found, err = e.askListeners(asks)
	}
	for id, types := range found {
		if n := byBackend[id]; n != nil {
			n.Listeners = types
			// As DOMSnapshot's isClickable: a click listener, not a drag one.
			if slices.ContainsFunc(types, index.IsClickListener) {
				n.Clickable = true
			}
		}
	}
	p.timeFailed(step, err, start)
	return err
}

// wholeScanFactor: the viewport capture scans the whole document for
// listeners when the page has at most this many elements per node it would
// otherwise ask about (a query ~0.3 ms, a scanned element ~2 µs, listeners
// aside: with a listener on every other element, the scan still wins up to
// ~25 elements a query).
const wholeScanFactor = 20

// A listenerAsk is one per-node listener query: depth -1 for a whole kept
// subtree, 0 for the node alone.
type listenerAsk struct {
	backend int64
	depth   int64
}

// askListeners asks the listeners of each node. Pierce is asked of every
// query, a single node's too: with it Chrome reports the listeners of
// every world, as the document scan (documentListeners) does, so that a
// node reads the same whichever way it was asked. (axfuse's own scripts
// keep their listeners off the page's nodes: quiet.js listens on the
// window.)
func (e *Engine) askListeners(asks []listenerAsk) (map[int64][]string, error) {
	if len(asks) == 0 {
		return nil, nil
	}
	var all []*domdebugger.EventListener
	var failed error
	var mu sync.Mutex
	parallel(len(asks), axConcurrency, func(k int) {
		a := asks[k]
		err := e.call("listeners of kept nodes", func(ctx context.Context) error {
			obj, err := cdpcall.Do(ctx, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: cdp.BackendNodeID(a.backend), ObjectGroup: listenerGroup})
			if err != nil {
				return err
			}
			if obj.Object == nil || obj.Object.ObjectID == "" {
				return nil
			}
			r, err := cdpcall.Do(ctx, domdebugger.GetEventListeners, domdebugger.GetEventListenersParams{
				ObjectID: obj.Object.ObjectID, Depth: new(a.depth), Pierce: new(true)})
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			for _, l := range r.Listeners {
				if l != nil && l.BackendNodeID == 0 {
					l.BackendNodeID = cdp.BackendNodeID(a.backend)
				}
				all = append(all, l)
			}
			return nil
		})
		if err != nil {
			mu.Lock()
			failed = err
			mu.Unlock()
		}
	})
	_ = e.call("release listener handles", func(ctx context.Context) error {
		_, err := cdpcall.Do(ctx, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: listenerGroup})
		return err
	})
	return targetListeners(all), failed
}
