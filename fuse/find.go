package fuse

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/internal/roles"
	"github.com/axfuse/axfuse/internal/textcut"
)

var refPattern = regexp.MustCompile(index.RefPattern) // the ref grammar

// Query selects nodes for Find; empty fields match anything, but a Query
// with no field set matches nothing.
type Query struct {
	Role string // exact role, case-insensitive
	Name string // substring of the name, case-insensitive
	Text string // substring of the name, text, value or URL
}

// Match is one node Find found, with where it stands.
type Match struct {
	Line  string      `json:"line"`  // the node's aria line
	Path  []string    `json:"path"`  // the aria lines of its ancestors, root first
	Box   *[4]float64 `json:"box"`   // viewport CSS px
	Where string      `json:"where"` // "in view", "off-screen below", "covered by ..."
	Ref   string      `json:"ref,omitempty"`
	// Context is the first lines of the match's subtree, as YAML.
	Context string `json:"context,omitempty"`
}

// contextLines is how much of a match's subtree Find shows.
const contextLines = 6

func context(f Format, n *Node) string {
	if len(n.Children) == 0 {
		return ""
	}
	lines := strings.SplitAfter(Text(f, []*Node{n}), "\n")
	if len(lines) > contextLines {
		lines = append(lines[:contextLines], f.More())
	}
	return strings.Join(lines, "")
}

// giveRef hands an interactive match its ref even when the view left it
// out (off-screen, collapsed): acting on it scrolls it into view.
func (t *Tree) giveRef(n *Node) {
	if n.target == nil || n.Ref != "" {
		return
	}
	n.Ref = t.view.opts.Refs.Ref(n.target.key)
	t.view.opts.Refs.Remember(n.Ref, index.Fingerprint{Role: n.Role, Name: DisplayName(n.Name), Tag: n.target.tag})
}

// Find searches the whole fused tree, off-screen and covered nodes
// included: the pruned view plus an unfiltered query.
func (t *Tree) Find(q Query) []Match {
	var out []Match
	var walk func(ns []*Node, path []string)
	walk = func(ns []*Node, path []string) {
		for _, n := range ns {
			line := Key(n)
			if n.Role == "text" {
				line = textKey(n) + ": " + scalar(textcut.Runes(n.Text, maxTextLen))
			}
			if q.matches(n) && !t.cutAway(n) {
				t.giveRef(n)
				m := Match{Line: Key(n), Path: append([]string(nil), path...), Where: t.where(n), Ref: n.Ref, Context: context(t.Format(), n)}
				if n.Role == "text" {
					m.Line = line
				}
				if n.status.hasBox {
					b := n.status.box
					m.Box = &[4]float64{round2(b.X), round2(b.Y), round2(b.W), round2(b.H)}
				}
				out = append(out, m)
			}
			walk(n.Children, append(path, line))
		}
	}
	walk(t.Full(), nil)
	return out
}

// cutAway: a node no one sees until the page changes (outside a box that
// hides its overflow, in SVG never rendered: layout's CutAway). Unlike
// off-screen or covered content, Find does not quote it, for it would be
// a channel for words no one sees. Screen-reader-only text stays.
func (t *Tree) cutAway(n *Node) bool {
	if n.status.hasSpan || !n.at.ok {
		return false
	}
	g := t.view.g
	return g.CutAway(n.at.Doc, n.at.Node) && !g.IsUnseen(n.at.Doc, n.at.Node)
}

func (q Query) matches(n *Node) bool {
	if q.Role == "" && q.Name == "" && q.Text == "" {
		return false
	}
	if q.Role != "" && !roles.Same(q.Role, n.Role) {
		return false
	}
	if q.Name != "" && !strings.Contains(strings.ToLower(n.Name), strings.ToLower(q.Name)) {
		return false
	}
	if q.Text != "" {
		hay := strings.ToLower(n.Name + "\n" + n.Text + "\n" + n.Value + "\n" + n.URL)
		if !strings.Contains(hay, strings.ToLower(q.Text)) {
			return false
		}
	}
	return true
}

func (t *Tree) where(n *Node) string {
	switch {
	case n.status.occluded && n.status.cover != "":
		return "covered by " + n.status.cover
	case n.status.occluded:
		return "covered"
	case !n.status.hasSpan:
		return "no box"
	}
	s, vp := n.status.span, t.viewport
	switch {
	case s.Y >= vp.Y+vp.H:
		return "off-screen below"
	case s.Y+s.H <= vp.Y:
		return "off-screen above"
	case s.X >= vp.X+vp.W:
		return "off-screen right"
	case s.X+s.W <= vp.X:
		return "off-screen left"
	}
	return "in view"
}

// MatchesYAML renders Find's matches, one YAML item each: the line, its
// path, box and where it stands.
func MatchesYAML(ms []Match) string {
	var sb strings.Builder
	for _, m := range ms {
		sb.WriteString("- match: " + yamlKey(m.Line) + "\n")
		if len(m.Path) > 0 {
			sb.WriteString("  path: " + yamlKey(strings.Join(m.Path, " > ")) + "\n")
		}
		if m.Box != nil {
			fmt.Fprintf(&sb, "  box: [%g, %g, %g, %g]\n", m.Box[0], m.Box[1], m.Box[2], m.Box[3])
		}
		sb.WriteString("  where: " + scalar(m.Where) + "\n")
		if m.Ref != "" {
			sb.WriteString("  ref: " + m.Ref + "\n")
		}
		if m.Context != "" {
			sb.WriteString("  context:\n")
			for _, l := range strings.SplitAfter(strings.TrimSuffix(m.Context, "\n"), "\n") {
				sb.WriteString("    " + strings.TrimSuffix(l, "\n") + "\n")
			}
		}
	}
	return sb.String()
}

// Spot is what a click at a viewport point reaches.
type Spot struct {
	Covered bool   `json:"covered"` // a node takes the click
	Ref     string `json:"ref,omitempty"`
	Line    string `json:"line,omitempty"` // the ref's aria line, or the node's name
}

// At answers what a click at (x, y) reaches: the nearest ref'd element at
// or above the node hit, or that node's name.
func (t *Tree) At(x, y float64) Spot {
	hit, ok := t.view.ix.TopAt(x, y)
	if !ok {
		return Spot{}
	}
	if name := t.view.c.Documents[hit.Doc].Nodes[hit.Node].Name; name == "HTML" || name == "BODY" {
		return Spot{} // the page's own background
	}
	byKey := map[domsnap.Key]Element{}
	for _, el := range t.Elements {
		byKey[domsnap.Key{Frame: el.Frame, Backend: el.BackendNodeID}] = el
	}
	nodes := t.view.c.Documents[hit.Doc].Nodes
	frame := t.view.c.Documents[hit.Doc].FrameID
	for k, depth := hit.Node, 0; k >= 0 && depth < 4096; k, depth = int(nodes[k].Parent), depth+1 {
		if el, ok := byKey[domsnap.Key{Frame: frame, Backend: nodes[k].Backend}]; ok {
			return Spot{Covered: true, Ref: el.Ref, Line: Key(&Node{Role: el.Role, Name: el.Name})}
		}
	}
	return Spot{Covered: true, Line: t.view.coverName(where{hit, true})}
}
