package chrome

import (
	"context"
	"encoding/json"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
)

// EvaluateNodes evaluates expr, an array of nodes or nulls, in the
// top-level document's page world, and gives each node's backend id (0:
// none), in one round trip. It serves the oracles (package oracle: which
// element is at a point) the model is judged against.
func (t *Tab) EvaluateNodes(step, expr string) ([]int64, error) {
	var raw []byte
	err := t.call(step, func(ctx context.Context) error {
		var err error
		raw, err = cdpcall.EvaluateDeep(ctx, expr, 2, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	var items []cdpcall.Serialized
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	// A node met twice is serialized once; later mentions carry only its
	// weakLocalObjectReference.
	out := make([]int64, len(items))
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
	return out, nil
}
