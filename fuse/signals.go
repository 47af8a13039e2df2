package fuse

import (
	"fmt"
	"math"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
)

// wrapperRoles are dropped when unnamed, their children promoted.
var wrapperRoles = map[string]bool{
	"generic": true, "none": true, "presentation": true, "LabelText": true,
	"Section": true, "LayoutTable": true, "LayoutTableRow": true,
	"LayoutTableCell": true, "Pre": true, "Abbr": true, "Ruby": true, "MenuListPopup": true,
	"sectionheader": false, "Canvas": false,
}

// leafRoles print no children: text fields hold their value, not a tree.
var leafRoles = map[string]bool{"textbox": true, "searchbox": true, "spinbutton": true, "slider": true, "progressbar": true, "meter": true, "separator": true, "scrollbar": true}

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
	s := index.Signals{Role: ax.Role}
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
	n := &b.c.Documents[fd.doc].Nodes[dom]
	s.Tag = strings.ToLower(n.Name)
	s.Root = n.Type == domsnap.DocumentNode || s.Tag == "html" || s.Tag == "body"
	if n.Type != domsnap.ElementNode {
		return s
	}
	if s.Role == "link" && !s.HasHref {
		_, s.HasHref = n.Attr("href")
	}
	s.Listeners = n.Listeners
	s.Clickable = n.Clickable && !nativeClickable[s.Tag]
	f := b.facts(fd)
	s.AppRoot, s.CursorStart, s.Delegated = f.appRoot[dom], f.cursorStart[dom], f.delegated[dom]
	s.Label = s.Tag == "label" && b.wrapsHiddenControl(fd, dom)
	s.Scrollable = f.scroll[dom] != ""
	return s
}

// domFacts are per-document DOM signals that need the tree around a node.
type domFacts struct {
	cursorStart []bool   // cursor: pointer where the parent's is not
	appRoot     []bool   // a click listener serving three or more targets below
	delegated   []bool   // below an app root, or below a root with a click listener
	scroll      []string // "[scroll: 0% ↓ 2.1 screens]" for scrollable containers
}

// minDelegated is how many targets below an element make its click
// listener a delegated one.
const minDelegated = 3

func (b *builder) facts(fd *frameData) *domFacts {
	if fd.facts != nil {
		return fd.facts
	}
	doc := &b.c.Documents[fd.doc]
	n := len(doc.Nodes)
	f := &domFacts{cursorStart: make([]bool, n), appRoot: make([]bool, n), delegated: make([]bool, n), scroll: make([]string, n)}
	cursor := make([]bool, n) // computed cursor is pointer
	below := make([]int, n)   // target signals in the subtree, self excluded
	for i := range doc.Nodes {
		node := &doc.Nodes[i]
		if node.Type != domsnap.ElementNode || node.Layout == nil || node.Layout.Style < 0 {
			if p := node.Parent; p >= 0 {
				cursor[i] = cursor[p]
			}
			continue
		}
		st := doc.Styles[node.Layout.Style]
		cursor[i] = st.Cursor == "pointer"
		parentPointer := node.Parent >= 0 && cursor[node.Parent]
		f.cursorStart[i] = cursor[i] && !parentPointer && b.g.IsVisible(fd.doc, i)
		f.scroll[i] = scrollState(node, st)
	}
	for i := range doc.Nodes {
		below[i] = doc.Nodes[i].ElidedTargets
	}
	for i := n - 1; i > 0; i-- {
		if p := doc.Nodes[i].Parent; p >= 0 {
			below[p] += below[i]
			if targetSignal(&doc.Nodes[i], f.cursorStart[i]) {
				below[p]++
			}
		}
	}
	for i := range doc.Nodes {
		node := &doc.Nodes[i]
		listens := hasClick(node.Listeners)
		root := node.Type == domsnap.DocumentNode || node.Name == "HTML" || node.Name == "BODY"
		f.appRoot[i] = listens && !root && below[i] >= minDelegated
		if p := node.Parent; p >= 0 {
			pn := &doc.Nodes[p]
			pRoot := pn.Type == domsnap.DocumentNode || pn.Name == "HTML" || pn.Name == "BODY"
			f.delegated[i] = f.delegated[p] || f.appRoot[p] || pRoot && hasClick(pn.Listeners)
		}
	}
	fd.facts = f
	return f
}

func hasClick(types []string) bool {
	for _, t := range types {
		switch t {
		case "click", "mousedown", "mouseup", "pointerdown", "pointerup":
			return true
		}
	}
	return false
}

// targetSignal: what marks a likely target below a listener.
func targetSignal(n *domsnap.Node, cursorStart bool) bool {
	if n.Type != domsnap.ElementNode {
		return false
	}
	if cursorStart {
		return true
	}
	switch n.Name {
	case "BUTTON", "INPUT", "SELECT", "TEXTAREA":
		return true
	case "A":
		_, href := n.Attr("href")
		return href
	}
	if v, ok := n.Attr("tabindex"); ok && !strings.HasPrefix(strings.TrimSpace(v), "-") {
		return true
	}
	return false
}

// scrollState describes a container with content to scroll to, where it
// stands and how much is left: "scroll: 0% ↓ 2.1 screens".
func scrollState(n *domsnap.Node, st domsnap.Style) string {
	l := n.Layout
	if l.Client == nil || l.Scroll == nil || n.Name == "HTML" || n.Name == "BODY" {
		return ""
	}
	scrollable := func(o string) bool { return o == "auto" || o == "scroll" || o == "overlay" }
	c, sc := l.Client, l.Scroll
	axis := func(pos, total, view float64, arrow string) string {
		if view <= 0 || total-view < 2 {
			return ""
		}
		pct := 100 * pos / (total - view)
		left := (total - pos - view) / view
		return fmt.Sprintf("scroll: %.0f%% %s %.1f screens", math.Max(0, math.Min(100, pct)), arrow, math.Max(0, left))
	}
	if scrollable(st.OverflowY) {
		if s := axis(sc.Y, sc.H, c.H, "↓"); s != "" {
			return s
		}
	}
	if scrollable(st.OverflowX) {
		return axis(sc.X, sc.W, c.W, "→")
	}
	return ""
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
		return ax.Name, ax.NameFrom == "contents"
	}
	if t := b.textContent(fd, dom, roleless+1); t != "" {
		return cutRunes(t, roleless), true
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
			if b.g.IsVisible(fd.doc, k) {
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
var stateOrder = []string{"checked", "disabled", "expanded", "level", "pressed", "selected", "required", "readonly"}

// liveRegion: a live region is kept even as an unnamed wrapper, since
// agents watch it for the result of their actions.
func liveRegion(ax *domsnap.AXNode) bool {
	v, _ := ax.Prop("live")
	return v == "polite" || v == "assertive"
}

func states(ax *domsnap.AXNode) []string {
	var out []string
	if liveRegion(ax) && !hasLiveRole(ax.Role) {
		l, _ := ax.Prop("live")
		out = append(out, "live="+l)
	}
	for _, name := range stateOrder {
		v, ok := ax.Prop(name)
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

// valueRoles print their current value.
var valueRoles = map[string]bool{"textbox": true, "searchbox": true, "combobox": true, "spinbutton": true, "slider": true, "progressbar": true, "meter": true, "scrollbar": true}

func value(ax *domsnap.AXNode) string {
	if !valueRoles[ax.Role] {
		return ""
	}
	return ax.Value
}

// clean collapses whitespace runs to one space and trims.
func clean(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// cutRunes cuts s to n runes, marking the cut with "…".
func cutRunes(s string, n int) string {
	count := 0
	for i := range s {
		if count == n {
			return s[:i] + "…"
		}
		count++
	}
	return s
}

// normalize merges adjacent text lines and drops empty ones.
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
