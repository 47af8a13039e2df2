package fuse

import (
	"io"
	"strings"
)

// A Format writes a view's lines as text. YAML (Playwright's aria
// snapshot) is the one axfuse prints; the token budget, the delta and
// Find measure, compare and quote lines in the Format of the view's
// Options, so that another output format is one more implementation.
type Format interface {
	// Write writes the lines, each with its children.
	Write(w io.Writer, roots []*Node) error
	// LineCost is about how many o200k tokens a node's own line takes,
	// its children and its ref to come aside.
	LineCost(n *Node) int
	// Screenshot is the text that names an attached screenshot.
	Screenshot(path, reason string) string
	// More is the line that ends lines cut short (Find's context).
	More() string
}

// YAMLFormat is the YAML of Playwright's aria snapshot.
var YAMLFormat Format = yamlFormat{}

// Text is what f writes of these lines.
func Text(f Format, roots []*Node) string {
	var sb strings.Builder
	f.Write(&sb, roots)
	return sb.String()
}

// formatOf is a view's Format: YAML unless the options name another.
func formatOf(o Options) Format {
	if o.Format == nil {
		return YAMLFormat
	}
	return o.Format
}

type yamlFormat struct{}

func (yamlFormat) Write(w io.Writer, roots []*Node) error {
	if sb, ok := w.(*strings.Builder); ok {
		writeNodes(sb, roots, 0)
		return nil
	}
	var sb strings.Builder
	writeNodes(&sb, roots, 0)
	_, err := io.WriteString(w, sb.String())
	return err
}

// LineCost is about 3 bytes a token for YAML with quotes and brackets.
func (yamlFormat) LineCost(n *Node) int {
	var sb strings.Builder
	writeNode(&sb, &Node{Role: n.Role, Name: n.Name, Text: n.Text, URL: n.URL, Value: n.Value, Description: n.Description, States: n.States, bidi: n.bidi}, 0)
	return sb.Len()/3 + 2
}

func (yamlFormat) Screenshot(path, reason string) string {
	return "- screenshot: " + scalar(path) + "\n  reason: " + scalar(reason) + "\n"
}

func (yamlFormat) More() string { return "- note: …\n" }
