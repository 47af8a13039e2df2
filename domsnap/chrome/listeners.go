package chrome

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// listenerScan finds every element (open shadow roots and same-origin
// iframes included) with a click-like listener in one Runtime.evaluate. The
// Command Line API's getEventListeners sees addEventListener and on*
// handlers alike. The result is deep-serialized, which gives each element's
// backendNodeId, so the cost is one round trip whatever the page's size, and
// there is no cap on the number of elements.
const listenerScan = `(() => {
  const types = ['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup'];
  const out = [];
  const check = (el) => {
    let l;
    try { l = getEventListeners(el); } catch (e) { return; }
    const found = types.filter((t) => l[t] && l[t].length);
    if (found.length) out.push([el, found.join(',')]);
  };
  const visit = (root) => {
    check(root);
    for (const el of root.querySelectorAll('*')) {
      check(el);
      if (el.shadowRoot) visit(el.shadowRoot);
      if (el.contentDocument) { try { visit(el.contentDocument); } catch (e) {} }
    }
  };
  visit(document);
  return out;
})()`

// discoverListeners fills p.listeners. A page can break the scan (it runs in
// the page's own world, where getEventListeners sees its listeners); then
// the snapshot's isClickable flags still stand, and the failure is recorded
// as a timing note rather than failing the capture.
func (t *Tab) discoverListeners(p *parts) {
	start := time.Now()
	raw, err := t.evaluateDeep("listener discovery", listenerScan, 2, true)
	if err == nil {
		p.listeners, err = decodeListeners(raw)
	}
	step := "listener discovery"
	if err != nil {
		step += " (failed: " + err.Error() + ")"
	}
	p.time(step, start)
}

// evaluateDeep evaluates expr and returns its deep-serialized value, which
// carries each DOM node's backendNodeId: one round trip for any number of
// nodes.
func (t *Tab) evaluateDeep(step, expr string, depth int64, commandLine bool) ([]byte, error) {
	var out []byte
	err := t.call(step, func(ctx context.Context) error {
		res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{
			Expression:            expr,
			IncludeCommandLineAPI: &commandLine,
			Silent:                new(true),
			SerializationOptions: &runtime.SerializationOptions{
				Serialization:        "deep",
				MaxDepth:             &depth,
				AdditionalParameters: []byte(`{"maxNodeDepth":0,"includeShadowTree":"none"}`),
			},
		})
		if err != nil {
			return err
		}
		if res.ExceptionDetails != nil {
			return fmt.Errorf("script threw: %s", res.ExceptionDetails.Text)
		}
		if res.Result == nil || res.Result.DeepSerializedValue == nil {
			return fmt.Errorf("no result")
		}
		out = res.Result.DeepSerializedValue.Value
		return nil
	})
	return out, err
}

// serialized is the shape of one deep-serialized value.
type serialized struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
	Ref   int64           `json:"weakLocalObjectReference"`
}

func decodeListeners(raw []byte) (map[int64][]string, error) {
	var pairs []serialized
	if err := json.Unmarshal(raw, &pairs); err != nil {
		return nil, fmt.Errorf("decoding listeners: %w", err)
	}
	out := make(map[int64][]string, len(pairs))
	for _, pair := range pairs {
		var items []serialized
		if pair.Type != "array" || json.Unmarshal(pair.Value, &items) != nil || len(items) != 2 {
			continue
		}
		var node struct {
			BackendNodeID int64 `json:"backendNodeId"`
		}
		var types string
		if items[0].Type != "node" || json.Unmarshal(items[0].Value, &node) != nil || node.BackendNodeID == 0 {
			continue
		}
		if items[1].Type != "string" || json.Unmarshal(items[1].Value, &types) != nil {
			continue
		}
		out[node.BackendNodeID] = strings.Split(types, ",")
	}
	return out, nil
}
