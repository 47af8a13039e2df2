package chrome

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// ElementsFromPoints asks the browser which element document.elementFromPoint
// returns at each point (viewport CSS px) of the top-level document, in one
// round trip; 0 stands for none. It is the browser's own answer that the
// paint-order model is judged against.
func (t *Tab) ElementsFromPoints(points [][2]float64) ([]int64, error) {
	pts, err := json.Marshal(points)
	if err != nil {
		return nil, err
	}
	expr := fmt.Sprintf(`(%s).map(([x, y]) => document.elementFromPoint(x, y))`, pts)
	var out []int64
	err = t.call("elementFromPoint", func(ctx context.Context) error {
		res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{
			Expression: expr,
			Silent:     new(true),
			SerializationOptions: &runtime.SerializationOptions{
				Serialization:        "deep",
				MaxDepth:             new(int64(2)),
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
		var items []serialized
		if err := json.Unmarshal(res.Result.DeepSerializedValue.Value, &items); err != nil {
			return err
		}
		// An element met twice is serialized once; later mentions carry
		// only its weakLocalObjectReference.
		out = make([]int64, len(items))
		byRef := map[int64]int64{}
		for k, it := range items {
			var node struct {
				BackendNodeID int64 `json:"backendNodeId"`
			}
			if it.Type == "node" && len(it.Value) > 0 && json.Unmarshal(it.Value, &node) == nil {
				out[k] = node.BackendNodeID
				if it.Ref != 0 {
					byRef[it.Ref] = node.BackendNodeID
				}
			}
		}
		for k, it := range items {
			if out[k] == 0 && it.Ref != 0 {
				out[k] = byRef[it.Ref]
			}
		}
		return nil
	})
	return out, err
}
