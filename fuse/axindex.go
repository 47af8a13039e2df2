package fuse

import (
	"github.com/axfuse/axfuse/domsnap"
)

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
	// One pass over the nodes; the rest reads this compact copy.
	backends := make([]int64, len(nodes))
	lo, hi := nodes[0].Backend, nodes[0].Backend
	for i := range nodes {
		bk := nodes[i].Backend
		backends[i] = bk
		lo, hi = min(lo, bk), max(hi, bk)
	}
	if hi-lo < int64(4*len(nodes)+1024) {
		x := backendIndex{base: lo, dense: filled(int(hi-lo) + 1)}
		for i, bk := range backends {
			if k := bk - lo; x.dense[k] < 0 {
				x.dense[k] = int32(i)
			}
		}
		return x
	}
	x := backendIndex{m: make(map[int64]int, len(nodes))}
	for i, bk := range backends {
		if _, dup := x.m[bk]; !dup {
			x.m[bk] = i
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

// indexAXIDs indexes a frame's AX nodes by id, in one pass over them: it
// also returns the roots (nodes whose parent is not found), in order, how
// many nodes are ignored, and whether one is a modal dialog.
func indexAXIDs(nodes []domsnap.AXNode) (x axIDs, roots []int, ignored int, modal bool) {
	// The slices reach the largest id present (below a bound that keeps a
	// page's odd ids from costing memory); larger ids go to the map.
	limit := 4*len(nodes) + 1024
	ids, parents := make([]int32, len(nodes)), make([]int32, len(nodes))
	top, bottom := -1, -1
	for i := range nodes {
		ax := &nodes[i]
		ids[i], parents[i] = idCode(ax.ID, limit), idCode(ax.Parent, limit)
		if c := ids[i]; c >= 0 {
			top = max(top, int(c))
		} else if c < oddID {
			bottom = max(bottom, int(oddID-1-c))
		}
		if ax.Ignored {
			ignored++
		}
		if ax.Role == "dialog" || ax.Role == "alertdialog" {
			v, _ := ax.Prop("modal")
			modal = modal || v == "true"
		}
	}
	x = axIDs{pos: filled(top + 1), neg: filled(bottom + 1), byStr: map[string]int{}}
	for i, c := range ids {
		if slot := x.slotOf(c); slot != nil {
			if *slot < 0 {
				*slot = int32(i)
			}
		} else if _, dup := x.byStr[nodes[i].ID]; !dup {
			x.byStr[nodes[i].ID] = i
		}
	}
	for i, c := range parents {
		found := false
		if c == oddID {
			_, found = x.byStr[nodes[i].Parent]
		} else if slot := x.slotOf(c); slot != nil {
			found = *slot >= 0 // (an id past the slices has no node)
		}
		if !found {
			roots = append(roots, i)
		}
	}
	return x, roots, ignored, modal
}

// oddID is the code of an id of neither of Chrome's shapes (or past the
// slices' bound); idCode gives k >= 0 for the id k, oddID-1-k for the id
// -1000000000-k.
const oddID = -1

func idCode(id string, limit int) int32 {
	k, neg, ok := chromeNumber(id, limit, limit)
	switch {
	case !ok:
		return oddID
	case neg:
		return int32(oddID - 1 - k)
	}
	return int32(k)
}

// slotOf is the slice entry of an id's code, nil for an odd id or one the
// slices do not reach.
func (x *axIDs) slotOf(c int32) *int32 {
	switch {
	case c >= 0 && int(c) < len(x.pos):
		return &x.pos[c]
	case c < oddID && int(oddID-1-c) < len(x.neg):
		return &x.neg[oddID-1-c]
	}
	return nil
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
	k, neg, ok := chromeNumber(id, len(x.pos), len(x.neg))
	switch {
	case !ok:
		return nil
	case neg:
		return &x.neg[k]
	}
	return &x.pos[k]
}

// chromeNumber is the slice index of an id of one of Chrome's shapes below
// the slices' lengths, and whether it indexes the negative ids.
func chromeNumber(id string, posLen, negLen int) (k int, neg, ok bool) {
	if len(id) > 1 && id[0] == '-' {
		if n, ok := smallNumber(id[1:], negBase+negLen); ok && n >= negBase {
			return n - negBase, true, true
		}
		return 0, false, false
	}
	if n, ok := smallNumber(id, posLen); ok {
		return n, false, true
	}
	return 0, false, false
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
