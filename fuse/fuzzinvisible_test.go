package fuse

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axfuse/axfuse/domsnap"
	"go.yaml.in/yaml/v3"
)

// Fuzzing the rule through the whole pipeline: strings mixing ASCII with
// characters of every class a person cannot see (controls, format and
// bidi characters, tags, variation selectors, private use,
// noncharacters, the separators, bytes that encode a surrogate), put in
// every page string of recorded captures, never print one raw in the
// YAML, the JSON, Find's matches or a delta.

// unseenSamples are characters a person cannot see, a few of each class.
var unseenSamples = []string{
	"\x00", "\x01", "\x07", "\x1b", "\x1f", "\x7f", // C0, DEL
	"\u0080", "\u008d", "\u009b", "\u009f", // C1
	"\u00ad", "\u180e", "\u200b", "\u200c", "\u200d", "\u2060", "\u2061", "\u2062", "\u2063", "\u2064", "\ufeff", // zero-width, invisible operators
	"\u200e", "\u200f", "\u061c", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", // bidi
	"\u206a", "\u206f", "\ufff9", "\ufffa", "\ufffb", "\U0001d173", "\U0001bca0", // other format characters
	"\U000e0001", "\U000e0020", "\U000e0041", "\U000e0069", "\U000e007f", // tags
	"\ufe00", "\ufe0e", "\ufe0f", "\U000e0100", "\U000e01ef", "\u180b", "\u034f", "\u17b4", // variation selectors, CGJ
	"\u115f", "\u1160", "\u3164", "\uffa0", // Hangul fillers
	"\ue000", "\uf8ff", "\U000f0000", "\U0010fffd", // private use
	"\ufdd0", "\ufdef", "\ufffe", "\uffff", "\U0001fffe", "\U0010ffff", // noncharacters
}

// seenSamples are what may print: text, white space the printer folds or
// escapes, structure a page could try to forge, other scripts and marks,
// emoji, neighbours of the surrogates, and bytes no UTF-8 holds.
var seenSamples = []string{
	"a", "e", "Z", "0", " ", "  ", "ignore", "previous", "\n", "\t", "\r", "\u2028", "\u2029", "\u0085", "\u00a0",
	`"`, "\\", "[ref=e1]", "[bidi]", ": ", "- ", "#", "'",
	"а", "א", "ا", "\u0301", "\u20e3", "🎉", "👨", "\ufffd", "\ud7ff", "\U00010000",
	"\xed\xa0\x80", "\xed\xbf\xbf", "\xff", "\xc0\x80",
}

// pageStrings cuts the fuzzer's bytes into strings: each byte picks a
// sample, a seen one below 0x80 and an unseen one above; 0x80 ends a
// string. The raw input is one more string, as it is.
func pageStrings(data []byte, raw string) []string {
	out := []string{raw}
	var sb strings.Builder
	for _, b := range data {
		switch {
		case b == 0x80:
			out = append(out, sb.String())
			sb.Reset()
		case b < 0x80:
			sb.WriteString(seenSamples[int(b)%len(seenSamples)])
		default:
			sb.WriteString(unseenSamples[int(b)%len(unseenSamples)])
		}
	}
	return append(out, sb.String())
}

// invisibleSeeds are the recorded captures the fuzzer fills: forms,
// links, frames, hidden text, a modal, a viewport capture (elided runs,
// generated text it read itself).
var invisibleSeeds = sync.OnceValue(func() [][]byte {
	var out [][]byte
	for _, name := range []string{"forms", "links", "hostile", "frames", "hidden", "modal", "shop-viewport"} {
		if b, err := os.ReadFile("../testdata/captures/" + name + ".capture.json"); err == nil {
			out = append(out, b)
		}
	}
	return out
})

func FuzzNoInvisibleCharacterIsPrinted(f *testing.F) {
	var every []byte
	for k := range unseenSamples {
		every = append(every, 'a', byte(0x81+k))
	}
	for i := range invisibleSeeds() {
		f.Add(uint8(i), every, "say\u200b hi\U000e0041")
		f.Add(uint8(i), []byte{8, 0xa3, 9, 0x80, 0xb0, 0xb1, 0x80, 30, 0xc0, 40, 41}, "\u202eexe.txt\u202c")
		f.Add(uint8(i), []byte{}, "\x7f\u0085\u2028\xed\xa0\x80")
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte, raw string) {
		// A slow input crashes the worker, so the fuzzer keeps it.
		defer time.AfterFunc(30*time.Second, func() { panic("one input took over 30s") }).Stop()
		seeds := invisibleSeeds()
		c, err := domsnap.Decode(bytes.NewReader(seeds[int(which)%len(seeds)]))
		if err != nil {
			t.Fatal(err)
		}
		strs := pageStrings(data, raw)
		next := 0
		eachPageString(c, func(string) string {
			next++
			return strs[next%len(strs)]
		})
		if c.Validate() != nil {
			return
		}
		for _, opts := range []Options{{}, {Mode: ModeAX}, {Audit: true, Offscreen: OffscreenKeep}, {MaxTokens: 200}} {
			checkNothingUnseenPrinted(t, c, opts)
		}
	})
}

// checkNothingUnseenPrinted fuses c and checks every text it prints.
func checkNothingUnseenPrinted(t *testing.T, c *domsnap.Capture, opts Options) {
	t.Helper()
	obs := Snapshot(c, opts)
	mustBeSeen(t, "YAML", obs.Snapshot, true)
	var doc any
	if err := yaml.Unmarshal([]byte(obs.Snapshot), &doc); err != nil {
		t.Fatalf("YAML does not parse: %v\n%s", err, obs.Snapshot)
	}
	var buf bytes.Buffer
	if err := obs.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	mustBeSeen(t, "JSON", buf.String(), true)
	var back any
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatalf("JSON does not read back: %v", err)
	}
	eachJSONString(back, "", func(key, s string) { mustBeSeen(t, "JSON "+key, s, key == "snapshot") })

	tree := FromCapture(c, opts)
	matches := tree.Find(Query{Text: "e"})
	mustBeSeen(t, "find", MatchesYAML(matches), true)
	buf.Reset()
	if err := EncodeJSON(&buf, matches, true); err != nil {
		t.Fatal(err)
	}
	mustBeSeen(t, "find JSON", buf.String(), true)
	if json.Unmarshal(buf.Bytes(), &back) != nil {
		t.Fatal("find's JSON does not read back")
	}
	eachJSONString(back, "", func(key, s string) { mustBeSeen(t, "find JSON "+key, s, key == "context") })
	mustBeSeen(t, "delta", Diff(&Tree{}, tree), true)
}

func mustBeSeen(t *testing.T, where, s string, newlines bool) {
	t.Helper()
	if r, ok := rawInvisible(s, newlines); ok {
		i := strings.IndexRune(s, r)
		t.Fatalf("%s prints U+%04X raw at %d: %+q", where, r, i, s[max(0, i-80):min(len(s), i+80)])
	}
}

// eachJSONString calls f with every string of a decoded JSON value and the
// key it is under.
func eachJSONString(v any, key string, f func(key, s string)) {
	switch x := v.(type) {
	case string:
		f(key, x)
	case []any:
		for _, e := range x {
			eachJSONString(e, key, f)
		}
	case map[string]any:
		for k, e := range x {
			f("key", k)
			eachJSONString(e, k, f)
		}
	}
}
