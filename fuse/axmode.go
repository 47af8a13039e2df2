package fuse

import (
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/internal/roles"
)

// The AX-only view follows Puppeteer's interestingOnly (puppeteer-core
// 24.43) over getFullAXTree alone: a node is kept when it is a landmark
// (named or not), focusable, richly editable, busy, live, modal, has an
// error message, details or a role description, is a control, or is a
// leaf with a name or description; everything else is spliced out; leaves
// hide their subtrees. A leaf has no children, is a plain text field,
// text, an image-like or range role, or a named heading with nothing
// focusable inside (a heading that holds a link goes, the link stays). No
// DOM signal (listener, isClickable) is consulted.

var leafishRoles = map[string]bool{
	"doc-cover": true, "graphics-symbol": true, "img": true, "image": true,
	"Meter": true, "scrollbar": true, "slider": true, "separator": true, "progressbar": true,
}

var textOnlyRoles = map[string]bool{"LineBreak": true, "text": true, "InlineTextBox": true, "StaticText": true}

func (b *builder) emitAX(fd *frameData, i int, sc scope) []*Node {
	ax := &fd.f.AXNodes[i]
	dom := b.domIndex(fd, ax.Backend)
	if ax.Role == "InlineTextBox" {
		return nil
	}
	if b.axLeaf(fd, i) {
		if !b.axInteresting(fd, i, sc.insideControl) {
			return nil
		}
		return []*Node{b.axNode(fd, i, dom)}
	}
	inner := sc
	inner.insideControl = sc.insideControl || index.IsControlRole(ax.Role)
	if !b.axInteresting(fd, i, sc.insideControl) {
		return b.children(fd, i, dom, inner)
	}
	n := b.axNode(fd, i, dom) // before the children: refs in document order
	n.Children = b.children(fd, i, dom, inner)
	return []*Node{n}
}

func (b *builder) axNode(fd *frameData, i, dom int) *Node {
	ax := &fd.f.AXNodes[i]
	if ax.Role == "StaticText" {
		return &Node{Role: "text", Text: ax.Name, owner: ax.Parent, at: b.where(fd, dom)}
	}
	// Puppeteer reports any value Chrome sends (a rich editor's text, a
	// file input's "No file chosen").
	n := &Node{Role: roles.Printed(ax.Role), Name: ax.Name, States: states(ax), Value: ax.Value}
	if ax.Role == "link" {
		n.URL = b.linkURL(fd, ax, dom) // as written, as the fused view and Playwright print it
	}
	focusable, _ := ax.Prop("focusable")
	reasons := index.Reasons(index.Signals{Role: ax.Role, Focusable: focusable == "true", HasHref: n.URL != ""})
	b.markTarget(n, fd, i, dom, reasons, scope{})
	return n
}

func (b *builder) axInteresting(fd *frameData, i int, insideControl bool) bool {
	ax := &fd.f.AXNodes[i]
	if ax.Ignored || ax.Role == "RootWebArea" || ax.Role == "Ignored" {
		return false
	}
	if v, _ := ax.Prop("hidden"); v == "true" {
		return false
	}
	if axLandmarks[ax.Role] || focusable(ax) || index.IsControlRole(ax.Role) {
		return true
	}
	if v, _ := ax.Prop("editable"); v == "richtext" {
		return true
	}
	for _, p := range [...]string{"busy", "modal", "errormessage", "details", "roledescription"} {
		if v, ok := ax.Prop(p); ok && v != "" && v != "false" {
			return true
		}
	}
	if v, ok := ax.Prop("live"); ok && v != "" && v != "off" {
		return true
	}
	if insideControl {
		return false
	}
	return (ax.Name != "" || ax.Description != "") && b.axLeaf(fd, i)
}

// axLandmarks are kept named or not, as Puppeteer keeps them.
var axLandmarks = map[string]bool{"banner": true, "complementary": true, "contentinfo": true, "form": true,
	"main": true, "navigation": true, "region": true, "search": true}

func focusable(ax *domsnap.AXNode) bool {
	v, _ := ax.Prop("focusable")
	return v == "true"
}

// axLeaf is Puppeteer's isLeafNode.
func (b *builder) axLeaf(fd *frameData, i int) bool {
	ax := &fd.f.AXNodes[i]
	if b.axLeafNode(ax) {
		return true
	}
	return ax.Role == "heading" && ax.Name != "" && !b.hasFocusableDescendant(fd, i, 0)
}

// axLeafNode is the part of isLeafNode a node answers alone.
func (b *builder) axLeafNode(ax *domsnap.AXNode) bool {
	if len(ax.Children) == 0 || textOnlyRoles[ax.Role] || leafishRoles[ax.Role] {
		return true
	}
	editable, _ := ax.Prop("editable")
	return editable == "plaintext" || (ax.Role == "textbox" || ax.Role == "searchbox") && editable != "richtext"
}

// hasFocusableDescendant is memoized per node (0 unknown, 1 no, 2 yes), so
// a malformed tree with shared children costs linear time.
func (b *builder) hasFocusableDescendant(fd *frameData, i, depth int) bool {
	if fd.focusMemo == nil {
		fd.focusMemo = make([]int8, len(fd.f.AXNodes))
	}
	if m := fd.focusMemo[i]; m != 0 {
		return m == 2
	}
	fd.focusMemo[i] = 1 // also breaks cycles
	if depth > maxDepth {
		return false
	}
	for _, id := range fd.f.AXNodes[i].Children {
		k, ok := fd.byID.get(id)
		if !ok {
			continue
		}
		if focusable(&fd.f.AXNodes[k]) || b.hasFocusableDescendant(fd, k, depth+1) {
			fd.focusMemo[i] = 2
			return true
		}
	}
	return false
}
