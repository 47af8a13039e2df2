package fuse

import (
	"fmt"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/layout"
)

// Region is a part of the screen that the tree cannot describe: a target
// with no node to stand for it. Where there are any, a snapshot attaches an
// annotated screenshot.
type Region struct {
	Kind   string     `json:"kind"` // canvas, svg, img, video, embed, object, iframe
	Box    [4]float64 `json:"box"`  // viewport CSS px
	Reason string     `json:"reason"`
	Ref    string     `json:"ref,omitempty"`
}

// pixelTag: elements whose content is pixels, not nodes.
func pixelTag(name string) bool {
	switch name {
	case "CANVAS", "svg", "IMG", "VIDEO", "EMBED", "OBJECT":
		return true
	}
	return false
}

// regions finds the visible, uncovered targets that have no accessible
// content: an interactive canvas (WebGL included), svg, img, video, embed or
// object with no accessible descendant; any of them, interactive or not,
// that paints a large part of the viewport (a keyboard-driven game canvas);
// any canvas or unnamed svg showing more than a few icons' worth of pixels
// in view with nothing to describe them (a puzzle the agent must read,
// contentPixels); and iframes that were not captured.
func (v *view) regions() []Region {
	var out []Region
	for d := range v.c.Documents {
		fd := v.b.frameOfDoc(d)
		if fd == nil {
			continue
		}
		facts := v.b.facts(fd)
		for i := range v.c.Documents[d].Nodes {
			if facts.kinds[i]&(isElement|mayPaint) != isElement|mayPaint {
				continue
			}
			n := &v.c.Documents[d].Nodes[i]
			if n.ContentDocument == 0 && n.Name == "IFRAME" {
				if r, ok := v.uncapturedFrame(d, i); ok {
					out = append(out, r)
				}
				continue
			}
			if !pixelTag(n.Name) {
				continue
			}
			why := pixelTarget(n, facts.has(i, cursorStart))
			if why == "" && n.Name == "CANVAS" {
				why = v.canvasHost(fd, d, i)
			}
			if why == "" {
				why = v.largePainted(d, i)
			}
			content := why == "" && v.contentPixels(fd, d, i)
			if !content && (why == "" || v.accessibleInside(fd, d, i) || v.namedIcon(d, i)) {
				continue
			}
			vd := v.ix.Check(d, i)
			if !vd.InViewport || vd.Occluded {
				continue
			}
			b := v.g.ShownBox(d, i)
			kind := strings.ToLower(n.Name)
			r := Region{Kind: kind, Box: [4]float64{round2(b.X), round2(b.Y), round2(b.W), round2(b.H)}}
			if content {
				r.Reason = fmt.Sprintf("%s %.0f×%.0f at (%.0f,%.0f) with no accessible content", kind, b.W, b.H, b.X, b.Y)
			} else {
				r.Reason = fmt.Sprintf("%s %.0f×%.0f at (%.0f,%.0f) %s and no accessible content", kind, b.W, b.H, b.X, b.Y, why)
			}
			if ref, ok := v.opts.Refs.Known(domsnap.Key{Frame: fd.f.FrameID, Backend: n.Backend}); ok {
				r.Ref = ref
			}
			out = append(out, r)
		}
	}
	return out
}

// pixelTarget says why a pixel element is a target ("" when it is not).
func pixelTarget(n *domsnap.Node, cursor bool) string {
	switch {
	case hasClick(n.Listeners):
		return "has a click listener"
	case n.Clickable && n.Name != "IMG":
		return "takes clicks"
	case cursor:
		return "shows a pointer cursor"
	}
	if v, ok := n.Attr("tabindex"); ok && !strings.HasPrefix(strings.TrimSpace(v), "-") {
		return "is focusable"
	}
	return ""
}

// accessibleInside reports an accessible node below the element: a named
// or interactive AX node other than the element itself (an svg's links).
func (v *view) accessibleInside(fd *frameData, d, i int) bool {
	nodes := v.c.Documents[d].Nodes
	if nodes[i].Name == "CANVAS" {
		return false // a canvas's children are fallback content, never shown
	}
	end := int(v.g.Docs[d].End[i])
	for k := i + 1; k <= end && k < len(nodes); k++ {
		role, name, ok := v.b.axOf(d, nodes[k].Backend)
		if ok && (name != "" && role != "StaticText" || index.IsControlRole(role) || role == "link") {
			return true
		}
	}
	return false
}

// uncapturedFrame: an iframe in view whose document is not in the capture.
func (v *view) uncapturedFrame(d, i int) (Region, bool) {
	vd := v.ix.Check(d, i)
	b := v.g.ShownBox(d, i)
	if !vd.InViewport || vd.Occluded || b.W*b.H < 100 {
		return Region{}, false
	}
	return Region{Kind: "iframe", Box: [4]float64{round2(b.X), round2(b.Y), round2(b.W), round2(b.H)},
		Reason: fmt.Sprintf("iframe %.0f×%.0f at (%.0f,%.0f) could not be captured", b.W, b.H, b.X, b.Y)}, true
}

// Reasons joins the regions' reasons for a one-line summary.
func Reasons(rs []Region) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, r.Reason)
	}
	return strings.Join(parts, "; ")
}

// namedIcon: an svg or img with an accessible name of its own (aria-label,
// title, alt) is described by its line; a canvas, video, embed or object
// shows pixels whatever its name.
func (v *view) namedIcon(d, i int) bool {
	n := &v.c.Documents[d].Nodes[i]
	if n.Name != "svg" && n.Name != "IMG" {
		return false
	}
	_, name, ok := v.b.axOf(d, n.Backend)
	return ok && strings.TrimSpace(name) != ""
}

// canvasHost: chart libraries (ECharts, zrender) listen on a wrapper, not
// on the canvas. A canvas filling a role-less target with no accessible
// content is the target's only face.
func (v *view) canvasHost(fd *frameData, d, i int) string {
	nodes := v.c.Documents[d].Nodes
	facts := v.b.facts(fd)
	cb := v.g.ShownBox(d, i)
	for k, depth := int(nodes[i].Parent), 0; k >= 0 && depth < 4; k, depth = int(nodes[k].Parent), depth+1 {
		if nodes[k].Name == "BODY" || nodes[k].Name == "HTML" {
			return ""
		}
		why := pixelTarget(&nodes[k], facts.has(k, cursorStart))
		if why == "" {
			continue
		}
		hb := v.g.ShownBox(d, k)
		if hb.W*hb.H > 1.5*cb.W*cb.H || v.accessibleInside(fd, d, k) {
			return ""
		}
		return hostReasons[why]
	}
	return ""
}

var hostReasons = map[string]string{
	"has a click listener":   "sits in an element with a click listener",
	"takes clicks":           "sits in an element that takes clicks",
	"shows a pointer cursor": "sits in an element with a pointer cursor",
	"is focusable":           "sits in a focusable element",
}

// largeShare is the part of the viewport a pixel element must paint to be
// a region without any sign of interactivity. A keyboard-driven game canvas
// (t-rex-runner: 600×150 in 1280×720) is about a tenth; thumbnails and
// icons stay far below.
const largeShare = 0.08

// largePainted says why a pixel element showing, or laid out over, a large
// share of the viewport is a region ("" when it is not). The element's own
// box counts, not the part shown: a game canvas still in its intro is
// clipped to a sliver of its surface. Unnamed svg and img only: a named one
// is described by its line, and alt="" declares an image decorative.
func (v *view) largePainted(d, i int) string {
	n := &v.c.Documents[d].Nodes[i]
	if n.Name == "svg" || n.Name == "IMG" {
		if alt, ok := n.Attr("alt"); ok && strings.TrimSpace(alt) == "" {
			return ""
		}
	}
	box, ok := v.g.Box(d, i)
	if !ok {
		return ""
	}
	own := layout.Intersect(box, v.g.ViewportBox(0))
	vp := v.g.Viewport.Width * v.g.Viewport.Height
	if vp <= 0 || own.W*own.H < largeShare*vp {
		return ""
	}
	surface := "painted area"
	if n.Name == "CANVAS" {
		surface = "drawing surface"
	}
	return fmt.Sprintf("has a %.0f×%.0f %s", own.W, own.H, surface)
}

// A canvas or svg with no sign of interactivity is content when its part
// in view (clipped by its ancestors and the viewport) is at least
// contentArea CSS px² with no side under contentSide. 64×64 is seven
// 24-px icons, and more than a 48-px one (2,304 px²), the largest icon
// size in common use; 32 px keeps out an icon strip one icon high and the
// sliver of a canvas that mostly lies beyond the viewport's edge, and
// keeps in a captcha-sized 120×40.
const (
	contentArea = 64 * 64
	contentSide = 32
)

// contentPixels reports a canvas, or an svg that is not an icon, that shows
// pixels nothing in the tree describes: large enough in view (contentArea,
// contentSide), with no accessible content. A canvas's accessible content
// is its own name (aria-label) or its fallback content (text included); an
// svg's is its name or a named or interactive node inside it. For both, a
// named link, control or image holding it describes it (a logo in a link).
// An svg inside an svg is its outer one's; an svg declared decorative
// (aria-hidden="true" on it or an ancestor, role="presentation" or "none")
// is not content, as alt="" makes an image decorative.
func (v *view) contentPixels(fd *frameData, d, i int) bool {
	nodes := v.c.Documents[d].Nodes
	n := &nodes[i]
	switch n.Name {
	case "CANVAS":
		if v.fallbackContent(d, i) {
			return false
		}
	case "svg":
		if v.decorativeSVG(d, i) || v.namedIcon(d, i) || v.accessibleInside(fd, d, i) {
			return false
		}
	default:
		return false
	}
	shown := layout.Intersect(v.g.ShownBox(d, i), v.g.ViewportBox(0))
	if shown.W < contentSide || shown.H < contentSide || shown.W*shown.H < contentArea {
		return false
	}
	return !v.namedHolder(d, i)
}

// fallbackContent: a canvas with a name of its own, or any text or named
// node in its fallback content, is described by the tree. A viewport
// capture leaves out fallback elements (they have no box) and counts them
// in its elided runs: fallback there is taken as described, as the full
// capture of the same page would most likely show it.
func (v *view) fallbackContent(d, i int) bool {
	doc := &v.c.Documents[d]
	nodes := doc.Nodes
	if _, name, ok := v.b.axOf(d, nodes[i].Backend); ok && strings.TrimSpace(name) != "" {
		return true
	}
	end := int(v.g.Docs[d].End[i])
	for _, e := range doc.Elided {
		if e.Parent >= i && e.Parent <= end && e.Nodes > 0 {
			return true
		}
	}
	for k := i + 1; k <= end && k < len(nodes); k++ {
		role, name, ok := v.b.axOf(d, nodes[k].Backend)
		if ok && (strings.TrimSpace(name) != "" || index.IsControlRole(role) || role == "link") {
			return true
		}
	}
	return false
}

// decorativeSVG: an svg nested in another, or one its author declared
// decorative.
func (v *view) decorativeSVG(d, i int) bool {
	nodes := v.c.Documents[d].Nodes
	if r, ok := nodes[i].Attr("role"); ok {
		if r = strings.ToLower(strings.TrimSpace(r)); r == "presentation" || r == "none" {
			return true
		}
	}
	for k := i; k >= 0; k = int(nodes[k].Parent) {
		if k != i && nodes[k].Name == "svg" {
			return true
		}
		if h, ok := nodes[k].Attr("aria-hidden"); ok && strings.EqualFold(strings.TrimSpace(h), "true") {
			return true
		}
	}
	return false
}

// namedHolder: a named link, control or image within a few levels above
// the element stands for it.
func (v *view) namedHolder(d, i int) bool {
	nodes := v.c.Documents[d].Nodes
	for k, depth := int(nodes[i].Parent), 0; k >= 0 && depth < 4; k, depth = int(nodes[k].Parent), depth+1 {
		if nodes[k].Name == "BODY" || nodes[k].Name == "HTML" {
			return false
		}
		role, name, ok := v.b.axOf(d, nodes[k].Backend)
		if ok && strings.TrimSpace(name) != "" && (index.IsControlRole(role) || role == "link" || role == "img" || role == "image") {
			return true
		}
	}
	return false
}
