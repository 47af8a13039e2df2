package fuse

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// The hostile pages mark text no one sees with qzNN and text a person sees
// with okNN (testdata/pages/sight.html, ariahidden.html); their recorded
// captures, full and viewport, fuse to views with none of the first and
// all of the second.
func TestSightOnRecordedCaptures(t *testing.T) {
	hidden := regexp.MustCompile(`qz\d\d`)
	for _, tc := range []struct {
		capture string
		shown   []string
	}{
		{"sight", append(okTokens(1, 29), "ok58", "ok59", "ok75")},
		{"sight-viewport", append(okTokens(1, 29), "ok58", "ok59", "ok75")},
		{"ariahidden", okTokens(30, 57, 32, 42)},
		{"ariahidden-viewport", okTokens(30, 57, 32, 42)},
		// Settled by the pixels the capture holds (Capture.TextPixels).
		{"unsure", okTokens(76, 86)},
		{"darkscheme", okTokens(87, 89)},
		// Links whose colours visits change (testdata/pages/visited.html).
		{"visited", okTokens(160, 169)},
	} {
		t.Run(tc.capture, func(t *testing.T) {
			c := load(t, "../testdata/captures/"+tc.capture+".capture.json")
			obs := Snapshot(c, Options{Audit: true})
			if m := hidden.FindAllString(obs.Snapshot, -1); len(m) > 0 {
				t.Errorf("hidden text printed: %v\n%s", m, obs.Snapshot)
			}
			for _, el := range obs.Elements {
				if hidden.MatchString(el.Name) {
					t.Errorf("a ref named by hidden text: %+v", el)
				}
			}
			for _, s := range tc.shown {
				if !regexp.MustCompile(`\b` + s + `\b`).MatchString(obs.Snapshot) {
					t.Errorf("visible %s missing:\n%s", s, obs.Snapshot)
				}
			}
			for _, w := range obs.Withheld {
				if w.Kind == "" || w.Reason == "" || w.Box == nil || w.Excerpt == "" {
					t.Errorf("withheld item lacks a field: %+v", w)
				}
			}
			if strings.HasPrefix(tc.capture, "sight") && len(obs.Withheld) == 0 {
				t.Errorf("nothing withheld")
			}
			// Without Audit the list quotes no page text.
			for _, w := range Snapshot(c, Options{}).Withheld {
				if w.Excerpt != "" || w.Kind == "" || w.Reason == "" {
					t.Errorf("withheld item without Audit: %+v", w)
				}
			}
		})
	}
}

func okTokens(from, to int, except ...int) []string {
	var out []string
next:
	for k := from; k <= to; k++ {
		for _, e := range except {
			if e == k {
				continue next
			}
		}
		out = append(out, fmt.Sprintf("ok%02d", k))
	}
	return out
}

// TestDrawnControlsKeepTheirRefs: an unseen checkbox or radio laid over a
// seen element of its own parent that draws it (TodoMVC's toggles), and a
// terminal's clear field over its screen, stay targets, with their own
// names withheld; unseen controls over nothing seen,
// over an unseen drawing, and a clear button over content stay out
// (testdata/pages/standin.html: qzNN no one sees, okNN a person does).
func TestDrawnControlsKeepTheirRefs(t *testing.T) {
	hidden := regexp.MustCompile(`qz\d\d`)
	for _, capture := range []string{"standin", "standin-viewport"} {
		t.Run(capture, func(t *testing.T) {
			c := load(t, "../testdata/captures/"+capture+".capture.json")
			obs := Snapshot(c, Options{})
			if m := hidden.FindAllString(obs.Snapshot, -1); len(m) > 0 {
				t.Errorf("hidden text printed: %v\n%s", m, obs.Snapshot)
			}
			for _, s := range okTokens(0, 5) {
				if !strings.Contains(obs.Snapshot, s) {
					t.Errorf("visible %s missing:\n%s", s, obs.Snapshot)
				}
			}
			var got []string
			for _, el := range obs.Elements {
				if el.Name != "" {
					t.Errorf("an unseen control keeps a name: %+v", el)
				}
				got = append(got, el.Role)
			}
			if want := []string{"checkbox", "radio", "checkbox", "textbox"}; strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("targets %v, want %v (the drawn checkboxes and radio, the terminal's field, nothing else):\n%s", got, want, obs.Snapshot)
			}
			if !strings.Contains(obs.Snapshot, "4 elements withheld") {
				t.Errorf("the four unseen controls with no drawing are not counted withheld:\n%s", obs.Snapshot)
			}
		})
	}
}

// TestUnsureTextsWithoutPixelsAreWithheld: the unsure pages' captures with
// their pixel verdicts taken out. Every text the model cannot judge is
// withheld, hidden or not (failing closed), the note says why, and the
// texts the model can judge (the heading's plain colour) stay.
func TestUnsureTextsWithoutPixelsAreWithheld(t *testing.T) {
	for _, tc := range []struct {
		capture string
		model   []string // judged by the model alone
		unsure  []string // withheld without pixels
	}{
		{"unsure", []string{"ok76"}, okTokens(77, 86)},
		{"darkscheme", nil, okTokens(87, 89)},
		// Only the links a visit may fade are unsure: the ones whose
		// :visited colours show too, or whose :link colour a :visited
		// rule of the same rank replaces, are the model's.
		{"visited", okTokens(160, 163), okTokens(164, 169)},
	} {
		t.Run(tc.capture, func(t *testing.T) {
			c := load(t, "../testdata/captures/"+tc.capture+".capture.json")
			if len(c.TextPixels) == 0 {
				t.Fatal("the capture holds no pixel verdicts")
			}
			c.TextPixels = nil
			obs := Snapshot(c, Options{})
			for _, s := range tc.model {
				if !strings.Contains(obs.Snapshot, s) {
					t.Errorf("%s, judged by the model, is missing:\n%s", s, obs.Snapshot)
				}
			}
			for _, s := range tc.unsure {
				if strings.Contains(obs.Snapshot, s) {
					t.Errorf("%s printed with no pixel verdict:\n%s", s, obs.Snapshot)
				}
			}
			if obs.Stats.Counts.Unsure == 0 || !strings.Contains(obs.Snapshot, "could not be confirmed seen") {
				t.Errorf("no unsure count (%d) or note:\n%s", obs.Stats.Counts.Unsure, obs.Snapshot)
			}
		})
	}
}
