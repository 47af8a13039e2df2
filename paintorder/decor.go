package paintorder

import (
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

// Decorations: paint whose colour the capture does not record where it
// lies — a thick border's band, a box-shadow or outline around (or an
// inset shadow inside) the box, a backdrop filter over what is behind.
// Sight does not guess their colours: a text whose sample point lies in
// one is unsure, and the browser's pixels settle it.

// thinDecor is the widest border, shadow or outline sight leaves out: a
// band this thin over a line of text cannot hide it (the text is seen at
// any of three points along its line, and glyphs are taller).
const thinDecor = 4.0

// decorOf says whether style st paints decorations, and how far outside
// the border box they reach (CSS px).
func decorOf(st *domsnap.Style) (outside float64, ok bool) {
	if backdropUnmodelled(st.BackdropFilter) {
		ok = true
	}
	for _, w := range []string{st.BorderTopWidth, st.BorderRightWidth, st.BorderBottomWidth, st.BorderLeftWidth} {
		if signedPx(w) > thinDecor {
			ok = true
		}
	}
	if st.OutlineStyle != "" && st.OutlineStyle != "none" {
		if w := signedPx(st.OutlineWidth); w > thinDecor {
			ok, outside = true, max(outside, w+max(0, signedPx(st.OutlineOffset)))
		}
	}
	for _, sh := range splitTop(st.BoxShadow) {
		ext, inset, shows := shadowExtent(sh)
		if !shows || ext <= thinDecor {
			continue // a thin shadow, inside or out, hides no glyph
		}
		ok = true
		if !inset {
			outside = max(outside, ext)
		}
	}
	return outside, ok
}

// insetShadow: a box-shadow of style st paints inside the box.
func insetShadow(st *domsnap.Style) bool {
	for _, sh := range splitTop(st.BoxShadow) {
		if ext, inset, shows := shadowExtent(sh); inset && shows && ext > thinDecor {
			return true
		}
	}
	return false
}

// backdropUnmodelled: a backdrop-filter that changes the colours behind
// the element (blur and saturate keep them near enough).
func backdropUnmodelled(f string) bool {
	f = strings.TrimSpace(f)
	if f == "" || f == "none" {
		return false
	}
	for _, fn := range splitFunctions(f) {
		if !strings.HasPrefix(fn, "blur(") && !strings.HasPrefix(fn, "saturate(") {
			return true
		}
	}
	return false
}

// shadowExtent reads one computed shadow ("rgba(0, 0, 0, 0.5) 0px 2px 4px
// 1px [inset]"): how far it reaches past the box, whether it is inset,
// and whether its colour shows (a clear shadow paints nothing). An
// unreadable colour shows.
func shadowExtent(sh string) (ext float64, inset, shows bool) {
	sh = strings.TrimSpace(sh)
	if sh == "" || sh == "none" {
		return 0, false, false
	}
	shows = true
	rest := sh
	if k := strings.IndexByte(rest, '('); k >= 0 {
		if end := strings.IndexByte(rest[k:], ')'); end >= 0 {
			from := strings.LastIndexByte(rest[:k], ' ') + 1
			if c, ok := ParseColour(rest[from : k+end+1]); ok {
				shows = c.A >= 0.5
			}
			rest = rest[:from] + rest[k+end+1:]
		}
	}
	var nums []float64
	for _, f := range strings.Fields(rest) {
		if f == "inset" {
			inset = true
			continue
		}
		if v, ok := layout.Px(f); ok {
			nums = append(nums, v)
		}
	}
	for len(nums) < 4 {
		nums = append(nums, 0)
	}
	ext = max(abs(nums[0]), abs(nums[1])) + max(0, nums[2]) + max(0, nums[3])
	return ext, inset, shows
}

// decorAt: the decorations of element (doc, i) paint at (x, y), which
// lies in its box grown by how far they reach: anywhere under a backdrop
// filter or an inset shadow, else outside its padding box (a border's
// band, a shadow or outline around it).
func (ix *Index) decorAt(doc, i int, x, y float64) bool {
	st := ix.styleOf(doc, i)
	if st == nil {
		return true
	}
	if backdropUnmodelled(st.BackdropFilter) || insetShadow(st) {
		return true
	}
	b, ok := ix.g.Box(doc, i)
	if !ok {
		return true
	}
	x0, y0 := b.X+signedPx(st.BorderLeftWidth), b.Y+signedPx(st.BorderTopWidth)
	x1, y1 := b.X+b.W-signedPx(st.BorderRightWidth), b.Y+b.H-signedPx(st.BorderBottomWidth)
	return x < x0 || x >= x1 || y < y0 || y >= y1
}

// styleOf is node (doc, i)'s computed style, nil if it has none.
func (ix *Index) styleOf(doc, i int) *domsnap.Style {
	d := &ix.c.Documents[doc]
	if i < 0 || i >= len(d.Nodes) || d.Nodes[i].Layout == nil {
		return nil
	}
	s := d.Nodes[i].Layout.Style
	if s < 0 || s >= len(d.Styles) {
		return nil
	}
	return &d.Styles[s]
}

// gradientStops reads the colours of a background image made of
// gradients alone; ok false when it holds anything else (a url()) or a
// colour ParseColour cannot read.
func gradientStops(img string) (stops []RGBA, ok bool) {
	img = strings.TrimSpace(img)
	if img == "" || img == "none" {
		return nil, false
	}
	for _, fn := range splitTop(img) {
		fn = strings.TrimSpace(fn)
		open := strings.IndexByte(fn, '(')
		if open < 0 || !strings.HasSuffix(strings.TrimSpace(fn[:open]), "gradient") {
			return nil, false
		}
		inner := fn[open+1 : len(fn)-1]
		for _, part := range splitTop(inner) {
			for rest := part; ; {
				k := strings.IndexByte(rest, '(')
				if k < 0 {
					break
				}
				end := strings.IndexByte(rest[k:], ')')
				if end < 0 {
					return nil, false
				}
				name := rest[:k]
				if sp := strings.LastIndexByte(name, ' '); sp >= 0 {
					name = name[sp+1:]
				}
				c, cok := ParseColour(name + rest[k:k+end+1])
				if !cok {
					return nil, false // oklch(), lab(), color(), calc(): not read
				}
				stops = append(stops, c)
				rest = rest[k+end+1:]
			}
		}
	}
	return stops, len(stops) > 0
}

// splitTop splits a computed value at its top-level commas.
func splitTop(s string) []string {
	var out []string
	depth, from := 0, 0
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[from:k])
				from = k + 1
			}
		}
	}
	if from < len(s) {
		out = append(out, s[from:])
	}
	return out
}

// splitFunctions splits a filter list ("blur(2px) saturate(1.2)") into
// its functions.
func splitFunctions(s string) []string {
	var out []string
	depth, from := 0, 0
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[from:k+1]))
				from = k + 1
			}
		}
	}
	if rest := strings.TrimSpace(s[from:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// signedPx is a computed length in px, spaces around it trimmed, as
// layout.Px reads it, negative ones kept (an outline's offset); 0 when it
// is not one.
func signedPx(s string) float64 {
	v, ok := layout.Px(strings.TrimSpace(s))
	if !ok {
		return 0
	}
	return v
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// gradientOver: the stops of element (doc, i)'s gradient background at
// alpha a over bg (when bg is known; else the stops alone), nil when its
// background is not gradients alone.
func (ix *Index) gradientOver(doc, i int, a float64, bg RGBA, known bool) []RGBA {
	st := ix.styleOf(doc, i)
	if st == nil {
		return nil
	}
	stops, ok := gradientStops(st.BackgroundImage)
	if !ok {
		return nil
	}
	for k, c := range stops {
		switch {
		case c.A*a >= 0.999:
			stops[k] = RGBA{c.R, c.G, c.B, 1}
		case known:
			stops[k] = over(c, c.A*a, bg)
		default:
			return nil // see-through over what sight does not know
		}
	}
	return stops
}

// stopsSight judges text of fill at alpha over a gradient's stops: hidden
// when it matches every stop, unsure when it matches some, "" when it
// stands out from all.
func stopsSight(stops []RGBA, fill RGBA, alpha float64) string {
	same := 0
	for _, c := range stops {
		if Contrast(over(fill, alpha, c), c) < MinContrast {
			same++
		}
	}
	switch same {
	case 0:
		return ""
	case len(stops):
		return SeenSameColour
	}
	return SeenUnsure
}

// insertDecor adds element (d, i)'s decorations, if it paints any, to the
// document's painting boxes: its box grown by how far they reach.
func (ix *Index) insertDecor(d, i int, p *paintDoc, e paintEntry) {
	out, ok := ix.decorFor(d, i)
	if !ok {
		return
	}
	b, bok := ix.g.Box(d, i)
	if !bok {
		return
	}
	b.X, b.Y, b.W, b.H = b.X-out, b.Y-out, b.W+2*out, b.H+2*out
	if b.W <= 0 || b.H <= 0 || !ix.nearSight(b) {
		return
	}
	e.kind = paintDecor
	p.tree.Insert([2]float64{b.X, b.Y}, [2]float64{b.X + b.W, b.Y + b.H}, e)
}

// decorFor is decorOf of node (d, i)'s style, memoized per style: every
// laid-out node asks, and styles are few.
func (ix *Index) decorFor(d, i int) (outside float64, ok bool) {
	doc := &ix.c.Documents[d]
	if i < 0 || i >= len(doc.Nodes) || doc.Nodes[i].Layout == nil {
		return 0, false
	}
	s := doc.Nodes[i].Layout.Style
	if s < 0 || s >= len(doc.Styles) {
		return 0, false
	}
	if ix.decorMemo == nil {
		ix.decorMemo = make([][]decorMemo, len(ix.c.Documents))
	}
	memo := ix.decorMemo[d]
	if memo == nil {
		memo = make([]decorMemo, len(doc.Styles))
		ix.decorMemo[d] = memo
	}
	if !memo[s].known {
		memo[s].outside, memo[s].ok = decorOf(&doc.Styles[s])
		memo[s].known = true
	}
	return memo[s].outside, memo[s].ok
}

// decorMemo is one style's decorOf.
type decorMemo struct {
	outside   float64
	ok, known bool
}

// ValueSight decides whether a person sees the value a text field (doc,
// i) draws (an <input> or <textarea>: the glyphs are in the browser's own
// shadow tree, not in the capture): the field's text colour and opacity
// over what is painted behind and over its box.
func (ix *Index) ValueSight(doc, i int) Sight {
	if doc < 0 || doc >= len(ix.c.Documents) || i < 0 || i >= len(ix.c.Documents[doc].Nodes) {
		return Sight{Seen: true}
	}
	sc, ok := ix.colours(doc, i)
	if !ok {
		return Sight{Seen: true}
	}
	if sc.fillUnknown {
		return Sight{Reason: SeenUnsure}
	}
	shown := ix.g.ShownBox(doc, i)
	if !sc.fillOK || shown.W <= 0 || shown.H <= 0 {
		return Sight{Seen: true} // clipped: others decide
	}
	alpha := ix.g.Alpha(doc, i)
	drawn := sc.shadow || sc.stroke
	if !drawn {
		alpha *= sc.fill.A
	}
	if alpha < MinAlpha {
		return Sight{Reason: SeenTransparent}
	}
	if !ix.nearSight(shown) {
		return ix.chainSight(doc, i, sc.fill, alpha, drawn)
	}
	return ix.sightAt(doc, i, shown.X+shown.W/2, shown.Y+shown.H/2, sc.fill, alpha, drawn)
}

// clipTextSight judges text of element el whose glyphs are painted by its
// own background (background-clip: text) at alpha, far from the view:
// the background's colours (a gradient's stops) against the first opaque
// background around it. Anything else there is unsure.
func (ix *Index) clipTextSight(doc, el int, alpha float64) Sight {
	st := ix.styleOf(doc, el)
	sc, ok := ix.colours(doc, el)
	if st == nil || !ok {
		return Sight{Reason: SeenUnsure}
	}
	glyphs, ok := gradientStops(st.BackgroundImage)
	if !ok && sc.bgOK && !sc.pattern {
		glyphs, ok = []RGBA{sc.bg}, true
	}
	if !ok {
		return Sight{Reason: SeenUnsure}
	}
	behind, found := White, false
	nodes := ix.c.Documents[doc].Nodes
	for k, depth := int(nodes[el].Parent), 0; k >= 0 && depth < 256; k, depth = int(nodes[k].Parent), depth+1 {
		c, ok := ix.colours(doc, k)
		if !ok {
			continue
		}
		if c.pattern || c.bgUnknown || pictures[nodes[k].Name] {
			return Sight{Reason: SeenUnsure}
		}
		if !c.bgOK {
			continue
		}
		if c.bg.A*ix.g.Alpha(doc, k) < 0.999 {
			return Sight{Reason: SeenUnsure}
		}
		behind, found = c.bg, true
		break
	}
	if !found && (doc != 0 || ix.canvasUnknownAt(doc)) {
		return Sight{Reason: SeenUnsure}
	}
	same := 0
	for _, g := range glyphs {
		if Contrast(over(g, g.A*alpha, behind), behind) < MinContrast {
			same++
		}
	}
	switch same {
	case 0:
		return Sight{Seen: true}
	case len(glyphs):
		return Sight{Reason: SeenSameColour}
	}
	return Sight{Reason: SeenUnsure}
}
