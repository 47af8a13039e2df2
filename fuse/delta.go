package fuse

import (
	"fmt"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/internal/textcut"
)

// Diff renders what changed between two views of one document, as YAML
// in the snapshot's own form: a changed subtree is printed down to what
// changed; a run of unchanged siblings is one counted note, and an
// unchanged landmark keeps its line, marked [unchanged]; a line that
// appeared is marked [new]. Nodes are matched by ref, else by role and
// name in sibling order. The last notes name the refs of the old view
// that the new one does not show: "out of view" when their element is
// still in the page (off-screen, collapsed, covered: the ref still names
// it), "gone" when it is not (see stillThere).
func Diff(old, cur *Tree) string {
	f := cur.Format()
	d := &differ{f: f, sig: map[*Node]string{}, oldRefs: map[string]*Node{}}
	walkNodes(old.Roots, func(n *Node) {
		if n.Ref != "" {
			d.oldRefs[n.Ref] = n
		}
	})
	if Text(f, old.Roots) == Text(f, cur.Roots) {
		return Text(f, []*Node{{Role: "note", Text: "nothing changed"}})
	}
	out := d.level(old.Roots, cur.Roots)
	seen := map[string]bool{}
	walkNodes(cur.Roots, func(n *Node) { seen[n.Ref] = true })
	var missing []*Node
	walkNodes(old.Roots, func(n *Node) {
		if n.Ref != "" && !seen[n.Ref] {
			missing = append(missing, n)
		}
	})
	var away, gone []string
	if len(missing) > 0 {
		there := cur.targetKeys()
		for _, n := range missing {
			if stillThere(old, cur, n, there) {
				away = append(away, Key(n))
			} else {
				gone = append(gone, Key(n))
			}
		}
	}
	out = append(out, refsNote("out of view", away)...)
	out = append(out, refsNote("gone", gone)...)
	return Text(f, out)
}

// refsNote lists refs under a label, the first 20 by role and name.
func refsNote(label string, keys []string) []*Node {
	if len(keys) == 0 {
		return nil
	}
	more := ""
	if len(keys) > 20 {
		more = fmt.Sprintf(" and %d more", len(keys)-20)
		keys = keys[:20]
	}
	return []*Node{{Role: "note", Text: label + ": " + strings.Join(keys, ", ") + more}}
}

// targetKeys are the elements of the tree's capture that are targets
// (Full: off-screen, collapsed and covered ones included), as Locate
// finds them.
func (t *Tree) targetKeys() map[domsnap.Key]bool {
	keys := map[domsnap.Key]bool{}
	if t.full == nil && t.view == nil {
		return keys // a tree made by hand: its roots are all it has
	}
	walkNodes(t.Full(), func(n *Node) {
		if n.target != nil {
			keys[n.target.key] = true
		}
	})
	return keys
}

// stillThere says whether line n of the old view, which the new view does
// not show, has its element in the new capture (there holds its
// targets): its ref resolves, as act resolves refs (Locate). A viewport
// capture holds only what meets the viewport and counts the rest, so an
// element it lacks is out of view, not gone, when its old box, moved by
// the scroll between the captures, no longer meets the viewport (grown by
// the margin, as the capture's was): it would be counted, not fetched.
// There the call is a guess (a fixed element that went after a scroll
// reads as out of view); act, which captures the full page before it
// calls a ref gone, decides.
func stillThere(old, cur *Tree, n *Node, there map[domsnap.Key]bool) bool {
	if n.target == nil {
		return false
	}
	if there[n.target.key] {
		return true
	}
	if old.view == nil || cur.view == nil || !n.at.ok || !partial(cur.view.c) {
		return false
	}
	b, ok := old.view.g.Box(n.at.Doc, n.at.Node)
	if !ok || b.W == 0 && b.H == 0 {
		return false // a viewport capture keeps boxes with no area wherever they are
	}
	was, now := old.view.c.Viewport, cur.view.c.Viewport
	b.X += was.ScrollX - now.ScrollX
	b.Y += was.ScrollY - now.ScrollY
	return !cur.view.g.InViewport(b, cur.view.opts.Margin)
}

// partial: a viewport capture that left something out (counted it in an
// elided run).
func partial(c *domsnap.Capture) bool {
	for d := range c.Documents {
		if len(c.Documents[d].Elided) > 0 {
			return true
		}
	}
	return false
}

type differ struct {
	f       Format
	sig     map[*Node]string // a subtree's text, memoized
	oldRefs map[string]*Node
}

func (d *differ) signature(n *Node) string {
	s, ok := d.sig[n]
	if !ok {
		s = Text(d.f, []*Node{n})
		d.sig[n] = s
	}
	return s
}

// identity matches nodes without a ref across the two views.
func identity(n *Node) string {
	if n.Role == "text" || n.Role == "note" {
		return n.Role
	}
	return n.Role + "\x00" + n.Name
}

// level diffs one list of siblings.
func (d *differ) level(old, cur []*Node) []*Node {
	queues := map[string][]*Node{}
	for _, o := range old {
		if o.Ref == "" {
			queues[identity(o)] = append(queues[identity(o)], o)
		}
	}
	match := func(c *Node) *Node {
		if c.Ref != "" {
			return d.oldRefs[c.Ref]
		}
		q := queues[identity(c)]
		if len(q) == 0 {
			return nil
		}
		queues[identity(c)] = q[1:]
		return q[0]
	}
	var out, run []*Node
	flush := func() {
		if len(run) > 0 {
			out = append(out, unchanged(run)...)
			run = nil
		}
	}
	for _, c := range cur {
		o := match(c)
		switch {
		case o == nil:
			flush()
			out = append(out, markNew(c))
		case d.signature(o) == d.signature(c):
			run = append(run, c)
		case len(c.Children) == 0 || len(o.Children) == 0:
			flush()
			out = append(out, c)
		default:
			flush()
			cp := *c
			cp.Children = d.level(o.Children, c.Children)
			out = append(out, &cp)
		}
	}
	flush()
	return out
}

// markNew copies a line that appeared, with the state "new".
func markNew(n *Node) *Node {
	if n.Role == "text" || n.Role == "note" {
		return &Node{Role: "note", Text: "new " + textKey(n) + ": " + Quote(DisplayName(textcut.Runes(n.Text, maxTextLen)))}
	}
	cp := *n
	cp.States = append(append([]string(nil), n.States...), "new")
	return &cp
}

// unchanged reduces a run of unchanged siblings: landmarks keep one line
// each; the rest is counted.
func unchanged(run []*Node) []*Node {
	var out, rest []*Node
	count := func() {
		if len(rest) > 0 {
			out = append(out, &Node{Role: "note", Text: describeCounts(summarize(rest), countNodes(rest)) + " unchanged"})
			rest = nil
		}
	}
	for _, n := range run {
		if landmarks[n.Role] || n.Role == "heading" {
			count()
			out = append(out, &Node{Role: n.Role, Name: n.Name, bidi: n.bidi, States: []string{"unchanged"}})
			continue
		}
		rest = append(rest, n)
	}
	count()
	return out
}
