package fuse

import (
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/internal/testkit/golden"
)

// TestCompare sets the AX-only view beside the fused one on recorded
// captures: the text against its golden file, the table against each
// view's own figures, and the targets only one view has.
func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		capture string
		// onlyFused and onlyAX are the targets one view has and the other
		// lacks, reasons left out.
		onlyFused, onlyAX []string
		table             map[string][2]int // rows with a known figure
	}{
		{
			// Listener divs only the fused view finds; a footer only the
			// AX-only view prints (the fused one collapses it below).
			capture:   "shop",
			onlyFused: strings.Split(strings.Repeat(`clickable "Add to cart"|`, 9), "|")[:9],
			onlyAX:    []string{`link "Contact us"`, `link "Privacy policy"`},
			table:     map[string][2]int{"refs": {5, 12}, "role-less listener targets": {0, 9}, "covered nodes left out": {0, 0}, "off-screen nodes collapsed": {0, 19}},
		},
		{
			// A cookie banner covers buttons the AX-only view offers.
			capture: "banner",
			onlyAX:  []string{`button "Buy Cot"`, `button "Buy Gloves"`, `button "Buy Mug"`, `button "Buy Pack"`, `button "Buy Pan"`, `button "Buy Pot"`, `button "Buy Socks"`, `button "Buy Tarp"`},
			table:   map[string][2]int{"refs": {18, 10}, "role-less listener targets": {0, 0}, "covered nodes left out": {0, 12}, "off-screen nodes collapsed": {0, 4}},
		},
	} {
		t.Run(tc.capture, func(t *testing.T) {
			c := load(t, "../testdata/captures/"+tc.capture+".capture.json")
			refs := index.NewTable()
			// The mode asked for and the table passed are not the views'.
			cmp := Compare(c, Options{Mode: ModeAX, Refs: refs})
			golden.Check(t, filepath.Join("testdata", tc.capture+".compare.txt"), []byte(cmp.Text(60)))
			if _, ok := refs.KeyOf("e1"); ok {
				t.Error("Compare handed out refs from the caller's table")
			}
			if cmp.AX.Mode != ModeAX || cmp.Fused.Mode != ModeFused {
				t.Fatalf("modes %q and %q", cmp.AX.Mode, cmp.Fused.Mode)
			}
			// Each view is the one Snapshot prints.
			if ax, fused := Snapshot(c, Options{Mode: ModeAX}), Snapshot(c, Options{}); cmp.AX.Snapshot != ax.Snapshot || cmp.Fused.Snapshot != fused.Snapshot {
				t.Error("the views differ from Snapshot's")
			}
			if cmp.AX.Snapshot == cmp.Fused.Snapshot {
				t.Fatal("both views print the same")
			}
			rows := map[string][2]int{}
			var measures []string
			for _, r := range cmp.Table {
				rows[r.Measure] = [2]int{r.AX, r.Fused}
				measures = append(measures, r.Measure)
			}
			if want := []string{"tokens", "lines", "refs", "role-less listener targets", "covered nodes left out", "off-screen nodes collapsed", "clipped nodes left out", "screenshot needed (1 yes)"}; !reflect.DeepEqual(measures, want) {
				t.Errorf("measures %q, want %q", measures, want)
			}
			a, f := cmp.AX.Stats, cmp.Fused.Stats
			for m, want := range map[string][2]int{
				"tokens": {a.Tokens, f.Tokens}, "lines": {a.Lines, f.Lines},
				"refs": {len(cmp.AX.Elements), len(cmp.Fused.Elements)}, "role-less listener targets": {a.Roleless, f.Roleless},
				"covered nodes left out": {0, f.Occluded}, "off-screen nodes collapsed": {0, f.Offscreen}, "clipped nodes left out": {0, f.Clipped},
				"screenshot needed (1 yes)": {0, min(len(cmp.Fused.Regions), 1)},
			} {
				if rows[m] != want {
					t.Errorf("%s: %v, want the views' %v", m, rows[m], want)
				}
			}
			for m, want := range tc.table {
				if rows[m] != want {
					t.Errorf("%s: %v, want %v", m, rows[m], want)
				}
			}
			if got := withoutReasons(cmp.OnlyFused); !reflect.DeepEqual(got, orEmpty(tc.onlyFused)) {
				t.Errorf("only fused: %q, want %q", got, tc.onlyFused)
			}
			if got := withoutReasons(cmp.OnlyAX); !reflect.DeepEqual(got, orEmpty(tc.onlyAX)) {
				t.Errorf("only AX: %q, want %q", got, tc.onlyAX)
			}
			// The refs the views share and those one lacks add up.
			if shared := len(cmp.Fused.Elements) - len(cmp.OnlyFused); shared != len(cmp.AX.Elements)-len(cmp.OnlyAX) {
				t.Errorf("%d fused refs - %d only fused != %d AX refs - %d only AX", len(cmp.Fused.Elements), len(cmp.OnlyFused), len(cmp.AX.Elements), len(cmp.OnlyAX))
			}
			// The text: both views side by side, the table, both lists.
			text := cmp.Text(60)
			for _, s := range []string{"# AX-only view", "│ # fused view", "targets only the fused view has: " + strconv.Itoa(len(tc.onlyFused)), "targets only the AX-only view has (off-screen, covered or hidden in the fused view): " + strconv.Itoa(len(tc.onlyAX))} {
				if !strings.Contains(text, s) {
					t.Errorf("text lacks %q", s)
				}
			}
			if narrow := cmp.Text(10); narrow != cmp.Text(40) {
				t.Error("a width under 40 is not taken as 40")
			}
		})
	}
}

func withoutReasons(items []string) []string {
	out := []string{}
	for _, it := range items {
		k := strings.LastIndex(it, " (")
		if k < 0 || !strings.HasSuffix(it, ")") {
			out = append(out, it+" [no reasons]")
			continue
		}
		out = append(out, it[:k])
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
