// Package fuse joins a capture's accessibility trees, DOM snapshot and
// listeners (by backendDOMNodeId, per frame) into the observation an agent
// reads: a pruned tree of roles, names and states with refs on interactive
// elements, serialized as compact YAML and JSON.
//
// Pruning follows DevTools and Puppeteer's interestingOnly: ignored nodes
// and unnamed generic wrappers vanish and their children move up; text that
// Chrome already folded into a parent's name (name source "contents") is
// not repeated, though a target inside it keeps its line, and text lines
// join only within one inline run. Mode "ax" prints the AX-only view
// (Puppeteer interestingOnly over getFullAXTree alone) for comparison.
package fuse

import (
	"math"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/internal/roles"
	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/paintorder"
)

// Limits that keep hostile pages bounded; each cut is marked in the output.
const (
	maxDepth    = 512
	maxNameLen  = 200
	maxTextLen  = 1000
	maxURLLen   = 300
	maxValueLen = 300
	roleless    = 80 // names of role-less elements, as browser-use users expect
)

// where is a DOM node of the capture, or (the zero value) none.
type where struct {
	domsnap.Pos
	ok bool
}

// build runs the join and prune pass: the full tree, every node still in
// it (off-screen and covered ones too, unless folded), interactive ones
// marked as targets, each node measured as its subtree is done.
func (b *builder) build() []*Node {
	var roots []*Node
	if top := b.frameOfDoc(0); top != nil && len(top.f.AXNodes) > 0 {
		roots = b.emitFrame(top, scope{})
	}
	return roots
}

// settle measures finished lines and folds those wholly off-screen, as
// soon as each is done: a long page's rows fold one by one. Every line
// passes here, so here its page strings lose what draws nothing (folded
// lines are counted too, as withheld text is).
func (b *builder) settle(ns []*Node) []*Node {
	for _, n := range ns {
		b.visibleLine(n)
		b.v.measure(n)
		b.maybeFold(n)
	}
	return ns
}

func countNodes(ns []*Node) int {
	n := 0
	for _, x := range ns {
		if x.elided != nil {
			n += x.elided.Nodes
			continue
		}
		if x.fold != nil {
			n += x.fold.lines - 1 + x.fold.nodes
		}
		n += 1 + countNodes(x.Children)
	}
	return n
}

// frameData indexes one frame's AX tree and its document.
type frameData struct {
	f     *domsnap.Frame
	byID  axIDs
	doc   int // index into Capture.Documents, -1 if none
	dom   backendIndex
	seen  []bool
	kids  [][]int // DOM children, built on first need
	roots []int   // AX roots (no known parent)
	// indexed: byID, roots, ignored and modal are there; loaded: the
	// frame is in use, its ignored nodes counted and its DOM indexed.
	indexed, loaded bool
	ignored         int  // ignored AX nodes
	modal           bool // an AX node of a modal dialog
	// focusMemo caches ax mode's focusable-descendant answers.
	focusMemo []int8
	// axByBackend finds a DOM node's AX node, built on first need.
	axByBackend map[int64]int
	// facts are the document's DOM signals, built on first need.
	facts *domFacts
	// elided are a viewport capture's runs by parent DOM node (elided.go).
	elided map[int][]domsnap.Elided
	// runs number the document's inline runs, built on first need
	// (lines.go).
	runs []int32
	// hosts are the DOM nodes made lines of their own with no AX node
	// (hosts.go).
	hosts map[int]bool
}

type builder struct {
	c      *domsnap.Capture
	g      *layout.Geometry
	v      *view // measures lines as they are done
	opts   Options
	axOnly bool
	frames map[string]*frameData
	counts Counts
	// folding is on when the view will collapse what is off-screen;
	// folded counts the folded nodes, free the lines ready for reuse.
	folding   bool
	folded    int
	free      []*Node
	freeFolds []*fold
	ones      []*Node
	// tags and reasonLists share what many nodes would each allocate:
	// lower-case tag names, and reasons by the signals they come from.
	tags        map[string]string
	reasonLists map[index.Traits][]string
	// sights remember, per document and DOM node, whether a person sees
	// it (withheld.go); hiddenWhy says why not; withheld lists what went.
	sights    [][]uint8
	hiddenWhy map[where]string
	withheld  []WithheldItem
	// cuts are the shown parts of texts a box cuts off (cut.go).
	cuts map[domsnap.Pos]string
	// altListed: pseudo elements whose CSS content alt text was
	// withheld (generated.go).
	altListed map[domsnap.Pos]bool
}

func newBuilder(c *domsnap.Capture, g *layout.Geometry, opts Options, v *view) *builder {
	b := &builder{c: c, g: g, v: v, opts: opts, axOnly: opts.Mode == ModeAX, frames: map[string]*frameData{},
		tags: map[string]string{}, reasonLists: map[index.Traits][]string{}}
	docOf := map[string]int{}
	for d := len(c.Documents) - 1; d >= 0; d-- {
		docOf[c.Documents[d].FrameID] = d
		b.counts.DOMNodes += len(c.Documents[d].Nodes)
	}
	for i := range c.Frames {
		f := &c.Frames[i]
		if _, dup := b.frames[f.FrameID]; dup {
			continue
		}
		fd := &frameData{f: f, doc: -1, seen: make([]bool, len(f.AXNodes))}
		if d, ok := docOf[f.FrameID]; ok {
			fd.doc = d
		}
		b.frames[f.FrameID] = fd
		b.counts.AXNodes += len(f.AXNodes)
		if f.Error != "" {
			b.counts.FramesMiss++
		}
	}
	return b
}

// frameOfDoc returns the frame data of document d, indexing it on first use.
func (b *builder) frameOfDoc(d int) *frameData {
	if d < 0 || d >= len(b.c.Documents) {
		return nil
	}
	fd := b.frames[b.c.Documents[d].FrameID]
	if fd == nil || fd.doc != d {
		return nil
	}
	if !fd.loaded {
		fd.loaded = true
		b.index(fd)
		b.counts.AXIgnored += fd.ignored
		nodes := b.c.Documents[d].Nodes
		fd.dom = indexBackends(nodes)
	}
	return fd
}

// index indexes a frame's AX nodes, once.
func (b *builder) index(fd *frameData) {
	if !fd.indexed {
		fd.indexed = true
		fd.byID, fd.roots, fd.ignored, fd.modal = indexAXIDs(fd.f.AXNodes)
	}
}

// scope is what a node's emission inherits from its ancestors.
type scope struct {
	depth         int
	textCovered   bool // an ancestor's name already holds the text below
	insideControl bool // ax mode: inside a control
	refBox        layout.Box
	hasRefBox     bool
	refRole       string
	parentNameBy  string // the name source of the nearest kept ancestor
}

func (b *builder) emitFrame(fd *frameData, sc scope) []*Node {
	var out []*Node
	for _, r := range fd.roots {
		out = append(out, b.emit(fd, r, sc)...)
	}
	return normalize(out, b.textJoins)
}

// children emits the AX children of node i, then the document of an iframe.
func (b *builder) children(fd *frameData, i, dom int, sc scope) []*Node {
	sc.depth++
	if sc.depth > maxDepth {
		n := b.node()
		n.Role, n.Text = "note", "nesting deeper than 512 levels cut here"
		return []*Node{n}
	}
	var acc childLines
	if runs := b.elidedOf(fd, dom); runs != nil {
		acc.elided = true
		b.emitChildren(fd, fd.f.AXNodes[i].Children, dom, sc, &acc)
		acc.out = b.placeElided(runs, acc.groups, acc.after)
	} else {
		b.emitChildren(fd, fd.f.AXNodes[i].Children, dom, sc, &acc)
	}
	out := b.withInert(fd, i, dom, sc, b.withGenerated(fd, i, dom, sc, acc.out))
	if dom >= 0 && b.facts(fd).kinds[dom]&ownsDocument != 0 {
		if cd := b.c.Documents[fd.doc].Nodes[dom].ContentDocument; cd > 0 {
			if child := b.frameOfDoc(cd); child != nil {
				out = append(out, b.emitFrame(child, sc)...)
			}
		}
	}
	return normalize(out, b.textJoins)
}

// emit returns the lines for AX node i, measured (and folded when wholly
// off-screen): itself, or its children promoted.
func (b *builder) emit(fd *frameData, i int, sc scope) []*Node {
	return b.settle(b.lines(fd, i, sc))
}

// lines returns the lines for AX node i: itself, or its children promoted.
func (b *builder) lines(fd *frameData, i int, sc scope) []*Node {
	if fd.seen[i] {
		return nil // a node listed under two parents, or a cycle
	}
	fd.seen[i] = true
	if b.axOnly {
		return b.emitAX(fd, i, sc)
	}
	ax := &fd.f.AXNodes[i]
	dom := b.domIndex(fd, ax.Backend)
	if dom >= 0 && b.g.IsGhost(fd.doc, dom) {
		// Chrome keeps it, but no one can see or click it: its lines go,
		// and its text is withheld below.
		if !ax.Ignored && !wrapperRole(ax.Role) && !textOnlyRoles[ax.Role] {
			b.counts.Invisible++
		}
		return b.children(fd, i, dom, sc)
	}
	ax = b.withContextRole(fd, ax, dom)
	if ax.Ignored {
		return b.ignoredLines(fd, i, dom, sc)
	}
	switch ax.Role {
	case "ListMarker":
		if customMarker(ax.Name) {
			return b.textLine(fd, ax, dom, sc)
		}
		return nil
	case "InlineTextBox", "LineBreak":
		return nil
	case "StaticText":
		return b.textLine(fd, ax, dom, sc)
	case "RootWebArea", "WebArea":
		return b.children(fd, i, dom, sc)
	}
	if wrapperRole(ax.Role) || b.dragGroup(fd, ax, dom) {
		if n, promoted := b.wrapperLines(fd, ax, i, dom, sc); n != nil || promoted {
			return n
		}
	}
	if ax.Role == "Legend" && sc.parentNameBy == "legend" {
		return b.legendLines(fd, i, dom, sc)
	}
	if imageRole(ax.Role) && dom >= 0 {
		if why := b.sightOf(fd.doc, dom, true); why != "" {
			// An unseen image with no name hides no words: it is
			// left out, not counted as withheld.
			if strings.TrimSpace(ax.Name) != "" {
				b.withhold("image", why, ax.Name, fd.doc, dom)
			}
			return b.children(fd, i, dom, sc)
		}
	}
	return b.elementLines(fd, ax, i, dom, sc)
}

// ignoredLines: an ignored node is a visible control under aria-hidden,
// a role-less target, or its children promoted.
func (b *builder) ignoredLines(fd *frameData, i, dom int, sc scope) []*Node {
	if n := b.ariaHiddenTarget(fd, i, dom, sc); n != nil {
		return n
	}
	if !hiddenReason(fd.f.AXNodes[i].IgnoredReasons) {
		if n := b.roleless(fd, i, dom, sc); n != nil {
			return n
		}
	}
	return b.children(fd, i, dom, sc)
}

// textLine is a text node's line, or none when it is already in a name
// above or no one can see it.
func (b *builder) textLine(fd *frameData, ax *domsnap.AXNode, dom int, sc scope) []*Node {
	if sc.textCovered {
		return nil
	}
	at := dom
	if at < 0 {
		at = b.generatedText(fd, ax) // ::before, ::after
	}
	if why := b.sightOf(fd.doc, at, false); why != "" {
		kind := "text"
		if at != dom {
			kind = "generated" // ::before, ::after content
		}
		b.withhold(kind, why, ax.Name, fd.doc, at)
		return nil
	}
	text := ax.Name
	if painted, ok := b.paintedText(fd.doc, dom, text); ok {
		b.withholdAlt(text, fd.doc, dom)
		text = painted
	}
	if shown, ok := b.cutOf(fd.doc, dom); ok && at == dom {
		if text = b.shownText(fd.doc, dom, text, shown); text == "" {
			return nil
		}
	}
	n := b.node()
	n.Role, n.Text, n.owner, n.at = "text", text, ax.Parent, b.where(fd, dom)
	n.run = b.lineRunOf(fd, dom)
	if at != dom && at >= 0 && ax.Name == strings.TrimSpace(ax.Name) && !endsLine(&b.c.Documents[fd.doc], at) {
		// Inline generated text belongs to its element: an icon's
		// ::before joins its text as written ("\ueab2hello"). A block
		// one stays apart, and one with spaces at its ends keeps them
		// (the lines below trim each text, so the spaces are read here).
		n.owner, n.run = b.pseudoOwner(fd, ax), b.lineRunOf(fd, at)
	}
	return b.one(n)
}

// wrapperLines: a generic wrapper is a role-less target, or an unnamed
// wrapper whose children are promoted (promoted true), or neither: then
// it prints as an element.
func (b *builder) wrapperLines(fd *frameData, ax *domsnap.AXNode, i, dom int, sc scope) (lines []*Node, promoted bool) {
	if n := b.roleless(fd, i, dom, sc); n != nil {
		return n, true
	}
	if strings.TrimSpace(ax.Name) != "" || liveRegion(ax) {
		return nil, false
	}
	if ax.Role == "LabelText" && b.labelNames(fd, i, 0) {
		sc.textCovered = true
	}
	return b.children(fd, i, dom, sc), true
}

// legendLines: the group's name already is the legend's text, so only a
// target in it (a help link) stays. (Unfolded, to see every target.)
func (b *builder) legendLines(fd *frameData, i, dom int, sc scope) []*Node {
	sc.textCovered = true
	folding := b.folding
	b.folding = false
	kept := b.children(fd, i, dom, sc)
	b.folding = folding
	if holdsTarget(kept) {
		return kept
	}
	b.recycle(kept)
	return nil
}

// elementLines is an element's line with its children, or its children
// alone when no one can see it.
func (b *builder) elementLines(fd *frameData, ax *domsnap.AXNode, i, dom int, sc scope) []*Node {
	n := b.elementNode(fd, ax, dom)
	reasons := b.reasons(b.signals(fd, ax, dom))
	if n.Role == "option" && b.boxless(fd.doc, dom) {
		reasons = nil // a closed <select>'s options: the select is the target
		if b.hiddenOption(fd.doc, dom) {
			// Never shown in the list a person opens: its label is text
			// no one sees (and select never picks it).
			if n.Name != "" {
				b.withhold("name", reasonHiddenOption, n.Name, fd.doc, dom)
			}
			b.recycle([]*Node{n})
			return nil
		}
	}
	if dom >= 0 {
		if st := b.facts(fd).scrollOf(dom); st != "" {
			n.States = append(n.States, st)
		}
	}
	// The name already holds the text below: from Chrome's name source, or
	// for a target only the DOM knows of, a name taken from its text.
	covers := ax.Name != "" && ax.NameFrom == "contents"
	if dom >= 0 && n.Name == "" && index.OnlyFromDOM(reasons) && reasons[0] != index.ReasonScrollable {
		n.Name, covers = b.rolelessName(fd, ax, dom)
	}
	if b.unseenElement(fd, ax, dom) {
		// No one sees it, so no one sees its name; a target of that kind
		// (a button in a clear iframe) is no place to click.
		if n.Name != "" {
			b.withhold("name", paintorder.SeenTransparent, n.Name, fd.doc, dom)
		}
		n.Name = ""
		if len(reasons) > 0 && !b.drawnControl(fd, ax, dom) {
			b.counts.Invisible++
			b.recycle([]*Node{n})
			return b.children(fd, i, dom, sc)
		}
	}
	if why, hidden := b.drawnValueHidden(fd.doc, dom); hidden {
		// Its value is its name and its one text: no one reads it.
		if n.Name != "" {
			b.withhold("name", why, n.Name, fd.doc, dom)
		}
		n.Name, sc.textCovered = "", true
	}
	sc = b.markTarget(n, fd, i, dom, reasons, sc)
	sc.parentNameBy = ax.NameFrom
	if rich := richText(ax); !leafRole(ax.Role) || rich {
		if covers || rich {
			sc.textCovered = true // a rich editor's text is its value
		}
		withheld := b.counts.Withheld
		n.Children = b.children(fd, i, dom, sc)
		if len(n.Children) == 0 && n.Name == "" && n.Value == "" && n.target == nil && (b.counts.Withheld > withheld || b.unseenElement(fd, ax, dom)) {
			return nil // it held only what no one can see
		}
	}
	return b.one(n)
}

// elementNode is an element's line before its target and children: role,
// name (what is seen of it), states, value, URL, markers.
func (b *builder) elementNode(fd *frameData, ax *domsnap.AXNode, dom int) *Node {
	n := b.node()
	n.Role, n.Name, n.States, n.Value, n.nameFrom = roles.Printed(ax.Role), ax.Name, states(ax), value(ax), ax.NameFrom
	if ax.NameFrom == "contents" {
		n.Name = b.seenName(fd, dom, n.Name)
	} else {
		n.Name = b.seenLabelName(fd, ax, dom, n.Name)
	}
	if dom >= 0 {
		b.fromMarkup(n, fd, ax, dom)
	}
	if n.Role == "iframe" {
		if st := b.frameState(fd, dom); st != "" {
			n.States = append(n.States, st)
		}
	}
	if ax.Role == "link" {
		n.URL = b.linkURL(fd, ax, dom)
	}
	n.summary = ax.Role == "DisclosureTriangle" || ax.Role == "DisclosureTriangleGrouped"
	if v, _ := ax.Prop("modal"); v == "true" {
		n.modal = true
	}
	return n
}

// holdsTarget: a target among the lines or below them.
func holdsTarget(ns []*Node) bool {
	for _, n := range ns {
		if n.target != nil || holdsTarget(n.Children) {
			return true
		}
	}
	return false
}

// one returns a list of the one line n. The lists come from a shared
// block, each cut to its length so that an append copies.
func (b *builder) one(n *Node) []*Node {
	if len(b.ones) == cap(b.ones) {
		b.ones = make([]*Node, 0, 256)
	}
	b.ones = append(b.ones, n)
	k := len(b.ones)
	return b.ones[k-1 : k : k]
}

// textJoins: two lines of text join only within one inline run (no block
// boundary between them), and only when both are shown or both are
// clipped away; a clipped text must not ride along with a shown one. (The
// AX-only view has neither layout fact: its texts join as Chrome lists
// them.)
func (b *builder) textJoins(x, y *Node) bool {
	return b.axOnly || sameLine(x, y) && b.shown(x) == b.shown(y)
}

func (b *builder) shown(n *Node) bool {
	if !n.at.ok || b.g.IsUnseen(n.at.Doc, n.at.Node) {
		return true // screen-reader-only text is read like shown text
	}
	s := b.g.ShownBox(n.at.Doc, n.at.Node)
	if s.W > 0 && s.H > 0 {
		return true
	}
	raw, ok := b.g.Box(n.at.Doc, n.at.Node)
	return !ok || raw.W <= 0 || raw.H <= 0 // nothing to clip
}

// frameState says why an iframe shows no content: its document is not
// there (lazy, still loading, zero-size), was too deep to follow, or could
// not be captured. "" when its content is in the capture.
func (b *builder) frameState(fd *frameData, dom int) string {
	if dom < 0 {
		return ""
	}
	n := &b.c.Documents[fd.doc].Nodes[dom]
	frame := n.ContentFrame
	if n.ContentDocument > 0 {
		frame = b.c.Documents[n.ContentDocument].FrameID
	}
	if f := b.frames[frame]; f != nil && f.f.Error != "" {
		if f.f.TooDeep {
			return "too deep to capture"
		}
		return "capture failed"
	}
	if n.ContentDocument == 0 {
		return "not loaded"
	}
	// A lazy iframe holds an empty about:blank document until it loads
	// its src.
	src, _ := n.Attr("src")
	src = strings.TrimSpace(src)
	if b.c.Documents[n.ContentDocument].URL == "about:blank" && src != "" && !strings.HasPrefix(src, "about:") {
		return "not loaded"
	}
	return ""
}

// reasonHiddenOption is the withheld reason of an option a select never
// shows.
const reasonHiddenOption = "hidden option"

// hiddenOption: an <option> (or the <optgroup> around it) marked hidden
// or laid out as display: none, which a select's list never shows. (A
// closed select's options have no layout in the capture, so display:
// none from a style sheet is not seen there; the hidden attribute is.)
func (b *builder) hiddenOption(doc, dom int) bool {
	d := &b.c.Documents[doc]
	for k, n := 0, dom; k < 2 && n >= 0 && n < len(d.Nodes); k, n = k+1, int(d.Nodes[n].Parent) {
		node := &d.Nodes[n]
		if tag := strings.ToLower(node.Name); tag != "option" && tag != "optgroup" {
			return false
		}
		if _, ok := node.Attr("hidden"); ok {
			return true
		}
		if node.Layout != nil && node.Layout.Style >= 0 && node.Layout.Style < len(d.Styles) && d.Styles[node.Layout.Style].Display == "none" {
			return true
		}
	}
	return false
}

// boxless: a DOM node with no laid-out box (a closed select's option).
func (b *builder) boxless(doc, dom int) bool {
	if dom < 0 {
		return false
	}
	box, ok := b.g.Box(doc, dom)
	return !ok || box.W <= 0 && box.H <= 0
}

func round2(f float64) float64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f > 1e12:
		return 1e12 // a page's absurd box: JSON needs finite numbers
	case f < -1e12:
		return -1e12
	}
	if f >= 0 {
		return float64(int64(f*100+0.5)) / 100
	}
	return -float64(int64(-f*100+0.5)) / 100
}

// axOf returns the role and name of the AX node of a DOM node.
func (b *builder) axOf(doc int, backend int64) (string, string, bool) {
	fd := b.frameOfDoc(doc)
	if fd == nil {
		return "", "", false
	}
	if fd.axByBackend == nil {
		fd.axByBackend = make(map[int64]int, len(fd.f.AXNodes))
		for i := range fd.f.AXNodes {
			if bk := fd.f.AXNodes[i].Backend; bk != 0 {
				if _, dup := fd.axByBackend[bk]; !dup {
					fd.axByBackend[bk] = i
				}
			}
		}
	}
	i, ok := fd.axByBackend[backend]
	if !ok {
		return "", "", false
	}
	ax := &fd.f.AXNodes[i]
	if ax.Ignored || wrapperRole(ax.Role) && ax.Name == "" {
		return "", "", false
	}
	return ax.Role, ax.Name, true
}

func (b *builder) where(fd *frameData, dom int) where {
	if dom < 0 {
		return where{}
	}
	return where{domsnap.Pos{Doc: fd.doc, Node: dom}, true}
}

func (b *builder) domIndex(fd *frameData, backend int64) int {
	if fd.doc < 0 || backend == 0 {
		return -1
	}
	return fd.dom.get(backend)
}

// lower is a tag name in lower case.
func (b *builder) lower(name string) string {
	if t, ok := b.tags[name]; ok {
		return t
	}
	t := strings.ToLower(name)
	b.tags[name] = t
	return t
}
