package fuse

import (
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/paintorder"
)

// TextVerdict is the view's word on one DOM text node in the viewport,
// for checking against the browser's pixels: Shown (printed as text or
// in a name), or why not. InAX is false for text the AX tree leaves out
// (aria-hidden): the view never prints it, seen or not, and a comparison
// sets it apart.
type TextVerdict struct {
	Doc, Node int
	Backend   int64
	Text      string
	Shown     bool
	Reason    string // a paintorder.Seen* reason when not shown
	InAX      bool
	// Boxes are the text's line boxes in the viewport (viewport CSS px).
	Boxes []layout.Box
}

// TextVerdicts lists the view's verdict on every non-blank DOM text node
// with a line box in the viewport, 8 px of it at least where it meets the
// viewport's edge (fused mode only).
func (t *Tree) TextVerdicts() []TextVerdict {
	v := t.view
	if v == nil || v.opts.Mode != ModeFused {
		return nil
	}
	var out []TextVerdict
	for d := range v.c.Documents {
		doc := &v.c.Documents[d]
		for i := range doc.Nodes {
			n := &doc.Nodes[i]
			if n.Type != domsnap.TextNode || n.Layout == nil || strings.TrimSpace(n.Value) == "" {
				continue
			}
			boxes := v.g.LinesInView(d, i)
			if len(boxes) == 0 {
				continue
			}
			out = append(out, v.textVerdict(d, i, boxes))
		}
	}
	return out
}

func (v *view) textVerdict(d, i int, boxes []layout.Box) TextVerdict {
	n := &v.c.Documents[d].Nodes[i]
	tv := TextVerdict{Doc: d, Node: i, Backend: n.Backend, Text: clean(n.Value), Boxes: boxes}
	_, _, tv.InAX = v.b.axOf(d, n.Backend)
	if why := v.b.sightOf(d, i, false); why != "" {
		tv.Reason = why
		return tv
	}
	if s := v.ix.TextSight(d, i); s.Reason == paintorder.SeenCovered {
		tv.Reason = s.Reason
		return tv
	}
	tv.Shown = true
	return tv
}
