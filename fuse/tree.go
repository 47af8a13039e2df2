// Package fuse joins a capture's accessibility trees, DOM snapshot and
// listeners (by backendDOMNodeId, per frame) into the observation an agent
// reads: a pruned tree of roles, names and states with refs on interactive
// elements, serialized as compact YAML and JSON.
//
// Pruning follows DevTools and Puppeteer's interestingOnly: ignored nodes
// and unnamed generic wrappers vanish and their children move up; text that
// Chrome already folded into a parent's name (name source "contents") is
// not repeated. Mode "ax" prints the AX-only view (Puppeteer interestingOnly
// over getFullAXTree alone) for comparison.
package fuse

import (
	"math"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/layout"
)

// Modes of the observation.
const (
	ModeFused = "fused"
	ModeAX    = "ax"
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

// Node is one line of the observation.
type Node struct {
	Role     string
	Name     string
	Text     string   // the text of a "text" node, or an inline child text
	URL      string   // a link's target
	Value    string   // a control's current value
	States   []string // "checked", "expanded=false", "level=2", ...
	Ref      string
	Children []*Node
	// owner is the AX parent of a text line: texts of one owner join as
	// written, texts of different blocks join with a space.
	owner string
	// nameFrom is Chrome's name source, which tells whether a label's text
	// beside this node is already its name.
	nameFrom string
	// at is the DOM node behind this line (doc -1 when none); target is set
	// on interactive elements, which get a ref if they stay in the view.
	at     where
	target *target
	// status is filled by the view pass: geometry, occlusion.
	status status
	// modal marks an aria-modal or showModal() dialog.
	modal bool
	// orig is the full-tree node a view copy was made from.
	orig *Node
	// elided is the run of a viewport capture this line stands for: what
	// it counted, which way it lies (elided.go).
	elided *domsnap.Elided
}

// where is a DOM node of the capture; the zero value is none.
type where struct {
	doc, dom int
	ok       bool
}

// target is an interactive element before it gets its ref.
type target struct {
	key     index.Key
	reasons []string
	tag     string
}

// Element is one ref'd element in the JSON form.
type Element struct {
	Ref           string      `json:"ref"`
	Role          string      `json:"role"`
	Name          string      `json:"name"`
	Tag           string      `json:"tag"`
	Box           *[4]float64 `json:"box"`
	Frame         string      `json:"frame"`
	BackendNodeID int64       `json:"backendNodeId"`
	Reasons       []string    `json:"reasons"`
}

// Counts are node counts at each stage.
type Counts struct {
	DOMNodes   int `json:"domNodes"`
	AXNodes    int `json:"axNodes"`
	AXIgnored  int `json:"axIgnored"`
	Kept       int `json:"kept"`       // nodes in the pruned tree
	Refs       int `json:"refs"`       // interactive elements
	Roleless   int `json:"roleless"`   // refs found by DOM signals alone
	FramesMiss int `json:"framesMiss"` // frames whose AX tree is missing
	Occluded   int `json:"occluded"`   // nodes left out because something covers them
	Offscreen  int `json:"offscreen"`  // nodes collapsed or dropped off-screen
	Clipped    int `json:"clipped"`    // nodes overflow clips hide
	Withheld   int `json:"withheld"`   // texts a person cannot see
	Unchecked  int `json:"unchecked"`  // elements whose covers were not looked for (work bound spent)
}

// Tree is the fused observation before serialization.
type Tree struct {
	Mode     string
	Roots    []*Node // what the agent sees
	Full     []*Node // everything, off-screen and covered nodes included
	Elements []Element
	Counts   Counts
	// Regions are targets with no node: the reason to attach a screenshot.
	Regions  []Region
	viewport layout.Box // for Find's "where"
	view     *view      // for Locate
}

// Options choose the view.
type Options struct {
	Mode string // ModeFused (default) or ModeAX
	// Refs assigns refs; a fresh table when nil. Passing the same table
	// across snapshots keeps refs stable.
	Refs *index.Table
	// Offscreen is OffscreenCollapse (default), OffscreenKeep or
	// OffscreenDrop; Margin grows the viewport by that many CSS px.
	Offscreen string
	Margin    float64
	// Scope prints one subtree: "ROLE", "ROLE:NAME" (name substring,
	// case-insensitive) or a ref such as "e12".
	Scope string
	// Depth limits the printed depth (0: no limit).
	Depth int
	// MaxTokens cuts the view to about that many o200k tokens (0: no
	// limit): the viewport first, then by distance and interactivity, with
	// counted lines for what was left out (see budget.go).
	MaxTokens int
	// FindHint tells, in the budget's last note, how to reach what was left
	// out (the CLI's and the MCP server's words differ).
	FindHint string
}

// build runs the join and prune pass: the full tree, every node still in
// it (off-screen and covered ones too), interactive ones marked as targets.
func build(c *domsnap.Capture, g *layout.Geometry, opts Options) ([]*Node, Counts, *builder) {
	b := newBuilder(c, g, opts)
	var roots []*Node
	if top := b.frameOfDoc(0); top != nil && len(top.f.AXNodes) > 0 {
		roots = b.emitFrame(top, scope{})
	}
	return roots, b.counts, b
}

func countNodes(ns []*Node) int {
	n := 0
	for _, x := range ns {
		if x.elided != nil {
			n += x.elided.Nodes
			continue
		}
		n += 1 + countNodes(x.Children)
	}
	return n
}

// frameData indexes one frame's AX tree and its document.
type frameData struct {
	f      *domsnap.Frame
	byID   axIDs
	doc    int // index into Capture.Documents, -1 if none
	dom    backendIndex
	seen   []bool
	kids   [][]int // DOM children, built on first need
	roots  []int   // AX roots (no known parent)
	loaded bool
	// focusMemo caches ax mode's focusable-descendant answers.
	focusMemo []int8
	// axByBackend finds a DOM node's AX node, built on first need.
	axByBackend map[int64]int
	// facts are the document's DOM signals, built on first need.
	facts *domFacts
	// elided are a viewport capture's runs by parent DOM node (elided.go).
	elided map[int][]domsnap.Elided
}

type builder struct {
	c      *domsnap.Capture
	g      *layout.Geometry
	opts   Options
	axOnly bool
	frames map[string]*frameData
	counts Counts
}

func newBuilder(c *domsnap.Capture, g *layout.Geometry, opts Options) *builder {
	b := &builder{c: c, g: g, opts: opts, axOnly: opts.Mode == ModeAX, frames: map[string]*frameData{}}
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
		fd.byID = indexAXIDs(fd.f.AXNodes)
		for i := range fd.f.AXNodes {
			if fd.f.AXNodes[i].Ignored {
				b.counts.AXIgnored++
			}
		}
		for i := range fd.f.AXNodes {
			if _, ok := fd.byID.get(fd.f.AXNodes[i].Parent); !ok {
				fd.roots = append(fd.roots, i)
			}
		}
		nodes := b.c.Documents[d].Nodes
		fd.dom = indexBackends(nodes)
	}
	return fd
}

// scope is what a node's emission inherits from its ancestors.
type scope struct {
	depth         int
	textCovered   bool // an ancestor's name already holds the text below
	insideControl bool // ax mode: inside a control
	refBox        *layout.Box
	refRole       string
	parentNameBy  string // the name source of the nearest kept ancestor
}

func (b *builder) emitFrame(fd *frameData, sc scope) []*Node {
	var out []*Node
	for _, r := range fd.roots {
		out = append(out, b.emit(fd, r, sc)...)
	}
	return normalize(out, b.shownAlike)
}

// children emits the AX children of node i, then the document of an iframe.
func (b *builder) children(fd *frameData, i, dom int, sc scope) []*Node {
	sc.depth++
	if sc.depth > maxDepth {
		return []*Node{{Role: "note", Text: "nesting deeper than 512 levels cut here"}}
	}
	var out []*Node
	if runs := b.elidedOf(fd, dom); runs != nil {
		var groups [][]*Node
		var after []int
		for _, id := range fd.f.AXNodes[i].Children {
			if k, ok := fd.byID.get(id); ok {
				groups = append(groups, b.emit(fd, k, sc))
				after = append(after, b.domIndex(fd, fd.f.AXNodes[k].Backend))
			}
		}
		out = b.placeElided(runs, groups, after)
	} else {
		for _, id := range fd.f.AXNodes[i].Children {
			if k, ok := fd.byID.get(id); ok {
				out = append(out, b.emit(fd, k, sc)...)
			}
		}
	}
	if dom >= 0 {
		if cd := b.c.Documents[fd.doc].Nodes[dom].ContentDocument; cd > 0 {
			if child := b.frameOfDoc(cd); child != nil {
				out = append(out, b.emitFrame(child, sc)...)
			}
		}
	}
	return normalize(out, b.shownAlike)
}

// emit returns the lines for AX node i: itself, or its children promoted.
func (b *builder) emit(fd *frameData, i int, sc scope) []*Node {
	if fd.seen[i] {
		return nil // a node listed under two parents, or a cycle
	}
	fd.seen[i] = true
	if b.axOnly {
		return b.emitAX(fd, i, sc)
	}
	ax := &fd.f.AXNodes[i]
	dom := b.domIndex(fd, ax.Backend)
	if ax.Ignored {
		if !hiddenReason(ax.IgnoredReasons) {
			if n := b.roleless(fd, i, dom, sc); n != nil {
				return n
			}
		}
		return b.children(fd, i, dom, sc)
	}
	switch ax.Role {
	case "InlineTextBox", "ListMarker", "LineBreak":
		return nil
	case "StaticText":
		if sc.textCovered {
			return nil
		}
		if dom >= 0 && unseenText(b.c, b.g, fd.doc, dom) {
			b.counts.Withheld++
			return nil
		}
		return []*Node{{Role: "text", Text: ax.Name, owner: ax.Parent, at: b.where(fd, dom)}}
	case "RootWebArea", "WebArea":
		return b.children(fd, i, dom, sc)
	}
	if wrapperRoles[ax.Role] {
		if n := b.roleless(fd, i, dom, sc); n != nil {
			return n
		}
		if strings.TrimSpace(ax.Name) == "" && !liveRegion(ax) {
			if ax.Role == "LabelText" && b.labelNames(fd, i, 0) {
				sc.textCovered = true
			}
			return b.children(fd, i, dom, sc)
		}
	}
	if ax.Role == "Legend" && sc.parentNameBy == "legend" {
		return nil // the group's name already is the legend's text
	}
	n := &Node{Role: ax.Role, Name: ax.Name, States: states(ax), Value: value(ax), nameFrom: ax.NameFrom}
	if ax.Role == "Iframe" {
		n.Role = "iframe"
		if st := b.frameState(fd, dom); st != "" {
			n.States = append(n.States, st)
		}
	}
	if ax.Role == "link" {
		n.URL = b.linkURL(fd, ax, dom)
	}
	if v, _ := ax.Prop("modal"); v == "true" {
		n.modal = true
	}
	reasons := index.Reasons(b.signals(fd, ax, dom))
	if dom >= 0 {
		if st := b.facts(fd).scroll[dom]; st != "" {
			n.States = append(n.States, st)
		}
	}
	// The name already holds the text below: from Chrome's name source, or
	// for a target only the DOM knows of, a name taken from its text.
	covers := ax.Name != "" && ax.NameFrom == "contents"
	if dom >= 0 && n.Name == "" && index.OnlyFromDOM(reasons) && reasons[0] != "scrollable" {
		n.Name, covers = b.rolelessName(fd, ax, dom)
	}
	sc = b.markTarget(n, fd, ax.Backend, dom, reasons, sc)
	sc.parentNameBy = ax.NameFrom
	if !leafRoles[ax.Role] {
		if covers {
			sc.textCovered = true
		}
		withheld := b.counts.Withheld
		n.Children = b.children(fd, i, dom, sc)
		if len(n.Children) == 0 && b.counts.Withheld > withheld && n.Name == "" && n.Value == "" && n.target == nil {
			return nil // it held only text no one can see
		}
	}
	return []*Node{n}
}

// shownAlike: two lines of text join only when both are shown or both are
// clipped away; a clipped text must not ride along with a shown one.
func (b *builder) shownAlike(x, y *Node) bool {
	return b.axOnly || b.shown(x) == b.shown(y)
}

func (b *builder) shown(n *Node) bool {
	if !n.at.ok || b.g.IsUnseen(n.at.doc, n.at.dom) {
		return true // screen-reader-only text is read like shown text
	}
	s := b.g.ShownBox(n.at.doc, n.at.dom)
	if s.W > 0 && s.H > 0 {
		return true
	}
	raw, ok := b.g.Box(n.at.doc, n.at.dom)
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
		if strings.HasPrefix(f.f.Error, "nested deeper than") {
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

// roleless makes a "clickable" line for an element that only DOM signals
// (a listener, isClickable) mark as interactive; nil when there are none.
func (b *builder) roleless(fd *frameData, i, dom int, sc scope) []*Node {
	if dom < 0 {
		return nil
	}
	ax := &fd.f.AXNodes[i]
	reasons := index.Reasons(b.signals(fd, ax, dom))
	if len(reasons) == 0 || b.sameTarget(fd, dom, sc) || b.arealess(fd.doc, dom) {
		return nil
	}
	if len(reasons) == 1 && reasons[0] == "scrollable" {
		// A scroll container: no name from its (long) text.
		n := &Node{Role: "scrollable", States: []string{b.facts(fd).scroll[dom]}}
		if v, ok := b.c.Documents[fd.doc].Nodes[dom].Attr("aria-label"); ok {
			n.Name = clean(v)
		}
		sc = b.markTarget(n, fd, ax.Backend, dom, reasons, sc)
		n.Children = b.children(fd, i, dom, sc)
		return []*Node{n}
	}
	name, fromText := b.rolelessName(fd, ax, dom)
	n := &Node{Role: "clickable", Name: name}
	sc = b.markTarget(n, fd, ax.Backend, dom, reasons, sc)
	sc.textCovered = sc.textCovered || fromText
	n.Children = b.children(fd, i, dom, sc)
	return []*Node{n}
}

// arealess: an element laid out with no area and nothing with an area
// inside it (an empty 1280×0 div with an onclick) is no place to click.
// Past a few dozen descendants it is assumed to have some.
func (b *builder) arealess(doc, dom int) bool {
	box, ok := b.g.Box(doc, dom)
	if !ok || box.W > 0 && box.H > 0 {
		return false
	}
	end := int(b.g.Docs[doc].End[dom])
	if end-dom > 64 {
		return false
	}
	for k := dom + 1; k <= end; k++ {
		if c, ok := b.g.Box(doc, k); ok && c.W > 0 && c.H > 0 {
			return false
		}
	}
	return true
}

// sameTarget: a DOM-only target with the box of the ref'd ancestor it sits
// in, or inside a button or link (whose activation it triggers anyway), is
// that ancestor: one target, one ref.
func (b *builder) sameTarget(fd *frameData, dom int, sc scope) bool {
	if sc.refBox == nil {
		return false
	}
	box, ok := b.g.Box(fd.doc, dom)
	if !ok {
		return false
	}
	return near(box, *sc.refBox) || (activators[sc.refRole] && inside(box, *sc.refBox))
}

var activators = map[string]bool{"button": true, "link": true, "menuitem": true, "tab": true, "option": true, "checkbox": true, "radio": true, "switch": true}

func inside(a, b layout.Box) bool {
	return a.X >= b.X-1 && a.Y >= b.Y-1 && a.X+a.W <= b.X+b.W+1 && a.Y+a.H <= b.Y+b.H+1
}

func near(a, b layout.Box) bool {
	d := func(x, y float64) bool { return x-y < 2 && y-x < 2 }
	return d(a.X, b.X) && d(a.Y, b.Y) && d(a.W, b.W) && d(a.H, b.H)
}

// markTarget records an interactive element; refs are handed out later,
// in output order, to the targets that stay in the view.
func (b *builder) markTarget(n *Node, fd *frameData, backend int64, dom int, reasons []string, sc scope) scope {
	n.at = b.where(fd, dom)
	if len(reasons) == 0 {
		return sc
	}
	t := &target{key: index.Key{Frame: fd.f.FrameID, Backend: backend}, reasons: reasons}
	if dom >= 0 {
		t.tag = strings.ToLower(b.c.Documents[fd.doc].Nodes[dom].Name)
		if box, ok := b.g.Box(fd.doc, dom); ok {
			sc.refBox, sc.refRole = &box, n.Role
		}
	}
	n.target = t
	return sc
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
	if ax.Ignored || wrapperRoles[ax.Role] && ax.Name == "" {
		return "", "", false
	}
	return ax.Role, ax.Name, true
}

func (b *builder) where(fd *frameData, dom int) where {
	if dom < 0 {
		return where{}
	}
	return where{fd.doc, dom, true}
}

func (b *builder) domIndex(fd *frameData, backend int64) int {
	if fd.doc < 0 || backend == 0 {
		return -1
	}
	return fd.dom.get(backend)
}

// backendIndex finds a document's nodes by backend id: a slice over the
// id range when the ids are dense (Chrome numbers a renderer's nodes in
// order), else a map. The first node with an id wins.
type backendIndex struct {
	base  int64
	dense []int32
	m     map[int64]int
}

func indexBackends(nodes []domsnap.Node) backendIndex {
	if len(nodes) == 0 {
		return backendIndex{}
	}
	lo, hi := nodes[0].Backend, nodes[0].Backend
	for i := range nodes {
		lo, hi = min(lo, nodes[i].Backend), max(hi, nodes[i].Backend)
	}
	if hi-lo < int64(4*len(nodes)+1024) {
		x := backendIndex{base: lo, dense: filled(int(hi-lo) + 1)}
		for i := range nodes {
			if k := nodes[i].Backend - lo; x.dense[k] < 0 {
				x.dense[k] = int32(i)
			}
		}
		return x
	}
	x := backendIndex{m: make(map[int64]int, len(nodes))}
	for i := range nodes {
		if _, dup := x.m[nodes[i].Backend]; !dup {
			x.m[nodes[i].Backend] = i
		}
	}
	return x
}

// get returns the node's index, -1 when there is none.
func (x *backendIndex) get(backend int64) int {
	if x.dense != nil {
		if k := backend - x.base; k >= 0 && k < int64(len(x.dense)) {
			return int(x.dense[k])
		}
		return -1
	}
	if i, ok := x.m[backend]; ok {
		return i
	}
	return -1
}

// axIDs finds AX nodes by id. Chrome's ids are small decimal numbers, and
// the nodes it makes up (inline text boxes) count down from -1000000000: ids
// of those two shapes are found in slices indexed by the number, far
// cheaper than hashing strings on long pages; any other id uses a map. The
// first node with an id wins.
type axIDs struct {
	pos, neg []int32 // by number, and by -1000000000 minus the number; -1 for none
	byStr    map[string]int
}

const negBase = 1000000000

func indexAXIDs(nodes []domsnap.AXNode) axIDs {
	limit := 4*len(nodes) + 1024
	x := axIDs{pos: filled(limit), neg: filled(limit), byStr: map[string]int{}}
	for i := range nodes {
		id := nodes[i].ID
		if slot := x.slot(id); slot != nil {
			if *slot < 0 {
				*slot = int32(i)
			}
		} else if _, dup := x.byStr[id]; !dup {
			x.byStr[id] = i
		}
	}
	return x
}

func filled(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = -1
	}
	return s
}

// slot is the slice entry of an id of one of Chrome's shapes, else nil.
func (x *axIDs) slot(id string) *int32 {
	if len(id) > 1 && id[0] == '-' {
		if n, ok := smallNumber(id[1:], negBase+len(x.neg)); ok && n >= negBase {
			return &x.neg[n-negBase]
		}
		return nil
	}
	if n, ok := smallNumber(id, len(x.pos)); ok {
		return &x.pos[n]
	}
	return nil
}

func (x *axIDs) get(id string) (int, bool) {
	if slot := x.slot(id); slot != nil {
		return int(*slot), *slot >= 0
	}
	k, ok := x.byStr[id]
	return k, ok
}

// smallNumber parses a plain decimal below limit ("0", "42"; no sign, no
// leading zeros).
func smallNumber(s string, limit int) (int, bool) {
	if s == "" || len(s) > 10 || len(s) > 1 && s[0] == '0' {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n < limit
}
