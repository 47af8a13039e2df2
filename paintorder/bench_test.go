package paintorder

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

// synthetic builds a page of n element boxes: a grid of cards with
// children, and a few large overlays painted on top.
func synthetic(n int) *domsnap.Capture {
	r := rand.New(rand.NewPCG(1, 2))
	doc := domsnap.Document{Styles: []domsnap.Style{{Display: "block", Opacity: "1"}}}
	add := func(parent int32, x, y, w, h float64, order int64) {
		doc.Nodes = append(doc.Nodes, domsnap.Node{Parent: parent, Type: domsnap.ElementNode, Name: "DIV",
			Layout: &domsnap.Layout{Bounds: domsnap.Rect{X: x, Y: y, W: w, H: h}, PaintOrder: order}})
	}
	add(-1, 0, 0, 1280, float64(n)*2, 1)
	for len(doc.Nodes) < n {
		x, y := r.Float64()*1200, r.Float64()*float64(n)*2
		parent := int32(len(doc.Nodes))
		add(0, x, y, 80, 40, 1)
		for k := 0; k < 3 && len(doc.Nodes) < n; k++ {
			add(parent, x+float64(k)*25, y+5, 20, 20, 1)
		}
		if r.IntN(200) == 0 && len(doc.Nodes) < n {
			add(0, 0, y, 1280, 300, 5) // an overlay
		}
	}
	return &domsnap.Capture{Version: 1, Viewport: domsnap.Viewport{Width: 1280, Height: float64(n) * 2}, Documents: []domsnap.Document{doc}}
}

func BenchmarkBuildIndex(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		c := synthetic(n)
		g := layout.Compute(c)
		b.Run(fmt.Sprintf("boxes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Build(c, g)
			}
		})
	}
}

// BenchmarkOcclusion answers Check for every box (the viewport is the whole
// synthetic page, so every node is measured).
func BenchmarkOcclusion(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		c := synthetic(n)
		g := layout.Compute(c)
		ix := Build(c, g)
		b.Run(fmt.Sprintf("boxes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := range c.Documents[0].Nodes {
					ix.Check(0, i)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/check")
		})
	}
}
