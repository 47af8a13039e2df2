package truth

import (
	"math"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/layout"
)

// Truth is the ground truth of one capture.
type Truth struct {
	// Targets are the candidates a click at their point reaches, delegating
	// containers left out.
	Targets []Candidate
	// Covered are candidates a click at their point does not reach:
	// something else (a banner, a modal) takes it.
	Covered []Candidate
	// Delegating are listener-only candidates holding other candidates.
	Delegating int
	// Unjudged are candidates whose point the capture has no hit test for
	// (a frame of another process, a capture recorded without them).
	Unjudged int
}

// hitIndex finds a capture's hit tests by point, and a hit node's place.
type hitIndex struct {
	byPoint map[[2]float64]targetKey
	pos     map[targetKey]domsnap.Pos
	// byFrame places a view's element, which names its frame.
	byFrame map[domsnap.Key]domsnap.Pos
}

// targetKey names a node at the browser: backend ids are unique within
// the target (process) that captured its document.
type targetKey struct {
	target  string
	backend int64
}

func indexHits(c *domsnap.Capture) *hitIndex {
	h := &hitIndex{byPoint: map[[2]float64]targetKey{}, pos: map[targetKey]domsnap.Pos{}, byFrame: map[domsnap.Key]domsnap.Pos{}}
	for _, hit := range c.Hits {
		h.byPoint[[2]float64{hit.X, hit.Y}] = targetKey{hit.Target, hit.Backend}
	}
	for d := range c.Documents {
		doc := &c.Documents[d]
		for i := range doc.Nodes {
			at := domsnap.Pos{Doc: d, Node: i}
			h.pos[targetKey{doc.Target, doc.Nodes[i].Backend}] = at
			h.byFrame[domsnap.Key{Frame: doc.FrameID, Backend: doc.Nodes[i].Backend}] = at
		}
	}
	return h
}

// reaches says whether the hit test at point landed on the node at pos or
// inside it; judged is false when the capture has no hit test there.
func (h *hitIndex) reaches(g *layout.Geometry, point [2]float64, pos domsnap.Pos) (reached, judged bool) {
	key, ok := h.byPoint[point]
	if !ok {
		return false, false
	}
	at, ok := h.pos[key]
	return ok && at.Doc == pos.Doc && g.Contains(pos.Doc, pos.Node, at.Node), true
}

// Judge sorts the candidates by the capture's hit tests.
func Judge(c *domsnap.Capture, g *layout.Geometry, cands []Candidate) *Truth {
	h := indexHits(c)
	t := &Truth{}
	for i := range cands {
		cand := &cands[i]
		if cand.ListenerOnly() && holdsAnother(g, cands, i) {
			t.Delegating++
			continue
		}
		switch reached, judged := h.reaches(g, cand.Point, cand.Pos); {
		case !judged:
			t.Unjudged++
		case reached:
			t.Targets = append(t.Targets, *cand)
		default:
			t.Covered = append(t.Covered, *cand)
		}
	}
	return t
}

// holdsAnother: candidate i's subtree holds another candidate (candidates
// are in capture order, so those inside it follow it).
func holdsAnother(g *layout.Geometry, cands []Candidate, i int) bool {
	p := cands[i].Pos
	return i+1 < len(cands) && cands[i+1].Pos.Doc == p.Doc && g.Contains(p.Doc, p.Node, cands[i+1].Pos.Node)
}

// Points are the points a capture's measure needs hit tests for: every
// candidate's, and every given element's (a view's refs), each once.
func Points(c *domsnap.Capture, g *layout.Geometry, cands []Candidate, elements []fuse.Element) [][2]float64 {
	seen := map[[2]float64]bool{}
	var out [][2]float64
	add := func(p [2]float64) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, c := range cands {
		add(c.Point)
	}
	h := indexHits(c)
	for _, r := range refsOf(h, elements) {
		if p, ok := ClickPoint(c, g, r.pos); ok && r.known {
			add(p)
		}
	}
	return out
}

// minPeek is how much (CSS px) of an element cut by the viewport's edge
// must show for a person to aim at it: less, and they scroll first.
const minPeek = 8

// ClickPoint is where a person clicks an element, in whole CSS px: on the
// first line of text of an inline element (a link that wraps has a gap at
// its box's centre), else at the centre of the part of its box in view;
// ok is false when too little of it is in view.
func ClickPoint(c *domsnap.Capture, g *layout.Geometry, pos domsnap.Pos) ([2]float64, bool) {
	view := g.ViewportBox(0)
	box := g.ShownBox(pos.Doc, pos.Node)
	in := layout.Intersect(box, view)
	// Written so that a NaN anywhere (a hostile box) fails.
	if !(in.W >= minSide && in.H >= minSide) || (in.W < box.W && in.W < minPeek) || (in.H < box.H && in.H < minPeek) {
		return [2]float64{}, false
	}
	if p, ok := onFirstLine(c, g, pos, in); ok {
		return p, true
	}
	return PointOf(box, view)
}

// onFirstLine is the centre of an inline element's first text fragment
// in view.
func onFirstLine(c *domsnap.Capture, g *layout.Geometry, pos domsnap.Pos, in layout.Box) ([2]float64, bool) {
	doc := &c.Documents[pos.Doc]
	n := &doc.Nodes[pos.Node]
	if n.Layout == nil || n.Layout.Style < 0 || n.Layout.Style >= len(doc.Styles) || doc.Styles[n.Layout.Style].Display != "inline" {
		return [2]float64{}, false
	}
	for k, seen := pos.Node+1, 0; k < len(doc.Nodes) && g.Contains(pos.Doc, pos.Node, k) && seen < 64; k++ {
		for _, f := range g.Fragments(pos.Doc, k) {
			seen++
			p := [2]float64{math.Floor(f.X + f.W/2), math.Floor(f.Y + f.H/2)}
			if f.W >= minSide && f.H >= minSide && p[0] >= in.X && p[1] >= in.Y && p[0] < in.X+in.W && p[1] < in.Y+in.H {
				return p, true
			}
		}
	}
	return [2]float64{}, false
}

// PointOf is the centre of the part of a box in the viewport, in whole CSS
// px; ok is false when too little of it is in view.
func PointOf(b, viewport layout.Box) ([2]float64, bool) {
	in := layout.Intersect(b, viewport)
	// Written so that a NaN anywhere (a hostile box) fails.
	if !(in.W >= minSide && in.H >= minSide) {
		return [2]float64{}, false
	}
	p := [2]float64{math.Floor(in.X + in.W/2), math.Floor(in.Y + in.H/2)}
	if math.IsNaN(p[0]+p[1]) || math.IsInf(p[0]+p[1], 0) {
		return [2]float64{}, false
	}
	return p, true
}
