package fuse

import (
	"regexp"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/internal/textcut"
)

// Generated content a person reads. CSS content can carry alternative
// text ("content: "→" / "next""): Chrome names the pseudo element by it,
// but what is painted is the content before the slash. The view prints
// what is painted (the capture's Layout.Text of the pseudo element) and
// withholds the alt text, never painted, like any text no one sees. A
// list item's custom marker (li::marker { content: "…" }, a string
// list-style-type) is text a person reads too; the browser's own bullets
// and numbers are left out, as before.

// reasonAltText: CSS content's alternative text, which names generated
// content but is never painted.
const reasonAltText = "alt text, never painted"

// paintedText is the text pseudo element dom paints, when Chrome names it
// by something else (CSS content's alt text): ok false when dom is not a
// pseudo element, paints no text, or is named by what it paints.
func (b *builder) paintedText(doc, dom int, name string) (string, bool) {
	if b.axOnly || doc < 0 || doc >= len(b.c.Documents) || dom < 0 || dom >= len(b.c.Documents[doc].Nodes) {
		return "", false
	}
	n := &b.c.Documents[doc].Nodes[dom]
	if n.PseudoType == "" || n.Layout == nil {
		return "", false
	}
	// Chrome may name each piece of the content apart (content: "a "
	// attr(x)): a piece of what is painted is no alt text.
	painted := clean(n.Layout.Text)
	if painted == "" || strings.Contains(painted, clean(name)) {
		return "", false
	}
	return painted, true
}

// withholdAlt counts and lists the alt text of pseudo element dom, once.
func (b *builder) withholdAlt(alt string, doc, dom int) {
	if strings.TrimSpace(alt) == "" {
		return
	}
	if b.altListed == nil {
		b.altListed = map[domsnap.Pos]bool{}
	}
	at := domsnap.Pos{Doc: doc, Node: dom}
	if b.altListed[at] {
		return
	}
	b.altListed[at] = true
	b.counts.Withheld++
	if len(b.withheld) >= maxWithheldItems {
		return
	}
	item := WithheldItem{Kind: "generated", Reason: reasonAltText}
	if b.opts.Audit {
		item.Excerpt = textcut.Runes(visibleText(alt), 60)
	}
	if box, ok := b.g.Box(doc, dom); ok {
		item.Box = &[4]float64{round2(box.X), round2(box.Y), round2(box.W), round2(box.H)}
	}
	b.withheld = append(b.withheld, item)
}

// unnamedGenerated: pseudo element k of a full capture paints text that
// the AX tree holds no node for (CSS content whose alt text is empty:
// "content: "Sale" / """), so no line prints it but this one.
func (b *builder) unnamedGenerated(doc, k int) bool {
	n := &b.c.Documents[doc].Nodes[k]
	if n.PseudoType != "before" && n.PseudoType != "after" || n.Backend == 0 || n.Layout == nil || strings.TrimSpace(n.Layout.Text) == "" {
		return false
	}
	return !b.inAXTree(doc, n.Backend)
}

// inAXTree: the AX tree holds a node, ignored or not, for the DOM node
// of this backend id.
func (b *builder) inAXTree(doc int, backend int64) bool {
	b.axOf(doc, backend) // builds the frame's index
	fd := b.frameOfDoc(doc)
	if fd == nil {
		return false
	}
	_, ok := fd.axByBackend[backend]
	return ok
}

// browserMarker matches the markers the browser draws itself: bullets,
// squares, circles, and numbers or letters with a full stop (decimal,
// alphabetic, roman, and the like in other scripts), which say nothing
// the list's structure does not.
var browserMarker = regexp.MustCompile(`^\s*(?:[•◦▪▫■□●○‣⁃◾◽–-]|\p{Nd}+[.)、]|\p{L}{1,6}[.)])\s*$`)

// customMarker: a list marker's name is text of the page's own (a
// ::marker's content, a string list-style-type), not one of the
// browser's bullets or numbers.
func customMarker(name string) bool {
	return strings.TrimSpace(name) != "" && !browserMarker.MatchString(name)
}

// paintedInName puts in a name from contents what pseudo element k paints
// where Chrome put its CSS content alt text (ok false: k is no such
// pseudo element, or no one sees it: then the alt goes as unseen text).
func (b *builder) paintedInName(doc, k int, name string) (string, bool) {
	n := &b.c.Documents[doc].Nodes[k]
	if n.PseudoType == "" || n.Backend == 0 {
		return name, false
	}
	_, alt, ok := b.axOf(doc, n.Backend)
	if !ok {
		return name, false
	}
	painted, ok := b.paintedText(doc, k, alt)
	if !ok || b.sightOf(doc, k, false) != "" {
		return name, false
	}
	a := clean(alt)
	j := strings.Index(name, a)
	if a == "" || j < 0 {
		return name, false
	}
	b.withholdAlt(alt, doc, k)
	return name[:j] + painted + name[j+len(a):], true
}
