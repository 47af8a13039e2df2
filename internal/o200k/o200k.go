// Package o200k counts tokens of the o200k_base encoding (GPT-4o's) as
// github.com/tiktoken-go/tokenizer does, without building that library's
// 200,000-entry vocabulary map first (about 25 ms, on every process that
// prints a token count). The vocabulary is an embedded table sorted by
// token bytes (vocab.bin, written by ./gen from that library) and searched
// in place: nothing is built at start. Text is cut into pieces before
// byte-pair merging by a hand-written equivalent of the library's
// pre-tokenizer regexp (split.go), some twenty times faster than that
// regexp run by github.com/dlclark/regexp2, which took most of the time.
package o200k

import (
	_ "embed"
	"encoding/binary"
	"math"
	"strings"
	"sync"
	"unicode/utf8"
)

//go:embed vocab.bin
var table string

// vocab is the table's layout: n tokens, their end offsets, their ranks,
// then their bytes.
type vocab struct {
	n                int
	ends, ranks, raw int // byte offsets of the three parts in table
}

var (
	layout  vocab
	initErr bool
	once    sync.Once
)

func setup() {
	if len(table) < 8 || table[:4] != "O2K1" {
		initErr = true
		return
	}
	n := int(binary.LittleEndian.Uint32([]byte(table[4:8])))
	layout = vocab{n: n, ends: 8, ranks: 8 + 4*n, raw: 8 + 8*n}
	if n <= 0 || layout.raw > len(table) || layout.raw+int(u32(layout.ends+4*(n-1))) != len(table) {
		initErr = true
	}
}

func u32(off int) uint32 {
	return uint32(table[off]) | uint32(table[off+1])<<8 | uint32(table[off+2])<<16 | uint32(table[off+3])<<24
}

// token is the k-th token of the sorted table.
func token(k int) string {
	start := 0
	if k > 0 {
		start = int(u32(layout.ends + 4*(k-1)))
	}
	end := int(u32(layout.ends + 4*k))
	return table[layout.raw+start : layout.raw+end]
}

// rank looks a token up: its rank and whether it is one.
func rank(s string) (uint32, bool) {
	lo, hi := 0, layout.n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch t := token(mid); {
		case t == s:
			return u32(layout.ranks + 4*mid), true
		case t < s:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// Count returns the number of o200k_base tokens of s, and false when it
// cannot count (a damaged table). Text that is not valid UTF-8 counts as
// tiktoken-go counts it: each stray byte as one U+FFFD.
func Count(s string) (int, bool) {
	once.Do(setup)
	if initErr {
		return 0, false
	}
	if !utf8.ValidString(s) {
		s = replaceStrayBytes(s)
	}
	n := 0
	for s != "" {
		var piece string
		if piece, s = cut(s); piece == "" {
			break
		}
		if _, ok := rank(piece); ok {
			n++
			continue
		}
		n += merged(piece)
	}
	return n, true
}

// merged is the number of tokens byte-pair merging leaves of a piece: the
// adjacent pair whose joined bytes rank lowest (leftmost on ties) merges
// first, until no joined pair is a token.
func merged(piece string) int {
	bounds := make([]int, len(piece)+1) // part i is piece[bounds[i]:bounds[i+1]]
	for i := range bounds {
		bounds[i] = i
	}
	pairRank := func(i int) uint32 {
		if i+2 >= len(bounds) {
			return math.MaxUint32
		}
		if r, ok := rank(piece[bounds[i]:bounds[i+2]]); ok {
			return r
		}
		return math.MaxUint32
	}
	ranks := make([]uint32, len(bounds))
	for i := range ranks {
		ranks[i] = pairRank(i)
	}
	for len(bounds) > 2 {
		best, at := uint32(math.MaxUint32), -1
		for i := 0; i+2 < len(bounds); i++ {
			if ranks[i] < best {
				best, at = ranks[i], i
			}
		}
		if at < 0 {
			break
		}
		bounds = append(bounds[:at+1], bounds[at+2:]...)
		ranks = append(ranks[:at+1], ranks[at+2:]...)
		ranks[at] = pairRank(at)
		if at > 0 {
			ranks[at-1] = pairRank(at - 1)
		}
	}
	return len(bounds) - 1
}

// replaceStrayBytes puts U+FFFD for each byte that is not part of a valid
// UTF-8 sequence, as Go's string to []rune conversion does (tiktoken-go's
// regexp reads runes). strings.ToValidUTF8 would put one for a whole run.
func replaceStrayBytes(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
