package o200k

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

func reference(t testing.TB) tokenizer.Codec {
	c, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func same(t testing.TB, ref tokenizer.Codec, s string) {
	t.Helper()
	want, err := ref.Count(s)
	if err != nil {
		return
	}
	got, ok := Count(s)
	if !ok || got != want {
		t.Fatalf("Count(%.80q) = %d, %v; tiktoken-go says %d", s, got, ok, want)
	}
}

// countStrings are hostile strings and long runs.
var countStrings = []string{"", " ", "\n\n\n", "- button \"Pay\" [ref=e5]", strings.Repeat("=", 5000), strings.Repeat("ab", 3000),
	strings.Repeat(" ", 700) + "x", "日本語のテキスト、漢字とかな", "emoji 👩‍👩‍👧‍👦 flags 🇸🇪", "<|endoftext|>", "it's they're we've I'LL",
	"12345678901234567890", "\u200b\u200e\ufeff", "naïve café résumé", "Ünïcödé ÀÉÎÕÜ",
	// not UTF-8: stray bytes, a cut sequence, an encoded surrogate
	"caf\xe9 cr\xe8me", "\xff\xfe\xfd", "ab\xe6\x97", "\xed\xa0\x80x", "- button \"\x80Pay\" [ref=e5]"}

// TestCountsLikeTiktoken: every golden snapshot of the repository, hostile
// strings, long runs and random text count as the library counts them.
func TestCountsLikeTiktoken(t *testing.T) {
	ref := reference(t)
	files, _ := filepath.Glob(filepath.Join("..", "..", "fuse", "testdata", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no golden snapshots found")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		same(t, ref, string(b))
	}
	for _, s := range countStrings {
		same(t, ref, s)
	}
	rng := rand.New(rand.NewSource(1))
	alphabet := []rune("abcXYZ019 \n\t-_'\"[]{}:;.,!?éß日本👍\u0301")
	for i := range 2000 {
		n := rng.Intn(200)
		var sb strings.Builder
		for range n {
			sb.WriteRune(alphabet[rng.Intn(len(alphabet))])
		}
		s := sb.String()
		if i%4 == 0 && len(s) > 0 { // a stray byte somewhere, maybe mid-sequence
			at := rng.Intn(len(s))
			s = s[:at] + string([]byte{byte(0x80 + rng.Intn(0x80))}) + s[at:]
		}
		same(t, ref, s)
	}
}

// FuzzCount: any string, UTF-8 or not, counts as the library counts it.
func FuzzCount(f *testing.F) {
	ref := reference(f)
	f.Add("- link \"Home\" [ref=e1]:\n  - /url: /")
	f.Add(strings.Repeat("ab", 40))
	f.Add("caf\xe9 \xe6\x97")
	f.Fuzz(func(t *testing.T, s string) {
		same(t, ref, s)
	})
}

func BenchmarkFirstCount(b *testing.B) {
	for range b.N {
		once = sync.Once{}
		Count("- button \"Pay\" [ref=e5]")
	}
}
