package fuse

import (
	"fmt"
	"strings"
	"testing"
)

// elementsInView lists the ref'd elements whose box meets the viewport.
func elementsInView(o *Observation) []string {
	var out []string
	for _, e := range o.Elements {
		if b := e.Box; b != nil && b[0]+b[2] > 0 && b[1]+b[3] > 0 && b[0] < o.Viewport.Width && b[1] < o.Viewport.Height {
			out = append(out, fmt.Sprintf("%s %s %q %v", e.Ref, e.Role, e.Name, *b))
		}
	}
	return out
}

// TestViewportCaptureFusesLikeFull: a viewport capture and a full capture
// of the same page (both recorded by axfuse) give the same elements in the
// viewport; on the big table, the same YAML, collapsed counts included.
// (On the delegated table the collapsed line differs: the viewport pass
// counts elided rows by tag and role, so it has no cursor: pointer spans.)
func TestViewportCaptureFusesLikeFull(t *testing.T) {
	for _, tc := range []struct {
		page     string
		sameYAML bool
	}{{"big", true}, {"shop", false}, {"scrolled", false}, {"delegated", false}} {
		t.Run(tc.page, func(t *testing.T) {
			full := load(t, "../testdata/captures/"+tc.page+".capture.json")
			view := load(t, "../testdata/captures/"+tc.page+"-viewport.capture.json")
			if full.Mode != "full" || view.Mode != "viewport" {
				t.Fatalf("modes %q and %q", full.Mode, view.Mode)
			}
			f, v := Snapshot(full, Options{}), Snapshot(view, Options{})
			a, b := strings.Join(elementsInView(f), "\n"), strings.Join(elementsInView(v), "\n")
			if a != b || a == "" {
				t.Errorf("elements in view differ:\nfull:\n%s\nviewport:\n%s", a, b)
			}
			if tc.sameYAML && f.Snapshot != v.Snapshot {
				t.Errorf("YAML differs:\nfull:\n%s\nviewport:\n%s", f.Snapshot, v.Snapshot)
			}
			if v.Stats.Offscreen == 0 || v.Stats.DOMNodes >= f.Stats.DOMNodes {
				t.Errorf("viewport capture: %d nodes (full %d), %d off-screen counted", v.Stats.DOMNodes, f.Stats.DOMNodes, v.Stats.Offscreen)
			}
		})
	}
}

// TestElidedRunsMergeAndDrop: runs counted in the page join the collapsed
// line of the kept rows that peek in, and --offscreen drop leaves them out
// while still counting them.
func TestElidedRunsMergeAndDrop(t *testing.T) {
	view := load(t, "../testdata/captures/big-viewport.capture.json")
	o := Snapshot(view, Options{})
	if !strings.Contains(o.Snapshot, "collapsed: below, 1175 rows, 1175 links, 1175 buttons") {
		t.Errorf("no collapsed line with the run's counts:\n%s", o.Snapshot)
	}
	d := Snapshot(view, Options{Offscreen: OffscreenDrop})
	if strings.Contains(d.Snapshot, "collapsed") || d.Stats.Offscreen < 1175 {
		t.Errorf("drop: %d off-screen, snapshot:\n%s", d.Stats.Offscreen, d.Snapshot)
	}
}
