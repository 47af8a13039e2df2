package fuse

import (
	"fmt"
)

// modal scopes the view to an open modal dialog (aria-modal or showModal),
// with one line naming the page behind it, and the text a person reads
// behind it (inert.go) as lines with no refs.
func (v *view) modal(roots []*Node) []*Node {
	d := findNode(roots, func(n *Node) bool {
		return (n.Role == "dialog" || n.Role == "alertdialog") && n.modal && n.status.hasBox
	})
	if d == nil {
		return roots
	}
	title := "the page"
	if t := v.c.Title; t != "" {
		title = "the page " + Quote(DisplayName(t))
	}
	note := &Node{Role: "note", Text: fmt.Sprintf("modal dialog open, %s behind it is inert", title)}
	// What a person reads behind it stays, as text with no refs.
	return append(append([]*Node{note}, inertLinesIn(roots)...), d)
}

// inertLinesIn lists the inert text lines among ns and their children.
func inertLinesIn(ns []*Node) []*Node {
	var out []*Node
	for _, n := range ns {
		if n.inert {
			out = append(out, n)
			continue
		}
		out = append(out, inertLinesIn(n.Children)...)
	}
	return out
}

func findNode(ns []*Node, f func(*Node) bool) *Node {
	for _, n := range ns {
		if f(n) {
			return n
		}
		if m := findNode(n.Children, f); m != nil {
			return m
		}
	}
	return nil
}
