package paintorder

// Sight at one point: the ground painted behind a text, what is painted
// over it, and, far from the viewport, the colours of its ancestors.

import (
	"github.com/axfuse/axfuse/domsnap"
)

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
