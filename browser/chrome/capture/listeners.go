package capture

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"

	"github.com/axfuse/axfuse/index"
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
	if err != nil {
		step += " (failed: " + err.Error() + ")"
	}
	p.mu.Lock()
	p.listeners = found
	p.mu.Unlock()
	p.time(step, start)
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
