package fuse

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// No character a person cannot see reaches the model as itself. A page can
// spell an instruction in characters that draw nothing — zero-width
// spaces and joiners between visible words, tag characters, variation
// selectors after an emoji — and can make a person read text in another
// order than it is written with bidi controls. drawnAs is the one rule of
// what a character draws; every page string the view prints passes
// through it (Visible: the builder's lines, DisplayName, the observation's
// title and URL, audit excerpts). What it removes is counted, once per
// view, in a note ("N invisible characters removed"); a line whose page
// strings held bidi embeddings, overrides or isolates prints them in
// logical order, marked [bidi]. Quote, plain YAML scalars and the JSON
// writer (EncodeJSON) escape whatever slips past the rule, so no such
// character is ever printed raw.

// drawing is what a character puts on the screen.
type drawing uint8

const (
	// drawsGlyph: printed as it is. White space is among these: the
	// printer folds it in names and text, and escapes it in values.
	drawsGlyph drawing = iota
	// drawsBlank: a blank where a letter could be (a Hangul filler):
	// printed as a space, and counted.
	drawsBlank
	// drawsNothing: removed, and counted.
	drawsNothing
)

// drawnAs is the rule: format characters (Unicode category Cf: zero-width
// space, non-joiner and joiner, word joiner, invisible operators, soft
// hyphen, BOM, bidi marks, embeddings, overrides and isolates, tag
// characters, interlinear annotation, Mongolian vowel separator),
// variation selectors, the other default-ignorable code points (the
// combining grapheme joiner, the Hangul fillers, reserved ones), private
// use characters, noncharacters, and control characters other than white
// space (C0, DEL, C1) draw nothing a person can read.
func drawnAs(r rune) drawing {
	if r < utf8.RuneSelf {
		if r >= 0x20 && r != 0x7f || r >= '\t' && r <= '\r' {
			return drawsGlyph
		}
		return drawsNothing // C0 controls but white space, DEL
	}
	if !mayDrawNothing(r) {
		return drawsGlyph // most letters: no table is searched
	}
	return drawnAsByTables(r)
}

// drawnAsByTables is drawnAs for a character beyond ASCII, read from the
// Unicode tables.
func drawnAsByTables(r rune) drawing {
	switch {
	case unicode.IsSpace(r):
		return drawsGlyph // NEL, no-break and wide spaces, U+2028/2029
	case r <= 0x9f:
		return drawsNothing // C1 controls
	case hangulFiller(r):
		return drawsBlank
	case unicode.In(r, unicode.Cf, unicode.Co, unicode.Variation_Selector,
		unicode.Other_Default_Ignorable_Code_Point, unicode.Noncharacter_Code_Point):
		return drawsNothing
	}
	return drawsGlyph
}

// mayDrawNothing: r lies in a range that holds a character the tables say
// draws nothing or a blank. Latin, Greek, Cyrillic, Hebrew, Indic, CJK and
// Hangul syllables pass with a few comparisons; TestMayDrawNothingHoldsAll
// checks the ranges against the tables for every code point.
func mayDrawNothing(r rune) bool {
	switch {
	case r < 0x300:
		return r <= 0x9f || r == 0xad // C1, soft hyphen
	case r < 0x2000:
		return r == 0x34f || r >= 0x600 && r < 0x900 || r >= 0x1100 && r < 0x1200 || r >= 0x1700 && r < 0x1900
	case r < 0x2100:
		return true // general punctuation: zero-width, bidi, invisible operators
	case r < 0xe000:
		return r >= 0x3100 && r < 0x3200 // the Hangul filler among the jamo
	case r < 0xf900:
		return true // private use
	case r < 0x10000:
		return r >= 0xfdd0 && r <= 0xfdef || r >= 0xfe00 && r <= 0xfe0f || r >= 0xfeff
	}
	return true // beyond the BMP: rare enough to read the tables
}

// hangulFiller: the Hangul fillers, letters that draw an empty cell (a
// name made of them looks blank).
func hangulFiller(r rune) bool {
	return r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0
}

// reordering: a bidi embedding, override or isolate, which makes a person
// read the text around it in another order than it is written.
func reordering(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// Visible is page text s as a person sees it: the characters that draw
// nothing removed, a blank one as a space, and invalid UTF-8 (an encoded
// surrogate, a stray byte) as U+FFFD. removed counts the first two; bidi
// says that bidi embeddings, overrides or isolates were among them, so
// that s, printed in logical order, may read otherwise on the screen.
func Visible(s string) (shown string, removed int, bidi bool) {
	i := firstInvisible(s)
	if i < 0 {
		return s, 0, false
	}
	var sb strings.Builder
	sb.Grow(len(s))
	sb.WriteString(s[:i])
	for _, r := range s[i:] {
		switch drawnAs(r) {
		case drawsNothing:
			removed++
			bidi = bidi || reordering(r)
		case drawsBlank:
			removed++
			sb.WriteByte(' ')
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String(), removed, bidi
}

// firstInvisible is the byte offset of the first character of s that
// Visible changes, -1 when none: most page text is plain and is not
// copied.
func firstInvisible(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c-' ' < 0x7f-' ' {
			i++ // printable ASCII, the most of most pages
			continue
		}
		if c < utf8.RuneSelf {
			if c < '\t' || c > '\r' {
				return i // C0 controls but white space, DEL
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if drawnAs(r) != drawsGlyph || r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// visibleText is Visible's text with its white space folded: for page
// strings printed whole on one line (a title, a URL, a tag name, an audit
// excerpt).
func visibleText(s string) string {
	shown, _, _ := Visible(s)
	if folded(shown) {
		return shown // (clean would copy it)
	}
	return clean(shown)
}

// folded: s is ASCII with single spaces between words, as clean leaves it.
func folded(s string) bool {
	space := true // no space may lead
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf || c < ' ':
			return false // maybe a space of another kind: clean decides
		case c == ' ' && space:
			return false
		default:
			space = c == ' '
		}
	}
	return !space || s == ""
}

// visibleLine passes the page strings of line n through the rule,
// counting what it removed, and marks the line when they held bidi
// controls. (Settled lines pass again when promoted: the rule leaves its
// own output as it is, so nothing is counted twice.)
func (b *builder) visibleLine(n *Node) {
	n.Name = b.visible(n, n.Name)
	n.Text = b.visible(n, n.Text)
	n.Value = b.visible(n, n.Value)
	n.URL = b.visible(n, n.URL)
	n.Description = b.visible(n, n.Description)
}

func (b *builder) visible(n *Node, s string) string {
	if s == "" {
		return s // most lines have no value, URL or description
	}
	shown, removed, bidi := Visible(s)
	b.counts.InvisibleChars += removed
	n.bidi = n.bidi || bidi
	return shown
}

// invisibleCharsNote says, once, how many invisible characters the view
// removed, never which.
func invisibleCharsNote(n int) *Node {
	return &Node{Role: "note", Text: plural(n, "invisible character") + " removed (zero-width, bidi, tag, control and other characters that draw nothing)"}
}

// bidiMark is the state of a line whose page strings held bidi controls.
const bidiMark = "bidi"

// invisibleIn counts the characters of s the rule removes.
func invisibleIn(s string) int {
	_, removed, _ := Visible(s)
	return removed
}
