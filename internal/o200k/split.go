package o200k

import (
	"unicode"
	"unicode/utf8"
)

// This file is o200k_base's pre-tokenizer, written out by hand. tiktoken
// defines it as a regular expression:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}
//	| ?[^\s\p{L}\p{N}]+[\r\n/]*
//	|\s*[\r\n]+
//	|\s+(?!\S)
//	|\s+
//
// The counts must be tiktoken-go's, and tiktoken-go runs that pattern with
// github.com/dlclark/regexp2 — which, for this exact pattern, does not
// interpret it: tiktoken-go's codec package registers Go code generated
// from it (regexp2cg), and regexp2.Compile returns that matcher in every
// binary linking tiktoken-go (our tests do). The generated code departs
// from the pattern twice, and this file follows it (the tests check it
// against that matcher):
//
//   - \s*[\r\n]+ backtracks its \s* to the first line break of the blank
//     run, not the last: " \r\t\n" is " \r", "\t\n".
//   - U+007F DEL is left out of both negated classes (their ASCII bitmaps
//     stop a bit short), so it matches nothing: no piece holds it, and it
//     costs no tokens.
//
// The pattern has no anchors and no look-behind, so the piece starting at
// a position depends only on the text from there on: pieceLen finds it,
// trying the alternatives in order (the first that matches wins, not the
// longest) and resolving each one's greedy backtracking in closed form.

// kind sorts runes into the classes the pattern tells apart. Unicode's
// general categories are disjoint and \s (unicode.IsSpace, as regexp2 has
// it) holds only separators and controls, so every rune has one kind.
type kind uint8

const (
	kEnd     kind = iota // past the end of the text: in no class
	kDel                 // U+007F: in no class, see above
	kOther               // punctuation, symbols, controls, unassigned
	kMark                // \p{M}
	kSpace               // \s but \r and \n
	kNewline             // \r, \n
	kNumber              // \p{N}
	kUpper               // \p{Lu}, \p{Lt}
	kLower               // \p{Ll}
	kLetter              // \p{Lm}, \p{Lo}: caseless, in both letter classes
)

// class is a set of kinds, one bit each.
type class uint16

const (
	upperish class = 1<<kUpper | 1<<kLetter | 1<<kMark // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	lowerish class = 1<<kLower | 1<<kLetter | 1<<kMark // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	lead     class = 1<<kOther | 1<<kMark | 1<<kSpace  // [^\r\n\p{L}\p{N}]
	symbol   class = 1<<kOther | 1<<kMark              // [^\s\p{L}\p{N}]
)

func (c class) has(k kind) bool { return c&(1<<k) != 0 }

// kindAt is the kind and byte size of the rune at s[i:], kEnd at the end.
// A byte that is not UTF-8 counts as one U+FFFD (kOther), so any input
// moves on.
func kindAt(s string, i int) (kind, int) {
	if i >= len(s) {
		return kEnd, 0
	}
	if b := s[i]; b < utf8.RuneSelf {
		return asciiKind(b), 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	return runeKind(r), size
}

func asciiKind(b byte) kind {
	switch {
	case 'a' <= b && b <= 'z':
		return kLower
	case 'A' <= b && b <= 'Z':
		return kUpper
	case '0' <= b && b <= '9':
		return kNumber
	case b == '\n' || b == '\r':
		return kNewline
	case b == ' ' || '\t' <= b && b <= '\r': // \t \v \f
		return kSpace
	case b == 0x7f:
		return kDel
	}
	return kOther
}

// runeKind classifies with the tables regexp2 uses: unicode.Categories for
// \p{..}, unicode.IsSpace for \s. Letters come first, being the commonest
// non-ASCII runes.
func runeKind(r rune) kind {
	switch {
	case unicode.IsLetter(r):
		switch {
		case unicode.IsLower(r):
			return kLower
		case unicode.IsUpper(r) || unicode.IsTitle(r):
			return kUpper
		}
		return kLetter
	case unicode.IsMark(r):
		return kMark
	case unicode.IsNumber(r):
		return kNumber
	case unicode.IsSpace(r):
		return kSpace // \r and \n are ASCII
	}
	return kOther
}

// run is the end of the longest run of c's runes from s[i:].
func run(s string, i int, c class) int {
	for {
		k, size := kindAt(s, i)
		if !c.has(k) {
			return i
		}
		i += size
	}
}

// cut returns the first piece of s and the text after it; piece is empty
// when s holds no more pieces. Runes no alternative matches (DEL) are
// skipped, as the regexp's search skips them.
func cut(s string) (piece, rest string) {
	for s != "" {
		if n := pieceLen(s); n > 0 {
			return s[:n], s[n:]
		}
		_, size := kindAt(s, 0)
		s = s[size:]
	}
	return "", ""
}

// pieceLen is the byte length of the piece starting s, or 0 when none does.
func pieceLen(s string) int {
	if n := casedWord(s); n > 0 {
		return n
	}
	if n := upperWord(s); n > 0 {
		return n
	}
	if n := digits(s); n > 0 {
		return n
	}
	if n := symbols(s); n > 0 {
		return n
	}
	return spaces(s)
}

// casedWord is the first alternative, lead?upperish*lowerish+contraction?,
// or 0.
func casedWord(s string) int { return word(s, upperThenLower) }

// upperWord is the second alternative, lead?upperish+lowerish*contraction?,
// or 0.
func upperWord(s string) int { return word(s, upperThenMaybeLower) }

// word is lead?, letters as letters matches them, then contraction?; the
// optional lead is tried taken, then left.
func word(s string, letters func(s string, i int) int) int {
	if k, size := kindAt(s, 0); lead.has(k) {
		if n := letters(s, size); n > 0 {
			return n + contraction(s[n:])
		}
	}
	if n := letters(s, 0); n > 0 {
		return n + contraction(s[n:])
	}
	return 0
}

// upperThenLower matches upperish*lowerish+ at s[i:] and returns its end,
// or 0. The greedy upperish run is given back rune by rune until lowerish+
// fits; as caseless letters and marks are in both classes, that leaves the
// match ending after the last of them in the run, unless a lower-case
// letter follows the run and the lowerish run from it ends the match.
func upperThenLower(s string, i int) int {
	end := 0
	for {
		k, size := kindAt(s, i)
		if k == kLower {
			return run(s, i, lowerish)
		}
		if !upperish.has(k) {
			return end
		}
		i += size
		if lowerish.has(k) {
			end = i
		}
	}
}

// upperThenMaybeLower matches upperish+lowerish* at s[i:]: its end, or 0.
func upperThenMaybeLower(s string, i int) int {
	j := run(s, i, upperish)
	if j == i {
		return 0
	}
	return run(s, j, lowerish)
}

// contraction is the length of (?i:'s|'t|'re|'ve|'m|'ll|'d) at the start
// of s, or 0.
func contraction(s string) int {
	if s == "" || s[0] != '\'' {
		return 0
	}
	r1, n1 := utf8.DecodeRuneInString(s[1:])
	if folds(r1, 's') || folds(r1, 't') || folds(r1, 'm') || folds(r1, 'd') {
		return 1 + n1
	}
	r2, n2 := utf8.DecodeRuneInString(s[1+n1:])
	if (folds(r1, 'r') || folds(r1, 'v')) && folds(r2, 'e') || folds(r1, 'l') && folds(r2, 'l') {
		return 1 + n1 + n2
	}
	return 0
}

// folds reports whether r matches the letter c under (?i): regexp2 turns
// c into the set of its unicode.SimpleFold orbit, so 's' also matches
// U+017F ſ, while İ or the Kelvin sign, whose lower case is ASCII, match
// nothing here. utf8.RuneError, for an invalid or missing rune, folds to
// itself alone.
func folds(r, c rune) bool {
	for f := c; ; {
		if f == r {
			return true
		}
		if f = unicode.SimpleFold(f); f == c {
			return false
		}
	}
}

// digits is \p{N}{1,3}, or 0.
func digits(s string) int {
	i := 0
	for range 3 {
		k, size := kindAt(s, i)
		if k != kNumber {
			break
		}
		i += size
	}
	return i
}

// symbols is " ?symbol+[\r\n/]*", or 0. Left out, the optional space could
// not start symbol+ either, so it is tried taken only.
func symbols(s string) int {
	i := 0
	if s[0] == ' ' {
		i = 1
	}
	if k, _ := kindAt(s, i); !symbol.has(k) {
		return 0
	}
	i = run(s, i, symbol)
	for i < len(s) && (s[i] == '\r' || s[i] == '\n' || s[i] == '/') {
		i++
	}
	return i
}

// spaces is the last three alternatives, all starting with the greedy
// blank run. \s*[\r\n]+ ends it after the line breaks at its first line
// break (the generated matcher's backtracking); \s+(?!\S) takes it to the
// end of the text, or, when a non-space follows and it is more than one
// rune long, all but its last rune; \s+ takes it whole.
func spaces(s string) int {
	lastStart, i := 0, 0
	for {
		k, size := kindAt(s, i)
		if k == kNewline {
			return i + lineBreaks(s[i:])
		}
		if k != kSpace {
			break
		}
		lastStart = i
		i += size
	}
	if i < len(s) && lastStart > 0 {
		return lastStart
	}
	return i
}

// lineBreaks is the length of the run of \r and \n starting s.
func lineBreaks(s string) int {
	i := 0
	for i < len(s) && (s[i] == '\r' || s[i] == '\n') {
		i++
	}
	return i
}
