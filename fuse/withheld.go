package fuse

import (
	"fmt"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/internal/textcut"
	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/paintorder"
)

// Hidden text. Chrome's AX tree already leaves out display:none,
// visibility:hidden, hidden and aria-hidden content. What it keeps but a
// person cannot see is withheld here, decided from what is painted
// (paintorder's sight): text and images at an effective opacity near 0
// (opacity and filters multiplied down the ancestors and the iframes
// around), text of a clear colour, text whose colour stands out from what
// is painted behind it by less than paintorder.MinContrast, glyphs too
// small to read, and text or images of no area. Generated content
// (::before, ::after) is judged like text, and a name taken from an
// element's contents, labels or aria-labelledby loses the hidden text and
// hidden images' alt in it (a name is text: names.go, generated.go).
// The view says once, with a count, that text was withheld; the JSON
// lists each (kind, reason, box) for audit, and quotes an excerpt of the
// text only when Options.Audit asks: the withheld text is a hidden
// instruction's channel, and a program that hands the JSON to a model
// would hand it the instruction. Text clipped away by
// an overflow container is counted as clipped instead (the agent can
// scroll to it), and screen-reader-only text (clipped to a pixel but
// announced) stays: it is meant to be read.

// WithheldItem is one text or image the view left out as unseen.
type WithheldItem struct {
	Kind   string      `json:"kind"` // text, generated (::before, ::after), image, name
	Reason string      `json:"reason"`
	Box    *[4]float64 `json:"box"`
	// Excerpt is the start of the text (Options.Audit only).
	Excerpt string `json:"excerpt,omitempty"`
}

// maxWithheldItems bounds the audit list (a hostile page can hide
// thousands of texts); the count goes on.
const maxWithheldItems = 200

// sight memo values, per DOM node.
const (
	sightUnknown uint8 = iota
	sightSeen
	sightHidden // reason in builder.hiddenWhy
	sightListed // hidden, and counted and listed once (withhold)
)

// sightOf returns why DOM node dom of document doc is not seen ("" when
// it is): a text node or a pseudo element's generated text (image:
// false), or an image (image: true). Covers are left to the occlusion
// check.
func (b *builder) sightOf(doc, dom int, image bool) string {
	if b.axOnly || doc < 0 || doc >= len(b.c.Documents) || dom < 0 || dom >= len(b.c.Documents[doc].Nodes) {
		return ""
	}
	memo := b.sightMemo(doc)
	switch memo[dom] {
	case sightSeen:
		return ""
	case sightUnknown:
		reason := b.judge(doc, dom, image)
		memo[dom] = sightSeen
		if reason != "" {
			memo[dom] = sightHidden
			if b.hiddenWhy == nil {
				b.hiddenWhy = map[where]string{}
			}
			b.hiddenWhy[where{domsnap.Pos{Doc: doc, Node: dom}, true}] = reason
		}
		return reason
	}
	return b.hiddenWhy[where{domsnap.Pos{Doc: doc, Node: dom}, true}]
}

// sightMemo is document doc's memo of sights, made on first use.
func (b *builder) sightMemo(doc int) []uint8 {
	if b.sights == nil {
		b.sights = make([][]uint8, len(b.c.Documents))
	}
	if b.sights[doc] == nil {
		b.sights[doc] = make([]uint8, len(b.c.Documents[doc].Nodes))
	}
	return b.sights[doc]
}

func (b *builder) judge(doc, dom int, image bool) string {
	if image {
		s := b.v.ix.ImageSight(doc, dom)
		if s.Seen || s.Reason == paintorder.SeenCovered {
			return ""
		}
		return s.Reason
	}
	if unseenText(b.c, b.g, doc, dom) {
		return paintorder.SeenTransparent
	}
	if noArea(b.c, b.g, doc, dom) {
		return paintorder.SeenNoArea
	}
	s := b.v.ix.TextSight(doc, dom)
	if s.Seen || s.Reason == paintorder.SeenCovered {
		return ""
	}
	return s.Reason
}

// withhold counts one unseen text or image, and lists it, once however
// many names it was cut from.
func (b *builder) withhold(kind, reason, text string, doc, dom int) {
	memo := b.sightMemo(doc)
	if memo[dom] == sightListed {
		return
	}
	memo[dom] = sightListed
	if reason == reasonCutOff {
		b.counts.CutOff++
	} else {
		b.counts.Withheld++
	}
	if reason == paintorder.SeenUnsure {
		b.counts.Unsure++
	}
	if len(b.withheld) >= maxWithheldItems {
		return
	}
	item := WithheldItem{Kind: kind, Reason: reason}
	if b.opts.Audit {
		item.Excerpt = textcut.Runes(visibleText(text), 60)
	}
	if box, ok := b.g.Box(doc, dom); ok {
		item.Box = &[4]float64{round2(box.X), round2(box.Y), round2(box.W), round2(box.H)}
	}
	b.withheld = append(b.withheld, item)
}

// generatedText finds the pseudo element whose generated text AX node i
// is (Chrome gives such text no DOM node of its own): -1 when none.
func (b *builder) generatedText(fd *frameData, ax *domsnap.AXNode) int {
	if ax.Parent == "" {
		return -1
	}
	p, ok := fd.byID.get(ax.Parent)
	if !ok {
		return -1
	}
	dom := b.domIndex(fd, fd.f.AXNodes[p].Backend)
	if dom < 0 || b.c.Documents[fd.doc].Nodes[dom].PseudoType == "" {
		return -1 // (a viewport capture's generated text: withGenerated)
	}
	return dom
}

// pseudoOwner is the AX id of the element whose ::before or ::after holds
// text ax (the pseudo element's parent), or the pseudo element's own id.
func (b *builder) pseudoOwner(fd *frameData, ax *domsnap.AXNode) string {
	if p, ok := fd.byID.get(ax.Parent); ok && fd.f.AXNodes[p].Parent != "" {
		return fd.f.AXNodes[p].Parent
	}
	return ax.Parent
}

// withGenerated adds the generated text (::before, ::after) of DOM node
// dom that a viewport capture read itself (its AX fetch does not reach
// it: pseudo elements with no backend id, text in Layout.Text): first and
// last among the lines, judged like any text.
func (b *builder) withGenerated(fd *frameData, i, dom int, sc scope, out []*Node) []*Node {
	viewport := b.c.Mode == domsnap.CaptureViewport
	if dom < 0 || fd.doc < 0 || sc.textCovered || !viewport && b.axOnly {
		return out
	}
	for _, k := range b.domKids(fd, dom) {
		n := &b.c.Documents[fd.doc].Nodes[k]
		if n.PseudoType == "" || n.Layout == nil || viewport && n.Backend != 0 || !viewport && !b.unnamedGenerated(fd.doc, k) {
			continue
		}
		if strings.TrimSpace(n.Layout.Text) == "" {
			if n.AltText != "" {
				// CSS content's alt text for content that paints nothing:
				// Chrome reads it out, no one sees it (as a full capture
				// finds its text of no area).
				b.withhold("text", paintorder.SeenNoArea, n.AltText, fd.doc, k)
			}
			continue
		}
		if why := b.sightOf(fd.doc, k, false); why != "" {
			b.withhold("generated", why, n.Layout.Text, fd.doc, k)
			continue
		}
		line := b.node()
		// Its own owner, as Chrome gives it its pseudo element: joined with
		// its neighbours by a space.
		line.Role, line.Text, line.owner, line.at = "text", n.Layout.Text, fd.f.AXNodes[i].ID+n.PseudoType, b.where(fd, k)
		line.run = b.lineRunOf(fd, k)
		lines := b.settle(b.one(line))
		if n.PseudoType == "before" {
			out = append(append([]*Node(nil), lines...), out...)
		} else {
			out = append(out, lines...)
		}
	}
	return out
}

// seenName drops from a name taken from contents the texts and image alts
// inside DOM node dom that a person cannot see.
func (b *builder) seenName(fd *frameData, dom int, name string) string {
	if b.axOnly || dom < 0 || fd.doc < 0 || name == "" {
		return name
	}
	doc := &b.c.Documents[fd.doc]
	end := int(b.g.Docs[fd.doc].End[dom])
	if end-dom > 4096 {
		return name // a whole page named from contents: leave it
	}
	cut := false
	for k := dom + 1; k <= end && k < len(doc.Nodes); k++ {
		var dropped bool
		name, dropped = b.dropUnseen(fd.doc, k, name)
		cut = cut || dropped
	}
	if cut {
		name = clean(name)
	}
	return name
}

// dropUnseen drops from name what DOM node k gives it that no one sees:
// its text or alt when unseen, else the tail of its text a box cuts off.
// dropped: name lost something (withheld, counted and listed).
func (b *builder) dropUnseen(doc, k int, name string) (_ string, dropped bool) {
	if named, ok := b.paintedInName(doc, k, name); ok {
		return named, true
	}
	hidden, kind, reason := b.unseenPart(doc, k)
	if n := &b.c.Documents[doc].Nodes[k]; reason == "" && n.Type == domsnap.TextNode && n.Layout != nil {
		return b.dropCutTail(doc, k, name)
	}
	h := clean(hidden)
	if h == "" {
		return name, false
	}
	j := strings.Index(name, h)
	if j < 0 {
		return name, false
	}
	b.withhold(kind, reason, h, doc, k)
	return name[:j] + " " + name[j+len(h):], true
}

// unseenPart is what DOM node k gives a name from contents that no one
// sees: the text, its kind for the withheld list, and why ("" when it
// gives nothing unseen).
func (b *builder) unseenPart(doc, k int) (hidden, kind, reason string) {
	n := &b.c.Documents[doc].Nodes[k]
	switch {
	case n.Type == domsnap.TextNode && n.Layout != nil:
		if why := b.sightOf(doc, k, false); why != "" {
			return n.Value, "text", why
		}
	case n.PseudoType != "" && n.Backend != 0:
		// Generated content: what Chrome names it by (its text, or
		// CSS content's alt text) is cut when no one sees it.
		if _, text, ok := b.axOf(doc, n.Backend); ok && text != "" {
			if why := b.sightOf(doc, k, false); why != "" {
				return text, "generated", why
			}
		}
	case n.PseudoType != "" && n.AltText != "" && n.Layout != nil && strings.TrimSpace(n.Layout.Text) == "":
		// A viewport capture's generated content that paints
		// nothing: its alt text names nothing anyone sees.
		return n.AltText, "generated", paintorder.SeenNoArea
	case n.Name == "IMG":
		if alt, ok := n.Attr("alt"); ok && alt != "" {
			if why := b.sightOf(doc, k, true); why != "" {
				return alt, "image", why
			}
		}
	}
	return "", "", ""
}

// dropCutTail drops from name the tail of text node k that a box cuts
// off; an ellipsis marks it.
func (b *builder) dropCutTail(doc, k int, name string) (_ string, dropped bool) {
	shown, ok := b.cutOf(doc, k)
	if !ok {
		return name, false
	}
	_, tail := cutText(b.c.Documents[doc].Nodes[k].Value, shown)
	if tail == "" {
		return name, false
	}
	j := strings.Index(name, tail)
	if j < 0 {
		return name, false
	}
	b.withhold("text", reasonCutOff, tail, doc, k)
	return strings.TrimRight(name[:j], " ") + "… " + name[j+len(tail):], true
}

// withheldNote says, once, how much text was withheld.
func withheldNote(n, unsure int) *Node {
	if unsure > 0 {
		return &Node{Role: "note", Text: plural(n, "text") + fmt.Sprintf(" withheld as unseen (transparent, in the colour behind them, too small, of no area, or, %d of them, painted in a way that could not be confirmed seen)", unsure)}
	}
	return &Node{Role: "note", Text: plural(n, "text") + " withheld as unseen (transparent, in the colour behind them, too small, or of no area)"}
}

// invisibleNote says, once, how many elements no one sees lost their
// lines: layout's ghosts (opacity 0, no pointer events) and targets at an
// opacity near 0 that nothing seen names.
func invisibleNote(n int) *Node {
	return &Node{Role: "note", Text: plural(n, "element") + " withheld (at opacity 0 or near it, so no one sees them)"}
}

// unseenText: a laid-out text at opacity 0, or with no area in an element
// of none (font-size 0). The builder drops these before it joins lines of
// text, so a hidden piece cannot ride along with a visible one.
func unseenText(c *domsnap.Capture, g *layout.Geometry, d, i int) bool {
	nodes := c.Documents[d].Nodes
	if i < 0 || i >= len(nodes) || nodes[i].Type != domsnap.TextNode || nodes[i].Layout == nil {
		return false
	}
	if g.IsTangible(d, i) && !g.IsVisible(d, i) {
		return true // opacity 0: laid out and reachable, not seen
	}
	return false
}

// noArea: a laid-out text node with no area in an element of none. Chrome's
// AX tree can join several text nodes into one line of text and name the
// first, which may be an empty one: its element must be empty too.
func noArea(c *domsnap.Capture, g *layout.Geometry, d, i int) bool {
	nodes := c.Documents[d].Nodes
	if i < 0 || i >= len(nodes) {
		return false
	}
	if nodes[i].PseudoType != "" {
		// Generated content of no area: what Chrome names it by is CSS
		// content's alt text (content: "" / "alt"), never painted.
		return noBox(c, g, d, i)
	}
	if nodes[i].Type != domsnap.TextNode {
		return false
	}
	return noBox(c, g, d, i) && noBox(c, g, d, int(nodes[i].Parent))
}

// noBox: a laid-out node whose box and line boxes have no area.
func noBox(c *domsnap.Capture, g *layout.Geometry, d, i int) bool {
	nodes := c.Documents[d].Nodes
	if i < 0 || i >= len(nodes) || nodes[i].Layout == nil {
		return false
	}
	b, ok := g.Box(d, i)
	return ok && (b.W <= 0 || b.H <= 0) && !hasArea(nodes[i].Layout.Fragments)
}

// hasArea: some line box of a text has an area (a text spread over lines
// can report an empty box of its own).
func hasArea(fragments []domsnap.Rect) bool {
	for _, f := range fragments {
		if f.W > 0 && f.H > 0 {
			return true
		}
	}
	return false
}

// unseenElement: an element at an effective opacity no one sees (under
// paintorder.MinAlpha) whose name does not come from something seen
// elsewhere (a label: the clear file input laid over its label).
func (b *builder) unseenElement(fd *frameData, ax *domsnap.AXNode, dom int) bool {
	return dom >= 0 && !b.axOnly && !labelNamed[ax.NameFrom] &&
		b.c.Documents[fd.doc].Nodes[dom].Type == domsnap.ElementNode && b.g.Alpha(fd.doc, dom) < paintorder.MinAlpha
}

// drawnControl: an unseen native control laid over a seen element of its
// own parent that draws it — a checkbox or radio (TodoMVC's toggle over
// its label's circle, a native control under a drawn box), or a text
// field under the widget that shows what is typed into it (a terminal's
// input over its screen): a click on the drawing reaches the control, so
// it stays a target; its own name is still withheld. A clear button or
// link over content is how clickjacking looks, and stays out.
func (b *builder) drawnControl(fd *frameData, ax *domsnap.AXNode, dom int) bool {
	nodes := b.c.Documents[fd.doc].Nodes
	if dom < 0 || dom >= len(nodes) || !drawableControl(ax.Role, nodes[dom].Name) {
		return false
	}
	box, ok := b.g.Box(fd.doc, dom)
	p := int(nodes[dom].Parent)
	if !ok || box.W <= 0 || box.H <= 0 || p < 0 {
		return false
	}
	return b.siblingDrawsAt(fd.doc, p, dom, box.X+box.W/2, box.Y+box.H/2)
}

// drawableControl: a native control of AX role role and element name
// name that pages draw over with their own look: a checkbox, radio or
// switch input, or a text field. Buttons and links are not (see
// drawnControl).
func drawableControl(role, name string) bool {
	switch {
	case (role == "checkbox" || role == "radio" || role == "switch") && name == "INPUT":
		return true
	case (role == "textbox" || role == "searchbox") && (name == "INPUT" || name == "TEXTAREA"):
		return true
	}
	return false
}

// siblingDrawsAt: a visible element child of p, other than control dom,
// has (x, y) in its box. Siblings follow their parent in tree order; the
// drawing is near its control, so the search is bounded (a page of many
// clear controls costs no more than this each).
func (b *builder) siblingDrawsAt(doc, p, dom int, x, y float64) bool {
	nodes := b.c.Documents[doc].Nodes
	for i := p + 1; i < len(nodes) && i <= p+drawnControlReach; i++ {
		if i == dom || int(nodes[i].Parent) != p || nodes[i].Type != domsnap.ElementNode || !b.g.IsVisible(doc, i) {
			continue
		}
		if s, ok := b.g.Box(doc, i); ok && x >= s.X && x <= s.X+s.W && y >= s.Y && y <= s.Y+s.H {
			return true
		}
	}
	return false
}

// drawnControlReach is how many nodes after its parent a drawn control's
// drawing is looked for.
const drawnControlReach = 64

// labelNamed are the name sources that are another element: a label
// around or for the control, aria-labelledby.
var labelNamed = map[string]bool{"relatedElement": true, "labelwrapped": true, "labelfor": true}

// imageRole: Chrome's roles for images (img, and role="img").
func imageRole(role string) bool { return role == "image" || role == "img" }
