package fuse

import (
	"fmt"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/paintorder"
)

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
	// The page's title and URL are printed beside the view (the JSON, MCP's
	// answers): what Observation removes from them is counted here.
	counts.InvisibleChars += invisibleIn(c.Title) + invisibleIn(c.URL)
	v.b, v.counts = b, &counts
	for _, n := range full {
		v.occlusion(n)
	}
	roots := full
	for _, p := range viewPasses {
		if p.when(opts) {
			roots = p.run(v, roots)
		}
	}
	t := &Tree{Mode: opts.Mode, Roots: roots, viewport: g.ViewportBox(opts.Margin), view: v, format: formatOf(opts)}
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

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "x") || strings.HasSuffix(word, "s") {
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// landmarks keep their line (role and name) when collapsed, so the agent
// knows where to scroll; headings stay as they are.
var landmarks = map[string]bool{
	"banner": true, "navigation": true, "main": true, "contentinfo": true,
	"complementary": true, "region": true, "search": true, "form": true,
	"dialog": true, "alertdialog": true, "table": true, "grid": true, "list": true, "tree": true, "treegrid": true,
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
