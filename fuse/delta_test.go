package fuse

import (
	"slices"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"go.yaml.in/yaml/v3"
)

// TestDiffRefsThatWent: of the refs a delta's old view showed and the new
// one does not, those whose element is still in the page (scrolled away,
// collapsed) are out of view; only an element no longer in the page is
// gone. Both views come from one recorded capture: the second scrolled
// (its scroll offset moved) and with links removed from it.
func TestDiffRefsThatWent(t *testing.T) {
	for _, tc := range []struct {
		name, capture string
		scrollBy      float64
		// removed are links taken out of the page before the second view;
		// unfetched, links a viewport capture after the scroll would not
		// have fetched (taken out of the capture, not of the page).
		removed, unfetched []string
		wantGone           []string
		wantAway           bool // some refs are out of view
	}{
		{name: "scroll", capture: "scrolled", scrollBy: 400, wantAway: true},
		{name: "scroll and remove", capture: "scrolled", scrollBy: 400, removed: []string{"Photo 27"}, wantGone: []string{"Photo 27"}, wantAway: true},
		{name: "remove in view", capture: "scrolled", removed: []string{"Photo 27"}, wantGone: []string{"Photo 27"}},
		{name: "remove off-screen", capture: "scrolled", removed: []string{"Photo 35"}},
		{name: "scroll back", capture: "scrolled", scrollBy: -400, removed: []string{"Photo 29"}, wantGone: []string{"Photo 29"}, wantAway: true},
		{name: "viewport capture", capture: "scrolled-viewport", scrollBy: 400, removed: []string{"Photo 27"}, unfetched: []string{"Photo 22", "Photo 23"}, wantGone: []string{"Photo 27"}, wantAway: true},
		{name: "viewport capture, in view", capture: "scrolled-viewport", removed: []string{"Photo 24"}, wantGone: []string{"Photo 24"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := "../testdata/captures/" + tc.capture + ".capture.json"
			before, after := load(t, path), load(t, path)
			scroll(after, tc.scrollBy)
			for _, name := range tc.removed {
				removeLink(t, after, name, true)
			}
			for _, name := range tc.unfetched {
				removeLink(t, after, name, false)
			}
			refs := index.NewTable()
			old := FromCapture(before, Options{Refs: refs})
			cur := FromCapture(after, Options{Refs: refs})
			d := Diff(old, cur)
			var doc any
			if err := yaml.Unmarshal([]byte(d), &doc); err != nil {
				t.Fatalf("diff is not YAML: %v\n%s", err, d)
			}
			away, gone := refsIn(d, "out of view: "), refsIn(d, "gone: ")

			// Every ref of the old view is in the new one or in one note.
			inCur := map[string]bool{}
			walkNodes(cur.Roots, func(n *Node) { inCur[n.Ref] = true })
			var wantGone, wantAway []string
			walkNodes(old.Roots, func(n *Node) {
				switch {
				case n.Ref == "" || inCur[n.Ref]:
				case slices.Contains(tc.wantGone, n.Name):
					wantGone = append(wantGone, Key(n))
				default:
					wantAway = append(wantAway, Key(n))
				}
			})
			if len(wantGone) != len(tc.wantGone) {
				t.Fatalf("the old view shows %d of the removed links %v:\n%s", len(wantGone), tc.wantGone, YAML(old.Roots))
			}
			if !slices.Equal(gone, wantGone) {
				t.Errorf("gone: %q, want %q\n%s", gone, wantGone, d)
			}
			if !slices.Equal(away, wantAway) {
				t.Errorf("out of view: %q, want %q\n%s", away, wantAway, d)
			}
			if tc.wantAway != (len(away) > 0) {
				t.Errorf("refs out of view: %q, want some: %v\n%s", away, tc.wantAway, d)
			}
			// An out-of-view ref still resolves (unless the capture did
			// not fetch it); a gone one does not.
			walkNodes(old.Roots, func(n *Node) {
				if n.Ref == "" || inCur[n.Ref] {
					return
				}
				_, found := cur.Locate(n.target.key)
				if want := !slices.Contains(tc.wantGone, n.Name) && !slices.Contains(tc.unfetched, n.Name); found != want {
					t.Errorf("%s: Locate finds it %v, want %v", Key(n), found, want)
				}
			})
		})
	}
}

// refsIn lists the keys a note of the diff names after its label.
func refsIn(d, label string) []string {
	for _, line := range strings.Split(d, "\n") {
		var doc []map[string]string
		if yaml.Unmarshal([]byte(line), &doc) != nil || len(doc) != 1 {
			continue
		}
		if text, ok := strings.CutPrefix(doc[0]["note"], label); ok {
			return strings.Split(text, ", ")
		}
	}
	return nil
}

// scroll moves the capture's top-level scroll offset by dy px.
func scroll(c *domsnap.Capture, dy float64) {
	c.Viewport.ScrollY += dy
	c.Documents[0].ScrollY += dy
}

// removeLink takes the link named name out of the AX tree; fromPage also
// takes its element's boxes out (the element was removed, not merely not
// fetched).
func removeLink(t *testing.T, c *domsnap.Capture, name string, fromPage bool) {
	t.Helper()
	ax := c.Frames[0].AXNodes
	for i := range ax {
		if ax[i].Role != "link" || ax[i].Name != name {
			continue
		}
		for j := range ax {
			ax[j].Children = slices.DeleteFunc(ax[j].Children, func(id string) bool { return id == ax[i].ID })
		}
		if fromPage {
			nodes := c.Documents[0].Nodes
			gone := map[int32]bool{}
			for k := range nodes {
				if nodes[k].Backend == ax[i].Backend || gone[nodes[k].Parent] {
					gone[int32(k)] = true
					nodes[k].Layout = nil
				}
			}
		}
		return
	}
	t.Fatalf("no link %q in the capture", name)
}
