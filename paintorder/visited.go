package paintorder

// :visited: a link's text judged again in the colours it takes once
// visited, which the snapshot does not show.

import (
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

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
