package paintorder

import (
	"math"
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
		hit, ok := ix.TopAt(b.X+b.W/2, b.Y+b.H/2)
		if !ok || hit.Node != want {
			t.Errorf("#%s: TopAt hit node %d (%v), want %d", id, hit.Node, ok, want)
		}
	}
	if _, ok := ix.TopAt(-50, -50); ok {
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
	if hit, ok := ix.TopAt(50, 50); !ok || hit.Node != 1 {
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

// page builds a one-document capture of absolutely placed boxes.
func page(boxes ...struct {
	parent     int32
	x, y, w, h float64
	order      int64
	style      int
}) *domsnap.Capture {
	doc := domsnap.Document{Styles: []domsnap.Style{{Display: "block", Opacity: "1"}, {Display: "block", Opacity: "1", PointerEvents: "none"}}}
	for _, b := range boxes {
		doc.Nodes = append(doc.Nodes, domsnap.Node{Parent: b.parent, Type: domsnap.ElementNode, Name: "DIV",
			Layout: &domsnap.Layout{Bounds: domsnap.Rect{X: b.x, Y: b.y, W: b.w, H: b.h}, PaintOrder: b.order, Style: b.style}})
	}
	return &domsnap.Capture{Version: 1, Viewport: domsnap.Viewport{Width: 400, Height: 300}, Documents: []domsnap.Document{doc}}
}

type bx = struct {
	parent     int32
	x, y, w, h float64
	order      int64
	style      int
}

func TestOcclusion(t *testing.T) {
	c := page(
		bx{-1, 0, 0, 400, 1000, 1, 0}, // 0 body
		bx{0, 10, 10, 100, 40, 1, 0},  // 1 button, fully under the banner
		bx{0, 10, 200, 100, 40, 1, 0}, // 2 button, half under the banner's edge
		bx{0, 10, 260, 100, 20, 1, 0}, // 3 button, under a pointer-events:none overlay
		bx{1, 20, 20, 20, 20, 1, 0},   // 4 child of 1 (covered with it)
		bx{0, 0, 0, 400, 220, 5, 0},   // 5 banner, painted later
		bx{0, 0, 250, 400, 50, 9, 1},  // 6 overlay, pointer-events none
		bx{0, 10, 900, 100, 40, 1, 0}, // 7 below the fold
	)
	ix := Build(c, layout.Compute(c))
	cases := []struct {
		node     int
		occluded bool
		inView   bool
		frac     float64
	}{
		{1, true, true, 0}, {4, true, true, 0}, {2, false, true, 0.5}, {3, false, true, 1}, {5, false, true, 1}, {7, false, false, 0},
	}
	for _, tc := range cases {
		v := ix.Check(0, tc.node)
		if v.Occluded != tc.occluded || v.InViewport != tc.inView || math.Abs(v.Fraction-tc.frac) > 1e-9 {
			t.Errorf("node %d: %+v, want occluded=%v inView=%v fraction=%v", tc.node, v, tc.occluded, tc.inView, tc.frac)
		}
		if v.InViewport && !v.Occluded {
			if hit, ok := ix.TopAt(v.Point[0], v.Point[1]); !ok || !(hit.Node == tc.node || ix.g.Contains(0, tc.node, hit.Node)) {
				t.Errorf("node %d: clickable point %v reaches %+v", tc.node, v.Point, hit)
			}
		}
	}
	if v := ix.Check(0, 1); !v.HasBy || v.By.Node != 5 {
		t.Errorf("cover of node 1: %+v, want the banner (5)", v)
	}
}
