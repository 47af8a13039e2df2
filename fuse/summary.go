package fuse

import (
	"strings"

	"github.com/axfuse/axfuse/internal/textcut"
)

// A line that stands for lines it does not print — a collapsed subtree or
// run, a run left out for the token budget, an unchanged run of a delta —
// says what they hold in one wording: the named landmarks among them, by
// role and quoted name in document order (the first few, then how many
// more), then up to four role counts, most telling first.
//
//	contentinfo [collapsed: below, navigation "Footer", 40 links]

// counted roles are what a summary reports, most telling first.
var counted = [...]string{"row", "listitem", "link", "button", "clickable", "textbox", "searchbox", "checkbox", "radio", "combobox", "option", "tab", "menuitem", "heading", "img", "image", "paragraph"}

// maxCounts is how many role counts a summary reports.
const maxCounts = 4

// itemTargets are the counted roles of targets. A listitem count is left
// out when one of them counts at least as many: the items then hold the
// targets (a menu's or a footer's links), and "40 listitems, 40 links"
// says one thing twice. Items that outnumber their targets (a list of
// plain text) keep their count. Rows always keep theirs: a row is a
// table's record, and its count is how long the table is.
var itemTargets = [...]string{"link", "button", "clickable", "textbox", "searchbox", "checkbox", "radio", "combobox", "option", "tab", "menuitem"}

// Named landmarks are listed in summaries by role and name.
const (
	maxMarks    = 3  // landmarks listed; the rest are counted
	maxMarkName = 40 // runes of a listed landmark's name
)

// namedLandmark: a line a summary lists by name (ARIA's landmark roles,
// when named).
func namedLandmark(n *Node) bool {
	switch n.Role {
	case "banner", "navigation", "main", "contentinfo", "complementary", "region", "form", "search":
		return n.Name != ""
	}
	return false
}

// marks are the named landmarks a summary lists, in document order: the
// first maxMarks as printed, and how many more there were.
type marks struct {
	keys []string
	more int
}

// addNode lists n when it is a named landmark. The name is the page's: it
// is quoted as names are everywhere, and cut short.
func (m *marks) addNode(n *Node) {
	if !namedLandmark(n) {
		return
	}
	if len(m.keys) == maxMarks {
		m.more++
		return
	}
	m.keys = append(m.keys, safeRole(n.Role)+" "+Quote(textcut.Runes(DisplayName(n.Name), maxMarkName)))
}

// addAll appends the landmarks of o, which follow those of m.
func (m *marks) addAll(o *marks) {
	for _, k := range o.keys {
		if len(m.keys) == maxMarks {
			m.more++
		} else {
			m.keys = append(m.keys, k)
		}
	}
	m.more += o.more
}

// summary is what a summarizing line says of the lines it stands for.
type summary struct {
	roles map[string]int
	marks marks
}

// summarize sums up lines ns and everything below them.
func summarize(ns []*Node) summary {
	s := summary{roles: map[string]int{}}
	s.addLines(ns)
	return s
}

// addLines adds lines ns and what they stand for below them.
func (s *summary) addLines(ns []*Node) {
	for _, n := range ns {
		if n.fold != nil && n.fold.lines > 1 {
			s.addBelow(n) // merged lines: their roles are in the fold
			continue
		}
		if n.elided == nil {
			// An elided run's own role is its line's; its Roles count
			// what is below.
			s.roles[n.Role]++
		}
		s.marks.addNode(n)
		s.addBelow(n)
		s.addLines(n.Children)
	}
}

// addBelow adds what an elided run counted or a folded line holds below
// it (nothing for other lines: their children are lines).
func (s *summary) addBelow(n *Node) {
	if e := n.elided; e != nil {
		for r, c := range e.Roles {
			s.roles[r] += c
		}
	}
	if f := n.fold; f != nil {
		f.roles.addTo(s.roles)
		s.marks.addAll(&f.marks)
	}
}

// add adds another summary, of lines after these.
func (s *summary) add(o summary) {
	if s.roles == nil {
		s.roles = map[string]int{}
	}
	for r, c := range o.roles {
		s.roles[r] += c
	}
	s.marks.addAll(&o.marks)
}

// parts words the summary: landmarks, then counts.
func (s *summary) parts() []string {
	parts := append([]string(nil), s.marks.keys...)
	if s.marks.more > 0 {
		parts = append(parts, "+"+plural(s.marks.more, "landmark"))
	}
	counts := 0
	for _, r := range counted {
		c := s.roles[r]
		if c == 0 || r == "listitem" && s.itemsHoldTargets() {
			continue
		}
		parts = append(parts, plural(c, r))
		if counts++; counts == maxCounts {
			break
		}
	}
	return parts
}

// itemsHoldTargets: one target role counts at least as many lines as
// listitem does (see itemTargets).
func (s *summary) itemsHoldTargets() bool {
	items := s.roles["listitem"]
	for _, r := range itemTargets {
		if s.roles[r] >= items {
			return true
		}
	}
	return false
}

// collapsed is the state of a collapsed line: "collapsed: below, ...".
func collapsed(dir string, s summary) string {
	return strings.Join(append([]string{"collapsed: " + dir}, s.parts()...), ", ")
}

// describeCounts words a summary in a note; total nodes when it has
// nothing to say.
func describeCounts(s summary, total int) string {
	parts := s.parts()
	if len(parts) == 0 {
		return plural(total, "node")
	}
	return strings.Join(parts, ", ")
}
