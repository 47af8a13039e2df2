package fuse

import (
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/internal/roles"
	"github.com/axfuse/axfuse/internal/textcut"
	"github.com/axfuse/axfuse/paintorder"
)

// wrapperRole: roles dropped when unnamed, their children promoted: the
// roles that print as generic (roles.Printed: a <label>, <pre>, <abbr>,
// <dl>, a section header), none and presentation. A <legend> has a rule
// of its own (the builder's).
func wrapperRole(role string) bool {
	if role == "Legend" {
		return false
	}
	switch roles.Printed(role) {
	case "generic", "none", "presentation":
		return true
	}
	return false
}

// withContextRole restores a role the author wrote that Chrome drops for
// want of its required context: a role=listitem outside any list is
// generic to Chrome, but it still groups its item's text with its
// buttons, and Playwright prints it. Ignored as uninteresting, it is
// kept; hidden, it stays hidden. The node is copied, not changed.
func (b *builder) withContextRole(fd *frameData, ax *domsnap.AXNode, dom int) *domsnap.AXNode {
	plain := ax.Role == "generic" || ax.Ignored && ax.Role == "none" && !hiddenReason(ax.IgnoredReasons)
	if !plain || dom < 0 {
		return ax
	}
	role, _ := b.c.Documents[fd.doc].Nodes[dom].Attr("role")
	if first, _, _ := strings.Cut(strings.TrimSpace(strings.ToLower(role)), " "); first != "listitem" {
		return ax
	}
	cp := *ax
	cp.Role, cp.Ignored, cp.IgnoredReasons = "listitem", false, nil // Chrome ignores it as an unnamed generic
	return &cp
}

// textField: an <input> that draws its value as text, or a <textarea>.
func textField(node *domsnap.Node) bool {
	if node.Name == "TEXTAREA" {
		return true
	}
	if node.Name != "INPUT" {
		return false
	}
	t, _ := node.Attr("type")
	switch strings.ToLower(strings.TrimSpace(t)) {
	case "", "text", "search", "email", "tel", "url", "number", "password":
		return true
	}
	return false
}

// fromMarkup fills in what Chrome's AX node leaves out and the markup
// says: a date, time or colour input's value (Chrome gives its inner
// parts, not its value), and aria-invalid's kind (grammar, spelling).
func (b *builder) fromMarkup(n *Node, fd *frameData, ax *domsnap.AXNode, dom int) {
	node := &b.c.Documents[fd.doc].Nodes[dom]
	switch ax.Role {
	case "Date", "DateTime", "InputTime", "ColorWell":
		if n.Value == "" {
			n.Value = node.InputValue
		}
	}
	if n.Value != "" && textField(node) {
		// A value drawn in a clear or page-coloured font is text no one
		// sees (the field itself may still be seen and typed into).
		if s := b.v.ix.ValueSight(fd.doc, dom); !s.Seen && s.Reason != paintorder.SeenCovered {
			b.withhold("value", s.Reason, n.Value, fd.doc, dom)
			n.Value = ""
		}
	}
	if ax.Role == "LayoutTableRow" || ax.Role == "LayoutTableCell" {
		// Chrome drops aria-selected on a layout table's rows and cells;
		// printed as rows and cells, they keep it, as Playwright does.
		if v, _ := node.Attr("aria-selected"); strings.TrimSpace(v) == "true" {
			n.States = append(n.States, "selected")
		}
	}
	for k, st := range n.States {
		if st == "invalid" {
			if v, _ := node.Attr("aria-invalid"); v == "grammar" || v == "spelling" {
				n.States = append(n.States[:k:k], append([]string{"invalid=" + v}, n.States[k+1:]...)...)
			}
			break
		}
	}
}

// richText: a contenteditable field. Its text is its value, but what
// else it holds (an image, a link) prints below it.
func richText(ax *domsnap.AXNode) bool {
	v, _ := ax.Prop("editable")
	return v == "richtext" && (ax.Role == "textbox" || ax.Role == "searchbox")
}

// leafRole: roles that print no children: text fields hold their value,
// not a tree.
func leafRole(role string) bool {
	switch role {
	case "textbox", "searchbox", "spinbutton", "slider", "progressbar", "meter", "separator", "scrollbar",
		"Date", "DateTime", "InputTime", "ColorWell": // their inner parts are the browser's, not targets
		return true
	}
	return false
}

// hiddenIgnored are AX ignored reasons that mean "not perceivable": such
// nodes never become role-less targets either.
var hiddenIgnored = map[string]bool{
	"notRendered": true, "notVisible": true, "ariaHiddenElement": true,
	"ariaHiddenSubtree": true, "inertElement": true, "inertSubtree": true,
	"activeModalDialog": true, "probablyPresentational": false,
}

func hiddenReason(reasons []string) bool {
	for _, r := range reasons {
		if hiddenIgnored[r] {
			return true
		}
	}
	return false
}

// nativeClickable tags are clickable by nature; for them DOMSnapshot's
// isClickable says nothing new (their role already does).
var nativeClickable = map[string]bool{"a": true, "area": true, "button": true, "input": true, "select": true, "textarea": true, "label": true, "option": true, "summary": true, "details": true}

func (b *builder) signals(fd *frameData, ax *domsnap.AXNode, dom int) index.Signals {
	s := index.Signals{Traits: index.Traits{Role: ax.Role}}
	if v, _ := ax.Prop("focusable"); v == "true" {
		s.Focusable = true
	}
	if v, _ := ax.Prop("editable"); v == "richtext" {
		s.Editable = true
	}
	if ax.Role == "link" {
		_, s.HasHref = ax.Prop("url")
	}
	if dom < 0 {
		return s
	}
	// The node itself is read only for what is rare: the facts hold the
	// rest in compact form.
	f := b.facts(fd)
	kind := f.kinds[dom]
	s.Tag = f.tags[dom]
	s.Root = kind&isDocument != 0 || s.Tag == "html" || s.Tag == "body"
	if kind&isElement == 0 {
		return s
	}
	n := &b.c.Documents[fd.doc].Nodes[dom]
	if s.Role == "link" && !s.HasHref {
		_, s.HasHref = n.Attr("href")
	}
	if kind&hasListeners != 0 {
		s.Listeners = n.Listeners
	}
	s.Clickable = kind&isClickable != 0 && !nativeClickable[s.Tag]
	s.Draggable = kind&isDraggable != 0
	s.AppRoot, s.CursorStart, s.Delegated = f.has(dom, appRoot), f.has(dom, cursorStart), f.has(dom, delegated)
	s.Label = s.Tag == "label" && b.wrapsHiddenControl(fd, dom)
	s.Scrollable = f.has(dom, scrolls)
	b.sortable(fd, n, dom, &s)
	return s
}

// sortable: a list whose own press listener serves its items (jQuery UI
// sortable binds mousedown on the <ul>) makes each item that holds no
// control of its own a target, and is no target itself: its name would
// swallow theirs.
func (b *builder) sortable(fd *frameData, n *domsnap.Node, dom int, s *index.Signals) {
	switch s.Tag {
	case "li":
		if p := int(n.Parent); p >= 0 && b.pressList(fd, p) && !b.holdsControl(fd, dom) {
			s.Sortable = true
		}
	case "ul", "ol":
		if b.pressList(fd, dom) {
			s.Listeners, s.AppRoot = nil, true
		}
	}
}

// pressList: a <ul> or <ol> with a press listener of its own and items.
func (b *builder) pressList(fd *frameData, dom int) bool {
	n := &b.c.Documents[fd.doc].Nodes[dom]
	if n.Name != "UL" && n.Name != "OL" || !hasPress(n.Listeners) {
		return false
	}
	for _, k := range b.domKids(fd, dom) {
		if b.c.Documents[fd.doc].Nodes[k].Name == "LI" {
			return true
		}
	}
	return false
}

func hasPress(types []string) bool {
	for _, t := range types {
		switch t {
		case "mousedown", "pointerdown", "touchstart":
			return true
		}
	}
	return false
}

// holdsControl: a link, button or field inside the element (the first
// few dozen nodes looked at): that is the target, not the item.
func (b *builder) holdsControl(fd *frameData, dom int) bool {
	end := int(b.g.Docs[fd.doc].End[dom])
	for k := dom + 1; k <= end && k <= dom+64; k++ {
		if targetSignal(&b.c.Documents[fd.doc].Nodes[k], false) {
			return true
		}
	}
	return false
}

// nativeGroup tags are groups by their own semantics, draggable or not.
var nativeGroup = map[string]bool{"fieldset": true, "details": true, "optgroup": true, "address": true, "hgroup": true}

// dragGroup: Chrome makes an element that has a draggable attribute and
// no role of its own (a card div) a group. That group is the author's
// plain element: it prints as the role-less target it is (clickable), as
// a div with a click listener does, and not as a container.
func (b *builder) dragGroup(fd *frameData, ax *domsnap.AXNode, dom int) bool {
	if ax.Role != "group" || dom < 0 {
		return false
	}
	f := b.facts(fd)
	if f.kinds[dom]&isDraggable == 0 || nativeGroup[f.tags[dom]] {
		return false
	}
	_, role := b.c.Documents[fd.doc].Nodes[dom].Attr("role")
	return !role
}

// rolelessName names a role-less target: aria-label, then its AX name, then
// its text (cut at 80 characters), then title, an img child's alt, and
// placeholder. fromText says the name repeats the text below it.
func (b *builder) rolelessName(fd *frameData, ax *domsnap.AXNode, dom int) (string, bool) {
	n := &b.c.Documents[fd.doc].Nodes[dom]
	if v, ok := n.Attr("aria-label"); ok && strings.TrimSpace(v) != "" {
		return clean(v), false
	}
	if ax.Name != "" {
		if ax.NameFrom == "contents" {
			return b.seenName(fd, dom, ax.Name), true
		}
		return ax.Name, false
	}
	if t := b.textContent(fd, dom, roleless+1); t != "" {
		return textcut.Runes(t, roleless), true
	}
	if v, ok := n.Attr("title"); ok && strings.TrimSpace(v) != "" {
		return clean(v), false
	}
	for _, k := range b.domKids(fd, dom) {
		c := &b.c.Documents[fd.doc].Nodes[k]
		if strings.EqualFold(c.Name, "img") {
			if v, ok := c.Attr("alt"); ok && strings.TrimSpace(v) != "" {
				return clean(v), false
			}
		}
	}
	if v, ok := n.Attr("placeholder"); ok {
		return clean(v), false
	}
	return "", false
}

// domKids returns the DOM children of node i, building the lists once.
func (b *builder) domKids(fd *frameData, i int) []int {
	if fd.kids == nil {
		nodes := b.c.Documents[fd.doc].Nodes
		fd.kids = make([][]int, len(nodes))
		for k := range nodes {
			if p := nodes[k].Parent; p >= 0 {
				fd.kids[p] = append(fd.kids[p], k)
			}
		}
	}
	return fd.kids[i]
}

// textContent is the visible text below node i, whitespace collapsed, up to
// limit runes.
func (b *builder) textContent(fd *frameData, i, limit int) string {
	var sb strings.Builder
	var walk func(k int)
	walk = func(k int) {
		if sb.Len() > limit*4 {
			return
		}
		n := &b.c.Documents[fd.doc].Nodes[k]
		if n.Type == domsnap.TextNode {
			if b.g.IsVisible(fd.doc, k) && b.sightOf(fd.doc, k, false) == "" {
				sb.WriteString(n.Value)
				sb.WriteByte(' ')
			}
			return
		}
		if tag := strings.ToLower(n.Name); tag == "script" || tag == "style" || tag == "template" {
			return
		}
		for _, c := range b.domKids(fd, k) {
			walk(c)
		}
	}
	walk(i)
	return clean(sb.String())
}

// linkURL prefers the href as written (short), else Chrome's resolved URL.
func (b *builder) linkURL(fd *frameData, ax *domsnap.AXNode, dom int) string {
	if dom >= 0 {
		if v, ok := b.c.Documents[fd.doc].Nodes[dom].Attr("href"); ok && v != "" {
			return v
		}
	}
	v, _ := ax.Prop("url")
	return v
}

// stateOrder is the order states print in.
var stateOrder = [...]string{"checked", "disabled", "expanded", "invalid", "level", "pressed", "selected", "required", "readonly"}

// stateIndex is a state's place in stateOrder, -1 for other properties.
func stateIndex(name string) int {
	for k, s := range stateOrder {
		if s == name {
			return k
		}
	}
	return -1
}

// liveRegion: a live region is kept even as an unnamed wrapper, since
// agents watch it for the result of their actions.
func liveRegion(ax *domsnap.AXNode) bool {
	v, _ := ax.Prop("live")
	return v == "polite" || v == "assertive"
}

// states reads the node's properties in one pass (the first of a name
// counts, as in Prop).
func states(ax *domsnap.AXNode) []string {
	var vals [len(stateOrder)]string
	var has [len(stateOrder)]bool
	live, liveSeen := "", false
	for _, p := range ax.Props {
		if p.Name == "live" && !liveSeen {
			live, liveSeen = p.Value, true
		} else if k := stateIndex(p.Name); k >= 0 && !has[k] {
			vals[k], has[k] = p.Value, true
		}
	}
	var out []string
	if (live == "polite" || live == "assertive") && !hasLiveRole(ax.Role) {
		out = append(out, "live="+live)
	}
	for k, name := range stateOrder {
		v, ok := vals[k], has[k]
		if !ok {
			continue
		}
		switch {
		case name == "level":
			if ax.Role == "heading" && v != "" {
				out = append(out, "level="+v)
			}
		case v == "true":
			out = append(out, name)
		case v == "mixed" && (name == "checked" || name == "pressed"):
			out = append(out, name+"=mixed")
		case v == "false" && name == "expanded":
			out = append(out, "expanded=false")
		case name == "invalid" && (v == "grammar" || v == "spelling"):
			out = append(out, "invalid="+v) // aria-invalid's kinds, as Playwright prints them
		}
	}
	return out
}

// hasLiveRole: roles whose liveness is implied (status, alert, log, ...).
func hasLiveRole(role string) bool {
	switch role {
	case "status", "alert", "log", "marquee", "timer":
		return true
	}
	return false
}

// value is the current value a control's line prints.
func value(ax *domsnap.AXNode) string {
	switch ax.Role {
	case "textbox", "searchbox", "combobox", "spinbutton", "slider", "progressbar", "meter", "scrollbar",
		"Date", "DateTime", "InputTime", "ColorWell":
		return ax.Value
	}
	return ""
}

// clean collapses whitespace runs to one space and trims.
func clean(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// normalize merges adjacent text lines that joinable allows and drops
// empty ones.
func normalize(ns []*Node, joinable func(a, b *Node) bool) []*Node {
	out := ns[:0]
	for _, n := range ns {
		if n.Role == "text" {
			if last := len(out) - 1; last >= 0 && out[last].Role == "text" && joinable(out[last], n) {
				if out[last].owner != n.owner {
					out[last].Text += " "
				}
				out[last].Text += n.Text
				out[last].owner = n.owner
				out[last].bidi = out[last].bidi || n.bidi
				if n.run.ok {
					out[last].run = n.run
				}
				continue
			}
		}
		out = append(out, n)
	}
	final := out[:0]
	for k, n := range out {
		if n.Role == "text" {
			n.Text = clean(n.Text)
			if n.Text == "" || k+1 < len(out) && labels(n.Text, out[k+1]) {
				continue
			}
		}
		final = append(final, n)
	}
	return final
}

// labels: a text that Chrome used as the name of the control right after
// it (name source label/labelfor) is not printed twice.
func labels(text string, next *Node) bool {
	switch next.nameFrom {
	case "label", "labelfor", "labelwrapped":
		return clean(next.Name) == text
	}
	return false
}

// labelNames reports whether a label node holds a control whose name Chrome
// took from this label: the label's text is then already in that name.
func (b *builder) labelNames(fd *frameData, i, depth int) bool {
	if depth > 3 {
		return false
	}
	for _, id := range fd.f.AXNodes[i].Children {
		k, ok := fd.byID.get(id)
		if !ok {
			continue
		}
		switch fd.f.AXNodes[k].NameFrom {
		case "labelwrapped", "label", "labelfor":
			return true
		}
		if b.labelNames(fd, k, depth+1) {
			return true
		}
	}
	return false
}

// wrapsHiddenControl: a label holding a form control that takes no click
// of its own (display: none, visibility: hidden), so the label is what a
// person clicks.
func (b *builder) wrapsHiddenControl(fd *frameData, label int) bool {
	nodes := b.c.Documents[fd.doc].Nodes
	end := int(b.g.Docs[fd.doc].End[label])
	for k := label + 1; k <= end && k < len(nodes); k++ {
		switch nodes[k].Name {
		case "INPUT", "SELECT", "TEXTAREA":
			if typ, _ := nodes[k].Attr("type"); typ != "hidden" && !b.g.IsTangible(fd.doc, k) {
				return true
			}
		}
	}
	return false
}
