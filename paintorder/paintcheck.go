package paintorder

// PaintCheck: whether content that takes no clicks is hidden by the boxes
// painted over it.

import (
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

// PaintCheck measures whether what is painted over node (doc, i) hides it
// from sight, for content that takes no clicks (text, headings, images):
// the same Verdict as Check, but the covers are the boxes painted over it
// at CoverAlpha or more, whether or not they take pointer
// events. A clear overlay that takes clicks does not hide what is under it;
// an opaque one that takes none does.
func (ix *Index) PaintCheck(doc, i int) Verdict {
	var v Verdict
	view, ok := ix.checkedArea(doc, i)
	if !ok {
		return v
	}
	v.InViewport = true
	pieces := []layout.Box{view}
	ix.eachPaintCover(doc, i, view, func(_ domsnap.Pos, b layout.Box) bool {
		pieces = subtract(pieces, b)
		return len(pieces) > 0 && len(pieces) <= maxPieces
	})
	total := 0.0
	for _, p := range pieces {
		total += p.W * p.H
	}
	v.Fraction = total / (view.W * view.H)
	if len(pieces) > maxPieces {
		v.Fraction = 1 // too cut up to be hidden
	}
	cx, cy := view.X+view.W/2, view.Y+view.H/2
	if total < minArea && len(pieces) <= maxPieces {
		v.Occluded, v.Fraction = true, 0
		ix.eachPaintCover(doc, i, layout.Box{X: cx, Y: cy}, func(h domsnap.Pos, _ layout.Box) bool {
			v.By, v.HasBy = h, true
			return false
		})
		return v
	}
	v.Point = [2]float64{cx, cy}
	return v
}

// eachPaintCover calls f with the boxes painted over node (doc, i) that
// cover it (painted at CoverAlpha or more: a see-through veil leaves the
// text under it to sight, which blends the veil in), within area, up the
// chain of iframes, topmost document first, until f returns false.
func (ix *Index) eachPaintCover(doc, i int, area layout.Box, f func(domsnap.Pos, layout.Box) bool) {
	type level struct{ doc, i int }
	var chain []level
	for d, k, depth := doc, i, 0; d >= 0 && depth < 32; depth++ {
		chain = append(chain, level{d, k})
		o := ix.owner[d]
		if d == 0 || o.Doc < 0 {
			break
		}
		d, k = o.Doc, o.Node
	}
	for c := len(chain) - 1; c >= 0; c-- {
		d, k := chain[c].doc, chain[c].i
		nodes := ix.c.Documents[d].Nodes
		if k < 0 || k >= len(nodes) || nodes[k].Layout == nil {
			continue
		}
		order, sunk := nodes[k].Layout.PaintOrder, ix.g.IsSunk(d, k)
		goOn := true
		ix.paintDoc(d).tree.Search([2]float64{area.X, area.Y}, [2]float64{area.X + area.W, area.Y + area.H}, func(lo, hi [2]float64, e paintEntry) bool {
			if ix.visits++; ix.visits > maxVisits {
				goOn = false
				return false
			}
			if e.kind == paintPattern || e.kind == paintPicture || e.kind == paintFrame || e.c.A < CoverAlpha || ix.g.Contains(d, k, int(e.node)) || ix.paintsUnder(d, k, order, sunk, e) {
				return true
			}
			goOn = f(domsnap.Pos{Doc: d, Node: int(e.node)}, layout.Box{X: lo[0], Y: lo[1], W: hi[0] - lo[0], H: hi[1] - lo[1]})
			return goOn
		})
		if !goOn {
			return
		}
	}
}
