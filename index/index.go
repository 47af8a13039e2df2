// Package index decides which elements are interactive (and records why)
// and hands out refs. It is a leaf: fuse calls it with plain signals
// gathered from the AX tree and the DOM snapshot, and it imports nothing of
// the pipeline.
package index

import (
	"fmt"
	"strings"
)

// controlRoles are Puppeteer's control roles: interactive by role alone.
var controlRoles = map[string]bool{
	"button": true, "checkbox": true, "ColorWell": true, "combobox": true,
	"DisclosureTriangle": true, "listbox": true, "menu": true, "menubar": true,
	"menuitem": true, "menuitemcheckbox": true, "menuitemradio": true,
	"option": true, "radio": true, "scrollbar": true, "searchbox": true,
	"slider": true, "spinbutton": true, "switch": true, "tab": true,
	"textbox": true, "tree": true, "treeitem": true,
}

// IsControlRole reports whether role is one of Puppeteer's control roles.
func IsControlRole(role string) bool { return controlRoles[role] }

// documentRoles are never targets in themselves, even when focusable.
var documentRoles = map[string]bool{"RootWebArea": true, "WebArea": true, "Iframe": true, "IframePresentational": true}

// clickTypes are the listener types that make an element a click target.
var clickTypes = map[string]bool{"click": true, "mousedown": true, "mouseup": true, "pointerdown": true, "pointerup": true}

// Signals is what fuse knows about one element.
type Signals struct {
	Role      string   // AX role ("" when the node has no AX node)
	Tag       string   // lower-case tag name, "" for non-elements
	HasHref   bool     // a link with a URL
	Focusable bool     // AX focusable
	Editable  bool     // contenteditable / AX editable (not plain inputs)
	Listeners []string // click-like listener types on the element itself
	Clickable bool     // DOMSnapshot isClickable
	// Root is true for html, body and the document: a listener there is a
	// delegated one and never makes the root itself a target.
	Root bool
	// AppRoot: the element's click listener serves many targets below it
	// (React-style delegation); the listener does not make it a target.
	AppRoot bool
	// CursorStart: computed cursor is pointer and the parent's is not (the
	// start of an inherited run, not every descendant in it).
	CursorStart bool
	// Delegated: an ancestor holds a delegated listener that this element's
	// signals (cursor, role, tabindex) stand in for.
	Delegated bool
	// Scrollable: a container with content to scroll to.
	Scrollable bool
	// Media: canvas, svg, img, video or embed, interactive only with a
	// listener or a pointer cursor.
	Media bool
}

// Reasons returns why an element is interactive, empty when it is not.
func Reasons(s Signals) []string {
	if documentRoles[s.Role] || s.Root {
		if s.Scrollable && !s.Root {
			return []string{"scrollable"}
		}
		return nil
	}
	var r []string
	switch {
	case s.Role == "link" && s.HasHref:
		r = append(r, "role:link")
	case controlRoles[s.Role]:
		r = append(r, "role:"+s.Role)
	}
	if s.Focusable {
		r = append(r, "focusable")
	}
	if s.Editable {
		r = append(r, "contenteditable")
	}
	if !s.AppRoot {
		for _, t := range s.Listeners {
			if clickTypes[t] {
				r = append(r, "listener:"+t)
			}
		}
		if s.Clickable && len(r) == 0 {
			r = append(r, "clickable")
		}
	}
	if s.CursorStart {
		r = append(r, "cursor:pointer")
	}
	if s.Delegated && len(r) > 0 {
		r = append(r, "delegated")
	}
	if s.Scrollable {
		r = append(r, "scrollable")
	}
	return r
}

// OnlyFromDOM reports whether reasons come from DOM signals alone (a
// listener or isClickable), not from the element's role or focusability.
func OnlyFromDOM(reasons []string) bool {
	for _, r := range reasons {
		if !strings.HasPrefix(r, "listener:") && r != "clickable" && r != "cursor:pointer" && r != "delegated" && r != "scrollable" {
			return false
		}
	}
	return len(reasons) > 0
}

// Key identifies a node across snapshots: its frame and backend node id,
// both browser-side identifiers a page cannot choose.
type Key struct {
	Frame   string
	Backend int64
}

// Table hands out refs e1, e2, ... A key keeps its ref; a number is never
// reused for another key.
type Table struct {
	refs map[Key]string
	next int
}

// NewTable returns an empty ref table.
func NewTable() *Table { return &Table{refs: map[Key]string{}} }

// Ref returns the key's ref, assigning the next number on first sight.
func (t *Table) Ref(k Key) string {
	if r, ok := t.refs[k]; ok {
		return r
	}
	t.next++
	r := fmt.Sprintf("e%d", t.next)
	t.refs[k] = r
	return r
}

// KeyOf returns the key a ref was given.
func (t *Table) KeyOf(ref string) (Key, bool) {
	for k, r := range t.refs {
		if r == ref {
			return k, true
		}
	}
	return Key{}, false
}
