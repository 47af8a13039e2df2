package fuse

// Folding: the cost follows the screen. On a long page almost every line
// lies wholly off-screen, where the off-screen pass only counts it into a
// collapsed line. So as the builder finishes a subtree that lies wholly
// outside the viewport (plus margin), with nothing in it for the occlusion
// check to look at, it keeps the subtree's top line and folds what is below
// into counts: how many lines there were, how many the uncovered pass would
// keep, their roles, and what that pass would count as clipped. The lines
// below go back to the builder for reuse.
//
// Folding only happens where the view pass would collapse the subtree
// whatever else is on the page: fused mode, off-screen content collapsed or
// dropped, no scope, no modal dialog. Tree.Full, which Find and Locate
// search, is built again in full on first use (lazyFull).

// fold is what stands for the lines below a folded node. Folded siblings
// that the off-screen pass would collapse into one run are merged into
// the first of them: its fold then stands for several lines.
type fold struct {
	lines int       // the lines the node stands for: 1, more when merged
	nodes int       // lines below them, as built
	kept  int       // of those, lines the uncovered pass keeps
	roles roleTally // roles of the kept lines (and of the lines, when merged)
	marks marks     // named landmarks among the kept lines (summary.go)
	dir   string    // where the lines lie (direction)
	// clipped is what the uncovered pass counts below.
	clipped int
}

// tally adds what folded node n and the lines below it count to into:
// roles, and named landmarks in document order.
func (f *fold) tally(n *Node, into *fold) {
	if f.lines == 1 {
		into.roles.add(n.Role, 1)
		into.marks.addNode(n)
	}
	for i, c := range f.roles {
		into.roles[i] += c
	}
	into.marks.addAll(&f.marks)
}

// roleTally counts lines by the roles collapsed lines report (counted).
type roleTally [len(counted)]int32

// countedIndex finds a role's place in counted.
var countedIndex = func() map[string]int {
	m := make(map[string]int, len(counted))
	for i, r := range counted {
		m[r] = i
	}
	return m
}()

// add counts n lines of role.
func (t *roleTally) add(role string, n int) {
	if i, ok := countedIndex[role]; ok {
		t[i] += int32(n)
	}
}

// addTo adds the tally to a map of role counts.
func (t *roleTally) addTo(m map[string]int) {
	for i, c := range t {
		if c != 0 {
			m[counted[i]] += int(c)
		}
	}
}

// tallyLines counts the lines of ns into f as summarize does: by role,
// and their named landmarks.
func (f *fold) tallyLines(ns []*Node) {
	for _, n := range ns {
		switch {
		case n.elided != nil:
			f.marks.addNode(n)
			for r, c := range n.elided.Roles {
				f.roles.add(r, c)
			}
		case n.fold != nil:
			n.fold.tally(n, f)
		default:
			f.roles.add(n.Role, 1)
			f.marks.addNode(n)
			f.tallyLines(n.Children)
		}
	}
}

// foldable: folding is on for this build (see above), with no modal
// dialog in any frame (the view would scope to it).
func foldable(b *builder) bool {
	o := b.opts
	if o.Mode != ModeFused || o.Offscreen == OffscreenKeep || o.Scope != "" {
		return false
	}
	for _, fd := range b.frames {
		if fd.doc < 0 {
			continue // no document: never in the tree
		}
		if b.index(fd); fd.modal {
			return false
		}
	}
	return true
}

// maybeFold folds n when its subtree lies wholly off-screen, out of the
// occlusion check's reach, and the uncovered pass would keep n itself.
func (b *builder) maybeFold(n *Node) {
	if !b.folding || len(n.Children) == 0 || n.elided != nil || n.fold != nil || n.status.inView {
		return
	}
	if n.Role == "text" || n.status.clipped || b.v.direction(n) == "" {
		return
	}
	f := b.newFold()
	if !f.add(n.Children) {
		// The uncovered pass, on the lines below, with its counts kept
		// apart: they count only when the view reaches this node.
		*f = fold{nodes: countNodes(n.Children)}
		outer := b.v.counts
		var inner Counts
		b.v.counts = &inner
		kept := b.v.uncovered(n.Children)
		b.v.counts = outer
		f.clipped = inner.Clipped
		f.kept = keptNodes(kept)
		f.tallyLines(kept)
	}
	f.lines, f.dir = 1, b.v.direction(n)
	b.recycle(n.Children)
	n.Children = nil
	n.fold = f
	b.folded++
}

// add counts lines the uncovered pass leaves as they are into the fold,
// with what the folds among them counted; false (the fold half done) at
// the first line that pass would change: clipped or covered.
func (f *fold) add(ns []*Node) bool {
	for _, n := range ns {
		switch {
		case n.elided != nil:
			f.nodes += n.elided.Nodes
			f.kept += n.elided.Nodes
			f.marks.addNode(n)
			for r, c := range n.elided.Roles {
				f.roles.add(r, c)
			}
		case n.status.clipped || n.status.occluded:
			return false
		case n.fold != nil:
			f.nodes += n.fold.lines + n.fold.nodes
			f.kept += n.fold.lines + n.fold.kept
			n.fold.tally(n, f)
			f.clipped += n.fold.clipped
		default:
			f.nodes++
			f.kept++
			f.roles.add(n.Role, 1)
			f.marks.addNode(n)
			if !f.add(n.Children) {
				return false
			}
		}
	}
	return true
}

// keptNodes is countNodes over lines the uncovered pass has seen: a
// folded node counts what that pass keeps below it.
func keptNodes(ns []*Node) int {
	n := 0
	for _, x := range ns {
		switch {
		case x.elided != nil:
			n += x.elided.Nodes
		case x.fold != nil:
			n += x.fold.lines + x.fold.kept
		default:
			n += 1 + keptNodes(x.Children)
		}
	}
	return n
}

// node returns a zeroed line, reused when one was folded away.
func (b *builder) node() *Node { return reuse(&b.free) }

// newFold returns a zeroed fold, reused when one was folded away.
func (b *builder) newFold() *fold { return reuse(&b.freeFolds) }

// reuse takes the last value off a free list (zeroed when it was put
// there), or makes one.
func reuse[T any](free *[]*T) *T {
	if k := len(*free); k > 0 {
		v := (*free)[k-1]
		*free = (*free)[:k-1]
		return v
	}
	return new(T)
}

// recycle hands the lines of folded subtrees back to the builder.
func (b *builder) recycle(ns []*Node) {
	for _, n := range ns {
		b.recycle(n.Children)
		if n.fold != nil {
			*n.fold = fold{}
			b.freeFolds = append(b.freeFolds, n.fold)
		}
		*n = Node{}
		b.free = append(b.free, n)
	}
}

// appendMerging appends lines to a node's children, merging a folded line
// into the folded line before it when the off-screen pass would put both
// in one collapsed run: same direction, neither a heading nor a landmark
// (which get lines of their own).
func (b *builder) appendMerging(out, lines []*Node) []*Node {
	for _, n := range lines {
		if k := len(out) - 1; k >= 0 && runMember(out[k]) && runMember(n) && out[k].fold.dir == n.fold.dir {
			b.merge(out[k], n)
			continue
		}
		out = append(out, n)
	}
	return out
}

// runMember: a folded line that an off-screen run may hold anywhere in it.
func runMember(n *Node) bool {
	return n.fold != nil && n.Role != "heading" && !landmarks[n.Role]
}

// merge folds line n into the folded line into before it; into's role
// becomes "group" when they differ, as the run's line would say. (Neither
// is a landmark, so neither line is one to list by name: runMember.)
func (b *builder) merge(into, n *Node) {
	f, g := into.fold, n.fold
	if f.lines == 1 {
		f.roles.add(into.Role, 1)
	}
	if g.lines == 1 {
		f.roles.add(n.Role, 1)
	}
	for i, c := range g.roles {
		f.roles[i] += c
	}
	f.marks.addAll(&g.marks)
	f.lines += g.lines
	f.nodes += g.nodes
	f.kept += g.kept
	f.clipped += g.clipped
	if into.Role != n.Role {
		into.Role = "group"
	}
	b.recycle([]*Node{n})
}
