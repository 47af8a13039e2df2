package paintorder

import (
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

// Sight: what a person sees, decided from what is painted rather than
// from what takes clicks. For a point of a text the index stacks every
// box that paints there, in paint order, across the iframes that hold
// it: backgrounds under the text give the colour behind it; backgrounds,
// images and videos over it dim or hide it. A text is seen where its
// colour, at its effective opacity and through what is painted over it,
// stands out from what is behind it.

// Thresholds, chosen against the browser's own pixels (a text is seen
// when making its colour transparent changes the screenshot by more than
// 24 of 255 in some channel; see browser/chrome/capture/pixels.go):
//   - MinContrast: body text near 1.2:1 changes its pixels by about 22
//     levels, under what the eye picks out; WCAG's lowest contrast for any
//     text in use (placeholders, disabled labels) is far above it (2:1 and
//     more).
//   - MinAlpha: black at 5% over white is 242 of 255, 13 levels; over an
//     image, where the colour behind is unknown, opacity is all there is.
//   - Paint over a text covers it when the contrast that comes through is
//     under MinContrast: black text under a 75% black backdrop still
//     reads (2:1), under 90% it does not.
//   - CoverAlpha: for content judged by its box (PaintCheck), a box
//     painted over it at 90% or more hides it.
const (
	MinContrast = 1.2
	MinAlpha    = 0.05
	CoverAlpha  = 0.9
)

// Why a text or image is not seen.
const (
	SeenOK          = ""
	SeenTransparent = "transparent"       // opacity, a filter, a clear colour
	SeenSameColour  = "background colour" // its colour is the colour behind it
	SeenCovered     = "covered"           // something opaque is painted over it
	SeenTooSmall    = "too small"         // glyphs a few pixels high
	SeenNoArea      = "no area"
	// SeenUnsure: painted with something the model does not know exactly
	// (a colour it cannot parse), and not settled by the browser's pixels
	// (Capture.TextPixels): withheld, as failing closed.
	SeenUnsure = "not confirmed seen"
	// SeenByPixels: the model was unsure, and making the text transparent
	// changed no pixel of the browser's screenshot.
	SeenByPixels = "unseen in the browser's pixels"
)

// Sight is the verdict on one text or image.
type Sight struct {
	Seen   bool
	Reason string
	// By is what paints over it, when it is covered.
	By    domsnap.Pos
	HasBy bool
}

// minGlyph is the height of a line box under which glyphs are specks
// (font-size 1px or 2px), not text.
const minGlyph = 3.0

// TextSight decides whether a person sees text node (doc, i), or the
// generated content of pseudo element (doc, i), from its line boxes. What
// the model is unsure of (it meets paint it does not know exactly) is
// settled by the browser's pixels (Capture.TextPixels), and, where they
// did not settle it, withheld (SeenUnsure).
func (ix *Index) TextSight(doc, i int) Sight {
	s := ix.modelSight(doc, i)
	if s.Reason != SeenUnsure {
		return s
	}
	seen, ok := ix.pixelVerdict(doc, i)
	switch {
	case !ok:
		return s
	case seen:
		return Sight{Seen: true}
	}
	return Sight{Reason: SeenByPixels}
}

// TextUnsure: the model alone cannot say whether a person sees text node
// (doc, i) (see UnsureTexts).
func (ix *Index) TextUnsure(doc, i int) bool { return ix.modelSight(doc, i).Reason == SeenUnsure }

// pixelVerdict is the pixels' verdict on text node (doc, i), ok false
// when the capture holds none.
func (ix *Index) pixelVerdict(doc, i int) (seen, ok bool) {
	if ix.pixels == nil {
		ix.pixels = make(map[domsnap.Pos]bool, len(ix.c.TextPixels))
		for _, p := range ix.c.TextPixels {
			ix.pixels[domsnap.Pos{Doc: p.Doc, Node: p.Node}] = p.Seen
		}
	}
	seen, ok = ix.pixels[domsnap.Pos{Doc: doc, Node: i}]
	return seen, ok
}

// modelSight is TextSight by the model alone.
func (ix *Index) modelSight(doc, i int) Sight {
	if !ix.hasNode(doc, i) {
		return Sight{Seen: true}
	}
	el := ix.textElement(doc, i)
	sc, ok := ix.colours(doc, el)
	if !ok {
		return Sight{Seen: true}
	}
	svg := ix.svgText(doc, el)
	fill, fillOK, stroked := sc.textPaint(svg)
	if !svg && sc.fillUnknown || ix.behindModal(doc, el) {
		return Sight{Reason: SeenUnsure}
	}
	if !fillOK {
		return Sight{Seen: true}
	}
	var buf [4]layout.Box
	frags := ix.g.FragmentsInto(buf[:0], doc, i, len(buf))
	if len(frags) == 0 {
		return ix.linelessSight(doc, i)
	}
	if !glyphHigh(frags) {
		return Sight{Reason: SeenTooSmall}
	}
	alpha := ix.g.Alpha(doc, el)
	if alpha >= MinAlpha && (ix.unmodelledAround(doc, el) || ix.firstLined(doc, el)) {
		return Sight{Reason: SeenUnsure}
	}
	drawn := stroked || ix.drawnOtherwise(doc, el, sc)
	if drawn && !svg && fill.A < MinAlpha && alpha >= MinAlpha {
		return ix.drawnOnlySight(doc, el, frags[0], sc, alpha)
	}
	if drawn && !stroked && !sc.stroke && !ix.clipDrawn(doc, el) {
		return ix.shadowedSight(doc, i, el, frags, fill, alpha)
	}
	s := ix.fillSight(doc, i, el, frags, fill, alpha, drawn)
	if svg || drawn {
		return s
	}
	return ix.visitedSight(doc, i, el, frags, alpha, s)
}

// hasNode: (doc, i) is a node of the capture.
func (ix *Index) hasNode(doc, i int) bool {
	return doc >= 0 && doc < len(ix.c.Documents) && i >= 0 && i < len(ix.c.Documents[doc].Nodes)
}

// textElement is the element whose style paints node i's text: a text
// node's parent, or a pseudo element itself (its generated content).
func (ix *Index) textElement(doc, i int) int {
	if n := &ix.c.Documents[doc].Nodes[i]; n.Type == domsnap.TextNode {
		return int(n.Parent)
	}
	return i
}

// textPaint is how text of this style paints its glyphs: SVG text with
// its fill (and a stroke, which draws it too), other text with its
// colour.
func (sc *styleColours) textPaint(svg bool) (fill RGBA, ok, stroked bool) {
	if svg {
		return sc.svgFill, sc.svgFillOK, sc.svgStroke
	}
	return sc.fill, sc.fillOK, false
}

// linelessSight judges text node i when it has no line box in view.
func (ix *Index) linelessSight(doc, i int) Sight {
	if n := &ix.c.Documents[doc].Nodes[i]; n.Type == domsnap.TextNode && n.Layout != nil && noArea(n.Layout.Fragments) {
		return Sight{Reason: SeenNoArea} // glyphs of no size (font-size-adjust: 0)
	}
	return Sight{Seen: true} // clipped or without lines: others decide
}

// glyphHigh: some line box is high enough to hold glyphs rather than
// specks (minGlyph).
func glyphHigh(frags []layout.Box) bool {
	for _, f := range frags {
		if f.H >= minGlyph {
			return true
		}
	}
	return false
}

// drawnOnlySight judges text drawn only by a shadow, a stroke or a
// clipped background, whose colour and place sight does not follow (far
// off, clear, the page's own colour): the pixels say, in view. Far from
// it, a background clipped to the text is judged by its colours. first
// is the text's first line box.
func (ix *Index) drawnOnlySight(doc, el int, first layout.Box, sc *styleColours, alpha float64) Sight {
	if !ix.meets(first, ix.g.Viewport.Height) && !sc.shadow && !sc.stroke {
		return ix.clipTextSight(doc, el, alpha)
	}
	return Sight{Reason: SeenUnsure}
}

// fillSight judges a text's lines in one fill colour.
func (ix *Index) fillSight(doc, i, el int, frags []layout.Box, fill RGBA, alpha float64, drawn bool) Sight {
	if !drawn {
		alpha *= fill.A
	}
	if !ix.nearSight(frags[0]) {
		return ix.chainSight(doc, el, fill, alpha, drawn)
	}
	var first Sight
	for k := range frags {
		f := frags[k]
		for t, at := range [3]float64{0.5, 1.0 / 6, 5.0 / 6} {
			s := ix.sightAt(doc, i, f.X+f.W*at, f.Y+f.H/2, fill, alpha, drawn)
			if s.Seen {
				return s
			}
			if k == 0 && t == 0 {
				first = s
			}
		}
	}
	return first
}

// shadowedSight judges text whose glyphs a text shadow draws besides its
// fill: seen when its fill stands out alone; else unsure, for the shadow
// may be the background's colour, or lie far away (the pixels say).
func (ix *Index) shadowedSight(doc, i, el int, frags []layout.Box, fill RGBA, alpha float64) Sight {
	if s := ix.fillSight(doc, i, el, frags, fill, alpha, false); s.Seen || s.Reason == SeenTransparent {
		return s
	}
	return Sight{Reason: SeenUnsure}
}

// drawnOtherwise: glyphs drawn without the fill colour: a text shadow or
// stroke of some colour, or a background clipped to the text.
func (ix *Index) drawnOtherwise(doc, el int, sc *styleColours) bool {
	if sc.shadow || sc.stroke {
		return true // (a stroke's colour is not recorded: assume it shows)
	}
	return ix.clipDrawn(doc, el)
}

// clipDrawn: a background clipped to the text paints element el's glyphs.
func (ix *Index) clipDrawn(doc, el int) bool {
	if !ix.clipsText(doc) {
		return false
	}
	nodes := ix.c.Documents[doc].Nodes
	for k, depth := el, 0; k >= 0 && depth < 64; k, depth = int(nodes[k].Parent), depth+1 {
		if c, ok := ix.colours(doc, k); ok && c.clipText {
			return c.bgOK || c.pattern
		}
	}
	return false
}

// clipsText: some style of the document clips a background to text.
func (ix *Index) clipsText(doc int) bool {
	if ix.textClip == nil {
		ix.textClip = make([]int8, len(ix.c.Documents))
	}
	if ix.textClip[doc] == 0 {
		ix.textClip[doc] = 1
		for k := range ix.c.Documents[doc].Styles {
			if strings.Contains(ix.c.Documents[doc].Styles[k].BackgroundClip, "text") {
				ix.textClip[doc] = 2
				break
			}
		}
	}
	return ix.textClip[doc] == 2
}

// noArea: line boxes there are, and none has an area.
func noArea(frags []domsnap.Rect) bool {
	for _, f := range frags {
		if f.W > 0 && f.H > 0 {
			return false
		}
	}
	return len(frags) > 0
}

// OwnTextSight decides whether a person sees the text element (doc, i)
// draws itself, with no text node of its own in the capture (an input
// button's value, drawn by the browser): its colour judged across its
// box, like one line of text. Only what the model knows for sure hides
// it (a clear colour, the colour behind, an opacity near 0); anything
// else is taken as seen.
func (ix *Index) OwnTextSight(doc, i int) Sight {
	if !ix.hasNode(doc, i) {
		return Sight{Seen: true}
	}
	sc, ok := ix.colours(doc, i)
	if !ok || !sc.fillOK || sc.fillUnknown || ix.drawnOtherwise(doc, i, sc) {
		return Sight{Seen: true}
	}
	b, ok := ix.g.Box(doc, i)
	if !ok || b.W <= 0 || b.H <= 0 {
		return Sight{Seen: true}
	}
	s := ix.fillSight(doc, i, i, []layout.Box{b}, sc.fill, ix.g.Alpha(doc, i), false)
	switch s.Reason {
	case SeenTransparent, SeenSameColour:
		return s
	}
	return Sight{Seen: true}
}

// textual: a text node with words, or a pseudo element whose generated
// text has some (judged by its element's colour, like a text node).
func textual(n *domsnap.Node) bool {
	if n.Layout == nil {
		return false
	}
	if n.Type == domsnap.TextNode {
		return strings.TrimSpace(n.Value) != ""
	}
	return (n.PseudoType == "before" || n.PseudoType == "after" || n.PseudoType == "marker") && strings.TrimSpace(n.Layout.Text) != ""
}
