package truth

import (
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/internal/testkit/golden"
	"github.com/axfuse/axfuse/layout"
)

// truthCapture is testdata/pages/truth/index.html recorded with its hit
// tests (axfuse capture --hits): every kind of target and non-target the
// definition names, with a known answer.
const truthCapture = "../testdata/captures/truth-hits.capture.json"

func load(t *testing.T, path string) (*domsnap.Capture, *layout.Geometry) {
	t.Helper()
	c, err := domsnap.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return c, layout.Compute(c)
}

func texts(cs []Candidate) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.Text)
	}
	return out
}

// TestJudgeRecordedPage: the page's targets, the button under the fixed
// banner covered, the list that delegates to its buttons left out, and
// none of the hidden, transparent, disabled, off-screen or box-less ones.
func TestJudgeRecordedPage(t *testing.T) {
	c, g := load(t, truthCapture)
	tr := Judge(c, g, Candidates(c, g))
	want := []string{"Native button", "A link", "Listener div", "Role button", "Tab stop", "Alpha", "Beta",
		"wrapped link", "Accept", "Through glass", "Open shadow", "Closed shadow div", "In frame"}
	if got := texts(tr.Targets); !reflect.DeepEqual(got, want) {
		t.Errorf("targets\n got %q\nwant %q", got, want)
	}
	if got := texts(tr.Covered); !reflect.DeepEqual(got, []string{"Under the banner"}) {
		t.Errorf("covered %q, want the button under the banner", got)
	}
	if tr.Delegating != 1 || tr.Unjudged != 0 {
		t.Errorf("delegating %d, unjudged %d; want 1 and 0", tr.Delegating, tr.Unjudged)
	}
	var listenerOnly []string
	for _, target := range tr.Targets {
		if target.ListenerOnly() {
			listenerOnly = append(listenerOnly, target.Text)
		}
	}
	if !reflect.DeepEqual(listenerOnly, []string{"Listener div", "Closed shadow div"}) {
		t.Errorf("listener-only targets %q", listenerOnly)
	}
	// The wrapped link is clicked on its text, not at its box's centre
	// (past the end of its second line).
	for _, target := range tr.Targets {
		if centre, _ := PointOf(target.Box, g.ViewportBox(0)); target.Text == "wrapped link" && target.Point == centre {
			t.Errorf("the wrapped link's point is its box's centre %v", centre)
		}
	}
	// The frame's button is judged in its own document.
	for _, target := range tr.Targets {
		if target.Text == "In frame" && target.Pos.Doc == 0 {
			t.Error("the frame's button was placed in the top document")
		}
	}
}

// TestCompareRecordedPage measures both views of the recorded page: the
// AX-only view lacks the two listener-only targets and offers the covered
// button; the fused view has every target and no unreachable ref.
func TestCompareRecordedPage(t *testing.T) {
	c, g := load(t, truthCapture)
	cmp := fuse.Compare(c, fuse.Options{})
	r := Compare(c, g, cmp)
	golden.Check(t, filepath.Join("testdata", "truth-hits.report.txt"), []byte(r.Text()))
	for _, tc := range []struct {
		view                                string
		m                                   Measure
		found, listenerFound, refs, unreach int
		missed                              []string
	}{
		{"AX-only", r.AX, 11, 0, 14, 1, []string{"Listener div", "Closed shadow div"}},
		{"fused", r.Fused, 13, 2, 15, 0, []string{}},
	} {
		m := tc.m
		if m.Targets != 13 || m.Found != tc.found || m.ListenerOnly != 2 || m.ListenerOnlyFound != tc.listenerFound ||
			m.RefsInView != tc.refs || m.Unreachable != tc.unreach || m.Unjudged != 0 {
			t.Errorf("%s: %+v", tc.view, m)
		}
		if want := float64(tc.found) / 13; m.Recall != want {
			t.Errorf("%s: recall %v, want %v", tc.view, m.Recall, want)
		}
		if want := float64(tc.refs-tc.unreach) / float64(tc.refs); m.Precision != want {
			t.Errorf("%s: precision %v, want %v", tc.view, m.Precision, want)
		}
		if got := texts(m.Missed); !reflect.DeepEqual(got, tc.missed) {
			t.Errorf("%s: missed %q, want %q", tc.view, got, tc.missed)
		}
		if len(m.UnreachableRefs) != tc.unreach {
			t.Errorf("%s: unreachable refs %q", tc.view, m.UnreachableRefs)
		}
	}
	// The AX-only view's unreachable ref is the covered button's.
	for _, e := range cmp.AX.Elements {
		if len(r.AX.UnreachableRefs) == 1 && e.Ref == r.AX.UnreachableRefs[0] && e.Name != "Under the banner" {
			t.Errorf("the AX-only view's unreachable ref names %q, not the covered button", e.Name)
		}
	}
	if r.AX.Tokens == 0 || r.Fused.Tokens == 0 {
		t.Error("tokens not carried")
	}
}

// TestHostileHits: a capture's hit tests are the page's word as much as
// the rest; missing, misplaced, non-finite or foreign ones leave
// candidates unjudged or covered, never counted as targets, and never
// panic.
func TestHostileHits(t *testing.T) {
	base, _ := load(t, truthCapture)
	nan := math.NaN()
	for _, tc := range []struct {
		name                      string
		hits                      func([]domsnap.Hit) []domsnap.Hit
		targets, covered, unjudge int
	}{
		{"none", func([]domsnap.Hit) []domsnap.Hit { return nil }, 0, 0, 14},
		{"not finite", func(h []domsnap.Hit) []domsnap.Hit {
			for i := range h {
				h[i].X, h[i].Y = nan, math.Inf(1)
			}
			return h
		}, 0, 0, 14},
		{"unknown target", func(h []domsnap.Hit) []domsnap.Hit {
			for i := range h {
				h[i].Target = "nobody"
			}
			return h
		}, 0, 14, 0},
		{"unknown node", func(h []domsnap.Hit) []domsnap.Hit {
			for i := range h {
				h[i].Backend = -h[i].Backend - 1
			}
			return h
		}, 0, 14, 0},
		{"all on the body", func(h []domsnap.Hit) []domsnap.Hit {
			for i := range h {
				h[i].Target, h[i].Backend = base.Documents[0].Target, base.Documents[0].Nodes[bodyOf(base)].Backend
			}
			return h
		}, 0, 14, 0},
		{"duplicated", func(h []domsnap.Hit) []domsnap.Hit { return append(h, h...) }, 13, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := load(t, truthCapture)
			c.Hits = tc.hits(c.Hits)
			g := layout.Compute(c)
			tr := Judge(c, g, Candidates(c, g))
			if len(tr.Targets) != tc.targets || len(tr.Covered) != tc.covered || tr.Unjudged != tc.unjudge {
				t.Errorf("%d targets, %d covered, %d unjudged; want %d, %d, %d",
					len(tr.Targets), len(tr.Covered), tr.Unjudged, tc.targets, tc.covered, tc.unjudge)
			}
			r := Compare(c, g, fuse.Compare(c, fuse.Options{}))
			for _, m := range []Measure{r.AX, r.Fused} {
				if m.Recall < 0 || m.Recall > 1 || m.Precision < 0 || m.Precision > 1 || math.IsNaN(m.Recall+m.Precision) {
					t.Errorf("recall %v, precision %v", m.Recall, m.Precision)
				}
			}
			if tc.unjudge > 0 && r.Text() == "" {
				t.Error("no report")
			}
		})
	}
}

func bodyOf(c *domsnap.Capture) int {
	for i, n := range c.Documents[0].Nodes {
		if n.Name == "BODY" {
			return i
		}
	}
	return 0
}

// TestPointOf: a click goes to the centre of the part in view, whole px.
func TestPointOf(t *testing.T) {
	view := layout.Box{W: 800, H: 600}
	for _, tc := range []struct {
		name string
		box  layout.Box
		want [2]float64
		ok   bool
	}{
		{"inside", layout.Box{X: 10, Y: 20, W: 101, H: 31}, [2]float64{60, 35}, true},
		{"half below", layout.Box{X: 0, Y: 580, W: 100, H: 100}, [2]float64{50, 590}, true},
		{"left of view", layout.Box{X: -200, Y: 0, W: 100, H: 100}, [2]float64{}, false},
		{"a sliver", layout.Box{X: 10, Y: 599, W: 100, H: 100}, [2]float64{}, false},
		{"thin", layout.Box{X: 10, Y: 10, W: 1.5, H: 100}, [2]float64{}, false},
		{"not finite", layout.Box{X: math.NaN(), Y: 0, W: 10, H: 10}, [2]float64{}, false},
		{"infinite", layout.Box{X: 0, Y: 0, W: math.Inf(1), H: 10}, [2]float64{400, 5}, true},
	} {
		got, ok := PointOf(tc.box, view)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: %v %v, want %v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// TestNative: which elements activate of themselves.
func TestNative(t *testing.T) {
	for _, tc := range []struct {
		name  string
		attrs []string
		want  bool
	}{
		{"A", []string{"href", "/"}, true},
		{"A", nil, false},
		{"BUTTON", nil, true},
		{"BUTTON", []string{"disabled", ""}, false},
		{"INPUT", []string{"type", "HIDDEN"}, false},
		{"INPUT", []string{"type", "text"}, true},
		{"DIV", []string{"role", " Button "}, true},
		{"DIV", []string{"role", "presentation"}, false},
		{"DIV", []string{"contenteditable", ""}, true},
		{"DIV", []string{"contenteditable", "false"}, false},
		{"SPAN", []string{"tabindex", "0"}, true},
		{"SPAN", []string{"tabindex", "-1"}, false},
		{"SPAN", []string{"tabindex", "x"}, false},
		{"SPAN", nil, false},
	} {
		n := &domsnap.Node{Name: tc.name, Attrs: tc.attrs}
		if got := isNative(n); got != tc.want {
			t.Errorf("%s %q: %v, want %v", tc.name, tc.attrs, got, tc.want)
		}
	}
}

// TestMeasurePeer: an outside observer known by its refs' boxes. Given
// the boxes of each view's refs, it finds what that view finds; with no
// boxes, nothing; hostile boxes find nothing and never panic.
func TestMeasurePeer(t *testing.T) {
	c, g := load(t, truthCapture)
	cmp := fuse.Compare(c, fuse.Options{})
	r := Compare(c, g, cmp)
	boxesOf := func(obs *fuse.Observation) []BoxRef {
		var out []BoxRef
		for _, e := range obs.Elements {
			if e.Box != nil {
				out = append(out, BoxRef{Ref: e.Ref, Box: layout.Box{X: e.Box[0], Y: e.Box[1], W: e.Box[2], H: e.Box[3]}})
			}
		}
		return out
	}
	nan := math.NaN()
	for _, tc := range []struct {
		name  string
		boxes []BoxRef
		found int
	}{
		{"AX-only boxes", boxesOf(cmp.AX), r.AX.Found},
		{"fused boxes", boxesOf(cmp.Fused), r.Fused.Found},
		{"none", nil, 0},
		{"hostile", []BoxRef{{"e1", layout.Box{X: nan, Y: 0, W: 10, H: 10}}, {"e2", layout.Box{X: 0, Y: 0, W: math.Inf(1), H: math.Inf(1)}}, {"e3", layout.Box{X: -5, Y: -5, W: -10, H: -10}}}, 0},
	} {
		p := &Peer{Name: "peer", Snapshot: "- button \"x\" [ref=e1]\n- link [ref=e2]\n", Boxes: tc.boxes}
		MeasurePeer(c, g, p)
		if p.Measure == nil || p.Measure.Found != tc.found || p.Measure.Targets != 13 || len(p.Missed) != 13-tc.found {
			t.Errorf("%s: %+v, missed %d; want %d found of 13", tc.name, p.Measure, len(p.Missed), tc.found)
		}
		if p.Refs != 2 || p.Lines != 2 || p.Measure.Tokens <= 0 {
			t.Errorf("%s: %d refs, %d lines, %d tokens", tc.name, p.Refs, p.Lines, p.Measure.Tokens)
		}
	}
	failed := &Peer{Name: "peer", Error: "exit status 1"}
	MeasurePeer(c, g, failed)
	if failed.Measure != nil {
		t.Error("a failed peer was measured")
	}
	r.Peer = &Peer{Name: "pw", Snapshot: "- x [ref=e1]", Boxes: boxesOf(cmp.AX)}
	MeasurePeer(c, g, r.Peer)
	if text := r.Text(); !strings.Contains(text, "pw") || !strings.Contains(text, "?/") {
		t.Errorf("the text has no peer column:\n%s", text)
	}
}
