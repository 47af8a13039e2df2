package chrome

import (
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/axfuse/axfuse/domsnap"
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

// maxHitTests bounds the points one HitTests call asks about.
const maxHitTests = 5000

// HitTests runs HitTest at every point, concurrently: what a click at
// each (top-level viewport CSS px) reaches. A point outside the viewport,
// or one the browser could not answer, reaches nothing; so does every
// point when the browser answered none.
func (t *Tab) HitTests(points [][2]float64) ([]domsnap.Hit, error) {
	if len(points) > maxHitTests {
		return nil, fmt.Errorf("hit tests: %d points, at most %d", len(points), maxHitTests)
	}
	out := make([]domsnap.Hit, len(points))
	var answered atomic.Int64
	parallel(len(points), axConcurrency, func(i int) {
		x, y := points[i][0], points[i][1]
		out[i] = domsnap.Hit{X: x, Y: y}
		if !(x >= 0 && y >= 0 && x < 1e6 && y < 1e6) {
			return
		}
		if hit, err := t.HitTest(x, y); err == nil {
			out[i].Target, out[i].Backend = hit.Target, hit.Backend
			answered.Add(1)
		}
	})
	if err := t.ctx.Err(); err != nil {
		return nil, fmt.Errorf("hit tests: %w", err)
	}
	if answered.Load() == 0 && len(points) > 0 {
		return nil, fmt.Errorf("hit tests: the browser answered none of %d points", len(points))
	}
	return out, nil
}
