package fuse

import (
	"slices"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
)

// A name is text. Chrome names a control from text elsewhere (its
// <label>, the elements aria-labelledby points at) or from text the
// browser draws for it (an input button's value): that text follows the
// same sight rule as the text nodes of the page. What no one sees of it
// is cut from the name and counted as withheld, as seenName does for a
// name from contents.

// seenLabelName drops from a name taken from labels the texts in them no
// one sees (a label of font-size 0, in the colour behind it).
func (b *builder) seenLabelName(fd *frameData, ax *domsnap.AXNode, dom int, name string) string {
	if b.axOnly || dom < 0 || fd.doc < 0 || name == "" {
		return name
	}
	switch ax.NameFrom {
	case "labelfor", "labelwrapped", "relatedElement", "label", "attribute":
	default:
		return name
	}
	for _, l := range b.labelsOf(fd.doc, dom) {
		name = b.seenName(fd, l, name)
	}
	return name
}

// labelsOf lists the elements whose text may name element dom: labels
// around it or pointing at its id, and those aria-labelledby names.
func (b *builder) labelsOf(doc, dom int) []int {
	nodes := b.c.Documents[doc].Nodes
	var out []int
	for k, depth := int(nodes[dom].Parent), 0; k >= 0 && depth < 64; k, depth = int(nodes[k].Parent), depth+1 {
		if nodes[k].Name == "LABEL" {
			out = append(out, k)
		}
	}
	id, _ := nodes[dom].Attr("id")
	refs, _ := nodes[dom].Attr("aria-labelledby")
	ids := strings.Fields(refs)
	if id == "" && len(ids) == 0 {
		return out
	}
	for k := range nodes {
		n := &nodes[k]
		if n.Type != domsnap.ElementNode {
			continue
		}
		if n.Name == "LABEL" && id != "" {
			if f, ok := n.Attr("for"); ok && f == id {
				out = append(out, k)
				continue
			}
		}
		if len(ids) > 0 {
			if own, ok := n.Attr("id"); ok && own != "" && slices.Contains(ids, own) {
				out = append(out, k)
			}
		}
	}
	return out
}

// drawnValueHidden: element dom is an input button (button, submit,
// reset) whose value, the text the browser draws in it, no one sees.
// Why, when so.
func (b *builder) drawnValueHidden(doc, dom int) (string, bool) {
	if b.axOnly || dom < 0 || doc < 0 || b.v == nil {
		return "", false
	}
	n := &b.c.Documents[doc].Nodes[dom]
	if n.Name != "INPUT" || n.Layout == nil {
		return "", false
	}
	switch t, _ := n.Attr("type"); strings.ToLower(strings.TrimSpace(t)) {
	case "button", "submit", "reset":
	default:
		return "", false
	}
	if s := b.v.ix.OwnTextSight(doc, dom); !s.Seen {
		return s.Reason, true
	}
	return "", false
}
