package paintorder

import "github.com/axfuse/axfuse/domsnap"

// What the index learns of a document's nodes (in a floated subtree,
// hollow, wrapped, holding content) is worked out when first asked and
// kept: Build asks only about nodes near the viewport and their
// ancestors, so a long page's off-screen nodes cost a glance each.

// docFacts are one document's answers so far.
type docFacts struct {
	floated, hollow, wrapped, content memo
	// allContent and allWrapped answer for every node at once, built when
	// an element's subtree is too large to look through.
	allContent []bool
	allWrapped map[int]bool
}

func newDocFacts(n int) docFacts {
	return docFacts{floated: newMemo(n), hollow: newMemo(n), wrapped: newMemo(n), content: newMemo(n)}
}

// memo keeps one yes-or-no answer per node: 0 not asked, 1 no, 2 yes.
type memo []int8

func newMemo(n int) memo { return make(memo, n) }

// set records node i's answer.
func (m memo) set(i int, yes bool) {
	m[i] = 1
	if yes {
		m[i] = 2
	}
}

// answer returns node i's answer, worked out by find when first asked.
func (m memo) answer(i int, find func() bool) bool {
	if m[i] == 0 {
		m.set(i, find())
	}
	return m[i] == 2
}

// scanLimit is the largest subtree looked through node by node; past it
// the whole document is worked out in one pass.
const scanLimit = 256

// floated: node i is a float or inside one (a float paints its content
// with it).
func (ix *Index) floated(d, i int) bool {
	df := &ix.docs[d]
	if df.floated[i] != 0 {
		return df.floated[i] == 2
	}
	// Climb to the nearest node already known (iteratively: pages nest
	// deep), then answer on the way back down.
	nodes := ix.c.Documents[d].Nodes
	var path []int
	k := i
	for k >= 0 && df.floated[k] == 0 {
		path = append(path, k)
		k = int(nodes[k].Parent)
	}
	inherited := k >= 0 && df.floated[k] == 2
	for j := len(path) - 1; j >= 0; j-- {
		inherited = inherited || ix.floats(d, path[j])
		df.floated[path[j]] = 1
		if inherited {
			df.floated[path[j]] = 2
		}
	}
	return df.floated[i] == 2
}

// floats: node i's own style floats it.
func (ix *Index) floats(d, i int) bool {
	doc := &ix.c.Documents[d]
	n := &doc.Nodes[i]
	if n.Layout == nil || n.Layout.Style < 0 || n.Type != domsnap.ElementNode {
		return false
	}
	f := doc.Styles[n.Layout.Style].Float
	return f == "left" || f == "right" || f == "inline-start" || f == "inline-end"
}

// hasContent: node i or a node below it has content of its own
// (ownContent).
func (ix *Index) hasContent(d, i int) bool {
	df := &ix.docs[d]
	if df.allContent != nil {
		return df.allContent[i]
	}
	return df.content.answer(i, func() bool { return ix.contentBelow(d, i) })
}

// contentBelow works hasContent out for node i.
func (ix *Index) contentBelow(d, i int) bool {
	if ix.ownContent(d, i) {
		return true
	}
	end := int(ix.g.Docs[d].End[i])
	if end-i > scanLimit {
		ix.contentOfAll(d)
		return ix.docs[d].allContent[i]
	}
	for k := i + 1; k <= end; k++ {
		if ix.ownContent(d, k) && ix.below(d, k, i) {
			return true
		}
	}
	return false
}

// contentOfAll works out hasContent for every node of document d.
func (ix *Index) contentOfAll(d int) {
	nodes := ix.c.Documents[d].Nodes
	content := make([]bool, len(nodes))
	for i := len(nodes) - 1; i >= 0; i-- {
		if ix.ownContent(d, i) {
			content[i] = true
		}
		if p := nodes[i].Parent; p >= 0 && content[i] {
			content[p] = true
		}
	}
	ix.docs[d].allContent = content
}

// below reports whether node k lies in the subtree of node i (k > i).
func (ix *Index) below(d, k, i int) bool {
	nodes := ix.c.Documents[d].Nodes
	for k > i {
		k = int(nodes[k].Parent)
	}
	return k == i
}

// wrapped: an inline element whose text wraps onto several lines: its
// union box holds space that belongs to its neighbours, so its hit area is
// its lines of text instead.
func (ix *Index) wrapped(d, p int) bool {
	df := &ix.docs[d]
	if df.allWrapped != nil {
		return df.allWrapped[p]
	}
	return df.wrapped.answer(p, func() bool { return ix.wraps(d, p) })
}

// wraps works wrapped out for node p: the lines of the texts it owns
// (eachInlineOwner) lie more than 2px apart.
func (ix *Index) wraps(d, p int) bool {
	nodes := ix.c.Documents[d].Nodes
	if nodes[p].PseudoType != "" || !ix.inline(d, p) {
		return false // no text's inline owner
	}
	end := int(ix.g.Docs[d].End[p])
	if end-p > scanLimit {
		df := &ix.docs[d]
		if df.allWrapped == nil {
			df.allWrapped = ix.wrappedInlines(d)
		}
		return df.allWrapped[p]
	}
	top, bottom, found := 0.0, 0.0, false
	for k := p + 1; k <= end; k++ {
		n := &nodes[k]
		if n.Type != domsnap.TextNode || n.Layout == nil || len(n.Layout.Fragments) == 0 || !ix.ownedBy(d, k, p) {
			continue
		}
		for _, f := range n.Layout.Fragments {
			if !found || f.Y < top {
				top, found = f.Y, true
			}
			if f.Y > bottom {
				bottom = f.Y // (from 0, as wrappedInlines counts)
			}
		}
	}
	return found && bottom-top > 2
}

// ownedBy reports whether p is one of text node k's inline owners
// (eachInlineOwner).
func (ix *Index) ownedBy(d, k, p int) bool {
	owned := false
	ix.eachInlineOwner(d, k, func(q int) { owned = owned || q == p })
	return owned
}
