package keys

import (
	"strings"
	"testing"
)

// TestExamplesParse: every example the help texts show is a key Parse
// takes.
func TestExamplesParse(t *testing.T) {
	for _, name := range strings.Split(Examples, ", ") {
		if _, err := Parse(name); err != nil {
			t.Errorf("example %q: %v", name, err)
		}
	}
}
