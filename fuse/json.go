package fuse

import (
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// EncodeJSON writes v as one JSON value and a newline, as every JSON
// answer axfuse prints is written: HTML characters as they are, indented
// by two spaces when indent, and no character a person cannot see raw
// (EscapeInvisibleJSON).
func EncodeJSON(w io.Writer, v any, indent bool) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(EscapeInvisibleJSON(buf.Bytes()))
	return err
}

// EscapeInvisibleJSON is the last gate of encoded JSON. encoding/json
// escapes C0 controls and U+2028/2029 but writes DEL, C1 controls and
// format characters raw; this writes each of those, and every other
// character that draws nothing (drawnAs), as a \u escape (astral ones as
// surrogate pairs), whatever string it slipped into. Outside its strings
// JSON is ASCII, so such a character lies in a string, where its escape
// reads the same. b comes back as it is when it holds none; invalid
// UTF-8 is left as it is.
func EscapeInvisibleJSON(b []byte) []byte {
	i := firstRawInJSON(b)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+len(b)/8)
	out = append(out, b[:i]...)
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if escapedInJSON(r) { // (an invalid byte decodes to U+FFFD, kept)
			out = appendJSONEscape(out, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// firstRawInJSON is the offset of the first character of b that
// EscapeInvisibleJSON escapes, -1 when none.
func firstRawInJSON(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			if escapedInJSON(rune(b[i])) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if escapedInJSON(r) {
			return i
		}
		i += size
	}
	return -1
}

// escapedInJSON: control characters (but the white space JSON's own
// layout uses), DEL, C1, the line and paragraph separators, and whatever
// else draws nothing.
func escapedInJSON(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case r < 0x20 || r >= 0x7f && r <= 0x9f || r == 0x2028 || r == 0x2029:
		return true
	}
	return drawnAs(r) != drawsGlyph
}

func appendJSONEscape(out []byte, r rune) []byte {
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		return appendJSONEscape(appendJSONEscape(out, hi), lo)
	}
	const hex = "0123456789abcdef"
	return append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
