package fuse

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/internal/testkit/golden"
	"github.com/axfuse/axfuse/layout"
)

// TestFoldingChangesNothing: a view built with off-screen subtrees folded
// says exactly what the one built in full says (YAML, elements, regions,
// counts), and its full tree, built on first use, answers Find and Locate
// the same.
func TestFoldingChangesNothing(t *testing.T) {
	captures := map[string]*domsnap.Capture{"scaled": scaledTable(t, 300)}
	for name, path := range golden.Captures(t, "..") {
		captures[name] = load(t, path)
	}
	options := []Options{{}, {Offscreen: OffscreenDrop}, {Margin: 400}, {Margin: -30}, {Depth: 3}, {MaxTokens: 600}}
	for name, c := range captures {
		g := layout.Compute(c)
		for _, o := range options {
			folded, full := observe(buildTree(c, g, o, true)), observe(buildTree(c, g, o, false))
			if folded != full {
				t.Errorf("%s %+v: folded view differs:\n%s\nfull view:\n%s", name, o, folded, full)
			}
		}
	}
}

// observe is everything a tree tells, Find and Locate included.
func observe(t *Tree) string {
	out := fmt.Sprintf("%s%+v\n%+v\n", YAML(t.Roots), t.Counts, t.Regions)
	els, _ := json.Marshal(t.Elements)
	out += string(els) + "\n"
	for _, q := range []Query{{Role: "link"}, {Role: "row"}, {Text: "e"}} {
		ms, _ := json.Marshal(t.Find(q))
		out += string(ms) + "\n"
	}
	for _, el := range t.Elements {
		l, ok := t.Locate(domsnap.Key{Frame: el.Frame, Backend: el.BackendNodeID})
		out += fmt.Sprintf("%v %+v\n", ok, l)
	}
	return out
}
