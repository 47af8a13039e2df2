package fuse

import "testing"

func TestCutText(t *testing.T) {
	for _, tc := range []struct {
		name, text, shown, head, tail string
	}{
		{"a tail cut", "ok title and qz hidden", "ok title ", "ok title", "and qz hidden"},
		{"whitespace collapsed in both", "ok  title\n and more", "ok\n title ", "ok  title", "and more"},
		{"nothing shows", "all of it hidden", "", "", "all of it hidden"},
		{"all shows", "short", "short", "short", ""},
		{"runes, not bytes", "héllo wörld", "héllo w", "héllo w", "örld"},
		{"shown longer than the name", "abc", "abcdef", "abc", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head, tail := cutText(tc.text, tc.shown)
			if head != clean(tc.head) || tail != tc.tail {
				t.Errorf("cutText(%q, %q) = %q, %q; want %q, %q", tc.text, tc.shown, head, tail, clean(tc.head), tc.tail)
			}
		})
	}
}
