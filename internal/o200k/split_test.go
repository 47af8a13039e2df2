package o200k

import (
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// splitPattern is o200k_base's pre-tokenizer, the reference cut must agree
// with. It is tiktoken-go's text to the byte: for it, regexp2.MustCompile
// returns the generated matcher tiktoken-go registers (see split.go), the
// one tiktoken-go and, before, Count split with.
const splitPattern = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`

var splitRegexp = sync.OnceValue(func() *regexp2.Regexp {
	return regexp2.MustCompile(splitPattern, regexp2.None)
})

// regexpPieces splits s the way Count used to.
func regexpPieces(t testing.TB, s string) []string {
	var pieces []string
	re := splitRegexp()
	m, err := re.FindStringMatch(s)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		pieces = append(pieces, m.String())
	}
	if err != nil {
		t.Fatalf("regexp2 on %q: %v", s, err)
	}
	return pieces
}

func handPieces(s string) []string {
	var pieces []string
	for s != "" {
		var piece string
		if piece, s = cut(s); piece == "" {
			break
		}
		pieces = append(pieces, piece)
	}
	return pieces
}

// sameSplit fails t unless both splitters cut s into the same pieces.
func sameSplit(t testing.TB, s string) {
	t.Helper()
	want, got := regexpPieces(t, s), handPieces(s)
	if !slices.Equal(want, got) {
		t.Fatalf("split %+q:\n got %+q\nwant %+q", s, got, want)
	}
}

// TestReferenceIsGenerated: the reference is the generated matcher, not
// regexp2's interpreter, which would keep " \r\t\n" whole. If this
// fails, tiktoken-go changed how it splits, and cut must follow it.
func TestReferenceIsGenerated(t *testing.T) {
	if got := regexpPieces(t, " \r\t\n"); !slices.Equal(got, []string{" \r", "\t\n"}) {
		t.Fatalf("regexp2 splits %+q as %+q: not tiktoken-go's generated matcher", " \r\t\n", got)
	}
}

// contexts put a rune where each alternative of the pattern looks at it.
var contexts = []string{
	"%", "a%b", " %", "%'s", "\n% ", "A%a", "%%x", "ab%CD", "x'%", "x'%e", "x'l%",
	"% x", "  %x", "1%23", "!%\n/", " \r%\n", "%\u0301a", "%\n", "\n%", " %\n ", "%  \n", "\u00a0%", "'%", "%'",
}

// TestSplitLikeRegexpRunes: every BMP rune, and the astral runes at the
// edges of every class the pattern uses plus a sample, alone and in
// contexts.
func TestSplitLikeRegexpRunes(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r > 0xffff && !astralProbe(r) || utf8.RuneLen(r) < 0 {
			continue
		}
		for _, c := range contexts {
			sameSplit(t, strings.ReplaceAll(c, "%", string(r)))
		}
	}
}

// astralProbe picks an astral rune at or next to a range edge of a class
// the pattern tells apart, or one of a sparse sample.
func astralProbe(r rune) bool {
	return r%257 == 0 || astralEdges()[r]
}

var astralEdges = sync.OnceValue(func() map[rune]bool {
	edges := map[rune]bool{}
	for _, tab := range []*unicode.RangeTable{unicode.L, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Lm, unicode.Lo,
		unicode.M, unicode.N, unicode.White_Space, unicode.Other_Lowercase, unicode.Other_Uppercase} {
		for _, rg := range tab.R32 {
			for _, e := range []rune{rune(rg.Lo), rune(rg.Hi)} {
				edges[e-1], edges[e], edges[e+1] = true, true, true
			}
		}
	}
	return edges
})

// regressions are cases that once split differently, and hand-picked
// corners of the pattern.
var regressions = []string{
	"", "a", "A", "\u0301", " \u0301", "\u0301\u0301a", "!\u0301A", "ǅ", "ǅa", "Aʰ", "AʰB", "AʰBc", "ABC'S", "AB'sx",
	"a'ſ", "A'ſ", "a'S", "a'Re", "a'rE", "a'LL", "a'lL", "a'l", "a'r", "a'v", "a'VE", "a'K", "a'\u212a", "a'\u0130",
	"it's they're we've I'LL", "'s", " 's", "x''s", "don't", "x'sy",
	"1234567", "١٢٣٤", "Ⅻ½²", "a1", "x²", " 1", "\n\n\n", "  \n  x", "\t\tx", "  ", " \n", "\r\n\r\n", "a\r\nb",
	" !", "  !", "!\n/", "!/\n/\n/a", " !!\r\n", "\u0085x", "\u00a0x", "\u00a0\u00a0x", "\u2028\u2029", "\u3000x",
	"\u200bx", "\v\fx", "x\x1f y", "👩‍👩‍👧‍👦", "🇸🇪", "\ufffd", "\x00",
	" \r\t\n", "\r\u2000\n", "\n \n \r\r\n x", "  \n\n  \n x", "\x7f", "a\x7fb", " \x7f!", "\x7f\x7f", "!\x7f!", "\x7f's", "\x7fAB",
}

// TestSplitLikeRegexpStrings: hand-picked strings, Count's test strings,
// the golden snapshots and random text of a mixed alphabet.
func TestSplitLikeRegexpStrings(t *testing.T) {
	for _, s := range regressions {
		sameSplit(t, s)
	}
	for _, s := range countStrings {
		sameSplit(t, replaceStrayBytes(s)) // as Count cuts them
	}
	for _, s := range goldens(t) {
		sameSplit(t, s)
	}
	rng := rand.New(rand.NewSource(2))
	for range 5000 {
		sameSplit(t, randomText(rng, rng.Intn(60)))
	}
}

// mixed is most of the random texts' alphabet: letters of several scripts
// and cases (title case, modifiers, caseless), marks of the three kinds,
// numbers of the three kinds, contractions in mixed case, apostrophes,
// punctuation, emoji, runes that fold oddly (ſ, K, İ) and controls.
var mixed = []string{
	"a", "b", "s", "t", "z", "A", "S", "T", "Z", "é", "É", "ß", "ǅ", "ʰ", "日", "本", "ا", "Ж", "ж", "ω", "Ω", "ſ", "\u212a", "İ", "ı",
	"\u0301", "\u0308", "\u093f", "\u20dd", "0", "7", "٣", "५", "Ⅻ", "½", "²",
	"'", "'", "'", "'", "’", "'s", "'S", "'t", "'T", "'re", "'rE", "'Re", "'ve", "'VE", "'m", "'M", "'ll", "'Ll", "'lL", "'d", "'D", "'ſ",
	".", ",", "!", "?", "/", "/", "-", "_", "\"", "[", "]", ":", ";", "#", "👍", "🇸", "\u200d", "\ufffd", "\x00", "\x1f", "\x7f", "\u200b",
}

// blanks are the rest: every sort of space and line break.
var blanks = []string{" ", " ", " ", "\n", "\n", "\r", "\t", "\v", "\f", "\u0085", "\u00a0", "\u1680", "\u2000", "\u2028", "\u2029", "\u202f", "\u3000"}

// randomText is n units of mixed and blanks.
func randomText(rng *rand.Rand, n int) string {
	var sb strings.Builder
	for range n {
		if rng.Intn(4) == 0 {
			sb.WriteString(blanks[rng.Intn(len(blanks))])
			continue
		}
		sb.WriteString(mixed[rng.Intn(len(mixed))])
	}
	return sb.String()
}

// TestSplitAnyBytes: on text that is not UTF-8 the pieces still cover the
// input but its DELs, and nothing panics.
func TestSplitAnyBytes(t *testing.T) {
	const alphabet = "a 'sS\n\x7f\xff\xc3\xa9\xe6\x97\xa5\x80"
	rng := rand.New(rand.NewSource(3))
	for range 2000 {
		b := make([]byte, rng.Intn(40))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		s := string(b)
		pieces := handPieces(s)
		if strings.Join(pieces, "") != strings.ReplaceAll(s, "\x7f", "") {
			t.Fatalf("pieces %+q of %+q", pieces, s)
		}
		Count(s)
	}
}

// FuzzSplitLikeRegexp: any valid UTF-8 splits as the regexp splits it.
func FuzzSplitLikeRegexp(f *testing.F) {
	for _, s := range regressions {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if utf8.ValidString(s) {
			sameSplit(t, s)
		}
	})
}

func goldens(t testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join("..", "..", "fuse", "testdata", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no golden snapshots found")
	}
	var texts []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	return texts
}

// regexpCount is Count as it was, splitting with the regexp.
func regexpCount(t testing.TB, s string) int {
	re, n := splitRegexp(), 0
	m, err := re.FindStringMatch(s)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		piece := m.String()
		if _, ok := rank(piece); ok {
			n++
			continue
		}
		n += merged(piece)
	}
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// BenchmarkCount counts the golden snapshots, all in one text, with the
// regexp splitter Count had and with the hand-written one it has.
func BenchmarkCount(b *testing.B) {
	text := strings.Join(goldens(b), "")
	want, _ := Count(text)
	b.Run("regexp", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if regexpCount(b, text) != want {
				b.Fatal("counts differ")
			}
		}
	})
	b.Run("hand", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if n, _ := Count(text); n != want {
				b.Fatal("counts differ")
			}
		}
	})
}

// BenchmarkSplit is the splitting alone, on the same text.
func BenchmarkSplit(b *testing.B) {
	text := strings.Join(goldens(b), "")
	b.Run("regexp", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			regexpPieces(b, text)
		}
	})
	b.Run("hand", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			for s := text; s != ""; {
				_, s = cut(s)
			}
		}
	})
}
