package chrome

import (
	"encoding/json"
	"fmt"
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
	raw, err := t.evaluateDeep("elementFromPoint", expr, 2, false)
	if err != nil {
		return nil, err
	}
	var items []serialized
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	// An element met twice is serialized once; later mentions carry only
	// its weakLocalObjectReference.
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
