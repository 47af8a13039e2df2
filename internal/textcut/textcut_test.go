package textcut

import (
	"testing"
	"unicode/utf8"
)

func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abc", 5, "abc"},
		{"abcd", 3, "abc…"},
		{"abc", 0, "…"},
		{"abc", -1, "…"},
		{"é", 1, "…"},           // 2 bytes: never half of it
		{"aé", 2, "a…"},         // é starts at 1, ends at 3
		{"aéb", 3, "aé…"},       // the boundary is kept
		{"日本語", 4, "日…"},        // 3 bytes a rune
		{"日本語", 6, "日本…"},       // on the boundary
		{"日本語", 8, "日本…"},       // inside the third
		{"🙂🙂", 5, "🙂…"},         // 4 bytes a rune
		{"a\xffb", 2, "a\xff…"}, // an invalid byte is a rune start of its own
	} {
		got := Bytes(tc.s, tc.n)
		if got != tc.want {
			t.Errorf("Bytes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
		if utf8.ValidString(tc.s) && !utf8.ValidString(got) {
			t.Errorf("Bytes(%q, %d) = %q splits a rune", tc.s, tc.n, got)
		}
	}
}

func TestRunes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"abc", 0, "…"},
		{"abc", -2, "…"},
		{"日本語", 2, "日本…"},
		{"日本語", 3, "日本語"},
		{"éa🙂b", 3, "éa🙂…"},
	} {
		if got := Runes(tc.s, tc.n); got != tc.want {
			t.Errorf("Runes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
