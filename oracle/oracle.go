// Package oracle asks the browser for its own answers — which element
// document.elementFromPoint returns at a point, what a click there
// reaches — that axfuse's paint-order model is judged against. The
// end-to-end tests and `axfuse compare` (the ground truth of package
// truth) use it; nothing on the observation or action path does
// (domsnap/arch_test.go keeps it so). It reaches the browser through Page,
// which the Chrome driver's Tab implements.
package oracle

import (
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
)

// Page is what the oracles need of a browser tab.
type Page interface {
	// HitTest is the node a click at (x, y) (top-level viewport CSS px)
	// reaches, followed into out-of-process iframes.
	HitTest(x, y float64) (browser.Hit, error)
	// EvaluateNodes evaluates expr, an array of nodes or nulls, in the
	// top-level document, and gives each node's backend id (0: none).
	EvaluateNodes(step, expr string) ([]int64, error)
}

// ElementsFromPoints asks the browser which element
// document.elementFromPoint returns at each point (viewport CSS px) of the
// top-level document, in one round trip; 0 stands for none.
func ElementsFromPoints(p Page, points [][2]float64) ([]int64, error) {
	pts, err := json.Marshal(points)
	if err != nil {
		return nil, err
	}
	return p.EvaluateNodes("elementFromPoint", fmt.Sprintf(`(%s).map(([x, y]) => document.elementFromPoint(x, y))`, pts))
}

const (
	// maxHitTests bounds the points one HitTests call asks about.
	maxHitTests = 5000
	// hitConcurrency bounds the hit tests asked at once.
	hitConcurrency = 64
)

// HitTests runs HitTest at every point, concurrently: what a click at
// each (top-level viewport CSS px) reaches. A point outside the viewport,
// or one the browser could not answer, reaches nothing; so does every
// point when the browser answered none.
func HitTests(p Page, points [][2]float64) ([]domsnap.Hit, error) {
	if len(points) > maxHitTests {
		return nil, fmt.Errorf("hit tests: %d points, at most %d", len(points), maxHitTests)
	}
	out := make([]domsnap.Hit, len(points))
	var answered atomic.Int64
	sem := make(chan struct{}, hitConcurrency)
	var wg sync.WaitGroup
	for i := range points {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			x, y := points[i][0], points[i][1]
			out[i] = domsnap.Hit{X: x, Y: y}
			if !(x >= 0 && y >= 0 && x < 1e6 && y < 1e6) {
				return
			}
			if hit, err := p.HitTest(x, y); err == nil {
				out[i].Target, out[i].Backend = hit.Target, hit.Backend
				answered.Add(1)
			}
		})
	}
	wg.Wait()
	if answered.Load() == 0 && len(points) > 0 {
		return nil, fmt.Errorf("hit tests: the browser answered none of %d points", len(points))
	}
	return out, nil
}
