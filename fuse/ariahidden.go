package fuse

import (
	"strings"

	"github.com/axfuse/axfuse/domsnap"
)

// Visible controls under aria-hidden. A page can hide from screen readers
// what it still shows and takes clicks on (a dropdown of links, a
// spinner's arrows). Chrome's AX tree then ignores them, but an agent acts
// on what is on the screen: such an element, when it is visible and a
// target by its tag, role attribute or listeners, gets a line of its own
// with a role from its markup and a name from its visible text, marked
// [aria-hidden] as Playwright's ai mode marks it. Text around it under
// aria-hidden stays out, as the page asked.

// ariaHiddenOnly: the AX tree ignores the node for aria-hidden alone.
func ariaHiddenOnly(reasons []string) bool {
	hidden := false
	for _, r := range reasons {
		switch r {
		case "ariaHiddenElement", "ariaHiddenSubtree":
			hidden = true
		case "uninteresting", "presentationalRole", "probablyPresentational":
		default:
			return false // not rendered, inert, behind a modal...
		}
	}
	return hidden
}

// ariaHiddenTarget returns the line of a visible target under aria-hidden,
// nil for anything else.
func (b *builder) ariaHiddenTarget(fd *frameData, i, dom int, sc scope) []*Node {
	ax := &fd.f.AXNodes[i]
	if dom < 0 || b.axOnly || !ariaHiddenOnly(ax.IgnoredReasons) {
		return nil
	}
	node := &b.c.Documents[fd.doc].Nodes[dom]
	if node.Type != domsnap.ElementNode || !b.g.IsVisible(fd.doc, dom) || b.g.IsGhost(fd.doc, dom) || b.arealess(fd.doc, dom) {
		return nil
	}
	role := markupRole(node)
	s := b.signals(fd, ax, dom)
	s.Role = role
	if role == "link" {
		s.HasHref = true
	}
	if _, ok := node.Attr("tabindex"); ok || role != "" && role != "link" {
		s.Focusable = s.Focusable || ok
	}
	reasons := b.reasons(s)
	if len(reasons) == 0 || b.sameTarget(fd, dom, sc) {
		return nil
	}
	named := *ax
	named.Name, named.NameFrom = "", ""
	name, fromText := b.rolelessName(fd, &named, dom)
	n := b.node()
	n.Role, n.Name, n.States = role, name, []string{"aria-hidden"}
	if role == "" {
		n.Role = "clickable"
	}
	if role == "link" {
		n.URL = b.linkURL(fd, ax, dom)
	}
	sc = b.markTarget(n, fd, i, dom, reasons, sc)
	sc.textCovered = sc.textCovered || fromText
	n.Children = b.children(fd, i, dom, sc)
	return b.one(n)
}

// markupRole is the role an element's markup gives it: a known control
// role attribute, else its tag's ("" when neither is a control).
func markupRole(n *domsnap.Node) string {
	if r, ok := n.Attr("role"); ok {
		if r = strings.ToLower(strings.TrimSpace(strings.Fields(r + " x")[0])); controlRole[r] {
			return r
		}
	}
	switch n.Name {
	case "A", "AREA":
		if _, ok := n.Attr("href"); ok {
			return "link"
		}
	case "BUTTON", "SUMMARY":
		return "button"
	case "SELECT":
		return "combobox"
	case "TEXTAREA":
		return "textbox"
	case "INPUT":
		t, _ := n.Attr("type")
		switch strings.ToLower(t) {
		case "button", "submit", "reset", "image":
			return "button"
		case "checkbox", "radio":
			return strings.ToLower(t)
		case "range":
			return "slider"
		case "number":
			return "spinbutton"
		case "hidden":
			return ""
		}
		return "textbox"
	}
	return ""
}

// controlRole are the role attributes an agent acts on.
var controlRole = map[string]bool{"button": true, "link": true, "checkbox": true, "radio": true, "switch": true,
	"tab": true, "menuitem": true, "menuitemcheckbox": true, "menuitemradio": true, "option": true,
	"textbox": true, "searchbox": true, "combobox": true, "slider": true, "spinbutton": true, "treeitem": true}
