// Package layout turns a capture's per-document layout into geometry in one
// frame of reference: border boxes in CSS px relative to the top-level
// viewport, and whether each node is rendered visibly.
//
// It reads a domsnap.Capture and nothing else; its result is plain data that
// paintorder and fuse consume.
package layout

import (
	"math"
	"strconv"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
)

// Box is a rectangle in CSS px relative to the top-level viewport.
type Box struct{ X, Y, W, H float64 }

// Geometry holds, per document and node, the viewport box and visibility.
type Geometry struct {
	Viewport domsnap.Viewport
	Docs     []DocGeometry
	c        *domsnap.Capture
}

// DocGeometry is one document's geometry, indexed like Document.Nodes.
// Per node it keeps its box, a few bits and two indexes; the shown box is
// worked out when asked (ShownBox), so a long page costs little.
type DocGeometry struct {
	// OffsetX, OffsetY move the document's own coordinates into the
	// top-level viewport (iframe position, border, and scrolls).
	OffsetX, OffsetY float64
	// End is the index of each node's last descendant (nodes are in tree
	// order, so a subtree is the range i..End[i]).
	End []int32
	// flags holds each node's facts (hasBox, visible, ...).
	flags []uint8
	// boxes are the nodes' viewport boxes (zero for a node without one).
	boxes []Box
	// clip is, per node, the index in clips of the region its ancestors'
	// overflow and iframe viewports leave: its shown box is its box cut to
	// that region.
	clip  []int32
	clips []rect
	// hides is, per clip in clips, the part of it made by boxes that hide
	// what overflows them (overflow hidden or clip, contain: paint), not
	// scroll it: what lies outside is cut off for good, not scrolled away.
	// A child document's starts with no clip.
	hides []rect
	// base is the clip of the document as a whole: none for the top-level
	// document, the iframe's content box for a child document.
	base rect
	// alpha is each node's effective opacity: the product of opacity and
	// filter opacity() down its ancestors, and down the iframes that hold
	// its document. baseAlpha and baseFlags are what the document's root
	// inherits from its iframe.
	alpha     []float32
	baseAlpha float32
	baseFlags uint8
}

// Node facts, one bit each.
const (
	// hasBox: laid out with a finite box.
	hasBox uint8 = 1 << iota
	// visible: rendered visibly (see IsVisible).
	visible
	// tangible is visible without the opacity test: an element at opacity
	// 0 is invisible but still receives clicks.
	tangible
	// unseen marks nodes inside a pixel-sized element that CSS clip or
	// clip-path cuts to nothing: the visually-hidden pattern of
	// screen-reader-only text, which is meant to be read. (A large element
	// clipped to nothing is hidden content, not this.)
	unseen
	// transparent: at opacity 0, or inside such an element (opacity is not
	// inherited in CSS but hides the whole subtree).
	transparent
	// ghost: a transparent element that takes no pointer events either
	// (pointer-events: none, inherited): neither seen nor clickable, as a
	// panel waiting to fade in is.
	ghost
	// sunk: inside a positioned element of negative z-index. Its layer
	// paints under the normal flow of the stacking context around it,
	// though DOMSnapshot numbers it after that flow.
	sunk
)

// rect is a clip region; infinite sides mean "no clip on that side".
type rect struct{ x0, y0, x1, y1 float64 }

var noClip = rect{math.Inf(-1), math.Inf(-1), math.Inf(1), math.Inf(1)}

func (r rect) intersect(o rect) rect {
	return rect{maxf(r.x0, o.x0), maxf(r.y0, o.y0), minf(r.x1, o.x1), minf(r.y1, o.y1)}
}

// maxf is math.Max, quicker when the two differ (the usual case).
func maxf(a, b float64) float64 {
	switch {
	case a > b:
		return a
	case b > a:
		return b
	}
	return math.Max(a, b) // equal (signed zeros) or NaN
}

// minf is math.Min, quicker when the two differ.
func minf(a, b float64) float64 {
	switch {
	case a < b:
		return a
	case b < a:
		return b
	}
	return math.Min(a, b)
}

func boxRect(b Box) rect { return rect{b.X, b.Y, b.X + b.W, b.Y + b.H} }

func (r rect) box() Box {
	if r.x1 <= r.x0 || r.y1 <= r.y0 {
		return Box{}
	}
	return Box{r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0}
}

// Compute derives the geometry of every node of the capture.
func Compute(c *domsnap.Capture) *Geometry {
	g := &Geometry{Viewport: c.Viewport, Docs: make([]DocGeometry, len(c.Documents)), c: c}
	g.Docs[0].OffsetX, g.Docs[0].OffsetY = -c.Viewport.ScrollX, -c.Viewport.ScrollY
	for d := range g.Docs {
		g.Docs[d].base = noClip
	}
	for d := range c.Documents {
		g.computeDocument(c, d)
	}
	return g
}

// styleFacts are what layout reads of one computed-style tuple, worked out
// once per tuple.
type styleFacts struct {
	position      string
	clipsAway     bool
	zeroOpacity   bool
	opacity       float32 // opacity times filter opacity()
	negativeZ     bool
	noPointer     bool // pointer-events: none
	shown         bool // display is not none, visibility not hidden or collapse
	clipX, clipY  bool // overflow clips its content on that axis
	hideX, hideY  bool // ... and cannot be scrolled on it (hidden, clip, contain)
	overflowClips bool
}

func factsOf(st *domsnap.Style) styleFacts {
	f := styleFacts{position: st.Position, clipsAway: clipsAway(st), clipX: clips(st.OverflowX), clipY: clips(st.OverflowY),
		hideX: hides(st.OverflowX), hideY: hides(st.OverflowY)}
	f.opacity = 1
	if st.Opacity != "" && st.Opacity != "1" {
		if op, err := strconv.ParseFloat(st.Opacity, 64); err == nil && finite(op) {
			f.opacity = float32(math.Min(1, math.Max(0, op)))
		}
	}
	f.opacity *= filterOpacity(st.Filter)
	f.zeroOpacity = f.opacity <= 0
	if z, err := strconv.Atoi(st.ZIndex); err == nil && z < 0 && st.Position != "" && st.Position != "static" {
		f.negativeZ = true
	}
	f.noPointer = st.PointerEvents == "none"
	f.shown = st.Display != "none" && st.Visibility != "hidden" && st.Visibility != "collapse"
	if containsPaint(st.Contain) {
		// contain: paint clips what the element holds to its padding box,
		// as overflow: clip does.
		f.clipX, f.clipY = true, true
		f.hideX, f.hideY = true, true
	}
	f.overflowClips = f.clipX || f.clipY
	return f
}

// containsPaint: a computed contain value that includes paint containment
// (paint itself, or the strict and content shorthands).
func containsPaint(contain string) bool {
	for _, v := range strings.Fields(contain) {
		if v == "paint" || v == "strict" || v == "content" {
			return true
		}
	}
	return false
}

// noStyle stands for a node without a computed style.
var noStyle = factsOf(&domsnap.Style{})

func (g *Geometry) computeDocument(c *domsnap.Capture, d int) {
	doc := &c.Documents[d]
	dg := &g.Docs[d]
	n := len(doc.Nodes)
	dg.End, dg.flags, dg.clip, dg.boxes = make([]int32, n), make([]uint8, n), make([]int32, n), make([]Box, n)
	dg.alpha = make([]float32, n)
	if d == 0 {
		dg.baseAlpha = 1
	}
	styles := styleTable(doc)
	dg.clips = []rect{dg.base, {}}
	dg.hides = []rect{noClip, {}}
	flow, abs := make([]int32, n), make([]int32, n)
	for i := range doc.Nodes {
		node := &doc.Nodes[i]
		dg.End[i] = int32(i)
		p := node.Parent
		st := &noStyle
		if node.Layout != nil && node.Layout.Style >= 0 {
			st = &styles[node.Layout.Style]
		}
		clip := int32(baseClip)
		position := st.position
		if node.Type != domsnap.ElementNode {
			position = "" // a text node's style is its parent's
		}
		clip = dg.inherit(i, p, position, flow, abs)
		positioned := position != "" && position != "static"
		if node.Type == domsnap.ElementNode {
			dg.styleFlags(i, st)
		}
		l := node.Layout
		if l == nil {
			continue
		}
		b := l.Bounds
		if !finite(b.X, b.Y, b.W, b.H) {
			continue
		}
		box := Box{b.X + dg.OffsetX, b.Y + dg.OffsetY, math.Max(b.W, 0), math.Max(b.H, 0)}
		dg.flags[i] |= hasBox
		dg.boxes[i] = box
		if st.clipsAway && b.W <= 2 && b.H <= 2 {
			dg.flags[i] |= unseen // the screen-reader-only pattern: a clipped pixel
		}
		if st.clipsAway || closedDetails(doc, i) || svgUnrendered(doc, i) {
			clip = emptyClip // clipped away, with everything inside it
			flow[i], abs[i] = clip, clip
		}
		dg.clip[i] = clip
		dg.shownFlags(i, st, boxRect(box).intersect(dg.clips[clip]).box(), node.Type == domsnap.ElementNode)
		if st.overflowClips {
			if own, ok := overflowClip(node, st, box); ok {
				dg.clips = append(dg.clips, dg.clips[flow[i]].intersect(own))
				dg.hides = append(dg.hides, dg.hides[flow[i]].intersect(hidingPart(own, st)))
				flow[i] = int32(len(dg.clips) - 1)
			}
		}
		if positioned {
			abs[i] = flow[i]
		}
		if cd := node.ContentDocument; cd > d {
			g.placeChild(c, d, i, cd, dg.clips[clip])
		}
	}
	dg.spanSubtrees(doc)
}

// spanSubtrees sets each node's End, the last node of its subtree.
func (dg *DocGeometry) spanSubtrees(doc *domsnap.Document) {
	for i := len(doc.Nodes) - 1; i > 0; i-- {
		if p := doc.Nodes[i].Parent; p >= 0 && dg.End[i] > dg.End[p] {
			dg.End[p] = dg.End[i]
		}
	}
}

// styleTable is the facts of each of the document's computed styles.
func styleTable(doc *domsnap.Document) []styleFacts {
	styles := make([]styleFacts, len(doc.Styles))
	for k := range doc.Styles {
		styles[k] = factsOf(&doc.Styles[k])
	}
	return styles
}

// inherit gives node i its parent p's flags and opacity, sets the clips
// its descendants inherit (flow: for in-flow ones; abs: for absolutely
// positioned ones, whose containing block is the nearest positioned
// ancestor) and returns its own clip.
func (dg *DocGeometry) inherit(i int, p int32, position string, flow, abs []int32) int32 {
	clip := int32(baseClip)
	dg.flags[i], dg.alpha[i] = dg.baseFlags, dg.baseAlpha
	abs[i] = baseClip
	if p >= 0 {
		dg.flags[i], dg.alpha[i] = dg.flags[p]&(transparent|unseen|sunk), dg.alpha[p]
		switch position {
		case "fixed":
		case "absolute":
			clip = abs[p]
		default:
			clip = flow[p]
		}
		abs[i] = abs[p]
	}
	flow[i] = clip
	return clip
}

// styleFlags counts an element's own opacity and stacking (a text node's
// style is its parent's, counted already).
func (dg *DocGeometry) styleFlags(i int, st *styleFacts) {
	dg.alpha[i] *= st.opacity
	if st.negativeZ {
		dg.flags[i] |= sunk
	}
}

// shownFlags marks what a laid-out node shows, given its shown box.
func (dg *DocGeometry) shownFlags(i int, st *styleFacts, shown Box, element bool) {
	if st.zeroOpacity && element {
		dg.flags[i] |= transparent
	}
	if dg.flags[i]&transparent != 0 && st.noPointer && element {
		dg.flags[i] |= ghost
	}
	if st.shown && shown.W*shown.H > 0 {
		dg.flags[i] |= tangible
		if dg.flags[i]&transparent == 0 {
			dg.flags[i] |= visible
		}
	}
}

// The clips that in-flow and absolutely positioned descendants inherit,
// as indexes into DocGeometry.clips: the document's, and none.
const baseClip, emptyClip = 0, 1

// overflowClip is the clip an element with overflow other than visible puts
// on its content: its padding box (border box less borders), per axis. The
// root's overflow applies to the viewport, never to the html or body box.
func overflowClip(node *domsnap.Node, st *styleFacts, box Box) (rect, bool) {
	clipX, clipY := st.clipX, st.clipY
	if !clipX && !clipY || node.Type != domsnap.ElementNode || node.Name == "HTML" || node.Name == "BODY" {
		return rect{}, false
	}
	pad := boxRect(box)
	if cl := node.Layout.Client; cl != nil && finite(cl.X, cl.Y, cl.W, cl.H) && cl.W > 0 && cl.H > 0 {
		pad = rect{box.X + cl.X, box.Y + cl.Y, box.X + cl.X + cl.W, box.Y + cl.Y + cl.H}
	}
	r := noClip
	if clipX {
		r.x0, r.x1 = pad.x0, pad.x1
	}
	if clipY {
		r.y0, r.y1 = pad.y0, pad.y1
	}
	return r, true
}

// clipsAway reports a CSS clip or clip-path that leaves nothing: the
// visually-hidden pattern (clip: rect(0 0 0 0), clip-path: inset(50%)).
func clipsAway(st *domsnap.Style) bool {
	if strings.HasPrefix(st.Clip, "rect(") {
		f := strings.FieldsFunc(strings.TrimSuffix(strings.TrimPrefix(st.Clip, "rect("), ")"), func(r rune) bool { return r == ',' || r == ' ' })
		if len(f) == 4 {
			v := make([]float64, 4)
			ok := true
			for k, x := range f {
				var read bool
				if v[k], read = Px(x); !read {
					ok = false
				}
			}
			// rect(top, right, bottom, left)
			if ok && (v[2] <= v[0] || v[1] <= v[3]) {
				return true
			}
		}
	}
	return ClipPathClipsAll(st.ClipPath)
}

// ClipPathClipsAll: a computed clip-path that leaves nothing of the box
// (inset(50%), circle(0px)), compared with its spaces removed. Layout
// drops what it clips; paint sight counts it as modelled.
func ClipPathClipsAll(clipPath string) bool {
	switch strings.ReplaceAll(clipPath, " ", "") {
	case "inset(50%)", "inset(100%)", "circle(0px)", "circle(0pxatcenter)", "circle(0pxat50%50%)":
		return true
	}
	return false
}

// svgUnrendered: an SVG element that is never painted where it lies, only
// used by reference (<defs>, <symbol>, <clipPath>, <mask>, <pattern>,
// <marker>): DOMSnapshot may still give what it holds boxes. Its content
// inherits the clip, so one check on it suffices.
func svgUnrendered(doc *domsnap.Document, i int) bool {
	switch doc.Nodes[i].Name {
	case "defs", "symbol", "clipPath", "mask", "pattern", "marker":
		return true
	}
	return false
}

// closedDetails: the content of a closed <details>, other than its first
// summary, is not rendered though DOMSnapshot may still give it a box.
func closedDetails(doc *domsnap.Document, i int) bool {
	n := &doc.Nodes[i]
	p := n.Parent
	if p < 0 || doc.Nodes[p].Name != "DETAILS" {
		return false
	}
	if _, open := doc.Nodes[p].Attr("open"); open {
		return false
	}
	if n.Name != "SUMMARY" {
		return true
	}
	for k := int(p) + 1; k < i; k++ { // an earlier summary sibling wins
		if doc.Nodes[k].Parent == p && doc.Nodes[k].Name == "SUMMARY" {
			return true
		}
	}
	return false
}

// hides: an overflow value that clips and offers no scrolling.
func hides(overflow string) bool { return overflow == "hidden" || overflow == "clip" }

// hidingPart is an overflow clip on the axes it cannot be scrolled on.
func hidingPart(own rect, st *styleFacts) rect {
	r := noClip
	if st.hideX {
		r.x0, r.x1 = own.x0, own.x1
	}
	if st.hideY {
		r.y0, r.y1 = own.y0, own.y1
	}
	return r
}

func clips(overflow string) bool {
	switch overflow {
	case "hidden", "scroll", "auto", "clip", "overlay":
		return true
	}
	return false
}

// placeChild sets the offset and clip of the iframe document cd owned by
// node i of document d: the iframe's box plus its border (clientLeft/Top),
// less the child document's own scroll; the clip is the iframe's content
// box within the iframe's own clip.
func (g *Geometry) placeChild(c *domsnap.Capture, d, i, cd int, clip rect) {
	owner := c.Documents[d].Nodes[i].Layout
	box := g.Docs[d].box(i)
	content := boxRect(box)
	if cl := owner.Client; cl != nil && finite(cl.X, cl.Y, cl.W, cl.H) {
		// The client rect is the padding box; the document starts at the
		// content box, inside the padding.
		var pl, pt float64
		if owner.Style >= 0 {
			st := &c.Documents[d].Styles[owner.Style]
			pl, pt = nonNegative(Px(st.PaddingLeft)), nonNegative(Px(st.PaddingTop))
		}
		content = rect{box.X + cl.X + pl, box.Y + cl.Y + pt, box.X + cl.X + cl.W - pl, box.Y + cl.Y + cl.H - pt}
	}
	child := &c.Documents[cd]
	g.Docs[cd].OffsetX = content.x0 - finiteOr(child.ScrollX)
	g.Docs[cd].OffsetY = content.y0 - finiteOr(child.ScrollY)
	g.Docs[cd].base = content.intersect(clip)
	// Opacity on the iframe hides its document as it hides any content.
	g.Docs[cd].baseAlpha = g.Docs[d].alpha[i]
	g.Docs[cd].baseFlags = g.Docs[d].flags[i] & (transparent | unseen)
}

func finite(fs ...float64) bool {
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e9 {
			return false
		}
	}
	return true
}

// filterOpacity is the product of the opacity() functions in a computed
// filter ("blur(2px) opacity(0.5)"): other functions change colour or
// shape, not how much of the content shows.
func filterOpacity(filter string) float32 {
	op := float32(1)
	for rest := filter; ; {
		k := strings.Index(rest, "opacity(")
		if k < 0 {
			return op
		}
		rest = rest[k+len("opacity("):]
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return op
		}
		arg := strings.TrimSpace(rest[:end])
		scale := 1.0
		if strings.HasSuffix(arg, "%") {
			arg, scale = strings.TrimSuffix(arg, "%"), 0.01
		}
		if f, err := strconv.ParseFloat(arg, 64); err == nil && finite(f) {
			op *= float32(math.Min(1, math.Max(0, f*scale)))
		}
		rest = rest[end:]
	}
}

func finiteOr(f float64) float64 {
	if finite(f) {
		return f
	}
	return 0
}
