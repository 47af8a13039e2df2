package layout

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/internal/testkit/golden"
)

// TestGoldenBoxes lists, for every element with an id in each recorded
// capture, its viewport box and visibility.
func TestGoldenBoxes(t *testing.T) {
	for name, path := range golden.Captures(t, "..") {
		if name == "big" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			c, err := domsnap.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			g := Compute(c)
			var sb strings.Builder
			for d, doc := range c.Documents {
				for i, n := range doc.Nodes {
					id, ok := n.Attr("id")
					if !ok {
						continue
					}
					b, has := g.Box(d, i)
					fmt.Fprintf(&sb, "%d #%s box=%v (%.1f,%.1f %.1fx%.1f) visible=%v\n", d, id, has, b.X, b.Y, b.W, b.H, g.IsVisible(d, i))
				}
			}
			golden.Check(t, filepath.Join("testdata", name+".boxes.txt"), []byte(sb.String()))
		})
	}
}

func TestVisibilityRules(t *testing.T) {
	styles := []domsnap.Style{{Display: "block", Visibility: "visible", Opacity: "1"}, {Display: "block", Visibility: "hidden", Opacity: "1"}, {Display: "block", Visibility: "visible", Opacity: "0"}}
	lay := func(style int, w, h float64) *domsnap.Layout {
		return &domsnap.Layout{Bounds: domsnap.Rect{X: 10, Y: 20, W: w, H: h}, Style: style}
	}
	c := &domsnap.Capture{Version: 1, Viewport: domsnap.Viewport{Width: 100, Height: 100, ScrollY: 15}, Documents: []domsnap.Document{{
		Styles: styles,
		Nodes: []domsnap.Node{
			{Parent: -1, Type: domsnap.ElementNode, Layout: lay(0, 50, 50)}, // 0 visible
			{Parent: 0, Type: domsnap.ElementNode, Layout: lay(1, 50, 50)},  // 1 visibility hidden
			{Parent: 0, Type: domsnap.ElementNode, Layout: lay(2, 50, 50)},  // 2 opacity 0
			{Parent: 2, Type: domsnap.ElementNode, Layout: lay(0, 50, 50)},  // 3 inside opacity 0
			{Parent: 0, Type: domsnap.ElementNode, Layout: lay(0, 0, 50)},   // 4 zero width
			{Parent: 0, Type: domsnap.ElementNode},                          // 5 not laid out
		},
	}}}
	g := Compute(c)
	want := []bool{true, false, false, false, false, false}
	for i, w := range want {
		if got := g.IsVisible(0, i); got != w {
			t.Errorf("node %d visible=%v, want %v", i, got, w)
		}
	}
	if b, _ := g.Box(0, 0); b.Y != 5 || b.X != 10 {
		t.Errorf("scroll not subtracted: %+v", b)
	}
	if !g.InViewport(Box{X: 90, Y: 90, W: 20, H: 20}, 0) || g.InViewport(Box{X: 0, Y: 110, W: 10, H: 10}, 0) || !g.InViewport(Box{X: 0, Y: 110, W: 10, H: 10}, 20) {
		t.Error("InViewport misjudges")
	}
	if g.IsVisible(3, 0) || g.IsVisible(0, 99) {
		t.Error("out-of-range lookups must be false")
	}
}
