package fuse

import (
	"github.com/axfuse/axfuse/index"
)

// reasons is index.Reasons, one shared list per distinct traits of
// elements with no listeners (the lists are read, never changed; their
// capacity is cut so an append copies).
func (b *builder) reasons(s index.Signals) []string {
	if len(s.Listeners) > 0 {
		return index.Reasons(s)
	}
	k := s.Traits
	r, ok := b.reasonLists[k]
	if !ok {
		r = index.Reasons(s)
		r = r[:len(r):len(r)]
		b.reasonLists[k] = r
	}
	return r
}
