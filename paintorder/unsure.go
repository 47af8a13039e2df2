package paintorder

// The unsure policy: paint and effects sight does not model exactly, so
// that a text is withheld or left to the browser's pixels.

import (
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

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
		px, ok := layout.Px(th)
		return !ok || !strings.HasSuffix(th, "px") || px >= 3
	}
}

// set: a computed value other than none (or not recorded).
func set(v string) bool { return v != "" && v != "none" }

// unmodelledClip: a clip-path other than none or one of those that clip
// everything (layout drops that content). It clips hit testing too.
func unmodelledClip(st *domsnap.Style) bool {
	cp := strings.ReplaceAll(st.ClipPath, " ", "")
	return cp != "" && cp != "none" && !layout.ClipPathClipsAll(cp)
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
