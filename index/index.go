// Package index decides which elements are interactive (and records why)
// and hands out refs. It is a leaf: fuse calls it with plain signals
// gathered from the AX tree and the DOM snapshot, and it imports nothing of
// the pipeline.
package index

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/internal/roles"
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

// ClickListenerTypes are the listener types that make an element a click
// target. They and DragListenerTypes are the one list the capture
// (browser/chrome), fuse and Reasons read; read-only.
var ClickListenerTypes = []string{"click", "mousedown", "mouseup", "pointerdown", "pointerup"}

// DragListenerTypes are the HTML5 drag-and-drop listener types that make
// an element a target: a drag source (dragstart) or a drop zone (drop, and
// dragenter and dragover, which a zone cancels to accept a drop).
var DragListenerTypes = []string{"dragstart", "dragenter", "dragover", "drop"}

var clickTypes, dragTypes = setOf(ClickListenerTypes), setOf(DragListenerTypes)

func setOf(types []string) map[string]bool {
	m := make(map[string]bool, len(types))
	for _, t := range types {
		m[t] = true
	}
	return m
}

// IsClickListener reports whether a listener of this type makes an element
// a click target.
func IsClickListener(typ string) bool { return clickTypes[typ] }

// IsDragListener reports whether a listener of this type makes an element
// a drag source or a drop zone.
func IsDragListener(typ string) bool { return dragTypes[typ] }

// IsTargetListener reports whether a listener of this type makes an element
// a target (click or drag): the types a capture records.
func IsTargetListener(typ string) bool { return clickTypes[typ] || dragTypes[typ] }

// Signals is what fuse knows about one element: its listeners and its
// other traits.
type Signals struct {
	Traits
	Listeners []string // target listener types (click, drag) on the element itself
}

// Traits are an element's signals beside its listeners: a comparable
// value, so that a caller may keep the reasons of each distinct one.
type Traits struct {
	Role      string // AX role ("" when the node has no AX node)
	Tag       string // lower-case tag name, "" for non-elements
	HasHref   bool   // a link with a URL
	Focusable bool   // AX focusable
	Editable  bool   // contenteditable / AX editable (not plain inputs)
	Clickable bool   // DOMSnapshot isClickable
	// Draggable: the element says draggable="true" (not the default of
	// images and links, which are targets or not already).
	Draggable bool
	// Root is true for html, body and the document: a listener there is a
	// delegated one and never makes the root itself a target.
	Root bool
	// AppRoot: the element's click listener serves many targets below it
	// (React-style delegation); its listeners, drag ones too (React puts
	// every type on its root), do not make it a target.
	AppRoot bool
	// CursorStart: computed cursor is pointer and the parent's is not (the
	// start of an inherited run, not every descendant in it).
	CursorStart bool
	// Delegated: an ancestor holds a delegated listener that this element's
	// signals (cursor, role, tabindex) stand in for.
	Delegated bool
	// Scrollable: a container with content to scroll to.
	Scrollable bool
	// Label: a label wrapping a control that cannot be clicked itself (a
	// hidden input behind a styled switch): the label is the target.
	Label bool
	// Sortable: an item of a list that takes presses (mousedown,
	// pointerdown, touchstart) for its items: a list reordered by drag.
	Sortable bool
}

// Reasons returns why an element is interactive, empty when it is not.
func Reasons(s Signals) []string {
	if documentRoles[s.Role] || s.Root {
		if s.Scrollable && !s.Root {
			return []string{ReasonScrollable}
		}
		return nil
	}
	var r []string
	switch {
	case s.Role == "link" && s.HasHref:
		r = append(r, ReasonRole+"link")
	case controlRoles[s.Role]:
		r = append(r, ReasonRole+roles.Printed(s.Role)) // ARIA names, never Chrome's own
	}
	if s.Focusable {
		r = append(r, ReasonFocusable)
	}
	if s.Editable {
		r = append(r, ReasonEditable)
	}
	if !s.AppRoot {
		for _, t := range s.Listeners {
			if IsTargetListener(t) {
				r = append(r, ReasonListener+t)
			}
		}
		if s.Clickable && len(r) == 0 {
			r = append(r, ReasonClickable)
		}
	}
	if s.Draggable {
		r = append(r, ReasonDraggable)
	}
	if s.Label {
		r = append(r, ReasonLabel)
	}
	if s.Sortable {
		r = append(r, ReasonSortable)
	}
	if s.CursorStart {
		r = append(r, ReasonCursor)
	}
	if s.Delegated && len(r) > 0 {
		r = append(r, ReasonDelegated)
	}
	if s.Scrollable {
		r = append(r, ReasonScrollable)
	}
	return r
}

// The reasons Reasons gives: a control role (role:ROLE), a target
// listener (listener:TYPE), and these.
const (
	ReasonRole       = "role:"
	ReasonListener   = "listener:"
	ReasonFocusable  = "focusable"
	ReasonEditable   = "contenteditable"
	ReasonClickable  = "clickable"
	ReasonDraggable  = "draggable"
	ReasonLabel      = "label"
	ReasonSortable   = "sortable"
	ReasonCursor     = "cursor:pointer"
	ReasonDelegated  = "delegated"
	ReasonScrollable = "scrollable"
)

// fromDOM are the reasons that come from DOM signals alone, not from the
// element's role or focusability (listener:TYPE is one too).
var fromDOM = map[string]bool{
	ReasonClickable: true, ReasonDraggable: true, ReasonCursor: true, ReasonDelegated: true,
	ReasonScrollable: true, ReasonLabel: true, ReasonSortable: true,
}

// OnlyFromDOM reports whether reasons come from DOM signals alone (a
// listener, isClickable, draggable="true"), not from the element's role or
// focusability.
func OnlyFromDOM(reasons []string) bool {
	for _, r := range reasons {
		if !strings.HasPrefix(r, ReasonListener) && !fromDOM[r] {
			return false
		}
	}
	return len(reasons) > 0
}

// Fingerprint is what the agent saw of a ref'd element; acting on a ref
// whose element no longer matches it is refused.
type Fingerprint struct {
	Role string `json:"role"`
	Name string `json:"name"`
	Tag  string `json:"tag"`
}

// Table hands out refs e1, e2, ... A key keeps its ref while its document
// lives; a number is never reused for another key, across documents too.
type Table struct {
	refs     map[domsnap.Key]string
	keys     map[string]domsnap.Key
	prints   map[string]Fingerprint
	next     int
	document string
}

// NewTable returns an empty ref table.
func NewTable() *Table {
	return &Table{refs: map[domsnap.Key]string{}, keys: map[string]domsnap.Key{}, prints: map[string]Fingerprint{}}
}

// Ref returns the key's ref, assigning the next number on first sight.
func (t *Table) Ref(k domsnap.Key) string {
	if r, ok := t.refs[k]; ok {
		return r
	}
	t.next++
	r := fmt.Sprintf("e%d", t.next)
	t.refs[k] = r
	t.keys[r] = k
	return r
}

// Known returns the ref a key already has, without handing out a new one.
func (t *Table) Known(k domsnap.Key) (string, bool) {
	r, ok := t.refs[k]
	return r, ok
}

// KeyOf returns the key a ref was given.
func (t *Table) KeyOf(ref string) (domsnap.Key, bool) {
	k, ok := t.keys[ref]
	return k, ok
}

// All lists the refs the table knows, in no order.
func (t *Table) All() []string {
	out := make([]string, 0, len(t.keys))
	for r := range t.keys {
		out = append(out, r)
	}
	return out
}

// Remember records what the agent saw of a ref.
func (t *Table) Remember(ref string, fp Fingerprint) { t.prints[ref] = fp }

// Lookup returns a ref's key and fingerprint.
func (t *Table) Lookup(ref string) (domsnap.Key, Fingerprint, bool) {
	k, ok := t.keys[ref]
	return k, t.prints[ref], ok
}

// Document switches the table to a document (frame and loader id). A new
// document forgets the old refs but keeps counting, so no number returns.
func (t *Table) Document(id string) {
	if id == t.document {
		return
	}
	t.document = id
	t.refs, t.keys, t.prints = map[domsnap.Key]string{}, map[string]domsnap.Key{}, map[string]Fingerprint{}
}

// tableJSON is the table's saved form.
type tableJSON struct {
	Document string     `json:"document"`
	Next     int        `json:"next"`
	Refs     []savedRef `json:"refs"`
}

type savedRef struct {
	Ref string `json:"ref"`
	domsnap.Key
	Fingerprint
}

// MarshalJSON saves the table (for a session file).
func (t *Table) MarshalJSON() ([]byte, error) {
	out := tableJSON{Document: t.document, Next: t.next, Refs: []savedRef{}}
	for ref, k := range t.keys {
		out.Refs = append(out.Refs, savedRef{Ref: ref, Key: k, Fingerprint: t.prints[ref]})
	}
	sort.Slice(out.Refs, func(i, j int) bool { return out.Refs[i].Ref < out.Refs[j].Ref })
	return json.Marshal(out)
}

// UnmarshalJSON restores a saved table; malformed refs are skipped.
func (t *Table) UnmarshalJSON(b []byte) error {
	var in tableJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*t = *NewTable()
	t.document, t.next = in.Document, max(in.Next, 0)
	for _, r := range in.Refs {
		var n int
		if _, err := fmt.Sscanf(r.Ref, "e%d", &n); err != nil || n <= 0 || n > t.next {
			continue
		}
		t.refs[r.Key], t.keys[r.Ref], t.prints[r.Ref] = r.Ref, r.Key, r.Fingerprint
	}
	return nil
}
