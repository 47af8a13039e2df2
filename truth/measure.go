package truth

import (
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/layout"
)

// Measure is how one view fares against the ground truth.
type Measure struct {
	// Targets is the ground truth's count; Found those the view gives a
	// ref to (the element itself, or one holding it or held by it whose
	// box mostly overlaps). Recall is Found over Targets (1 when none).
	Targets int     `json:"targets"`
	Found   int     `json:"found"`
	Recall  float64 `json:"recall"`
	// The same for listener-only targets.
	ListenerOnly       int     `json:"listenerOnly"`
	ListenerOnlyFound  int     `json:"listenerOnlyFound"`
	ListenerOnlyRecall float64 `json:"listenerOnlyRecall"`
	// RefsInView are the view's refs with a box in the viewport;
	// Unreachable those a click at their point does not reach (something
	// covers them); Precision is the reachable share (1 when none).
	// Unjudged refs had no hit test in the capture.
	RefsInView  int     `json:"refsInView"`
	Unreachable int     `json:"unreachable"`
	Unjudged    int     `json:"unjudged"`
	Precision   float64 `json:"precision"`
	Tokens      int     `json:"tokens"`
	// Missed are the targets the view has no ref for; UnreachableRefs the
	// refs a click cannot reach.
	Missed          []Candidate `json:"-"`
	UnreachableRefs []string    `json:"unreachableRefs"`
}

// minOverlap is the least intersection over union of the boxes of a ref
// and a target in one subtree for the ref to count as the target's.
const minOverlap = 0.5

// MeasureView measures a view's elements against the truth.
func MeasureView(c *domsnap.Capture, g *layout.Geometry, t *Truth, elements []fuse.Element, tokens int) Measure {
	h := indexHits(c)
	refs := refsOf(h, elements)
	m := countFound(t, tokens, func(target Candidate) bool { return hasRef(g, refs, target) })
	for _, r := range refs {
		if !r.known {
			continue
		}
		point, ok := ClickPoint(c, g, r.pos)
		if !ok {
			continue
		}
		m.RefsInView++
		switch reached, judged := h.reaches(g, point, r.pos); {
		case !judged:
			m.Unjudged++
		case !reached:
			m.Unreachable++
			m.UnreachableRefs = append(m.UnreachableRefs, r.ref)
		}
	}
	m.Recall = share(m.Found, m.Targets)
	m.ListenerOnlyRecall = share(m.ListenerOnlyFound, m.ListenerOnly)
	m.Precision = share(m.RefsInView-m.Unreachable-m.Unjudged, m.RefsInView-m.Unjudged)
	return m
}

// countFound starts a measure: the targets found (by found) and missed,
// listener-only ones apart.
func countFound(t *Truth, tokens int, found func(Candidate) bool) Measure {
	m := Measure{Targets: len(t.Targets), Tokens: tokens, UnreachableRefs: []string{}}
	for _, target := range t.Targets {
		ok := found(target)
		if ok {
			m.Found++
		} else {
			m.Missed = append(m.Missed, target)
		}
		if target.ListenerOnly() {
			m.ListenerOnly++
			if ok {
				m.ListenerOnlyFound++
			}
		}
	}
	return m
}

func share(n, of int) float64 {
	if of <= 0 {
		return 1
	}
	return float64(n) / float64(of)
}

// ref is a view's element placed in the capture.
type ref struct {
	ref   string
	pos   domsnap.Pos
	known bool // its node is in the capture
	box   layout.Box
}

func refsOf(h *hitIndex, elements []fuse.Element) []ref {
	out := make([]ref, 0, len(elements))
	for _, e := range elements {
		if e.Box == nil {
			continue
		}
		pos, ok := h.byFrame[domsnap.Key{Frame: e.Frame, Backend: e.BackendNodeID}]
		out = append(out, ref{ref: e.Ref, pos: pos, known: ok, box: layout.Box{X: e.Box[0], Y: e.Box[1], W: e.Box[2], H: e.Box[3]}})
	}
	return out
}

// hasRef: a ref names the target, or an element of its subtree or one
// holding it, with boxes mostly the same (a link's ref on its list item).
func hasRef(g *layout.Geometry, refs []ref, t Candidate) bool {
	for _, r := range refs {
		if !r.known || r.pos.Doc != t.Pos.Doc {
			continue
		}
		if r.pos == t.Pos {
			return true
		}
		related := g.Contains(t.Pos.Doc, t.Pos.Node, r.pos.Node) || g.Contains(t.Pos.Doc, r.pos.Node, t.Pos.Node)
		if related && iou(r.box, t.Box) >= minOverlap {
			return true
		}
	}
	return false
}

// iou is the intersection over union of two boxes.
func iou(a, b layout.Box) float64 {
	i := layout.Intersect(a, b)
	inter := i.W * i.H
	union := a.W*a.H + b.W*b.H - inter
	if !(union > 0) {
		return 0
	}
	return inter / union
}

// BoxRef is a ref of an observer outside axfuse, known only by its box
// (viewport CSS px): Playwright's aria refs, say.
type BoxRef struct {
	Ref string
	Box layout.Box
}

// MeasureBoxes measures an outside observer's refs against the truth: a
// target is found when a ref's box overlaps its box by IoU ≥ 0.5. Whether
// a click reaches a ref is not judged (its node is unknown): every ref in
// view counts as unjudged.
func MeasureBoxes(g *layout.Geometry, t *Truth, refs []BoxRef, tokens int) Measure {
	view := g.ViewportBox(0)
	m := countFound(t, tokens, func(target Candidate) bool {
		for _, r := range refs {
			if iou(layout.Intersect(r.Box, view), target.Box) >= minOverlap {
				return true
			}
		}
		return false
	})
	for _, r := range refs {
		if _, ok := PointOf(r.Box, view); ok {
			m.RefsInView++
			m.Unjudged++
		}
	}
	m.Recall = share(m.Found, m.Targets)
	m.ListenerOnlyRecall = share(m.ListenerOnlyFound, m.ListenerOnly)
	m.Precision = share(0, 0)
	return m
}
