// Command gen writes ../vocab.bin, the o200k_base vocabulary sorted by
// token bytes, from github.com/tiktoken-go/tokenizer:
//
//	go run ./internal/o200k/gen
//
// Layout (little endian): "O2K1", n uint32, n token end offsets uint32,
// n ranks uint32, then the token bytes one after another.
package main

import (
	"bytes"
	"encoding/binary"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"sort"

	"github.com/tiktoken-go/tokenizer"
)

func main() {
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		log.Fatal(err)
	}
	codec.SetErrorMode(tokenizer.ErrorModeNone)
	type entry struct {
		tok  string
		rank uint32
	}
	var all []entry
	seen := map[string]bool{}
	for id := uint(0); id < 200000; id++ {
		s, err := codec.Decode([]uint{id})
		if err != nil || s == "" || seen[s] {
			continue // no such id (the special tokens lie above 199,997)
		}
		seen[s] = true
		all = append(all, entry{s, uint32(id)})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].tok < all[j].tok })
	var buf bytes.Buffer
	buf.WriteString("O2K1")
	w := func(v uint32) { binary.Write(&buf, binary.LittleEndian, v) }
	w(uint32(len(all)))
	end := uint32(0)
	for _, e := range all {
		end += uint32(len(e.tok))
		w(end)
	}
	for _, e := range all {
		w(e.rank)
	}
	for _, e := range all {
		buf.WriteString(e.tok)
	}
	_, file, _, _ := runtime.Caller(0)
	out := filepath.Join(filepath.Dir(file), "..", "vocab.bin")
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d tokens, %d bytes", len(all), buf.Len())
}
