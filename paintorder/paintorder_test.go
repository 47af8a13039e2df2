package paintorder

import (
	"testing"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

func nodeByID(t *testing.T, c *domsnap.Capture, id string) int {
	t.Helper()
	for i, n := range c.Documents[0].Nodes {
		if v, ok := n.Attr("id"); ok && v == id {
			return i
		}
	}
	t.Fatalf("no #%s", id)
	return -1
}

// TestTopAtReachesTheTarget: on a recorded page, a click at the centre of
// each listener element reaches that element.
func TestTopAtReachesTheTarget(t *testing.T) {
	c, err := domsnap.Load("../testdata/captures/listeners.capture.json")
	if err != nil {
		t.Fatal(err)
	}
	g := layout.Compute(c)
	ix := Build(c, g)
	if ix.Len(0) == 0 {
		t.Fatal("nothing indexed")
	}
	for _, id := range []string{"a", "b", "close", "md", "wrapped"} {
		want := nodeByID(t, c, id)
		b, _ := g.Box(0, want)
		hit, ok := ix.TopAt(0, b.X+b.W/2, b.Y+b.H/2)
		if !ok || hit.Node != want {
			t.Errorf("#%s: TopAt hit node %d (%v), want %d", id, hit.Node, ok, want)
		}
	}
	if _, ok := ix.TopAt(0, -50, -50); ok {
		t.Error("a point outside the page hit something")
	}
}

func TestPointerEventsNoneAndPaintOrder(t *testing.T) {
	lay := func(order int64, style int) *domsnap.Layout {
		return &domsnap.Layout{Bounds: domsnap.Rect{W: 100, H: 100}, PaintOrder: order, Style: style}
	}
	c := &domsnap.Capture{Version: 1, Viewport: domsnap.Viewport{Width: 200, Height: 200}, Documents: []domsnap.Document{{
		Styles: []domsnap.Style{{Display: "block", Opacity: "1"}, {Display: "block", Opacity: "1", PointerEvents: "none"}},
		Nodes: []domsnap.Node{
			{Parent: -1, Type: domsnap.ElementNode, Layout: lay(1, 0)},
			{Parent: 0, Type: domsnap.ElementNode, Layout: lay(3, 0)}, // painted above node 2
			{Parent: 0, Type: domsnap.ElementNode, Layout: lay(2, 0)},
			{Parent: 0, Type: domsnap.ElementNode, Layout: lay(9, 1)}, // on top but pointer-events none
		},
	}}}
	ix := Build(c, layout.Compute(c))
	if hit, ok := ix.TopAt(0, 50, 50); !ok || hit.Node != 1 {
		t.Errorf("hit %+v, want node 1", hit)
	}
}

func BenchmarkBuild(b *testing.B) {
	c, err := domsnap.Load("../testdata/captures/big.capture.json")
	if err != nil {
		b.Fatal(err)
	}
	g := layout.Compute(c)
	b.ReportAllocs()
	for b.Loop() {
		Build(c, g)
	}
}
