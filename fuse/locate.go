package fuse

import (
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/paintorder"
	"slices"
)

// Locate finds the element a key names in the full tree, off-screen and
// covered ones included.
func (t *Tree) Locate(k domsnap.Key) (Located, bool) {
	n := findNode(t.Full(), func(n *Node) bool { return n.target != nil && n.target.key == k })
	if n == nil || !n.at.ok {
		return Located{}, false
	}
	l := Located{Fingerprint: index.Fingerprint{Role: n.Role, Name: DisplayName(n.Name), Tag: n.target.tag}, doc: n.at.Doc, dom: n.at.Node,
		NoPointer: slices.Contains(n.States, NoPointer)}
	vd := t.view.ix.Check(n.at.Doc, n.at.Node)
	if !vd.InViewport {
		if b := t.view.g.ShownBox(n.at.Doc, n.at.Node); b.W <= 0 || b.H <= 0 {
			vd = t.contentVerdict(n.at.Doc, n.at.Node, vd)
		}
	}
	l.InViewport, l.Occluded, l.Point, l.Others = vd.InViewport, vd.Occluded, vd.Point, vd.Others
	if b, ok := t.view.g.FrameBox(n.at.Doc, n.at.Node); ok {
		l.FrameBox, l.HasBox = [4]float64{b.X, b.Y, b.W, b.H}, true
		if top, ok := t.view.g.Box(n.at.Doc, n.at.Node); ok {
			l.FrameOffset = [2]float64{top.X - b.X, top.Y - b.Y}
		}
	}
	if vd.HasBy {
		l.Cover = t.view.coverName(where{vd.By, true})
	}
	return l, true
}

// maxContentChecks bounds the nodes contentVerdict measures.
const maxContentChecks = 64

// contentVerdict is, for an element with no box of its own (an inline link
// around an absolutely positioned heading: a person clicks the heading),
// the verdict of the first node inside it in view and not covered — a
// click there reaches the element, and Reaches accepts it — else of the
// first in view, covered; own when none is in view.
func (t *Tree) contentVerdict(doc, node int, own paintorder.Verdict) paintorder.Verdict {
	first, found := own, false
	tried := 0
	for j := node + 1; t.view.g.Contains(doc, node, j) && tried < maxContentChecks; j++ {
		if !t.view.ix.Checks(doc, j) {
			continue
		}
		tried++
		v := t.view.ix.Check(doc, j)
		if v.InViewport && !v.Occluded {
			return v
		}
		if v.InViewport && !found {
			first, found = v, true
		}
	}
	return first
}

// Reaches reports whether the node a hit test reached — a backend id within
// one target (the tab's process, or an out-of-process iframe's) — is the
// located element or inside it, and names it if not.
func (t *Tree) Reaches(l Located, target string, backend int64) (bool, string) {
	docs := t.view.c.Documents
	for d := range docs {
		if docs[d].Target != target && target != "" && docs[d].Target != "" {
			continue // backend ids are unique within one target only
		}
		for i := range docs[d].Nodes {
			if docs[d].Nodes[i].Backend != backend {
				continue
			}
			if d == l.doc && t.view.g.Contains(l.doc, l.dom, i) {
				return true, ""
			}
			return false, t.view.coverName(where{domsnap.Pos{Doc: d, Node: i}, true})
		}
	}
	// Not in the capture: a pseudo-element the viewport capture does not
	// hold (an outside list marker drawn over the next item), or a node
	// added since.
	return false, "a node the capture does not hold (a pseudo-element such as a list marker, or one added since)"
}
