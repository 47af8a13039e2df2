package fuse

import (
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/internal/roles"
	"github.com/axfuse/axfuse/internal/textcut"
)

// The AX-only view follows Puppeteer's interestingOnly (puppeteer-core
// 24.43) over getFullAXTree alone: a node is kept when it is a landmark
// (named or not), focusable, richly editable, busy, live, modal, has an
// error message, details or a role description, is a control, or is a
// leaf with a name or description; everything else is spliced out; leaves
// hide their subtrees. A leaf has no children, is a plain text field,
// text, an image-like or range role, or a named heading with nothing
// focusable inside (a heading that holds a link goes, the link stays). No
// DOM signal (listener, isClickable) is consulted. An iframe's document is
// stitched in under its iframe line, as includeIframes does.

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
	if dom >= 0 && b.facts(fd).kinds[dom]&ownsDocument != 0 {
		// A frame's document is stitched in place, as in the fused view
		// (Puppeteer's includeIframes: the Iframe node is then kept).
		n := b.axNode(fd, i, dom)
		n.Children = b.children(fd, i, dom, sc)
		return []*Node{n}
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
	n := &Node{Role: roles.Printed(ax.Role), Name: ax.Name, States: axStates(ax), Value: ax.Value, Description: ax.Description}
	if ax.Role == "link" {
		n.URL = b.linkURL(fd, ax, dom) // as written, as the fused view and Playwright print it
	}
	focusable, _ := ax.Prop("focusable")
	reasons := index.Reasons(index.Signals{Traits: index.Traits{Role: ax.Role, Focusable: focusable == "true", HasHref: n.URL != ""}})
	b.markTarget(n, fd, i, dom, reasons, scope{})
	return n
}

// axExtraStates are the properties Puppeteer's SerializedAXNode reports
// beyond the states both views print, in its order: flags print when
// true, tokens and strings with their value.
var axExtraStates = [...]string{"focused", "modal", "multiline", "multiselectable", "busy", "atomic",
	"valuemin", "valuemax", "autocomplete", "haspopup", "orientation", "live", "relevant",
	"errormessage", "details", "keyshortcuts", "roledescription", "valuetext"}

var axFlags = map[string]bool{"focused": true, "modal": true, "multiline": true, "multiselectable": true, "busy": true, "atomic": true}

// axStates are the fused view's states plus the rest of Puppeteer's
// fields. Values come from the page: stateValue keeps them on one line
// and inside their brackets.
func axStates(ax *domsnap.AXNode) []string {
	out := states(ax)
	for _, name := range axExtraStates {
		prop := name
		if name == "haspopup" {
			prop = "hasPopup" // CDP's spelling
		}
		v, ok := ax.Prop(prop)
		if !ok || name == "live" && (v == "off" || liveShown(out)) {
			continue
		}
		switch {
		case axFlags[name]:
			if v != "" && v != "false" && v != "0" { // Chrome sends busy as 1
				out = append(out, name)
			}
		case v == "true":
			out = append(out, name)
		case v == "" || v == "false":
		default:
			out = append(out, name+"="+stateValue(v))
		}
	}
	return out
}

// liveShown: states already holds live= (the fused view prints it on
// roles whose liveness is not implied).
func liveShown(out []string) bool {
	for _, s := range out {
		if strings.HasPrefix(s, "live=") {
			return true
		}
	}
	return false
}

// stateValue is a page-supplied token as a state prints it: what draws
// nothing removed, whitespace collapsed, cut, and quoted when it would
// close its bracket or look like another state.
func stateValue(v string) string {
	v = textcut.Runes(visibleText(v), 80)
	if v == "" || strings.ContainsAny(v, "[]\"\\") || strings.ContainsFunc(v, func(r rune) bool { return r < ' ' }) {
		return Quote(v)
	}
	return v
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
