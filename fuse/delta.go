package fuse

import (
	"fmt"
	"strings"
)

// Diff renders what changed between two views of one document, as YAML
// in the snapshot's own form: a changed subtree is printed down to what
// changed; a run of unchanged siblings is one counted note, and an
// unchanged landmark keeps its line, marked [unchanged]; a line that
// appeared is marked [new]; a last note names the refs that are gone.
// Nodes are matched by ref, else by role and name in sibling order.
func Diff(old, cur []*Node) string {
	d := &differ{sig: map[*Node]string{}, oldRefs: map[string]*Node{}}
	walkNodes(old, func(n *Node) {
		if n.Ref != "" {
			d.oldRefs[n.Ref] = n
		}
	})
	if YAML(old) == YAML(cur) {
		return YAML([]*Node{{Role: "note", Text: "nothing changed"}})
	}
	out := d.level(old, cur)
	seen := map[string]bool{}
	walkNodes(cur, func(n *Node) { seen[n.Ref] = true })
	var gone []string
	walkNodes(old, func(n *Node) {
		if n.Ref != "" && !seen[n.Ref] {
			gone = append(gone, Key(n))
		}
	})
	if len(gone) > 0 {
		more := ""
		if len(gone) > 20 {
			more = fmt.Sprintf(" and %d more", len(gone)-20)
			gone = gone[:20]
		}
		out = append(out, &Node{Role: "note", Text: "gone: " + strings.Join(gone, ", ") + more})
	}
	return YAML(out)
}

type differ struct {
	sig     map[*Node]string // a subtree's YAML, memoized
	oldRefs map[string]*Node
}

func (d *differ) signature(n *Node) string {
	s, ok := d.sig[n]
	if !ok {
		s = YAML([]*Node{n})
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
		return &Node{Role: "note", Text: "new text: " + Quote(DisplayName(cutRunes(n.Text, maxTextLen)))}
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
			out = append(out, &Node{Role: "note", Text: describeCounts(roleCounts(rest), countNodes(rest)) + " unchanged"})
			rest = nil
		}
	}
	for _, n := range run {
		if landmarks[n.Role] || n.Role == "heading" {
			count()
			out = append(out, &Node{Role: n.Role, Name: n.Name, States: []string{"unchanged"}})
			continue
		}
		rest = append(rest, n)
	}
	count()
	return out
}
