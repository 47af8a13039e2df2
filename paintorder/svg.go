package paintorder

import "github.com/axfuse/axfuse/domsnap"

// An <svg> paints its shapes, of colours the capture mostly cannot tell,
// so sight counts its box as a pattern of unknown colour. For what the
// svg holds (its own text, a foreignObject) that is too coarse: SVG
// paints in document order, so only the shapes before the text, where
// the text lies, are behind it; elsewhere the svg is clear, and the
// colour behind is its own background or what is behind the svg (white
// SVG text on the white page is as unseen as white HTML text).

// svgDrawing are the SVG elements that paint (containers, gradients and
// text do not paint behind other text).
var svgDrawing = map[string]bool{
	"rect": true, "circle": true, "ellipse": true, "line": true, "polyline": true,
	"polygon": true, "path": true, "image": true, "use": true, "foreignObject": true,
}

// maxSVGShapes bounds the shapes kept of one svg; past it, the svg is of
// unknown colour everywhere, as before.
const maxSVGShapes = 4096

// svgShapes lists the painting shapes of svg root (doc, root) in document
// order, built once per svg; ok false past maxSVGShapes.
type svgShapes struct {
	nodes []int32
	ok    bool
}

// svgBehind reports, for node i inside svg (doc, root), whether a shape of
// the svg painted before i lies at (x, y).
func (ix *Index) svgBehind(doc, root, i int, x, y float64) bool {
	s := ix.shapesOf(doc, root)
	if !s.ok {
		return true
	}
	for _, n := range s.nodes {
		if int(n) >= i {
			break
		}
		if ix.g.Contains(doc, int(n), i) {
			continue // i is inside it (a foreignObject): it is not behind
		}
		b := ix.g.ShownBox(doc, int(n))
		if x >= b.X && x < b.X+b.W && y >= b.Y && y < b.Y+b.H {
			return true
		}
	}
	return false
}

func (ix *Index) shapesOf(doc, root int) svgShapes {
	key := domsnap.Pos{Doc: doc, Node: root}
	if s, ok := ix.svgMemo[key]; ok {
		return s
	}
	if ix.svgMemo == nil {
		ix.svgMemo = map[domsnap.Pos]svgShapes{}
	}
	nodes := ix.c.Documents[doc].Nodes
	s := svgShapes{ok: true}
	end := min(int(ix.g.Docs[doc].End[root]), len(nodes)-1)
	for k := root + 1; k <= end; k++ {
		n := &nodes[k]
		if n.Type != domsnap.ElementNode || !svgDrawing[n.Name] || n.Layout == nil || !ix.g.IsTangible(doc, k) || ix.g.Alpha(doc, k) < MinAlpha || ix.paintsNothing(doc, k) {
			continue
		}
		if len(s.nodes) == maxSVGShapes {
			s = svgShapes{}
			break
		}
		s.nodes = append(s.nodes, int32(k))
	}
	ix.svgMemo[key] = s
	return s
}

// paintsNothing: a shape with a clear fill and no stroke that shows.
func (ix *Index) paintsNothing(doc, k int) bool {
	sc, ok := ix.colours(doc, k)
	return ok && sc.svgFillOK && sc.svgFill.A == 0 && !sc.svgStroke
}

// svgAround is what layer l paints behind node (doc, i) at (x, y): itself,
// unless it is an svg that holds the node; then the svg's background (ok
// false: none), or its unknown pattern where a shape lies there.
func (ix *Index) svgAround(doc, i int, x, y float64, l layer) (paintEntry, bool) {
	root := int(l.e.node)
	if l.e.kind != paintPattern || l.doc != doc || ix.nodeName(doc, root) != "svg" || !ix.g.Contains(doc, root, i) {
		return l.e, true
	}
	if ix.svgBehind(doc, root, i, x, y) {
		return l.e, true
	}
	sc, ok := ix.colours(doc, root)
	if !ok || !sc.bgOK {
		return paintEntry{}, false
	}
	return paintEntry{node: l.e.node, kind: paintColour, c: RGBA{sc.bg.R, sc.bg.G, sc.bg.B, sc.bg.A * l.e.c.A}}, true
}

// svgText: element el draws SVG text (SVG names keep their case in a
// capture, HTML ones are upper case).
func (ix *Index) svgText(doc, el int) bool {
	switch ix.nodeName(doc, el) {
	case "text", "tspan", "textPath":
		return true
	}
	return false
}

func (ix *Index) nodeName(doc, k int) string {
	nodes := ix.c.Documents[doc].Nodes
	if k < 0 || k >= len(nodes) {
		return ""
	}
	return nodes[k].Name
}
