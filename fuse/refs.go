package fuse

import (
	"github.com/axfuse/axfuse/index"
)

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
				el := Element{Ref: n.Ref, Role: n.Role, Name: DisplayName(n.Name), Tag: visibleText(t.tag), Frame: t.key.Frame, BackendNodeID: t.key.Backend, Reasons: t.reasons}
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
