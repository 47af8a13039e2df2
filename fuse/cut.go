package fuse

import (
	"strings"
	"unicode/utf8"

	"github.com/axfuse/axfuse/domsnap"
)

// Cut-off tails. A text that a box hiding its overflow cuts
// (text-overflow: ellipsis, line-clamp, a card of fixed height) shows
// only its first characters; the driver asked the browser which
// (Capture.TextCuts). Such a text prints what shows, ending in "…", and
// the tail no one sees is withheld like hidden text: it would otherwise
// ride along with a visible title.

// reasonCutOff is the withheld reason of a cut-off tail.
const reasonCutOff = "cut off by its box"

// cutOf is what shows of text node dom of document doc that a box cuts
// (ok false when the browser found nothing of it cut).
func (b *builder) cutOf(doc, dom int) (shown string, ok bool) {
	if b.axOnly || len(b.c.TextCuts) == 0 || doc < 0 || dom < 0 {
		return "", false
	}
	if b.cuts == nil {
		b.cuts = make(map[domsnap.Pos]string, len(b.c.TextCuts))
		for _, c := range b.c.TextCuts {
			b.cuts[domsnap.Pos{Doc: c.Doc, Node: c.Node}] = c.Shown
		}
	}
	shown, ok = b.cuts[domsnap.Pos{Doc: doc, Node: dom}]
	return shown, ok
}

// cutText splits text (a text node's words as Chrome names them) after
// as many characters as shown holds, whitespace collapsed: the part that
// shows and the tail. The browser's characters are the DOM's, Chrome's
// name is the laid-out text; counting runes of both with whitespace
// collapsed lines them up (a text-transform changes letters, not their
// number).
func cutText(text, shown string) (head, tail string) {
	t := clean(text)
	n := utf8.RuneCountInString(strings.TrimSpace(clean(shown)))
	if n == 0 {
		return "", t
	}
	k := 0
	for i := range t {
		if k == n {
			return strings.TrimSpace(t[:i]), strings.TrimSpace(t[i:])
		}
		k++
	}
	return t, ""
}

// shownText is a cut text's line: what shows, ending in "…"; "" when
// nothing of it shows. The tail is withheld.
func (b *builder) shownText(doc, dom int, text, shown string) string {
	head, tail := cutText(text, shown)
	if tail == "" {
		return text
	}
	b.withhold("text", reasonCutOff, tail, doc, dom)
	if head == "" {
		return ""
	}
	return head + "…"
}
