package fuse

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/axfuse/axfuse/domsnap"
)

// TestDrawnAs: the rule's classes, a sample of each.
func TestDrawnAs(t *testing.T) {
	for _, tc := range []struct {
		what  string
		runes []rune
		want  drawing
	}{
		{"letters, digits, punctuation", []rune{'a', 'Z', '0', '"', '[', '~', ' '}, drawsGlyph},
		{"white space the printer folds", []rune{'\t', '\n', '\v', '\f', '\r', 0x85, 0xa0, 0x2002, 0x2028, 0x2029, 0x3000}, drawsGlyph},
		{"other scripts, marks, emoji", []rune{'а', 'א', 'ا', 0x301, 0x20e3, '🎉', 0xfffd, 0xfffc, 0xd7ff}, drawsGlyph},
		{"C0 controls, DEL", []rune{0, 1, 7, 0x1b, 0x1c, 0x1f, 0x7f}, drawsNothing},
		{"C1 controls", []rune{0x80, 0x9b, 0x9f}, drawsNothing},
		{"zero-width and joiners", []rune{0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad, 0x180e}, drawsNothing},
		{"invisible operators", []rune{0x2061, 0x2062, 0x2063, 0x2064}, drawsNothing},
		{"bidi marks, embeddings, overrides, isolates", []rune{0x200e, 0x200f, 0x061c, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069}, drawsNothing},
		{"deprecated format, interlinear annotation", []rune{0x206a, 0x206f, 0xfff9, 0xfffa, 0xfffb}, drawsNothing},
		{"tag characters", []rune{0xe0000, 0xe0001, 0xe0020, 0xe0041, 0xe007f}, drawsNothing},
		{"variation selectors", []rune{0xfe00, 0xfe0e, 0xfe0f, 0xe0100, 0xe01ef, 0x180b, 0x180f}, drawsNothing},
		{"combining grapheme joiner, Khmer inherent vowels", []rune{0x034f, 0x17b4, 0x17b5}, drawsNothing},
		{"private use", []rune{0xe000, 0xf8ff, 0xf0000, 0x10fffd}, drawsNothing},
		{"noncharacters", []rune{0xfdd0, 0xfdef, 0xfffe, 0xffff, 0x1fffe, 0x10ffff}, drawsNothing},
		{"musical and shorthand format controls", []rune{0x1d173, 0x1d17a, 0x1bca0}, drawsNothing},
		{"Hangul fillers", []rune{0x115f, 0x1160, 0x3164, 0xffa0}, drawsBlank},
	} {
		for _, r := range tc.runes {
			if got := drawnAs(r); got != tc.want {
				t.Errorf("%s: U+%04X draws %d, want %d", tc.what, r, got, tc.want)
			}
		}
	}
}

// TestVisible: what a string keeps, how much goes, and when its order is
// marked.
func TestVisible(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		removed  int
		bidi     bool
	}{
		{"plain text", "plain text", 0, false},
		{"", "", 0, false},
		{"line\nbreak\ttab", "line\nbreak\ttab", 0, false},
		{"ig\u200bnore\u200c pre\u200dvious", "ignore previous", 3, false},
		{"in\u00adstruc\u2060tion\ufeff", "instruction", 3, false},
		{"😀\ufe0f\U000e0100\U000e0101", "😀", 3, false},
		{"👨\u200d👩\u200d👧", "👨👩👧", 2, false},
		{"tag\U000e0001\U000e0069\U000e0067\U000e007f", "tag", 4, false},
		{"invoice_\u202egpj.exe\u202c", "invoice_gpj.exe", 2, true},
		{"\u2067RTL\u2069 isolate", "RTL isolate", 2, true},
		{"mark\u200f only", "mark only", 1, false},
		{"del\x7f c1\u0085\u009b bell\x07", "del c1\u0085 bell", 3, false},
		{"\u3164\u3164", "  ", 2, false},
		{"private \ue000\U000f0000", "private ", 2, false},
		{"nonchar\ufdd0\uffff", "nonchar", 2, false},
		{"Cyrillic раураl", "Cyrillic раураl", 0, false},
		{"bad \xed\xa0\x80 bytes \xff", "bad \ufffd\ufffd\ufffd bytes \ufffd", 0, false},
	} {
		got, removed, bidi := Visible(tc.in)
		if got != tc.want || removed != tc.removed || bidi != tc.bidi {
			t.Errorf("Visible(%+q) = %+q, %d, %v; want %+q, %d, %v", tc.in, got, removed, bidi, tc.want, tc.removed, tc.bidi)
		}
		if again, n, _ := Visible(got); again != got || n != 0 {
			t.Errorf("Visible(%+q) changes its own output %+q to %+q", tc.in, got, again)
		}
	}
}

// TestDisplayNameDrawsWhatIsSeen: names lose what draws nothing and fold
// what draws a blank, through the same rule.
func TestDisplayNameDrawsWhatIsSeen(t *testing.T) {
	for in, want := range map[string]string{
		"Pay\u200b now":           "Pay now",
		"\u202eexe.txt\u202c":     "exe.txt",
		"a\x00b\x7fc\u009fd":      "abcd",
		"\u3164":                  "",
		"x\u3164\u3164y":          "x y",
		"soft\u00adhyphen":        "softhyphen",
		"emoji 🎉\ufe0f\U000e0041": "emoji 🎉",
	} {
		if got := DisplayName(in); got != want {
			t.Errorf("DisplayName(%+q) = %+q, want %+q", in, got, want)
		}
	}
}

// TestQuoteEscapesWhatSlipsPast: a string that never met the rule still
// prints no such character raw, in quotes or as a plain value.
func TestQuoteEscapesWhatSlipsPast(t *testing.T) {
	for _, s := range []string{"a\u200bb", "x\U000e0041", "\u202eevil", "del\x7f", "c1\u0085", "\ufeffbom", "\u3164", "pua\ue000"} {
		for _, out := range []string{Quote(s), scalar(s), YAML([]*Node{{Role: "text", Text: s}, {Role: "note", Text: s}})} {
			if r, ok := rawInvisible(out, true); ok {
				t.Errorf("%+q printed U+%04X raw: %+q", s, r, out)
			}
		}
	}
}

// TestBidiMark: a line whose page strings held bidi controls is marked
// outside its quotes, on the line that prints them.
func TestBidiMark(t *testing.T) {
	for _, tc := range []struct {
		n    *Node
		want string
	}{
		{&Node{Role: "link", Name: "invoice_gpj.exe", Ref: "e3", bidi: true}, `- link "invoice_gpj.exe" [bidi] [ref=e3]` + "\n"},
		{&Node{Role: "text", Text: "RTL isolate", bidi: true}, "- text [bidi]: RTL isolate\n"},
		{&Node{Role: "paragraph", Children: []*Node{{Role: "text", Text: "reversed", bidi: true}}}, "- paragraph [bidi]: reversed\n"},
		{&Node{Role: "paragraph", Children: []*Node{{Role: "text", Text: "plain"}}}, "- paragraph: plain\n"},
		{&Node{Role: "list", Children: []*Node{{Role: "text", Text: "a", bidi: true}, {Role: "link", Name: "b"}}}, "- list:\n  - text [bidi]: a\n  - link \"b\"\n"},
	} {
		if got := YAML([]*Node{tc.n}); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// TestEscapeInvisibleJSON: the last gate escapes what encoding/json leaves
// raw, and the JSON still reads the same.
func TestEscapeInvisibleJSON(t *testing.T) {
	in := map[string]string{"s": "del\x7f c1\u0085\u009f sep\u2028 zw\u200b tag\U000e0041 ok é 🎉 <b>"}
	var buf bytes.Buffer
	if err := EncodeJSON(&buf, in, true); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if r, ok := rawInvisible(out, true); ok {
		t.Fatalf("U+%04X raw in %s", r, out)
	}
	for _, esc := range []string{`\u007f`, `\u0085`, `\u009f`, `\u2028`, `\u200b`, `\udb40\udc41`, "é 🎉 <b>"} {
		if !strings.Contains(out, esc) {
			t.Errorf("%s missing from %s", esc, out)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back["s"] != in["s"] {
		t.Fatalf("reads back %q (%v), want %q", back["s"], err, in["s"])
	}
	plain := []byte("{\n  \"a\": \"plain é\"\n}\n")
	if got := EscapeInvisibleJSON(plain); &got[0] != &plain[0] {
		t.Error("plain JSON was copied")
	}
	if got := string(EscapeInvisibleJSON([]byte("\"\xff\""))); got != "\"\xff\"" {
		t.Errorf("invalid UTF-8 changed: %q", got)
	}
}

// TestInvisibleCharactersChangeOnlyTheNote: a page strewn with characters
// that draw nothing prints what the same page without them prints, but
// for the note that counts them.
func TestInvisibleCharactersChangeOnlyTheNote(t *testing.T) {
	for _, name := range []string{"forms", "links", "shop", "hostile", "shop-viewport"} {
		t.Run(name, func(t *testing.T) {
			path := "../testdata/captures/" + name + ".capture.json"
			plain := Snapshot(load(t, path), Options{})
			strewn := load(t, path)
			// After every "e": the change maps each string's substrings to
			// the changed string's, as a name from contents needs.
			strew := func(s string) string { return strings.ReplaceAll(s, "e", "e\u200b\U000e0065\ufe0f") }
			eachPageString(strewn, strew)
			obs := Snapshot(strewn, Options{})
			note := "- note: " + plural(obs.Stats.InvisibleChars, "invisible character") + " removed"
			if obs.Stats.InvisibleChars == 0 || !strings.Contains(obs.Snapshot, note) {
				t.Fatalf("no count note (%d counted):\n%s", obs.Stats.InvisibleChars, obs.Snapshot)
			}
			if got, want := withoutCountNote(obs.Snapshot), withoutCountNote(plain.Snapshot); got != want {
				t.Errorf("the view changed beyond its note:\n%s\nwant:\n%s", got, want)
			}
			for i, el := range obs.Elements {
				if el.Name != plain.Elements[i].Name {
					t.Errorf("element %s named %q, want %q", el.Ref, el.Name, plain.Elements[i].Name)
				}
			}
			if obs.Title != plain.Title {
				t.Errorf("title %q, want %q", obs.Title, plain.Title)
			}
		})
	}
}

// withoutCountNote is a view less its note counting invisible characters.
func withoutCountNote(yaml string) string {
	return countNote.ReplaceAllString(yaml, "")
}

var countNote = regexp.MustCompile(`(?m)^- note: \d+ invisible characters? removed .*\n`)

// eachPageString replaces every string a page writes into a capture that
// the view may print: AX names, values, descriptions and URLs, text, the
// attributes that hold text, generated text, the title and URL. (The
// tokens Chrome reads from the page as states are left: they are not
// text.)
func eachPageString(c *domsnap.Capture, f func(string) string) {
	c.Title, c.URL = f(c.Title), f(c.URL)
	for fr := range c.Frames {
		for k := range c.Frames[fr].AXNodes {
			a := &c.Frames[fr].AXNodes[k]
			a.Name, a.Value, a.Description = f(a.Name), f(a.Value), f(a.Description)
			for p := range a.Props {
				if a.Props[p].Name == "url" {
					a.Props[p].Value = f(a.Props[p].Value)
				}
			}
		}
	}
	for d := range c.Documents {
		for k := range c.Documents[d].Nodes {
			n := &c.Documents[d].Nodes[k]
			n.Value, n.InputValue, n.AltText = f(n.Value), f(n.InputValue), f(n.AltText)
			for a := 1; a < len(n.Attrs); a += 2 {
				if textAttrs[n.Attrs[a-1]] {
					n.Attrs[a] = f(n.Attrs[a])
				}
			}
			if n.Layout != nil {
				n.Layout.Text = f(n.Layout.Text)
			}
		}
		for k := range c.Documents[d].Elided {
			c.Documents[d].Elided[k].Name = f(c.Documents[d].Elided[k].Name)
		}
	}
}

// textAttrs are the attributes whose values are text the view may print.
var textAttrs = map[string]bool{"alt": true, "aria-label": true, "title": true, "placeholder": true, "href": true, "value": true, "aria-description": true}

// rawInvisible finds a character printed raw that no one sees: any the
// rule changes, control characters (a line break only where newlines
// says lines may break), the line and paragraph separators, or invalid
// UTF-8 (an encoded surrogate).
func rawInvisible(s string, newlines bool) (rune, bool) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\ufffd"):
			return r, true
		case r == '\n' && newlines:
		case r < 0x20, r >= 0x7f && r <= 0x9f, r == 0x2028, r == 0x2029, drawnAs(r) != drawsGlyph:
			return r, true
		}
	}
	return 0, false
}

// TestMayDrawNothingHoldsAll: the quick ranges hold every code point the
// tables say draws nothing or a blank, so the shortcut changes no answer.
func TestMayDrawNothingHoldsAll(t *testing.T) {
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		if drawnAsByTables(r) != drawsGlyph && !mayDrawNothing(r) {
			t.Errorf("U+%04X draws %d but lies outside mayDrawNothing's ranges", r, drawnAsByTables(r))
		}
	}
}

// TestVisibleText: one line, folded as clean folds it, less what draws
// nothing.
func TestVisibleText(t *testing.T) {
	for _, s := range []string{"", "a", "a b", " a", "a ", "a  b", "a\tb", "a\u00a0b", "x\u200b y", "\u3164", "é è", "a\nb", "  "} {
		want := clean(strings.Map(func(r rune) rune {
			switch drawnAs(r) {
			case drawsNothing:
				return -1
			case drawsBlank:
				return ' '
			}
			return r
		}, s))
		if got := visibleText(s); got != want {
			t.Errorf("visibleText(%+q) = %+q, want %+q", s, got, want)
		}
	}
}
