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
		{"sight", okTokens(1, 28)},
		{"sight-viewport", okTokens(1, 28)},
		{"ariahidden", okTokens(30, 57, 32, 42)},
		{"ariahidden-viewport", okTokens(30, 57, 32, 42)},
	} {
		t.Run(tc.capture, func(t *testing.T) {
			c := load(t, "../testdata/captures/"+tc.capture+".capture.json")
			obs := Snapshot(c, Options{})
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
