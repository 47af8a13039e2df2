// Package truth is the ground truth an observation is measured against:
// the elements in the viewport a person can click, as the browser judges
// them. An element is a target when it has a click-like listener of its
// own or native activation (a link, a control, a clickable role, a tab
// stop), it is rendered visibly with a box in view, and the browser's hit
// test at its clickable point (its shown box's centre) reaches it or a
// node inside it. A listener on an element that holds other targets is
// delegation, not a target of its own.
//
// The hit tests are the browser's part; they travel in the capture
// (domsnap.Capture.Hits), so a recorded capture is measured offline
// exactly as the live page was. Everything here is pure.
package truth

import (
	"strconv"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

// Candidate is an element that would be a target if a click at its point
// reached it.
type Candidate struct {
	Pos domsnap.Pos
	Key domsnap.Key
	Tag string
	// Listener: a click-like listener (or an onclick attribute) of its own;
	// Native: activation behaviour of its own.
	Listener, Native bool
	Box              layout.Box // shown box, viewport CSS px
	Point            [2]float64 // where a click goes
	Text             string     // a few words of its content, for reports
}

// ListenerOnly is a candidate that only its listener makes clickable: the
// targets ARIA-only observers miss.
func (c *Candidate) ListenerOnly() bool { return c.Listener && !c.Native }

// clickableRoles are the ARIA roles whose element a person activates.
var clickableRoles = map[string]bool{
	"button": true, "link": true, "checkbox": true, "radio": true, "switch": true, "tab": true,
	"menuitem": true, "menuitemcheckbox": true, "menuitemradio": true, "option": true,
	"combobox": true, "textbox": true, "searchbox": true, "slider": true, "spinbutton": true, "treeitem": true,
}

// minSide is the least width and height (CSS px) of a box a person can
// aim at.
const minSide = 2

// Candidates lists the elements of the capture that could be targets, in
// capture order.
func Candidates(c *domsnap.Capture, g *layout.Geometry) []Candidate {
	view := g.ViewportBox(0)
	var out []Candidate
	for d := range c.Documents {
		doc := &c.Documents[d]
		for i := range doc.Nodes {
			n := &doc.Nodes[i]
			if n.Type != 1 || n.PseudoType != "" || n.Name == "HTML" || n.Name == "BODY" {
				continue
			}
			listener, native := hasListener(n), isNative(n)
			if !listener && !native {
				continue
			}
			if !g.IsVisible(d, i) || g.IsGhost(d, i) {
				continue
			}
			point, ok := ClickPoint(c, g, domsnap.Pos{Doc: d, Node: i})
			if !ok {
				continue
			}
			out = append(out, Candidate{
				Pos: domsnap.Pos{Doc: d, Node: i}, Key: domsnap.Key{Frame: doc.FrameID, Backend: n.Backend},
				Tag: strings.ToLower(n.Name), Listener: listener, Native: native,
				Box: layout.Intersect(g.ShownBox(d, i), view), Point: point, Text: textOf(g, doc, d, i),
			})
		}
	}
	return out
}

func hasListener(n *domsnap.Node) bool {
	if len(n.Listeners) > 0 {
		return true
	}
	_, ok := n.Attr("onclick")
	return ok
}

// isNative: activation behaviour of its own, and not disabled.
func isNative(n *domsnap.Node) bool {
	if _, disabled := n.Attr("disabled"); disabled {
		return false
	}
	switch n.Name {
	case "A", "AREA":
		_, ok := n.Attr("href")
		return ok
	case "BUTTON", "SELECT", "TEXTAREA", "SUMMARY":
		return true
	case "INPUT":
		t, _ := n.Attr("type")
		return !strings.EqualFold(t, "hidden")
	}
	if role, ok := n.Attr("role"); ok && clickableRoles[strings.ToLower(strings.TrimSpace(role))] {
		return true
	}
	if ce, ok := n.Attr("contenteditable"); ok && (ce == "" || strings.EqualFold(ce, "true")) {
		return true
	}
	if ti, ok := n.Attr("tabindex"); ok {
		v, err := strconv.Atoi(strings.TrimSpace(ti))
		return err == nil && v >= 0
	}
	return false
}

// maxText bounds the words a report shows of a target.
const maxText = 40

// textOf is the start of an element's text content, spaces collapsed.
func textOf(g *layout.Geometry, doc *domsnap.Document, d, i int) string {
	var sb strings.Builder
	for k := i + 1; k < len(doc.Nodes) && sb.Len() < maxText && g.Contains(d, i, k); k++ {
		if doc.Nodes[k].Type == 3 {
			sb.WriteString(doc.Nodes[k].Value)
			sb.WriteByte(' ')
		}
	}
	s := strings.Join(strings.Fields(sb.String()), " ")
	if v := doc.Nodes[i].InputValue; s == "" && v != "" {
		s = v
	}
	if r := []rune(s); len(r) > maxText {
		s = string(r[:maxText]) + "…"
	}
	return s
}
