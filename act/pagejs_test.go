package act

import (
	"crypto/sha256"
	"fmt"
	"testing"
)

// TestPageFunctionsAreSentAsBefore: each page function moved out of a Go
// string into its .js file is sent byte for byte as before (the recorded
// sessions hold the text act sent). The hashes are of the Go literals the
// files replaced (issue 51); a function changed on purpose changes its
// hash here, and its recordings are made again.
func TestPageFunctionsAreSentAsBefore(t *testing.T) {
	for _, c := range []struct{ name, fn, sha256 string }{
		{"fieldJS", fieldJS, "da0af0e3de07c78a4c01f4eabe48b75ee349f0fbbeccb2915e508d9987d275bd"},
		{"caretJS", caretJS, "d9b406bd6b812693aa626a638be5089ab4425496d8608f52e65b3eaf7c1083b9"},
		{"selectJS", selectJS, "e88bd7aea02774fd632faa5d587fc1a4c306a4f73d67a22943bbbed2a08af43d"},
		{"findOptionJS", findOptionJS, "f9429b458507607c8bfd09cde41258d4165adfcf44100c334a3feac538b63f0c"},
		{"chooseOptionJS", chooseOptionJS, "2f1e281ae04155fbb89be4300177d594005f14d9ffd25b735129a975c52d44e1"},
		{"followJS", followJS, "9c5c5924c3d6907ba9091c321ae6c4a14d70f371eb686fdea03c86e92b0274f6"},
	} {
		if got := fmt.Sprintf("%x", sha256.Sum256([]byte(c.fn))); got != c.sha256 {
			t.Errorf("%s is not the text it was: sha256 %s, was %s", c.name, got, c.sha256)
		}
	}
}
