package paintorder

import (
	"strconv"
	"strings"

	"github.com/tidwall/rtree"

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

// paint kinds
const (
	paintColour  uint8 = iota // a background colour
	paintPicture              // an image or video: opaque pixels of unknown colour
	paintPattern              // a background image, canvas or svg: unknown, maybe clear
	paintUnknown              // a background colour sight cannot read: unsure
	paintDecor                // borders, shadows, outlines, a backdrop filter (decor.go)
	paintFrame                // an iframe: another document's paint, opaque or clear
)

type paintEntry struct {
	node  int32
	kind  uint8
	rank  int8 // 0 the document's canvas, 1 sunk (negative z-index), 2 the rest
	order int64
	c     RGBA // alpha times the node's effective opacity
}

// styleColours are what sight reads of one computed-style tuple, parsed
// once.
type styleColours struct {
	fill, bg       RGBA
	fillOK, bgOK   bool
	pattern        bool // a background image
	shadow, stroke bool // glyphs drawn by a shadow or stroke
	clipText       bool // background-clip: text
	// SVG text paints with fill and stroke, not color: svgFill is the
	// fill at its fill-opacity (svgFillOK false: a gradient or pattern,
	// or not recorded), svgStroke a stroke that shows.
	svgFill              RGBA
	svgFillOK, svgStroke bool
	// fillUnknown, bgUnknown: a colour is set that ParseColour cannot read
	// (CSS Color 4: oklch(), lab(), color(), a color-mix() result): what
	// it paints is not known, so sight is unsure.
	fillUnknown, bgUnknown bool
}

func coloursOf(st *domsnap.Style) styleColours {
	var c styleColours
	if c.fill, c.fillOK = ParseColour(st.TextFillColor); !c.fillOK {
		c.fillUnknown = unknownColour(st.TextFillColor)
		c.fill, c.fillOK = ParseColour(st.Color)
		c.fillUnknown = c.fillUnknown || unknownColour(st.Color)
	}
	c.bg, c.bgOK = ParseColour(st.BackgroundColor)
	c.bgUnknown = !c.bgOK && unknownColour(st.BackgroundColor)
	c.bgOK = c.bgOK && c.bg.A > 0
	c.pattern = st.BackgroundImage != "" && st.BackgroundImage != "none"
	c.shadow = visibleColourIn(st.TextShadow)
	w := strings.TrimSuffix(st.TextStrokeWidth, "px")
	c.stroke = w != "" && w != "0"
	c.clipText = strings.Contains(st.BackgroundClip, "text")
	c.svgFill, c.svgFillOK = svgPaint(st.Fill, st.FillOpacity)
	stroke, ok := svgPaint(st.Stroke, st.StrokeOpacity)
	c.svgStroke = (!ok || stroke.A > 0) && st.Stroke != "" && positive(st.StrokeWidth)
	return c
}

// darkScheme: a computed color-scheme under which Chrome may paint the
// canvas dark (headless prefers light, but a scheme of dark alone is
// used whatever is preferred; "light dark" is left to the pixels too).
func darkScheme(s string) bool {
	return strings.Contains(s, "dark")
}

// unknownColour: a computed colour is set but is not one ParseColour
// reads. "" is a capture that did not record it (older captures), and
// currentcolor takes another property's colour.
func unknownColour(s string) bool {
	if s == "" || strings.EqualFold(s, "currentcolor") {
		return false
	}
	_, ok := ParseColour(s)
	return !ok
}

// svgPaint is an SVG paint (fill or stroke) at its opacity: none is
// clear; a colour is known; anything else (a gradient, a pattern, a
// context paint) is not.
func svgPaint(paint, opacity string) (RGBA, bool) {
	if paint == "none" {
		return RGBA{}, true
	}
	c, ok := ParseColour(paint)
	if !ok {
		return RGBA{}, false
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(opacity), 64); err == nil && f >= 0 && f <= 1 {
		c.A *= f
	}
	return c, true
}

// positive: a CSS length above zero ("1px", "0.5px"; "0px" and "" are not).
func positive(length string) bool {
	f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(length), "px"), 64)
	return err == nil && f > 0
}

// colours returns node i's parsed style colours.
func (ix *Index) colours(doc, i int) (*styleColours, bool) {
	d := &ix.c.Documents[doc]
	if i < 0 || i >= len(d.Nodes) || d.Nodes[i].Layout == nil {
		return nil, false
	}
	s := d.Nodes[i].Layout.Style
	if s < 0 || s >= len(d.Styles) {
		return nil, false
	}
	if ix.colourMemo == nil {
		ix.colourMemo = make([][]styleColours, len(ix.c.Documents))
		ix.colourDone = make([][]bool, len(ix.c.Documents))
	}
	if ix.colourMemo[doc] == nil {
		ix.colourMemo[doc] = make([]styleColours, len(d.Styles))
		ix.colourDone[doc] = make([]bool, len(d.Styles))
	}
	if !ix.colourDone[doc][s] {
		ix.colourMemo[doc][s], ix.colourDone[doc][s] = coloursOf(&d.Styles[s]), true
	}
	return &ix.colourMemo[doc][s], true
}

// paintDoc holds one document's painting boxes, built on first use.
type paintDoc struct {
	built  bool
	tree   rtree.RTreeG[paintEntry]
	canvas RGBA // the root's background, propagated to the canvas
	// hasCanvas: the root paints its canvas (a child document's canvas
	// is clear unless it sets a background).
	hasCanvas bool
	// canvasUnknown: the root's background is a colour sight cannot
	// read: what is behind every text is unknown.
	canvasUnknown bool
}

func (ix *Index) paintDoc(d int) *paintDoc {
	if ix.paints == nil {
		ix.paints = make([]paintDoc, len(ix.c.Documents))
	}
	p := &ix.paints[d]
	if !p.built {
		p.built = true
		ix.buildPaint(d, p)
	}
	return p
}

var pictures = map[string]bool{"IMG": true, "VIDEO": true, "EMBED": true, "OBJECT": true}

// buildPaint gathers document d's painting boxes and its canvas.
func (ix *Index) buildPaint(d int, p *paintDoc) {
	doc := &ix.c.Documents[d]
	if d == 0 {
		p.canvas, p.hasCanvas = White, true
	}
	htmlPaints := false // the root sets a background, so the body's paints its own box
	for i := range doc.Nodes {
		n := &doc.Nodes[i]
		if n.Type != domsnap.ElementNode || n.Layout == nil || n.Layout.Style < 0 || n.Layout.Style >= len(doc.Styles) {
			continue
		}
		a := ix.g.Alpha(d, i)
		if a < 0.01 {
			continue
		}
		if !ix.g.IsTangible(d, i) {
			ix.paintEdges(d, i, p, a)
			continue
		}
		sc, _ := ix.colours(d, i)
		if n.Name == "HTML" || n.Name == "BODY" && !htmlPaints {
			if n.Name == "HTML" {
				htmlPaints = sc.bgOK || sc.bgUnknown
			}
			ix.paintCanvas(d, i, p, sc, a)
			continue
		}
		ix.paintBox(d, i, p, sc, a)
	}
}

// paintEdges adds the decorations of element (d, i), a box of no area at
// alpha a: it still paints its border, shadow and outline, unless hidden.
func (ix *Index) paintEdges(d, i int, p *paintDoc, a float64) {
	doc := &ix.c.Documents[d]
	n := &doc.Nodes[i]
	if st := &doc.Styles[n.Layout.Style]; st.Visibility != "hidden" && st.Visibility != "collapse" {
		ix.insertDecor(d, i, p, paintEntry{node: int32(i), rank: 2, order: n.Layout.PaintOrder, c: RGBA{A: a}})
	}
}

// paintCanvas paints the background of root or body element (d, i), at
// alpha a, over the whole canvas, as the root's does (or the body's, when
// the root sets none).
func (ix *Index) paintCanvas(d, i int, p *paintDoc, sc *styleColours, a float64) {
	n := &ix.c.Documents[d].Nodes[i]
	bg, hasBg := sc.bg, sc.bgOK
	if sc.bgUnknown || n.Name == "HTML" && !hasBg && darkScheme(ix.c.Documents[d].Styles[n.Layout.Style].ColorScheme) {
		// An unreadable colour, or a dark color-scheme and no
		// background: Chrome paints the canvas a dark colour of
		// its own.
		p.canvasUnknown = true
	}
	if hasBg {
		if bg.A >= 0.999 {
			p.canvasUnknown = false // the body's background paints it
		}
		p.canvas, p.hasCanvas = over(bg, bg.A*a, p.canvas), true
		if d > 0 && bg.A < 1 {
			p.hasCanvas = false // blended with the page behind: leave it
		}
	}
}

// paintBox adds tangible element (d, i)'s decorations and, when its box
// lies within sight, what that box paints.
func (ix *Index) paintBox(d, i int, p *paintDoc, sc *styleColours, a float64) {
	n := &ix.c.Documents[d].Nodes[i]
	rank := int8(2)
	if ix.g.IsSunk(d, i) {
		rank = 1
	}
	ix.insertDecor(d, i, p, paintEntry{node: int32(i), rank: rank, order: n.Layout.PaintOrder, c: RGBA{A: a}})
	shown := ix.g.ShownBox(d, i)
	if shown.W <= 0 || shown.H <= 0 || !ix.nearSight(shown) {
		return
	}
	if kind, c, ok := boxPaint(n.Name, sc, a); ok {
		e := paintEntry{node: int32(i), kind: kind, rank: rank, order: n.Layout.PaintOrder, c: c}
		p.tree.Insert([2]float64{shown.X, shown.Y}, [2]float64{shown.X + shown.W, shown.Y + shown.H}, e)
	}
}

// boxPaint is what the box of an element named name, of colours sc at
// alpha a, paints (ok false: nothing but its decorations).
func boxPaint(name string, sc *styleColours, a float64) (kind uint8, c RGBA, ok bool) {
	switch {
	case pictures[name]:
		return paintPicture, RGBA{A: a}, true
	case (name == "IFRAME" || name == "FRAME") && !(sc.bgOK && sc.bg.A >= 0.999):
		return paintFrame, RGBA{A: a}, true
	case name == "CANVAS" || name == "svg" || sc.pattern:
		return paintPattern, RGBA{A: a}, true
	case sc.bgOK:
		return paintColour, RGBA{sc.bg.R, sc.bg.G, sc.bg.B, sc.bg.A * a}, true
	case sc.bgUnknown:
		return paintUnknown, RGBA{A: a}, true
	}
	return 0, RGBA{}, false
}

// layer is a paint entry of some document.
type layer struct {
	doc int
	e   paintEntry
}

// stack returns what paints at (x, y) under and over node (doc, i), each
// in paint order, bottom first, through the iframes that hold doc. The
// slices are the index's scratch space, valid until the next call.
func (ix *Index) stack(doc, i int, x, y float64) (under, overIt []layer) {
	type level struct{ doc, i int }
	var chainBuf [8]level
	chain := chainBuf[:0]
	for d, k := doc, i; d >= 0 && d < len(ix.c.Documents) && len(chain) < 32; {
		chain = append(chain, level{d, k})
		o := ix.owner[d]
		if d == 0 || o.Doc < 0 {
			break
		}
		d, k = o.Doc, o.Node
	}
	under, levels := ix.scratchUnder[:0], ix.scratchLevel[:0]
	var bounds [33]int // levels[bounds[c]:bounds[c+1]] are chain[c]'s covers
	for c := len(chain) - 1; c >= 0; c-- {
		d, k := chain[c].doc, chain[c].i
		p := ix.paintDoc(d)
		if p.hasCanvas {
			// An opaque canvas hides the page behind its iframe.
			under = append(under[:0], layer{d, paintEntry{node: -1, kind: paintColour, c: p.canvas}})
		}
		nodes := ix.c.Documents[d].Nodes
		var order int64
		if k >= 0 && k < len(nodes) && nodes[k].Layout != nil {
			order = nodes[k].Layout.PaintOrder
		}
		sunk := ix.g.IsSunk(d, k)
		from := len(under)
		bounds[c] = len(levels)
		p.tree.Search([2]float64{x, y}, [2]float64{x, y}, func(lo, hi [2]float64, e paintEntry) bool {
			if x >= hi[0] || y >= hi[1] {
				return true
			}
			if ix.visits++; ix.visits > maxVisits {
				return false
			}
			if ix.paintsUnder(d, k, order, sunk, e) {
				under = append(under, layer{d, e})
			} else if !ix.g.Contains(d, k, int(e.node)) {
				levels = append(levels, layer{d, e})
			}
			return true
		})
		byPaint(under[from:])
		byPaint(levels[bounds[c]:])
		bounds[c+1] = len(levels)
	}
	// Covers: the node's own document first, then each one around it.
	overIt = ix.scratchAbove[:0]
	for c := range chain {
		overIt = append(overIt, levels[bounds[c]:bounds[c+1]]...)
	}
	ix.scratchUnder, ix.scratchAbove, ix.scratchLevel = under, overIt, levels
	return under, overIt
}

// paintsUnder: entry e paints before node i: an ancestor, a sunk layer
// under the normal flow, an earlier layer, or a box of the node's own
// layer (backgrounds paint before the layer's text).
func (ix *Index) paintsUnder(doc, i int, order int64, sunk bool, e paintEntry) bool {
	j := int(e.node)
	switch {
	case ix.g.Contains(doc, j, i):
		return true
	case ix.g.Contains(doc, i, j):
		return false
	case e.rank == 1 && !sunk:
		return true
	case sunk && e.rank == 2:
		return false
	}
	return e.order <= order
}

// byPaint sorts a stack in paint order (insertion sort: stacks hold a
// handful of boxes).
func byPaint(ls []layer) {
	for a := 1; a < len(ls); a++ {
		for b := a; b > 0 && paintsBefore(ls[b].e, ls[b-1].e); b-- {
			ls[b], ls[b-1] = ls[b-1], ls[b]
		}
	}
}

func paintsBefore(x, y paintEntry) bool {
	if x.rank != y.rank {
		return x.rank < y.rank
	}
	if x.order != y.order {
		return x.order < y.order
	}
	return x.node < y.node
}

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

// visitedSight: a link's text is judged again in each colour it takes
// once visited (Document.VisitedLinks; the browser's own purple for a
// link in its own blue), for the snapshot shows only the unvisited one;
// where the verdicts differ, or a colour cannot be read, it is unsure
// (the pixels say).
func (ix *Index) visitedSight(doc, i, el int, frags []layout.Box, alpha float64, s Sight) Sight {
	d := &ix.c.Documents[doc]
	link := ix.linkOf(doc, el)
	if link < 0 {
		return s
	}
	if d.VisitedUnknown {
		return Sight{Reason: SeenUnsure}
	}
	// The browser's blue (a link no rule colours, or one whose rule
	// reverts to the browser's) turns its purple once visited, whatever
	// the page's :visited rules say.
	if sc, ok := ix.colours(doc, el); ok && sc.fillOK && sc.fill == linkBlue && ix.fillSight(doc, i, el, frags, linkPurple, alpha, false).Seen != s.Seen {
		return Sight{Reason: SeenUnsure}
	}
	for _, k := range ix.visitedColours(doc)[link] {
		if k < 0 || k >= len(d.VisitedColours) {
			return Sight{Reason: SeenUnsure}
		}
		v := d.VisitedColours[k]
		fill, ok := ParseColour(v)
		if v == "inherit" {
			p := int(d.Nodes[el].Parent)
			sc, pok := ix.colours(doc, p)
			fill, ok = RGBA{}, pok && sc.fillOK && !sc.fillUnknown
			if ok {
				fill = sc.fill
			}
		}
		if !ok || ix.fillSight(doc, i, el, frags, fill, alpha, false).Seen != s.Seen {
			return Sight{Reason: SeenUnsure}
		}
	}
	return s
}

// The browser's own link colours (its -webkit-link), unvisited and
// visited: a link no rule colours takes the second once visited.
var (
	linkBlue   = RGBA{R: 0, G: 0, B: 238, A: 1}
	linkPurple = RGBA{R: 85, G: 26, B: 139, A: 1}
)

// linkBlueOnDark: a document has text in the browser's own link blue and
// a dark background, the only ground on which its visited purple may be
// judged otherwise (both stand out on a light one).
func linkBlueOnDark(d *domsnap.Document) bool {
	blue, dark := false, false
	for s := range d.Styles {
		st := &d.Styles[s]
		if c, ok := ParseColour(st.Color); ok && c == linkBlue {
			blue = true
		}
		if c, ok := ParseColour(st.BackgroundColor); ok && c.A > 0 && luminance(c) < 0.1 {
			dark = true
		}
	}
	return blue && dark
}

// visitedColours maps document doc's links whose colours change once
// visited to their colours (indexes into VisitedColours), made on first
// use.
func (ix *Index) visitedColours(doc int) map[int][]int {
	if ix.visited == nil {
		ix.visited = make(map[int]map[int][]int)
	}
	m, ok := ix.visited[doc]
	if !ok {
		links := ix.c.Documents[doc].VisitedLinks
		m = make(map[int][]int, len(links))
		for _, l := range links {
			m[l.Node] = l.Colours
		}
		ix.visited[doc] = m
	}
	return m
}

// linkOf is the link with an address that element el is or lies inside
// (what :visited can style), -1 when none.
func (ix *Index) linkOf(doc, el int) int {
	nodes := ix.c.Documents[doc].Nodes
	for k, depth := el, 0; k >= 0 && k < len(nodes) && depth < 64; k, depth = int(nodes[k].Parent), depth+1 {
		if n := &nodes[k]; n.Type == domsnap.ElementNode && (n.Name == "A" || n.Name == "AREA" || n.Name == "a") {
			if _, ok := n.Attr("href"); ok {
				return k
			}
		}
	}
	return -1
}

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

// sightAt decides at one point: paint a colour fill at alpha over what is
// behind, then what is painted over, and compare with the same without
// it. drawn: the glyphs are drawn by other means too (a shadow, a stroke,
// the background clipped to the text), so only opacity and covers count.
func (ix *Index) sightAt(doc, i int, x, y float64, fill RGBA, alpha float64, drawn bool) Sight {
	under, overIt := ix.stack(doc, i, x, y)
	g := ix.groundAt(doc, i, x, y, under)
	with, without := over(fill, alpha, g.bg), g.bg
	if r := g.reason(with, fill, alpha, drawn); r != SeenOK {
		return Sight{Reason: r}
	}
	var s Sight
	pass := 1.0 // how much of the text shows through what is over it
	for _, l := range overIt {
		if !blended(l.e.kind) {
			if ix.hidesUnknown(l, x, y) {
				return Sight{Reason: SeenUnsure}
			}
			continue
		}
		a := l.e.c.A
		with, without = over(l.e.c, a, with), over(l.e.c, a, without)
		pass *= 1 - a
		if a >= 0.5 || !s.HasBy {
			s.By, s.HasBy = domsnap.Pos{Doc: l.doc, Node: int(l.e.node)}, true
		}
	}
	if alpha*pass < MinAlpha || !drawn && g.known && Contrast(with, without) < MinContrast {
		s.Reason = SeenCovered
		return s
	}
	return Sight{Seen: true}
}

// ground is what is painted behind a text at one point, as sightAt paints
// it up from the bottom.
type ground struct {
	bg RGBA
	// known: bg is the colour behind (false: pixels of unknown colour lie
	// there, or nothing opaque does).
	known bool
	// unsure: paint behind that sight does not model exactly (an
	// unreadable colour or canvas, decor reaching there).
	unsure bool
	// stops: the colours of a gradient behind, as painted so far (nil:
	// none, or covered since by an opaque colour).
	stops []RGBA
	// pictured: an image, a background image, a canvas or an svg lies
	// behind, not covered since by an opaque colour: its pixels may be
	// the text's own colour. dark and light bound what is behind then:
	// the picture black or white, under the see-through colours painted
	// over it since (a banner's 90% white over a photo).
	pictured    bool
	dark, light RGBA
}

// standsOut: an opaque fill stands out from whatever a picture behind
// paints, anywhere between the ground's dark and light bounds (luminance
// grows with every channel, so the bounds are the extremes): it lies
// outside them and differs from the nearer by MinContrast.
func (g ground) standsOut(fill RGBA, alpha float64) bool {
	if alpha*fill.A < 0.999 {
		return false
	}
	l, lo, hi := luminance(fill), luminance(g.dark), luminance(g.light)
	if l >= lo && l <= hi {
		return false
	}
	return Contrast(fill, g.dark) >= MinContrast && Contrast(fill, g.light) >= MinContrast
}

// groundAt paints up, bottom first, what lies under node (doc, i) at
// (x, y): the under half of its stack.
func (ix *Index) groundAt(doc, i int, x, y float64, under []layer) ground {
	g := ground{bg: White, unsure: ix.canvasUnknownAt(doc)}
	for _, l := range under {
		e, ok := ix.svgAround(doc, i, x, y, l)
		if !ok {
			continue
		}
		switch {
		case e.kind == paintDecor:
			g.unsure = g.unsure || ix.decorAt(l.doc, int(e.node), x, y)
		case e.kind == paintUnknown:
			g.unsure = true
		case e.kind == paintColour && e.c.A >= 0.999:
			g.bg, g.known, g.stops, g.pictured = e.c, true, nil, false
		case e.kind == paintColour:
			g.tint(e.c)
		case e.kind == paintFrame:
			// An iframe's box behind a text of its own document or
			// another: its document paints its own canvas.
		case e.kind != paintColour && e.c.A >= MinAlpha:
			g.stops = ix.gradientOver(l.doc, int(e.node), e.c.A, g.bg, g.known)
			g.known = false // pixels of unknown colour behind
			if g.stops == nil {
				g.pictured, g.dark, g.light = true, RGBA{A: 1}, White
			}
		}
	}
	return g
}

// tint paints a see-through colour over the ground: over its colour when
// that is known, and over each stop of a gradient behind.
func (g *ground) tint(c RGBA) {
	if g.known {
		g.bg = over(c, c.A, g.bg)
	}
	if g.pictured {
		g.dark, g.light = over(c, c.A, g.dark), over(c, c.A, g.light)
	}
	for k := range g.stops {
		g.stops[k] = over(c, c.A, g.stops[k])
	}
}

// reason says why text of fill at alpha, which paints the ground's colour
// as with, is not seen before anything painted over it counts (SeenOK:
// it may be). Drawn text is judged by its opacity and covers alone.
func (g ground) reason(with, fill RGBA, alpha float64, drawn bool) string {
	switch {
	case alpha < MinAlpha:
		return SeenTransparent
	case (g.unsure || g.pictured && !g.standsOut(fill, alpha)) && !drawn:
		return SeenUnsure
	case !drawn && g.known && Contrast(with, g.bg) < MinContrast:
		return SeenSameColour
	case !drawn && g.stops != nil:
		return stopsSight(g.stops, fill, alpha) // SeenOK when it stands out from every stop
	}
	return SeenOK
}

// blended: a layer over a text whose colour sight blends in (a
// background colour); the other kinds paint pixels it does not know.
func blended(kind uint8) bool {
	switch kind {
	case paintPattern, paintPicture, paintDecor, paintUnknown, paintFrame:
		return false
	}
	return true
}

// hidesUnknown: layer l, of a kind sight does not blend, may hide a text
// at (x, y): a canvas, an svg, an image or a background image may be
// clear or opaque where it lies, decor may reach there or not. The
// pixels say.
func (ix *Index) hidesUnknown(l layer, x, y float64) bool {
	return l.e.c.A >= MinAlpha && (l.e.kind != paintDecor || ix.decorAt(l.doc, int(l.e.node), x, y))
}

// nearSight: a box within a screen of the viewport, where sight stacks
// what is painted. Farther out the cost would not follow the screen (a
// long page's every text): there the colour behind a text is its nearest
// painting ancestor's (chainSight), and the next snapshot, scrolled
// there, stacks it.
func (ix *Index) nearSight(b layout.Box) bool {
	return ix.everywhere || ix.meets(b, ix.g.Viewport.Height)
}

// SightEverywhere makes sight stack what is painted all over the page,
// for a tree whose every line is printed or searched (off-screen content
// kept, find): nothing far away is judged by its ancestors alone.
func (ix *Index) SightEverywhere() {
	if !ix.everywhere {
		ix.everywhere, ix.paints = true, nil
	}
}

// chainSight judges a text far from the viewport by opacity and by the
// colour of its nearest ancestors that paint a background.
func (ix *Index) chainSight(doc, el int, fill RGBA, alpha float64, drawn bool) Sight {
	if alpha < MinAlpha {
		return Sight{Reason: SeenTransparent}
	}
	if drawn {
		return Sight{Seen: true}
	}
	// Collect the painting ancestors up to the first opaque one.
	var chain [16]RGBA
	n := 0
	nodes := ix.c.Documents[doc].Nodes
	bg, known, opaque := White, doc == 0, false
	for k, depth := el, 0; k >= 0 && depth < 256; k, depth = int(nodes[k].Parent), depth+1 {
		c, ok := ix.colours(doc, k)
		if !ok {
			continue
		}
		if c.pattern || pictures[nodes[k].Name] {
			return Sight{Seen: true} // pixels of unknown colour behind
		}
		if c.bgUnknown {
			return Sight{Reason: SeenUnsure}
		}
		if !c.bgOK {
			continue
		}
		if a := c.bg.A * ix.g.Alpha(doc, k); a >= 0.999 {
			bg, known, opaque = c.bg, true, true
			break
		} else if n < len(chain) {
			chain[n] = RGBA{c.bg.R, c.bg.G, c.bg.B, a}
			n++
		}
	}
	if !opaque && ix.canvasUnknownAt(doc) {
		return Sight{Reason: SeenUnsure}
	}
	if !known {
		return Sight{Seen: true}
	}
	for k := n - 1; k >= 0; k-- {
		bg = over(chain[k], chain[k].A, bg)
	}
	if Contrast(over(fill, alpha, bg), bg) < MinContrast {
		return Sight{Reason: SeenSameColour}
	}
	return Sight{Seen: true}
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

// visibleColourIn: a computed shadow list holds a colour that is not
// clear ("rgb(0, 0, 0) 0px 0px 3px, rgba(0, 0, 0, 0) 1px 1px 0px").
func visibleColourIn(shadow string) bool {
	if shadow == "" || shadow == "none" {
		return false
	}
	for rest := shadow; ; {
		k := strings.Index(rest, "rgb")
		if k < 0 {
			return false
		}
		rest = rest[k:]
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return false
		}
		if c, ok := ParseColour(rest[:end+1]); ok && c.A >= MinAlpha {
			return true
		}
		rest = rest[end+1:]
	}
}

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

// canvasUnknownAt: the canvas of doc, or of a document around it, is a
// colour sight cannot read.
func (ix *Index) canvasUnknownAt(doc int) bool {
	for d, depth := doc, 0; d >= 0 && d < len(ix.c.Documents) && depth < 32; depth++ {
		if ix.paintDoc(d).canvasUnknown {
			return true
		}
		if d == 0 {
			return false
		}
		d = ix.owner[d].Doc
	}
	return false
}

// unmodelledAround: the element or one around it (through the iframes
// that hold it) paints through an effect sight does not model exactly: a
// filter other than opacity(), a clip-path other than none. Memoized per
// node and per style (a lookup in slices: every text asks).
func (ix *Index) unmodelledAround(doc, el int) bool {
	nodes := ix.c.Documents[doc].Nodes
	if el < 0 || el >= len(nodes) {
		return false
	}
	if ix.unmodelled == nil {
		ix.unmodelled = make([][]int8, len(ix.c.Documents))
		ix.unmodelledStyles = make([][]int8, len(ix.c.Documents))
	}
	memo := ix.unmodelled[doc]
	if memo == nil {
		memo = make([]int8, len(nodes))
		ix.unmodelled[doc] = memo
	}
	if m := memo[el]; m != 0 {
		return m > 0
	}
	v, known := false, false
	var buf [64]int
	path := buf[:0]
	for k, depth := el, 0; k >= 0 && k < len(nodes) && depth < 512; k, depth = int(nodes[k].Parent), depth+1 {
		if k != el && memo[k] != 0 {
			v, known = memo[k] > 0, true
			break
		}
		path = append(path, k)
		if l := nodes[k].Layout; l != nil && ix.styleUnmodelled(doc, l.Style) {
			v, known = true, true
			break
		}
	}
	if !known {
		if o := ix.owner[doc]; doc > 0 && o.Doc >= 0 {
			v = ix.unmodelledAround(o.Doc, o.Node)
		}
	}
	// Every node walked shares the answer: the next text under any of
	// them stops there.
	m := int8(-1)
	if v {
		m = 1
	}
	for _, k := range path {
		memo[k] = m
	}
	return v
}

// styleUnmodelled is UnmodelledEffect of a document's style s, memoized.
func (ix *Index) styleUnmodelled(doc, s int) bool {
	styles := ix.c.Documents[doc].Styles
	if s < 0 || s >= len(styles) {
		return false
	}
	memo := ix.unmodelledStyles[doc]
	if memo == nil {
		memo = make([]int8, len(styles))
		ix.unmodelledStyles[doc] = memo
	}
	if memo[s] == 0 {
		memo[s] = -1
		if UnmodelledEffect(&styles[s]) {
			memo[s] = 1
		}
	}
	return memo[s] > 0
}

// firstLined: element el or one around it in its document is styled by
// a ::first-line or ::first-letter rule (Capture.FirstLines), which may
// paint its first line otherwise than its computed style says.
func (ix *Index) firstLined(doc, el int) bool {
	if len(ix.c.FirstLines) == 0 {
		return false
	}
	if ix.firstLines == nil {
		ix.firstLines = make(map[domsnap.Pos]bool, len(ix.c.FirstLines))
		for _, p := range ix.c.FirstLines {
			ix.firstLines[p] = true
		}
	}
	nodes := ix.c.Documents[doc].Nodes
	for k, depth := el, 0; k >= 0 && k < len(nodes) && depth < 512; k, depth = int(nodes[k].Parent), depth+1 {
		if ix.firstLines[domsnap.Pos{Doc: doc, Node: k}] {
			return true
		}
	}
	return false
}

// UnmodelledEffect: a computed style paints through an effect sight does
// not model exactly. Modelled: no filter, or opacity() alone (layout
// multiplies it in); no clip-path, or one of those that clip everything
// (layout drops the content).
func UnmodelledEffect(st *domsnap.Style) bool {
	if f := strings.TrimSpace(st.Filter); f != "" && f != "none" && !opacityOnly(f) {
		return true
	}
	if set(st.MaskImage) || st.MixBlendMode != "" && st.MixBlendMode != "normal" || set(st.FontSizeAdjust) {
		return true
	}
	// A 3D transform may turn the box away or edge on (2D ones are in
	// the boxes DOMSnapshot gives).
	if strings.HasPrefix(st.Transform, "matrix3d(") {
		return true
	}
	return unmodelledClip(st) || thickDecoration(st)
}

// thickDecoration: a style draws a decoration line (underline, overline,
// line-through) thick enough to cover the glyphs it decorates, in a
// colour and place sight does not follow (the line may be drawn in the
// background's colour right over the text). Lines of the font's own
// thickness, or under 3 px, leave glyphs readable.
func thickDecoration(st *domsnap.Style) bool {
	if !set(st.TextDecorationLine) {
		return false
	}
	switch th := st.TextDecorationThickness; th {
	case "", "auto", "from-font":
		return false
	default:
		px, err := strconv.ParseFloat(strings.TrimSuffix(th, "px"), 64)
		return err != nil || !strings.HasSuffix(th, "px") || px >= 3
	}
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

// set: a computed value other than none (or not recorded).
func set(v string) bool { return v != "" && v != "none" }

// unmodelledClip: a clip-path other than none or one of those that clip
// everything (layout drops that content). It clips hit testing too.
func unmodelledClip(st *domsnap.Style) bool {
	switch cp := strings.ReplaceAll(st.ClipPath, " ", ""); cp {
	case "", "none", "inset(50%)", "inset(100%)", "circle(0px)", "circle(0pxatcenter)", "circle(0pxat50%50%)":
		return false
	}
	return true
}

// HitUnsure: node (doc, i) or an element around it in its document is
// clipped by a clip-path the model does not follow, or placed by a 3D
// transform (turned away with its back hidden, or edge on, it takes no
// hits): where it takes hits is the browser's to say (act always asks
// its hit test).
func (ix *Index) HitUnsure(doc, i int) bool {
	d := &ix.c.Documents[doc]
	for k, depth := i, 0; k >= 0 && k < len(d.Nodes) && depth < 512; k, depth = int(d.Nodes[k].Parent), depth+1 {
		if l := d.Nodes[k].Layout; l != nil && l.Style >= 0 && l.Style < len(d.Styles) && unmodelledHit(&d.Styles[l.Style]) {
			return true
		}
	}
	return false
}

// unmodelledHit: a style whose hit area the boxes do not give.
func unmodelledHit(st *domsnap.Style) bool {
	return unmodelledClip(st) || strings.HasPrefix(st.Transform, "matrix3d(")
}

// opacityOnly: a filter list of opacity() functions alone.
func opacityOnly(f string) bool {
	for rest := strings.TrimSpace(f); rest != ""; rest = strings.TrimSpace(rest) {
		if !strings.HasPrefix(rest, "opacity(") {
			return false
		}
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return false
		}
		rest = rest[end+1:]
	}
	return true
}

// MayBeUnsure: some computed style of the capture uses paint sight does
// not model exactly (a colour it cannot parse, a filter or clip-path it
// does not model), so some text may need the browser's pixels
// (UnsureTexts). A capture without any costs a scan of its distinct
// styles and nothing more.
func MayBeUnsure(c *domsnap.Capture) bool {
	if len(c.FirstLines) > 0 || anyModal(c) {
		return true
	}
	for d := range c.Documents {
		if len(c.Documents[d].VisitedLinks) > 0 || c.Documents[d].VisitedUnknown || linkBlueOnDark(&c.Documents[d]) {
			return true
		}
		for s := range c.Documents[d].Styles {
			st := &c.Documents[d].Styles[s]
			if unknownColour(st.Color) || unknownColour(st.TextFillColor) || unknownColour(st.BackgroundColor) || UnmodelledEffect(st) || darkScheme(st.ColorScheme) {
				return true
			}
			if _, decor := decorOf(st); decor || set(st.BackgroundImage) || drawnClear(st) || visibleColourIn(st.TextShadow) {
				return true
			}
		}
		if coverOfUnknownPixels(&c.Documents[d]) {
			return true
		}
	}
	return false
}

// drawnClear: text of style st drawn only by a shadow, a stroke or its
// clipped background (its fill clear).
func drawnClear(st *domsnap.Style) bool {
	c := coloursOf(st)
	return c.fillOK && c.fill.A < MinAlpha && (c.shadow || c.stroke || c.clipText || set(st.TextShadow))
}

// coverOfUnknownPixels: the document positions an image, canvas, svg,
// video or background image (out of the flow or shifted), which may lie
// over text.
func coverOfUnknownPixels(doc *domsnap.Document) bool {
	positioned := false
	for i := range doc.Nodes {
		n := &doc.Nodes[i]
		if n.Layout == nil || n.Layout.Style < 0 || n.Layout.Style >= len(doc.Styles) {
			continue
		}
		st := &doc.Styles[n.Layout.Style]
		if st.Position == "" || st.Position == "static" {
			continue
		}
		if pictures[n.Name] || n.Name == "CANVAS" || n.Name == "svg" || n.Name == "IFRAME" || n.Name == "FRAME" || set(st.BackgroundImage) {
			return true
		}
		positioned = true
	}
	return positioned && hasPictures(doc)
}

// hasPictures: the document holds an image, video, canvas or svg, which
// a positioned text may lie over.
func hasPictures(doc *domsnap.Document) bool {
	for i := range doc.Nodes {
		if n := &doc.Nodes[i]; n.Layout != nil && (pictures[n.Name] || n.Name == "CANVAS" || n.Name == "svg") {
			return true
		}
	}
	return false
}

// UnsureText is a text in view that the model cannot judge: its line
// boxes in view, in top-level viewport CSS px, for the browser's pixels.
type UnsureText struct {
	Doc, Node int
	Boxes     []layout.Box
}

// UnsureTexts lists up to limit text nodes in view whose sight the model
// is unsure of (TextUnsure), in document order, with their lines in view
// (layout.Geometry.LinesInView). Those past the limit stay unsure
// (withheld).
func (ix *Index) UnsureTexts(limit int) []UnsureText {
	var out []UnsureText
	for d := range ix.c.Documents {
		nodes := ix.c.Documents[d].Nodes
		for i := range nodes {
			n := &nodes[i]
			if !textual(n) {
				continue
			}
			boxes := ix.g.LinesInView(d, i)
			if len(boxes) == 0 || !ix.TextUnsure(d, i) {
				continue
			}
			if len(out) == limit {
				return out
			}
			out = append(out, UnsureText{Doc: d, Node: i, Boxes: boxes})
		}
	}
	return out
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
