package fuse

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/paintorder"
)

// Offscreen is what a view does with content outside the viewport.
type Offscreen string

// Off-screen policies.
const (
	OffscreenCollapse Offscreen = "collapse" // one counted line per off-screen subtree or run
	OffscreenKeep     Offscreen = "keep"     // print everything
	OffscreenDrop     Offscreen = "drop"     // leave off-screen content out
)

// OffscreenPolicies lists the policies, the default first.
var OffscreenPolicies = []Offscreen{OffscreenCollapse, OffscreenKeep, OffscreenDrop}

// status is what the view pass learns of a node.
type status struct {
	box      layout.Box // shown box of the node itself
	hasBox   bool
	span     layout.Box // union of the node's and its descendants' boxes
	hasSpan  bool
	occluded bool
	// checked: the occlusion check looks at the node's box (paintorder's
	// Checks); inView: at its box or one below it.
	checked, inView bool
	cover           string // the named thing painted over it
	// clipped: laid out, but overflow clips leave none of it visible (a
	// carousel's other slides, a scrolled-away part of a list).
	clipped bool
}

// view holds what the view pass works with.
type view struct {
	c      *domsnap.Capture
	g      *layout.Geometry
	ix     *paintorder.Index
	b      *builder
	opts   Options
	counts *Counts
	names  map[where]string // cover names, cached per covering node
	// covers are the occlusion verdicts of this view, in the order they
	// were asked, per node: a full tree built later takes them over.
	covers map[where][]cover
	// given are the refs handed out, by the line's AX node, when lines
	// were folded (a full tree built later shows them).
	given map[axNode]string
}

// cover is what the occlusion check said of one line.
type cover struct {
	occluded bool
	by       string
}

// axNode is an AX node of a frame.
type axNode struct {
	frame string
	i     int
}

// FromCapture is Build with the capture's own layout.
func FromCapture(c *domsnap.Capture, opts Options) *Tree { return Build(c, layout.Compute(c), opts) }

// Build fuses a capture into the observation: the full tree, then the view
// a person at the screen has of it (covered nodes out, off-screen content
// collapsed, an open modal dialog in scope), then refs in output order.
// Where the view would collapse it anyway, the full tree is built folded
// and Tree.Full is built on first use.
func Build(c *domsnap.Capture, g *layout.Geometry, opts Options) *Tree {
	return buildTree(c, g, opts, true)
}

// buildTree is Build, folding allowed or not (the tests compare the two).
func buildTree(c *domsnap.Capture, g *layout.Geometry, opts Options, fold bool) *Tree {
	if opts.Mode == "" {
		opts.Mode = ModeFused
	}
	if opts.Refs == nil {
		opts.Refs = index.NewTable()
	}
	if opts.Offscreen == "" {
		opts.Offscreen = OffscreenCollapse
	}
	if refPattern.MatchString(opts.Scope) {
		// A ref scope names a ref of this very snapshot: hand refs out first.
		unscoped := opts
		unscoped.Scope = ""
		buildTree(c, g, unscoped, fold)
	}
	v := &view{c: c, g: g, ix: paintorder.Build(c, g), opts: opts, names: map[where]string{}, covers: map[where][]cover{}}
	b := newBuilder(c, g, opts, v)
	b.folding = fold && foldable(b)
	if !b.folding {
		v.ix.SightEverywhere() // every line is printed: judge each in full
	}
	full := b.build()
	counts := b.counts // the build's counts: frames indexed later add none
	v.b, v.counts = b, &counts
	for _, n := range full {
		v.occlusion(n)
	}
	roots := full
	if scoped, ok := v.scope(full); ok {
		roots = scoped
	} else if opts.Mode == ModeFused {
		roots = v.modal(roots)
	}
	if opts.Mode == ModeFused {
		roots = v.uncovered(roots)
		if v.counts.Withheld > 0 {
			roots = append(roots, withheldNote(v.counts.Withheld))
		}
		if v.counts.Invisible > 0 {
			roots = append(roots, invisibleNote(v.counts.Invisible))
		}
		if v.counts.Unchecked > 0 {
			roots = append(roots, &Node{Role: "note", Text: plural(v.counts.Unchecked, "element") + " not checked for covers (too many boxes stacked on one spot); refs there may be covered"})
		}
		if opts.Offscreen != OffscreenKeep && opts.Scope == "" {
			roots = v.offscreen(roots)
		}
	}
	if opts.Depth > 0 {
		roots = limitDepth(roots, opts.Depth, 1)
	}
	if opts.MaxTokens > 0 {
		roots = v.budget(roots, opts.MaxTokens)
	}
	t := &Tree{Mode: opts.Mode, Roots: roots, viewport: g.ViewportBox(opts.Margin), view: v}
	if b.folded == 0 {
		t.full = full
	} else {
		v.given = map[axNode]string{}
	}
	t.Elements = v.assignRefs(roots)
	if opts.Mode == ModeFused {
		t.Regions = v.regions()
	}
	t.Counts = counts
	t.Withheld = b.withheld
	t.Counts.Kept = countNodes(roots)
	t.Counts.Refs = len(t.Elements)
	for _, el := range t.Elements {
		if index.OnlyFromDOM(el.Reasons) {
			t.Counts.Roleless++
		}
	}
	return t
}

// Full is the whole fused tree, off-screen and covered nodes included,
// with each node's status and the refs this view handed out.
func (t *Tree) Full() []*Node {
	if t.full == nil {
		t.full = t.view.lazyFull()
	}
	return t.full
}

// lazyFull builds the full tree of a folded view: the same build without
// folding, the occlusion verdicts taken over from the view's, and the
// view's refs on the lines that got them.
func (v *view) lazyFull() []*Node {
	b := newBuilder(v.c, v.g, v.opts, v)
	v.ix.SightEverywhere() // searched line by line: judge each in full
	full := b.build()
	asked := map[where]int{}
	var walk func(ns []*Node)
	walk = func(ns []*Node) {
		for _, n := range ns {
			if v.checks(n) {
				if k := asked[n.at]; k < len(v.covers[n.at]) {
					n.status.occluded, n.status.cover = v.covers[n.at][k].occluded, v.covers[n.at][k].by
					asked[n.at] = k + 1
				}
			}
			if t := n.target; t != nil {
				n.Ref = v.given[axNode{t.key.Frame, t.ax}]
			}
			walk(n.Children)
		}
	}
	walk(full)
	return full
}

// measure fills a node's status once its children are measured: its shown
// box, the union box of its subtree, whether any of it is for the
// occlusion check to look at, and whether clips hide it all.
func (v *view) measure(n *Node) {
	hasRaw, unseen := false, false
	if n.at.ok {
		raw, b, ok := v.g.Boxes(n.at.Doc, n.at.Node)
		if b.W > 0 || b.H > 0 {
			n.status.box, n.status.hasBox = b, true
			n.status.span, n.status.hasSpan = b, true
			n.status.checked = v.ix.ChecksShown(b)
			n.status.inView = n.status.checked
		}
		hasRaw = ok && raw.W > 0 && raw.H > 0
		// Screen-reader-only content is cut to nothing on purpose: it stays.
		unseen = v.g.IsUnseen(n.at.Doc, n.at.Node)
	}
	allClipped := len(n.Children) > 0
	for _, c := range n.Children {
		allClipped = allClipped && c.status.clipped
		n.status.inView = n.status.inView || c.status.inView
		if !c.status.hasSpan {
			continue
		}
		if !n.status.hasSpan {
			n.status.span, n.status.hasSpan = c.status.span, true
		} else {
			n.status.span = union(n.status.span, c.status.span)
		}
	}
	n.status.clipped = !n.status.hasSpan && (hasRaw || allClipped) && !unseen
}

// checks: the occlusion check looks at the node (fused mode, a box, some
// of it in the viewport).
func (v *view) checks(n *Node) bool {
	return v.opts.Mode == ModeFused && n.status.hasBox && n.status.checked
}

// occlusion asks, in tree order, which nodes something painted later
// covers. A folded subtree holds nothing for it to look at.
func (v *view) occlusion(n *Node) {
	if n.fold != nil {
		return
	}
	if v.checks(n) {
		vd := v.coverCheck(n)
		if vd.Approximate {
			v.counts.Unchecked++
		}
		if vd.Occluded {
			n.status.occluded = true
			if vd.HasBy {
				n.status.cover = v.coverName(where{vd.By, true})
			}
		}
		if v.b.folded > 0 {
			v.covers[n.at] = append(v.covers[n.at], cover{n.status.occluded, n.status.cover})
		}
	}
	for _, c := range n.Children {
		v.occlusion(c)
	}
}

// coverCheck asks whether a node is covered: for a target, whether a
// click reaches it (hit testing); for text and other content, whether
// something opaque is painted over it. A clear overlay that takes clicks
// hides no text; an opaque one that takes none hides it.
func (v *view) coverCheck(n *Node) paintorder.Verdict {
	d, i := n.at.Doc, n.at.Node
	switch {
	case n.target != nil:
		return v.ix.Check(d, i)
	case n.Role == "text":
		s := v.ix.TextSight(d, i)
		return paintorder.Verdict{InViewport: true, Occluded: s.Reason == paintorder.SeenCovered, By: s.By, HasBy: s.HasBy}
	}
	return v.ix.PaintCheck(d, i)
}

func union(a, b layout.Box) layout.Box {
	x0, y0 := math.Min(a.X, b.X), math.Min(a.Y, b.Y)
	x1, y1 := math.Max(a.X+a.W, b.X+b.W), math.Max(a.Y+a.H, b.Y+b.H)
	return layout.Box{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

// coverName names what covers a node: the nearest element at or above the
// covering one that has an accessible name (role "name"), else its tag.
func (v *view) coverName(w where) string {
	if s, ok := v.names[w]; ok {
		return s
	}
	name := ""
	nodes := v.c.Documents[w.Doc].Nodes
	for k, depth := w.Node, 0; k >= 0 && depth < 256; k, depth = int(nodes[k].Parent), depth+1 {
		role, n, ok := v.b.axOf(w.Doc, nodes[k].Backend)
		if !ok || role == "RootWebArea" || role == "WebArea" {
			continue
		}
		if n != "" {
			name = safeRole(role) + " " + Quote(DisplayName(n))
			break
		}
		if landmarks[role] {
			name = safeRole(role)
			break
		}
	}
	if name == "" {
		name = strings.ToLower(nodes[w.Node].Name)
	}
	v.names[w] = name
	return name
}

// uncovered drops nodes that something painted later covers entirely; a run
// of them becomes one line naming the cover.
func (v *view) uncovered(ns []*Node) []*Node {
	var out []*Node
	lastCovered := -1
	for k, n := range ns {
		if n.status.occluded {
			lastCovered = k
		}
	}
	for k := 0; k < len(ns); k++ {
		n := ns[k]
		if n.status.clipped && n.target == nil || n.status.clipped && v.opts.Scope == "" {
			clipped := 0
			for ; k < len(ns) && ns[k].status.clipped; k++ {
				clipped += countNodes([]*Node{ns[k]})
			}
			k--
			v.counts.Clipped += clipped
			out = append(out, &Node{Role: "note", Text: plural(clipped, "element") + " clipped out of view by a scrolling or overflow-hidden container"})
			continue
		}
		if n.fold != nil {
			// Done when it was folded: count what it found.
			v.counts.Clipped += n.fold.clipped
			out = append(out, n)
			continue
		}
		if !n.status.occluded {
			out = append(out, n.withIfChanged(v.uncovered(n.Children)))
			continue
		}
		if v.opts.Scope != "" {
			// Asked for by name: print it, marked, with no ref to act on.
			cp := n.with(v.uncovered(n.Children))
			cp.States = append(append([]string(nil), n.States...), "covered")
			cp.target = nil
			out = append(out, cp)
			continue
		}
		// The run goes on through off-screen siblings that lie between
		// covered ones (a grid's rows under a banner and below the fold).
		covered, beyond := map[string]int{}, map[string]int{}
		cover := n.status.cover
		for ; k < len(ns) && (ns[k].status.occluded || k < lastCovered && v.direction(ns[k]) != ""); k++ {
			if ns[k].status.occluded {
				cover = ns[k].status.cover
			}
			c, o := v.splitCovered(ns[k])
			covered[cover] += c
			beyond[cover] += o
			v.counts.Occluded += c
			v.counts.Offscreen += o
		}
		k--
		out = append(out, coverNotes(covered, beyond)...)
	}
	return out
}

// splitCovered counts a covered subtree's nodes: those in the viewport
// (covered) and those wholly outside it (which the cover does not hide).
func (v *view) splitCovered(n *Node) (covered, beyond int) {
	if v.direction(n) != "" {
		return 0, countNodes([]*Node{n})
	}
	covered = 1
	for _, c := range n.Children {
		a, b := v.splitCovered(c)
		covered, beyond = covered+a, beyond+b
	}
	return covered, beyond
}

func coverNotes(covered, beyond map[string]int) []*Node {
	keys := make([]string, 0, len(covered))
	for k := range covered {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []*Node
	for _, k := range keys {
		by := k
		if by == "" {
			by = "another element"
		}
		text := fmt.Sprintf("%s covered by %s", plural(covered[k], "element"), by)
		if beyond[k] > 0 {
			text += fmt.Sprintf(" (%d more of it off-screen)", beyond[k])
		}
		out = append(out, &Node{Role: "note", Text: text})
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "x") || strings.HasSuffix(word, "s") {
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// modal scopes the view to an open modal dialog (aria-modal or showModal),
// with one line naming the page behind it.
func (v *view) modal(roots []*Node) []*Node {
	d := findNode(roots, func(n *Node) bool {
		return (n.Role == "dialog" || n.Role == "alertdialog") && n.modal && n.status.hasBox
	})
	if d == nil {
		return roots
	}
	title := "the page"
	if t := v.c.Title; t != "" {
		title = "the page " + Quote(DisplayName(t))
	}
	note := &Node{Role: "note", Text: fmt.Sprintf("modal dialog open, %s behind it is inert", title)}
	return []*Node{note, d}
}

func findNode(ns []*Node, f func(*Node) bool) *Node {
	for _, n := range ns {
		if f(n) {
			return n
		}
		if m := findNode(n.Children, f); m != nil {
			return m
		}
	}
	return nil
}

// landmarks keep their line (role and name) when collapsed, so the agent
// knows where to scroll; headings stay as they are.
var landmarks = map[string]bool{
	"banner": true, "navigation": true, "main": true, "contentinfo": true,
	"complementary": true, "region": true, "search": true, "form": true,
	"dialog": true, "alertdialog": true, "table": true, "grid": true, "list": true, "tree": true, "treegrid": true,
}

// offscreen collapses every subtree, or run of siblings, that lies wholly
// outside the viewport grown by the margin. (It counts with keptNodes: a
// folded node holds what the uncovered pass kept below it.)
func (v *view) offscreen(ns []*Node) []*Node {
	var out []*Node
	for k := 0; k < len(ns); k++ {
		n := ns[k]
		dir := v.direction(n)
		switch {
		case dir == "":
			out = append(out, n.with(v.offscreen(n.Children)))
		case n.Role == "heading":
			// The heading stays named and carries the run that follows it.
			run := n.Children
			for k+1 < len(ns) && v.direction(ns[k+1]) == dir && ns[k+1].Role != "heading" && !landmarks[ns[k+1].Role] {
				k++
				run = append(run, ns[k])
			}
			v.counts.Offscreen += keptNodes(run) + foldedBelow(n)
			if n.elided != nil {
				v.counts.Offscreen += n.elided.Nodes
			}
			states := ownStates(n)
			if v.opts.Offscreen == OffscreenDrop {
				continue
			}
			out = append(out, &Node{Role: n.Role, Name: n.Name, States: append(states, collapsed(dir, below(n, run)))})
		case landmarks[n.Role] && (n.Name != "" || n.Role != "list"):
			if v.opts.Offscreen == OffscreenDrop {
				v.counts.Offscreen += keptNodes([]*Node{n})
				continue
			}
			counts := below(n, n.Children)
			v.counts.Offscreen += keptNodes(n.Children) + foldedBelow(n)
			if n.elided != nil {
				v.counts.Offscreen += n.elided.Nodes
			}
			out = append(out, &Node{Role: n.Role, Name: n.Name, States: append(ownStates(n), collapsed(dir, counts))})
		default:
			run := []*Node{n}
			for k+1 < len(ns) && v.direction(ns[k+1]) == dir && ns[k+1].Role != "heading" && !landmarks[ns[k+1].Role] {
				k++
				run = append(run, ns[k])
			}
			v.counts.Offscreen += keptNodes(run)
			if v.opts.Offscreen == OffscreenDrop {
				continue
			}
			out = append(out, &Node{Role: runRole(run), States: []string{collapsed(dir, summarize(run))}})
		}
	}
	return out
}

// foldedBelow is how many lines below a folded node the uncovered pass
// kept (0 for other nodes).
func foldedBelow(n *Node) int {
	if n.fold == nil {
		return 0
	}
	return n.fold.kept
}

// below sums up what a collapsed line n stands for: what it holds below
// it when elided or folded, then lines (its children, or the run after a
// heading).
func below(n *Node, lines []*Node) summary {
	s := summary{roles: map[string]int{}}
	s.addBelow(n)
	s.addLines(lines)
	return s
}

// direction says where a node's subtree lies when it is wholly outside the
// viewport (plus margin): "above", "below", "left", "right"; "" when any of
// it is inside, or its place is unknown.
func (v *view) direction(n *Node) string {
	if n.elided != nil {
		return n.elided.Dir
	}
	if n.fold != nil {
		return n.fold.dir
	}
	if !n.status.hasSpan {
		return ""
	}
	s, m := n.status.span, v.opts.Margin
	vw, vh := v.g.Viewport.Width, v.g.Viewport.Height
	switch {
	case s.Y >= vh+m:
		return "below"
	case s.Y+s.H <= -m:
		return "above"
	case s.X >= vw+m:
		return "right"
	case s.X+s.W <= -m:
		return "left"
	}
	// A subtree that only peeks in across an edge by a few pixels is no
	// place to click yet (paintorder draws the same line).
	in := layout.Intersect(s, v.g.ViewportBox(m))
	switch {
	case in.H < paintorder.MinPeek && in.H < s.H && s.Y+s.H/2 > vh/2:
		return "below"
	case in.H < paintorder.MinPeek && in.H < s.H:
		return "above"
	case in.W < paintorder.MinPeek && in.W < s.W && s.X+s.W/2 > vw/2:
		return "right"
	case in.W < paintorder.MinPeek && in.W < s.W:
		return "left"
	}
	return ""
}

func runRole(run []*Node) string {
	role := run[0].Role
	for _, n := range run[1:] {
		if n.Role != role {
			return "group"
		}
	}
	return role
}

// limitDepth cuts the tree below depth, with one line saying how much.
func limitDepth(ns []*Node, max, depth int) []*Node {
	out := make([]*Node, len(ns))
	for k, n := range ns {
		switch {
		case len(n.Children) == 0:
			out[k] = n
		case depth >= max:
			hidden := countNodes(n.Children)
			out[k] = n.with([]*Node{{Role: "note", Text: fmt.Sprintf("%s deeper than depth %d", plural(hidden, "node"), max)}})
		default:
			out[k] = n.with(limitDepth(n.Children, max, depth+1))
		}
	}
	return out
}

// withIfChanged is with, unless the children are the same nodes: then n
// itself serves (most of a long page passes the view unchanged, and a copy
// of every node would double the tree).
func (n *Node) withIfChanged(children []*Node) *Node {
	if len(children) == len(n.Children) {
		same := true
		for i := range children {
			if children[i] != n.Children[i] {
				same = false
				break
			}
		}
		if same {
			return n
		}
	}
	return n.with(children)
}

// with returns a copy of n with other children: the view passes never
// change the full tree, which Find searches.
func (n *Node) with(children []*Node) *Node {
	cp := *n
	cp.Children = children
	if cp.orig == nil {
		cp.orig = n
	}
	return &cp
}

// assignRefs gives refs, in output order, to the targets left in the view.
func (v *view) assignRefs(ns []*Node) []Element {
	var els []Element
	var walk func([]*Node)
	walk = func(ns []*Node) {
		for _, n := range ns {
			if t := n.target; t != nil {
				n.Ref = v.opts.Refs.Ref(t.key)
				v.opts.Refs.Remember(n.Ref, index.Fingerprint{Role: n.Role, Name: DisplayName(n.Name), Tag: t.tag})
				if n.orig != nil {
					n.orig.Ref = n.Ref
				}
				if v.given != nil {
					v.given[axNode{t.key.Frame, t.ax}] = n.Ref
				}
				el := Element{Ref: n.Ref, Role: n.Role, Name: DisplayName(n.Name), Tag: t.tag, Frame: t.key.Frame, BackendNodeID: t.key.Backend, Reasons: t.reasons}
				if n.at.ok {
					if box, ok := v.g.Box(n.at.Doc, n.at.Node); ok {
						el.Box = &[4]float64{round2(box.X), round2(box.Y), round2(box.W), round2(box.H)}
					}
				}
				els = append(els, el)
			}
			walk(n.Children)
		}
	}
	walk(ns)
	if els == nil {
		els = []Element{}
	}
	return els
}

// Located is an element of the full tree with what acting on it needs.
type Located struct {
	Fingerprint index.Fingerprint
	InViewport  bool
	Occluded    bool
	Cover       string     // what covers it, when Occluded
	Point       [2]float64 // where a click reaches it (viewport CSS px)
	// FrameBox is the element's box (x, y, w, h) in its own frame's
	// viewport as the observation laid it out; ok false when it had none.
	FrameBox [4]float64
	HasBox   bool
	// FrameOffset is where the element's frame's viewport starts in the
	// top-level one: a point in the frame plus it is a point for input.
	FrameOffset [2]float64
	doc, dom    int
}

// Locate finds the element a key names in the full tree, off-screen and
// covered ones included.
func (t *Tree) Locate(k domsnap.Key) (Located, bool) {
	n := findNode(t.Full(), func(n *Node) bool { return n.target != nil && n.target.key == k })
	if n == nil || !n.at.ok {
		return Located{}, false
	}
	l := Located{Fingerprint: index.Fingerprint{Role: n.Role, Name: DisplayName(n.Name), Tag: n.target.tag}, doc: n.at.Doc, dom: n.at.Node}
	vd := t.view.ix.Check(n.at.Doc, n.at.Node)
	l.InViewport, l.Occluded, l.Point = vd.InViewport, vd.Occluded, vd.Point
	if b, ok := t.view.g.FrameBox(n.at.Doc, n.at.Node); ok {
		l.FrameBox, l.HasBox = [4]float64{b.X, b.Y, b.W, b.H}, true
		if top, ok := t.view.g.Box(n.at.Doc, n.at.Node); ok {
			l.FrameOffset = [2]float64{top.X - b.X, top.Y - b.Y}
		}
	}
	if vd.HasBy {
		l.Cover = t.view.coverName(where{vd.By, true})
	}
	return l, true
}

// Reaches reports whether the node a hit test reached — a backend id within
// one target (the tab's process, or an out-of-process iframe's) — is the
// located element or inside it, and names it if not.
func (t *Tree) Reaches(l Located, target string, backend int64) (bool, string) {
	docs := t.view.c.Documents
	for d := range docs {
		if docs[d].Target != target && target != "" && docs[d].Target != "" {
			continue // backend ids are unique within one target only
		}
		for i := range docs[d].Nodes {
			if docs[d].Nodes[i].Backend != backend {
				continue
			}
			if d == l.doc && t.view.g.Contains(l.doc, l.dom, i) {
				return true, ""
			}
			return false, t.view.coverName(where{domsnap.Pos{Doc: d, Node: i}, true})
		}
	}
	return false, "a node of another document"
}
