package paintorder

import "github.com/axfuse/axfuse/domsnap"

// Probe is one element whose verdict can be checked against the browser's
// own hit test (document.elementFromPoint at Point).
type Probe struct {
	domsnap.Pos
	Verdict
	// Point is the clickable point, or the centre of the visible box when
	// the element is occluded.
	Point [2]float64
	// Rep is the node of the top-level document that elementFromPoint
	// answers for this element: itself, or the shadow host or iframe it
	// lies in.
	Rep int
}

// Probes lists every hit-testable element with a box in the viewport,
// except those under a clip-path or 3D transform the model does not
// follow (unsure).
func (ix *Index) Probes() []Probe {
	var out []Probe
	for d := range ix.c.Documents {
		for i := range ix.c.Documents[d].Nodes {
			if !ix.HitTestable(d, i) || !ix.paintable(d, i) || ix.foreignRoot(d, i) != i || ix.HitUnsure(d, i) {
				continue // (a clip-path or 3D transform the model does not follow: unsure)
			}
			v := ix.Check(d, i)
			if !v.InViewport {
				continue
			}
			p := Probe{Pos: domsnap.Pos{Doc: d, Node: i}, Verdict: v, Point: v.Point, Rep: ix.rep(d, i)}
			if v.Occluded {
				b := ix.g.ShownBox(d, i)
				p.Point = [2]float64{b.X + b.W/2, b.Y + b.H/2}
			}
			if p.Rep >= 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

// rep climbs out of shadow trees and iframes to the top-level document's
// node that stands for (d, i) in document-scope hit testing.
func (ix *Index) rep(d, i int) int {
	for depth := 0; depth < 64; depth++ {
		i = ix.outsideShadow(d, i)
		if d == 0 {
			return i
		}
		o := ix.owner[d]
		if o.Doc < 0 {
			return -1
		}
		d, i = o.Doc, o.Node
	}
	return -1
}

// outsideShadow returns the document-scope node that stands for i:
// DOMSnapshot flattens shadow trees, marking the nodes inside them with a
// shadow root type and parenting them to the host; hit tests from the
// document answer with the outermost host.
func (ix *Index) outsideShadow(d, i int) int {
	nodes := ix.c.Documents[d].Nodes
	for depth := 0; i >= 0 && nodes[i].ShadowRootType != "" && depth < 4096; depth++ {
		i = int(nodes[i].Parent)
	}
	return i
}

// Agrees reports whether the browser's answer (the backend node id that
// elementFromPoint returned at p.Point, 0 for none) matches the verdict: a
// reachable element is hit (itself or its content), an occluded one is not.
func (ix *Index) Agrees(p Probe, backend int64, byBackend map[int64]int) bool {
	j, ok := byBackend[backend]
	reached := ok && ix.g.Contains(0, p.Rep, j)
	return reached != p.Occluded
}

// BackendIndex maps the top-level document's backend node ids to nodes.
func (ix *Index) BackendIndex() map[int64]int {
	nodes := ix.c.Documents[0].Nodes
	m := make(map[int64]int, len(nodes))
	for i := range nodes {
		m[nodes[i].Backend] = i
	}
	return m
}
