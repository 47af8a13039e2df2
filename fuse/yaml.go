package fuse

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/axfuse/axfuse/internal/textcut"
)

// The YAML follows Playwright's aria snapshot: one node a line,
//
//	- role "name" [state] [ref=e5]
//	- role "name" [ref=e6]: inline value or text
//	- role "name":
//	  - child
//	- text: some text
//	- /url: https://...
//	- link "txt.exe" [bidi] [ref=e7]
//	- text [bidi]: some text
//
// Every page string is escaped so that it cannot break a line, open a new
// one, or pass for a ref, a state or a key outside its quotes: names sit in
// double quotes with JSON-style escapes, and a whole key or value that is
// not a safe YAML plain scalar is quoted again as YAML. Parsing the YAML
// then reading the name back out of its quotes gives the page's string,
// less the characters that draw nothing (invisible.go). [bidi] on a line
// says its page strings held bidi embeddings, overrides or isolates: they
// print in logical order, which a person may have seen otherwise.

// YAML renders the lines in YAMLFormat.
func YAML(roots []*Node) string { return Text(YAMLFormat, roots) }

func writeNodes(sb *strings.Builder, ns []*Node, depth int) {
	for _, n := range ns {
		writeNode(sb, n, depth)
	}
}

func writeNode(sb *strings.Builder, n *Node, depth int) {
	indent := strings.Repeat("  ", depth)
	sb.WriteString(indent)
	sb.WriteString("- ")
	switch n.Role {
	case "text":
		sb.WriteString(textKey(n))
		sb.WriteString(": ")
		sb.WriteString(scalar(textcut.Runes(n.Text, maxTextLen)))
		sb.WriteByte('\n')
		return
	case "note":
		writeNote(sb, n.Text)
		return
	}
	n = withSummary(n)
	inline, children := inlineValue(n)
	sb.WriteString(fittingKey(withInlinedBidi(n, children)))
	switch {
	case inline != "":
		sb.WriteString(": ")
		sb.WriteString(scalar(inline))
		sb.WriteByte('\n')
	case len(children) > 0 || hasProps(n):
		sb.WriteString(":\n")
		writeBody(sb, n, children, indent, depth)
	default:
		sb.WriteByte('\n')
	}
}

// writeNote writes a note's text: axfuse's words, page names in them
// already quoted, plain where YAML allows.
func writeNote(sb *strings.Builder, text string) {
	sb.WriteString("note: ")
	// A leading count ("9 elements ...") is fine: YAML reads a plain
	// scalar as a number only when all of it is one.
	if plainSafe("n"+text, true) && strings.Contains(text, " ") {
		sb.WriteString(text)
	} else {
		sb.WriteString(Quote(text))
	}
	sb.WriteByte('\n')
}

// inlineValue is what a line prints after its key (a value, or its one
// text child), and the children it prints below; a value beside children
// goes first among them, as /value.
func inlineValue(n *Node) (inline string, children []*Node) {
	children = n.Children
	switch {
	case n.Value != "":
		inline = textcut.Runes(n.Value, maxValueLen)
	case len(children) == 1 && children[0].Role == "text" && !hasProps(n):
		inline = textcut.Runes(children[0].Text, maxTextLen)
		children = nil
	}
	if inline != "" && (len(children) > 0 || hasProps(n)) {
		children = append([]*Node{{Role: "/value", Text: inline}}, children...)
		inline = ""
	}
	return inline, children
}

// textKey is a text line's key: "text", marked when its text held bidi
// controls.
func textKey(n *Node) string {
	if n.bidi {
		return "text [" + bidiMark + "]"
	}
	return "text"
}

// withInlinedBidi is n marked [bidi] when its one child, a text that
// inlineValue prints on n's line (leaving nothing to print below), is.
func withInlinedBidi(n *Node, printedBelow []*Node) *Node {
	if n.bidi || len(n.Children) != 1 || len(printedBelow) > 0 || !n.Children[0].bidi {
		return n
	}
	cp := *n
	cp.bidi = true
	return &cp
}

// writeBody writes what sits below a line: its properties, then its
// children.
func writeBody(sb *strings.Builder, n *Node, children []*Node, indent string, depth int) {
	if n.URL != "" {
		sb.WriteString(indent + "  - /url: " + scalar(textcut.Runes(n.URL, maxURLLen)) + "\n")
	}
	if n.Description != "" {
		sb.WriteString(indent + "  - /description: " + scalar(textcut.Runes(n.Description, maxTextLen)) + "\n")
	}
	for _, c := range children {
		if c.Role == "/value" {
			sb.WriteString(indent + "  - /value: " + scalar(c.Text) + "\n")
			continue
		}
		writeNode(sb, c, depth+1)
	}
}

// withSummary prints a details group as Playwright does, its summary's
// text first among its children (`- group: More`), and keeps the
// summary's states and ref on the group's line: `- group [expanded=false]
// [ref=e3]: More` (e3 is the summary, which opens it). A summary holding
// links or controls keeps its own line, so nothing it holds is lost; so
// does the summary of a named group (a line's name is its ref's name).
func withSummary(n *Node) *Node {
	if n.Role != "group" || n.Name != "" || n.Ref != "" || len(n.Children) == 0 {
		return n
	}
	s := n.Children[0]
	if !s.summary || len(s.Children) > 0 {
		return n
	}
	g := *n
	g.States = append(append([]string(nil), n.States...), s.States...)
	g.Ref = s.Ref
	g.Children = n.Children[1:]
	if s.Name != "" {
		g.Children = append([]*Node{{Role: "text", Text: DisplayName(s.Name), bidi: s.bidi}}, g.Children...)
	}
	return &g
}

// hasProps: the node prints /url or /description lines under its key.
func hasProps(n *Node) bool { return n.URL != "" || n.Description != "" }

// maxKey is the longest key written. YAML reads an implicit key only up
// to 1024 characters; a name whose every character needs an escape would
// pass that, so such a name is cut shorter (with its "…").
const maxKey = 1000

// fittingKey is the node's YAML key, its name cut until the key fits.
func fittingKey(n *Node) string {
	k := yamlKey(Key(n))
	for limit := maxNameLen / 2; utf8.RuneCountInString(k) > maxKey && limit >= 8; limit /= 2 {
		cp := *n
		cp.Name = textcut.Runes(DisplayName(n.Name), limit)
		k = yamlKey(Key(&cp))
	}
	return k
}

// Key is a node's aria line before YAML quoting: role, quoted name, states
// and ref.
func Key(n *Node) string {
	var sb strings.Builder
	sb.WriteString(safeRole(n.Role))
	if name := DisplayName(n.Name); name != "" {
		sb.WriteByte(' ')
		sb.WriteString(Quote(name))
	}
	for _, s := range n.States {
		sb.WriteString(" [" + s + "]")
	}
	if n.bidi {
		sb.WriteString(" [" + bidiMark + "]")
	}
	if n.Ref != "" {
		sb.WriteString(" [ref=" + n.Ref + "]")
	}
	return sb.String()
}

// DisplayName is a name as the YAML and JSON show it: cut to maxNameLen
// runes, with invalid UTF-8 and unprintable astral characters as U+FFFD,
// runs of white space (no-break spaces too) as one space, and the
// characters that draw nothing gone (drawnAs: soft hyphens and zero-width
// spaces, as Playwright prints names, and every other format, control,
// private-use and ignorable character).
func DisplayName(s string) string {
	var sb strings.Builder
	space := false
	for _, r := range s {
		switch drawnAs(r) {
		case drawsNothing:
			continue
		case drawsBlank:
			r = ' '
		}
		switch {
		case unicode.IsSpace(r):
			space = sb.Len() > 0
			continue
		case r > 0xffff && !unicode.IsPrint(r):
			r = utf8.RuneError
		}
		if space {
			sb.WriteByte(' ')
			space = false
		}
		sb.WriteRune(r)
	}
	return textcut.Runes(sb.String(), maxNameLen)
}

// safeRole keeps a role to the characters roles are made of; roles come
// from Chrome, but a capture file could carry anything.
func safeRole(r string) string {
	ok := r != ""
	for _, c := range r {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			ok = false
			break
		}
	}
	if ok {
		return r
	}
	return "unknown"
}

// Quote writes s in double quotes with JSON-style escapes; it also escapes
// every character YAML would read as a line break or reject, and bidi
// controls that could make text appear outside its quotes.
func Quote(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	escapeInto(&sb, s)
	sb.WriteByte('"')
	return sb.String()
}

func escapeInto(sb *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			sb.WriteString(`\"`)
		case r == '\\':
			sb.WriteString(`\\`)
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\t':
			sb.WriteString(`\t`)
		case r == '\r':
			sb.WriteString(`\r`)
		case needsEscape(r):
			if r > 0xffff {
				r = utf8.RuneError
			}
			sb.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				sb.WriteByte(hex[(r>>shift)&0xf])
			}
		default:
			sb.WriteRune(r)
		}
	}
}

// needsEscape: controls, line/paragraph separators, BOM, non-characters,
// bidi overrides/isolates, and whatever else draws nothing: the rule
// removes those from page strings first, and what slips past it (a string
// built without it) still never prints raw.
func needsEscape(r rune) bool {
	switch {
	case drawnAs(r) != drawsGlyph:
		return true
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff, r == utf8.RuneError:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	case r > 0xffff && !unicode.IsPrint(r):
		return true
	}
	return false
}

// yamlKey quotes a key that is not a safe plain scalar in single quotes.
// The key's page strings are already escaped, so it holds no line breaks.
func yamlKey(k string) string {
	if plainSafe(k, true) {
		return k
	}
	return "'" + strings.ReplaceAll(k, "'", "''") + "'"
}

// scalar writes a page string as a YAML value: plain when harmless, else a
// YAML double-quoted string (whose escapes match Quote's).
func scalar(s string) string {
	if plainSafe(s, false) {
		return s
	}
	return Quote(s)
}

// plainSafe is a conservative test for YAML plain scalars. Values may not
// hold characters that could look like structure ([, ], ", #, :); a key may
// hold the quotes and brackets axfuse itself wrote.
func plainSafe(s string, key bool) bool {
	if s == "" || s != strings.TrimSpace(s) {
		return false
	}
	if strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`0123456789~") {
		return false // structure, or a number, date or null to a YAML reader
	}
	if (s[0] == '.' || s[0] == '+') && len(s) > 1 && s[1] >= '0' && s[1] <= '9' {
		return false // .5, +1: numbers
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	// Values keep Playwright's plain form where YAML allows it (x@, a?b=1,
	// 50%), but never brackets, braces, quotes or backslashes: a value
	// must not pass for a ref or a name.
	if !key && strings.ContainsAny(s, "[]{}\"\\`") {
		return false
	}
	for _, r := range s {
		if needsEscape(r) || r == '\t' {
			return false
		}
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "y", "n", ".inf", ".nan":
		return false
	}
	return true
}
