package fuse

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/internal/testkit/golden"
)

// optionCase is one view option on one recorded capture, with the golden
// file its YAML is kept in.
type optionCase struct {
	capture string
	opts    Options
	golden  string // under testdata
}

// viewWithOption fuses the capture with the option and with none, checks
// the option's YAML against its golden file, and fails when the option
// changed nothing (a golden of the default view would prove nothing).
func viewWithOption(t *testing.T, tc optionCase) (got, plain *Observation) {
	t.Helper()
	c := load(t, "../testdata/captures/"+tc.capture+".capture.json")
	got, plain = Snapshot(c, tc.opts), Snapshot(c, Options{})
	golden.Check(t, filepath.Join("testdata", tc.golden), []byte(got.Snapshot))
	if got.Snapshot == plain.Snapshot {
		t.Fatalf("%+v prints the default view of %s", tc.opts, tc.capture)
	}
	checkParses(t, got)
	return got, plain
}

// TestScope: Options.Scope prints one subtree, named by role, by role and
// name (a case-insensitive substring) or by a ref of the same snapshot;
// what is off-screen or covered in the default view is printed in full
// under a scope, a covered node marked and without a ref.
func TestScope(t *testing.T) {
	for _, tc := range []struct {
		optionCase
		root    string // the first line of the scoped view
		refs    int
		covered bool
	}{
		// ROLE:NAME, the name in another case and cut short.
		{optionCase{"shop", Options{Scope: "navigation:SECTIONS"}, "shop.scope.yaml"}, `- navigation "Sections":`, 3, false},
		// A ref: the combobox keeps the ref it has in the unscoped view.
		{optionCase{"forms", Options{Scope: "e4"}, "forms.scope.yaml"}, `- combobox "Country" [expanded=false] [ref=e4]:`, 1, false},
		// ROLE alone: the footer the default view collapses below.
		{optionCase{"scrolled", Options{Scope: "contentinfo"}, "scrolled.scope.yaml"}, `- contentinfo:`, 1, false},
		// A button the cookie banner covers: printed, marked, no ref.
		{optionCase{"banner", Options{Scope: "button:buy pack"}, "banner.scope.yaml"}, `- button "Buy Pack" [covered]`, 0, true},
	} {
		t.Run(tc.capture, func(t *testing.T) {
			got, plain := viewWithOption(t, tc.optionCase)
			if first, _, _ := strings.Cut(got.Snapshot, "\n"); first != tc.root {
				t.Errorf("first line %q, want %q", first, tc.root)
			}
			if strings.HasPrefix(got.Snapshot, "- note:") || strings.Contains(got.Snapshot, "nothing matches") {
				t.Errorf("the scope matched nothing:\n%s", got.Snapshot)
			}
			if got.Stats.Refs != tc.refs || got.Stats.Kept >= plain.Stats.Kept {
				t.Errorf("%d refs and %d lines kept (default view: %d), want %d refs and fewer lines", got.Stats.Refs, got.Stats.Kept, plain.Stats.Kept, tc.refs)
			}
			if strings.Contains(got.Snapshot, "collapsed:") {
				t.Errorf("a scoped view collapsed a line:\n%s", got.Snapshot)
			}
			if strings.Contains(got.Snapshot, "[covered]") != tc.covered {
				t.Errorf("[covered] printed: %v, want %v", !tc.covered, tc.covered)
			}
		})
	}
	// A scope naming nothing says so, in one note.
	c := load(t, "../testdata/captures/shop.capture.json")
	for _, s := range []string{"dialog", "navigation:footer", "e99"} {
		if got, want := Snapshot(c, Options{Scope: s}).Snapshot, "- note: nothing matches the scope "+s+"\n"; got != want {
			t.Errorf("scope %q: %q, want %q", s, got, want)
		}
	}
}

var (
	itemLine  = regexp.MustCompile(`^( *)- (.*)$`)
	deeperRe  = regexp.MustCompile(`^note: (\d+) nodes? deeper than depth (\d+)$`)
	propertyR = regexp.MustCompile(`^/(url|value|placeholder|description):`)
)

// TestDepth: Options.Depth keeps the first levels; a line at the last
// level with children below it gets one note counting them, and nothing
// else is printed deeper (but the line's own /url or /value).
func TestDepth(t *testing.T) {
	for _, tc := range []optionCase{
		{"shop", Options{Depth: 2}, "shop.depth-2.yaml"},
		{"forms", Options{Depth: 4}, "forms.depth-4.yaml"},
		{"headings", Options{Depth: 2}, "headings.depth-2.yaml"},
	} {
		t.Run(tc.capture, func(t *testing.T) {
			got, plain := viewWithOption(t, tc)
			notes, hidden := 0, 0
			for _, line := range strings.Split(strings.TrimSuffix(got.Snapshot, "\n"), "\n") {
				m := itemLine.FindStringSubmatch(line)
				if m == nil {
					continue // a scalar's continuation
				}
				level := len(m[1])/2 + 1
				if level <= tc.opts.Depth {
					continue
				}
				if d := deeperRe.FindStringSubmatch(m[2]); d != nil && level == tc.opts.Depth+1 {
					n, _ := strconv.Atoi(d[1])
					if d[2] != strconv.Itoa(tc.opts.Depth) || n == 0 {
						t.Errorf("note %q", m[2])
					}
					notes++
					hidden += n
					continue
				}
				if !propertyR.MatchString(m[2]) || level != tc.opts.Depth+1 {
					t.Errorf("level %d below depth %d: %q", level, tc.opts.Depth, line)
				}
			}
			if notes == 0 {
				t.Errorf("no note of what is deeper than %d", tc.opts.Depth)
			}
			// The notes stand for the lines the default view prints deeper.
			if got.Stats.Kept+hidden-notes != plain.Stats.Kept {
				t.Errorf("%d lines kept + %d hidden - %d notes != %d kept in the default view", got.Stats.Kept, hidden, notes, plain.Stats.Kept)
			}
		})
	}
}

// TestOffscreenDrop: OffscreenDrop leaves out what the default view
// collapses into counted lines; what is in view, and its refs, stay the
// same.
func TestOffscreenDrop(t *testing.T) {
	for _, tc := range []optionCase{
		{"shop", Options{Offscreen: OffscreenDrop}, "shop.drop.yaml"},
		{"scrolled", Options{Offscreen: OffscreenDrop}, "scrolled.drop.yaml"},
		{"big-viewport", Options{Offscreen: OffscreenDrop}, "big-viewport.drop.yaml"}, // elided runs
	} {
		t.Run(tc.capture, func(t *testing.T) {
			got, plain := viewWithOption(t, tc)
			if !strings.Contains(plain.Snapshot, "collapsed: ") {
				t.Fatalf("the default view of %s collapses nothing", tc.capture)
			}
			if strings.Contains(got.Snapshot, "collapsed: ") {
				t.Errorf("a collapsed line printed:\n%s", got.Snapshot)
			}
			if got.Stats.Offscreen < plain.Stats.Offscreen || got.Stats.Kept >= plain.Stats.Kept {
				t.Errorf("offscreen %d, kept %d; default view: offscreen %d, kept %d", got.Stats.Offscreen, got.Stats.Kept, plain.Stats.Offscreen, plain.Stats.Kept)
			}
			if a, b := elementLines(got.Elements), elementLines(plain.Elements); a != b {
				t.Errorf("the targets differ from the default view's:\n%s\nwant:\n%s", a, b)
			}
			// Every line but the collapsed ones is the default view's, in order.
			var want []string
			for _, l := range strings.SplitAfter(plain.Snapshot, "\n") {
				if !strings.Contains(l, "collapsed: ") {
					want = append(want, strings.TrimSuffix(strings.TrimSuffix(l, "\n"), ":"))
				}
			}
			k := 0
			for _, l := range strings.Split(strings.TrimSuffix(got.Snapshot, "\n"), "\n") {
				l = strings.TrimSuffix(l, ":") // a line whose children all went has no colon
				for k < len(want) && want[k] != l {
					k++
				}
				if k == len(want) {
					t.Errorf("line %q is not the default view's (in order)", l)
					break
				}
				k++
			}
		})
	}
}

func elementLines(els []Element) string {
	var sb strings.Builder
	for _, el := range els {
		fmt.Fprintf(&sb, "%s %s %q %s/%d\n", el.Ref, el.Role, el.Name, el.Frame, el.BackendNodeID)
	}
	return sb.String()
}

var (
	leftOutRe = regexp.MustCompile(`^ *- note: (.*) left out for the token budget$`)
	cutNoteRe = regexp.MustCompile(`^- note: "cut to fit (\d+) tokens: (.*) left out; (.*)"$`)
	countRe   = regexp.MustCompile(`^\+?(\d+) ([a-z]+)$`)
)

// TestBudgetNotes: a view over Options.MaxTokens is cut to fit; each run
// left out is one counted note, and the last note sums them up (a run of
// nodes no counted role names adds nothing to it) with the hint.
func TestBudgetNotes(t *testing.T) {
	for _, tc := range []optionCase{
		{"big", Options{Offscreen: OffscreenKeep, MaxTokens: 600}, "big.budget-600.yaml"},
		{"shop", Options{MaxTokens: 300}, "shop.budget-300.yaml"},
		{"scrolled", Options{MaxTokens: 250, FindHint: "use find"}, "scrolled.budget-250.yaml"},
	} {
		t.Run(tc.capture, func(t *testing.T) {
			got, plain := viewWithOption(t, tc)
			if plain.Stats.Tokens <= tc.opts.MaxTokens {
				t.Fatalf("the default view (%d tokens) fits in %d", plain.Stats.Tokens, tc.opts.MaxTokens)
			}
			if got.Stats.Tokens > tc.opts.MaxTokens {
				t.Errorf("%d tokens, over the budget of %d", got.Stats.Tokens, tc.opts.MaxTokens)
			}
			lines := strings.Split(strings.TrimSuffix(got.Snapshot, "\n"), "\n")
			last := cutNoteRe.FindStringSubmatch(lines[len(lines)-1])
			if last == nil {
				t.Fatalf("last line %q is no budget note", lines[len(lines)-1])
			}
			hint := tc.opts.FindHint
			if hint == "" {
				hint = "search with find (role, name, text) or print one part with a scope"
			}
			if last[1] != strconv.Itoa(tc.opts.MaxTokens) || last[3] != hint {
				t.Errorf("budget note %q: want %d tokens and the hint %q", lines[len(lines)-1], tc.opts.MaxTokens, hint)
			}
			sum := map[string]int{}
			runs := 0
			for _, l := range lines[:len(lines)-1] {
				m := leftOutRe.FindStringSubmatch(l)
				if m == nil {
					continue
				}
				runs++
				for what, n := range budgetCounts(t, m[1]) {
					if what != "node" {
						sum[what] += n
					}
				}
			}
			if runs == 0 {
				t.Fatal("no run left out is counted")
			}
			total := budgetCounts(t, strings.ReplaceAll(last[2], `\"`, `"`))
			if fmt.Sprint(total) != fmt.Sprint(sum) {
				t.Errorf("the last note counts %v, the runs %v", total, sum)
			}
		})
	}
}

// budgetCounts reads "3 rows, 1 link, navigation \"Top\"" as counts by
// role (a listed landmark counts 1 under its line).
func budgetCounts(t *testing.T, s string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, part := range strings.Split(s, ", ") {
		if strings.Contains(part, `"`) {
			out[part]++
			continue
		}
		m := countRe.FindStringSubmatch(part)
		if m == nil {
			t.Fatalf("count %q reads as neither a count nor a landmark", part)
		}
		n, _ := strconv.Atoi(m[1])
		out[singular(t, m[2])] += n
	}
	return out
}

// singular is the role a summary's plural word counts.
func singular(t *testing.T, word string) string {
	t.Helper()
	for _, r := range append(counted[:], "node", "landmark") {
		if word == r || word == strings.TrimPrefix(plural(2, r), "2 ") {
			return r
		}
	}
	t.Fatalf("%q is no counted role", word)
	return ""
}
