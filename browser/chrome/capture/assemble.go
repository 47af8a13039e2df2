package capture

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/domsnapshot"
)

// assemble converts the raw CDP results into a plain Capture.
func assemble(frames []frameInfo, p *parts) (*domsnap.Capture, error) {
	if p.axErrs[0] != nil {
		return nil, p.axErrs[0]
	}
	if p.docs == nil && (p.snapshot == nil || len(p.snapshot.Documents) == 0) {
		return nil, fmt.Errorf("DOMSnapshot.captureSnapshot: no documents")
	}
	c := &domsnap.Capture{Version: domsnap.FormatVersion, Mode: domsnap.CaptureFull, URL: frames[0].url}
	if m := p.metrics; m != nil && m.CSSLayoutViewport != nil {
		lv := m.CSSLayoutViewport
		c.Viewport = domsnap.Viewport{Width: float64(lv.ClientWidth), Height: float64(lv.ClientHeight),
			ScrollX: float64(lv.PageX), ScrollY: float64(lv.PageY), DevicePixelRatio: 1}
	}
	if p.dpr > 0 {
		c.Viewport.DevicePixelRatio = p.dpr
	}
	c.Documents = convertDocuments(p)
	c.Title = c.Documents[0].Title
	c.Frames = convertFrames(p)
	return c, nil
}

// convertDocuments converts one process's documents; their content-document
// indexes stay relative to the process's own list.
func convertDocuments(p *parts) []domsnap.Document {
	if p.docs != nil {
		return p.docs
	}
	var out []domsnap.Document
	for _, d := range p.snapshot.Documents {
		doc := convertDocument(d, p.snapshot.Strings, p.listeners)
		doc.Target = p.target
		out = append(out, doc)
	}
	return out
}

// convertFrames gives each of one process's frames its AX tree or error.
func convertFrames(p *parts) []domsnap.Frame {
	var out []domsnap.Frame
	for i, f := range p.frames {
		fr := domsnap.Frame{FrameID: f.id, ParentFrameID: f.parent, URL: f.url, LoaderID: f.loader}
		if p.viewAX != nil {
			ax, ok := p.viewAX[f.id]
			if !ok {
				continue // a frame the viewport pass did not reach
			}
			fr.AXNodes = ax
		} else if p.axErrs[i] != nil {
			fr.Error = p.axErrs[i].Error()
		} else if p.axTrees[i] != nil {
			fr.AXNodes = convertAX(p.axTrees[i].Nodes)
		}
		out = append(out, fr)
	}
	return out
}

// str reads the snapshot's string table, tolerating bad indexes.
func str(strs []string, i domsnapshot.StringIndex) string {
	if i < 0 || int(i) >= len(strs) {
		return ""
	}
	return strs[i]
}

func convertDocument(d *domsnapshot.DocumentSnapshot, strs []string, listeners map[int64][]string) domsnap.Document {
	doc := domsnap.Document{
		FrameID: str(strs, d.FrameID), URL: str(strs, d.DocumentURL), Title: str(strs, d.Title),
		ScrollX: d.ScrollOffsetX, ScrollY: d.ScrollOffsetY,
		ContentWidth: d.ContentWidth, ContentHeight: d.ContentHeight,
	}
	nt := d.Nodes
	if nt == nil {
		return doc
	}
	n := len(nt.ParentIndex)
	doc.Nodes = make([]domsnap.Node, n)
	for i := range n {
		node := &doc.Nodes[i]
		node.Parent = int32(nt.ParentIndex[i])
		if i < len(nt.NodeType) {
			node.Type = int(nt.NodeType[i])
		}
		if i < len(nt.NodeName) {
			node.Name = str(strs, nt.NodeName[i])
		}
		if i < len(nt.NodeValue) {
			node.Value = str(strs, nt.NodeValue[i])
		}
		if i < len(nt.BackendNodeID) {
			node.Backend = int64(nt.BackendNodeID[i])
			node.Listeners = listeners[node.Backend]
		}
		if i < len(nt.Attributes) {
			a := nt.Attributes[i]
			node.Attrs = make([]string, len(a))
			for k, s := range a {
				node.Attrs[k] = str(strs, domsnapshot.StringIndex(s))
			}
		}
	}
	rareStrings(nt.InputValue, strs, n, func(i int, v string) { doc.Nodes[i].InputValue = v })
	rareStrings(nt.TextValue, strs, n, func(i int, v string) { doc.Nodes[i].InputValue = v })
	rareStrings(nt.ShadowRootType, strs, n, func(i int, v string) { doc.Nodes[i].ShadowRootType = v })
	rareStrings(nt.PseudoType, strs, n, func(i int, v string) { doc.Nodes[i].PseudoType = v })
	rareBools(nt.InputChecked, n, func(i int) { doc.Nodes[i].Checked = true })
	rareBools(nt.OptionSelected, n, func(i int) { doc.Nodes[i].Selected = true })
	rareBools(nt.IsClickable, n, func(i int) { doc.Nodes[i].Clickable = true })
	if cd := nt.ContentDocumentIndex; cd != nil {
		for k, i := range cd.Index {
			if int(i) < n && k < len(cd.Value) {
				doc.Nodes[i].ContentDocument = int(cd.Value[k])
			}
		}
	}
	convertLayout(&doc, d.Layout, strs)
	convertTextBoxes(&doc, d.Layout, d.TextBoxes)
	return doc
}

func rareStrings(r *domsnapshot.RareStringData, strs []string, n int, set func(int, string)) {
	if r == nil {
		return
	}
	for k, i := range r.Index {
		if i >= 0 && int(i) < n && k < len(r.Value) {
			set(int(i), str(strs, r.Value[k]))
		}
	}
}

func rareBools(r *domsnapshot.RareBooleanData, n int, set func(int)) {
	if r == nil {
		return
	}
	for _, i := range r.Index {
		if i >= 0 && int(i) < n {
			set(int(i))
		}
	}
}

func rect(r domsnapshot.Rectangle) domsnap.Rect {
	if len(r) < 4 {
		return domsnap.Rect{}
	}
	return domsnap.Rect{X: r[0], Y: r[1], W: r[2], H: r[3]}
}

// maxGeneratedText bounds the generated text kept of one pseudo element.
const maxGeneratedText = 10000

// convertLayout attaches each DOM node's first layout object, interning the
// computed-style tuples.
func convertLayout(doc *domsnap.Document, l *domsnapshot.LayoutTreeSnapshot, strs []string) {
	if l == nil {
		return
	}
	styleIndex := map[string]int{}
	stacking := map[int64]bool{}
	if l.StackingContexts != nil {
		for _, i := range l.StackingContexts.Index {
			stacking[i] = true
		}
	}
	for k, ni := range l.NodeIndex {
		if ni < 0 || int(ni) >= len(doc.Nodes) {
			continue
		}
		if prev := doc.Nodes[ni].Layout; prev != nil {
			// A pseudo element's generated text comes in layout objects
			// after its box, one a piece of its content: what it paints
			// (the AX tree names it by CSS content's alt text instead,
			// when it has one).
			if doc.Nodes[ni].PseudoType != "" && k < len(l.Text) && len(prev.Text) < maxGeneratedText {
				prev.Text += str(strs, l.Text[k])
			}
			continue
		}
		lay := &domsnap.Layout{Style: -1, StackingContext: stacking[int64(k)]}
		if k < len(l.Bounds) {
			lay.Bounds = rect(l.Bounds[k])
		}
		if k < len(l.Text) {
			lay.Text = str(strs, l.Text[k])
		}
		if k < len(l.PaintOrders) {
			lay.PaintOrder = l.PaintOrders[k]
		}
		if k < len(l.ClientRects) && len(l.ClientRects[k]) == 4 {
			r := rect(l.ClientRects[k])
			lay.Client = &r
		}
		if k < len(l.ScrollRects) && len(l.ScrollRects[k]) == 4 {
			r := rect(l.ScrollRects[k])
			lay.Scroll = &r
		}
		if k < len(l.Styles) {
			lay.Style = internStyle(doc, styleIndex, l.Styles[k], strs)
		}
		doc.Nodes[ni].Layout = lay
	}
}

// convertTextBoxes attaches the line boxes of each text node.
func convertTextBoxes(doc *domsnap.Document, l *domsnapshot.LayoutTreeSnapshot, tb *domsnapshot.TextBoxSnapshot) {
	if l == nil || tb == nil {
		return
	}
	for k, li := range tb.LayoutIndex {
		if li < 0 || int(li) >= len(l.NodeIndex) || k >= len(tb.Bounds) {
			continue
		}
		ni := l.NodeIndex[li]
		if ni < 0 || int(ni) >= len(doc.Nodes) || doc.Nodes[ni].Layout == nil {
			continue
		}
		lay := doc.Nodes[ni].Layout
		lay.Fragments = append(lay.Fragments, rect(tb.Bounds[k]))
	}
}

func internStyle(doc *domsnap.Document, index map[string]int, idx domsnapshot.ArrayOfStrings, strs []string) int {
	vals := make([]string, len(idx))
	for i, s := range idx {
		vals[i] = str(strs, domsnapshot.StringIndex(s))
	}
	key := strings.Join(vals, "\x00")
	if i, ok := index[key]; ok {
		return i
	}
	index[key] = len(doc.Styles)
	doc.Styles = append(doc.Styles, domsnap.StyleFromValues(vals))
	return len(doc.Styles) - 1
}

func convertAX(nodes []*accessibility.Node) []domsnap.AXNode {
	out := make([]domsnap.AXNode, 0, len(nodes))
	for _, n := range nodes {
		if n == nil {
			continue
		}
		a := domsnap.AXNode{
			ID: string(n.NodeID), Parent: string(n.ParentID), Backend: int64(n.BackendDOMNodeID),
			Ignored: n.Ignored, Role: ValueString(n.Role), Name: ValueString(n.Name),
			Description: ValueString(n.Description), Value: ValueString(n.Value),
			NameFrom: nameSource(n.Name),
		}
		for _, c := range n.ChildIDs {
			a.Children = append(a.Children, string(c))
		}
		for _, r := range n.IgnoredReasons {
			if r != nil {
				a.IgnoredReasons = append(a.IgnoredReasons, string(r.Name))
			}
		}
		for _, pr := range n.Properties {
			if pr != nil {
				a.Props = append(a.Props, domsnap.Prop{Name: string(pr.Name), Value: ValueString(pr.Value)})
			}
		}
		out = append(out, a)
	}
	return out
}

// ValueString renders an AX value as text: strings unquoted, other JSON
// (booleans, numbers, tristates) as written.
func ValueString(v *accessibility.Value) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	if s, ok := plainJSONString(v.Value); ok {
		return s
	}
	var s string
	if json.Unmarshal(v.Value, &s) == nil {
		return s
	}
	return string(v.Value)
}

// plainJSONString reads a JSON string with no escapes in it (most AX
// roles and names) without the decoder, which a capture would call some
// thousands of times.
func plainJSONString(raw []byte) (string, bool) {
	n := len(raw)
	if n < 2 || raw[0] != '"' || raw[n-1] != '"' {
		return "", false
	}
	body := raw[1 : n-1]
	for _, c := range body {
		if c == '\\' || c == '"' || c < 0x20 {
			return "", false
		}
	}
	if !utf8.Valid(body) {
		return "", false
	}
	return string(body), true
}

// nameSource is the source Chrome used for the name: the first source that
// has a value and is not superseded.
func nameSource(v *accessibility.Value) string {
	if v == nil {
		return ""
	}
	for _, s := range v.Sources {
		if s == nil || s.Superseded || s.Value == nil {
			continue
		}
		if s.NativeSource != "" {
			return string(s.NativeSource)
		}
		if s.Attribute != "" {
			return "attribute"
		}
		return string(s.Type)
	}
	return ""
}
