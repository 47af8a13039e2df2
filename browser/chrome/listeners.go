package chrome

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

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
func (t *Tab) discoverListeners(ctx context.Context, p *parts) {
	start := time.Now()
	found, err := t.documentListeners(ctx)
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
func (t *Tab) documentListeners(ctx context.Context) (map[int64][]string, error) {
	var found map[int64][]string
	err := t.callIn(ctx, "listener discovery", func(ctx context.Context) error {
		doc, err := do(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: "document", ObjectGroup: listenerGroup, Silent: new(true)})
		if err != nil {
			return err
		}
		defer do(ctx, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: listenerGroup})
		if doc.Result == nil || doc.Result.ObjectID == "" {
			return fmt.Errorf("no document object")
		}
		res, err := do(ctx, domdebugger.GetEventListeners, domdebugger.GetEventListenersParams{
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

// evaluateDeep evaluates expr and returns its deep-serialized value, which
// carries each DOM node's backendNodeId: one round trip for any number of
// nodes.
func (t *Tab) evaluateDeep(step, expr string, depth int64, commandLine bool) ([]byte, error) {
	var out []byte
	err := t.call(step, func(ctx context.Context) error {
		var err error
		out, err = evaluateDeepWith(ctx, expr, depth, commandLine)
		return err
	})
	return out, err
}

// evaluateDeepIn is evaluateDeep within a call already made.
func (t *Tab) evaluateDeepIn(ctx context.Context, expr string, depth int64) ([]byte, error) {
	return evaluateDeepWith(ctx, expr, depth, false)
}

func evaluateDeepWith(ctx context.Context, expr string, depth int64, commandLine bool) ([]byte, error) {
	res, err := do(ctx, runtime.Evaluate, runtime.EvaluateParams{
		Expression:            expr,
		IncludeCommandLineAPI: &commandLine,
		Silent:                new(true),
		SerializationOptions:  nodeSerialization(depth),
	})
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, fmt.Errorf("script threw: %s", res.ExceptionDetails.Text)
	}
	if res.Result == nil || res.Result.DeepSerializedValue == nil {
		return nil, fmt.Errorf("no result")
	}
	return res.Result.DeepSerializedValue.Value, nil
}

// nodeSerialization asks for a result deep-serialized depth levels down,
// each DOM node in it as its backendNodeId and loaderId only.
func nodeSerialization(depth int64) *runtime.SerializationOptions {
	return &runtime.SerializationOptions{
		Serialization:        "deep",
		MaxDepth:             &depth,
		AdditionalParameters: []byte(`{"maxNodeDepth":0,"includeShadowTree":"none"}`),
	}
}

// serialized is the shape of one deep-serialized value.
type serialized struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
	Ref   int64           `json:"weakLocalObjectReference"`
}
