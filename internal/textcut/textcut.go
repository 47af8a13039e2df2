// Package textcut shortens text for messages and views without
// splitting a character: a cut is on a rune boundary, marked with "…".
// It is the one such helper act, mcpserver and browser/chrome call.
package textcut

import "unicode/utf8"

// Mark ends a cut text.
const Mark = "…"

// Bytes cuts s to at most n bytes (the mark not counted), back to the
// rune boundary at or before n, and marks the cut; s within n is
// unchanged.
func Bytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + Mark
}

// Runes cuts s to n runes (the mark not counted) and marks the cut; s of
// at most n runes is unchanged.
func Runes(s string, n int) string {
	count := 0
	for i := range s {
		if count >= n {
			return s[:i] + Mark
		}
		count++
	}
	return s
}
