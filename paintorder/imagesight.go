package paintorder

// Image sight: an image judged by its opacity and what is painted over
// it, and the named images whose own pixels the browser is asked about.

import (
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

// ImageSight decides whether a person sees image (doc, i): its opacity
// and what is painted over it (its own pixels are not known).
func (ix *Index) ImageSight(doc, i int) Sight {
	s := ix.modelImageSight(doc, i)
	if !s.Seen {
		return s
	}
	// Its own pixels may be clear (an empty svg, a clear GIF): the
	// browser's say, where the capture asked them (Capture.TextPixels).
	if seen, ok := ix.pixelVerdict(doc, i); ok && !seen {
		return Sight{Reason: SeenByPixels}
	}
	return s
}

// modelImageSight is ImageSight by the model alone.
func (ix *Index) modelImageSight(doc, i int) Sight {
	if doc < 0 || doc >= len(ix.c.Documents) || i < 0 || i >= len(ix.c.Documents[doc].Nodes) {
		return Sight{Seen: true}
	}
	b, ok := ix.g.Box(doc, i)
	if !ok {
		return Sight{Seen: true}
	}
	if b.W <= 0 || b.H <= 0 {
		return Sight{Reason: SeenNoArea}
	}
	shown := ix.g.ShownBox(doc, i)
	if shown.W <= 0 || shown.H <= 0 {
		return Sight{Seen: true} // clipped: others decide
	}
	if !ix.nearSight(shown) {
		return ix.chainSight(doc, i, RGBA{}, ix.g.Alpha(doc, i), true)
	}
	var first Sight
	for t, at := range [3]float64{0.5, 1.0 / 6, 5.0 / 6} {
		s := ix.sightAt(doc, i, shown.X+shown.W*at, shown.Y+shown.H/2, RGBA{}, ix.g.Alpha(doc, i), true)
		if s.Seen {
			return s
		}
		if t == 0 {
			first = s
		}
	}
	return first
}

// UnsureImages lists up to limit named images (an alt, aria-label or
// title) in view that the model takes as seen: whether their own pixels
// paint anything (an empty svg, a clear GIF, an image not loaded) only
// the browser's pixels say. Their boxes are their shown boxes in view.
func (ix *Index) UnsureImages(limit int) []UnsureText {
	var out []UnsureText
	for d := range ix.c.Documents {
		nodes := ix.c.Documents[d].Nodes
		for i := range nodes {
			if n := &nodes[i]; n.Name != "IMG" || n.Layout == nil || !named(n) {
				continue
			}
			shown := ix.g.ShownBox(d, i)
			if shown.W <= 0 || shown.H <= 0 || !ix.g.InViewport(shown, 0) || !ix.modelImageSight(d, i).Seen {
				continue
			}
			if len(out) == limit {
				return out
			}
			out = append(out, UnsureText{Doc: d, Node: i, Boxes: []layout.Box{layout.Intersect(shown, ix.g.ViewportBox(0))}})
		}
	}
	return out
}

// named: an element with a name of its own from its attributes.
func named(n *domsnap.Node) bool {
	for _, a := range [...]string{"alt", "aria-label", "title"} {
		if v, ok := n.Attr(a); ok && strings.TrimSpace(v) != "" {
			return true
		}
	}
	return false
}
