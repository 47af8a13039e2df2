package main

// End-to-end tests of interactivity detection beyond roles.

import (
	"strings"
	"testing"
)

// TestDelegatedListRowsOneRefEach: a React-style list with one listener on
// the app root and cursor: pointer rows gives each row one ref and the root
// none; a scroll container says where it stands.
func TestDelegatedListRowsOneRefEach(t *testing.T) {
	needChromium(t)
	obs := snapshotJSON(t, servePage(t, "react.html"))
	rows := 0
	for _, el := range obs.Elements {
		if strings.Contains(el.Name, "Inbox") || el.Tag == "body" {
			t.Errorf("the delegating root got ref %s (%v)", el.Ref, el.Reasons)
		}
		if el.Role == "clickable" {
			rows++
			if strings.Join(el.Reasons, ",") != "cursor:pointer,delegated" {
				t.Errorf("row %q reasons %v, want cursor:pointer,delegated", el.Name, el.Reasons)
			}
		}
	}
	if rows != 4 {
		t.Errorf("%d row refs, want 4:\n%s", rows, obs.Snapshot)
	}
	if !strings.Contains(obs.Snapshot, `scrollable "Message preview" [scroll: 0% ↓ 1.7 screens] [ref=`) {
		t.Errorf("no scroll state:\n%s", obs.Snapshot)
	}
}

// TestManyListenersNoCap: 5,000 role-less listener cells in view, each with
// its own listener, all get a ref; discovery time is logged for the notes.
func TestManyListenersNoCap(t *testing.T) {
	needChromium(t)
	page := `<!doctype html><title>cells</title><style>body{margin:0}#g{display:flex;flex-wrap:wrap;width:1272px}
#g div{width:12px;height:12px;font-size:6px;overflow:hidden}</style><div id=g></div>
<script>const g = document.getElementById('g');
for (let i = 0; i < 5000; i++) { const d = document.createElement('div'); d.textContent = i; d.addEventListener('click', () => {}); g.appendChild(d); }</script>`
	url := serve(t, map[string]string{"/": page}).URL + "/"
	out := mustCLI(t, "snapshot", "--format", "json", url)
	obs := decode(t, out)
	n := 0
	for _, el := range obs.Elements {
		if contains(el.Reasons, "listener:click") {
			n++
		}
	}
	if n != 5000 {
		t.Errorf("%d listener refs, want 5000", n)
	}
	for _, tm := range obs.Stats.Timings {
		if strings.HasPrefix(tm.Step, "listener discovery") || tm.Step == "capture" {
			t.Logf("%s: %.1f ms", tm.Step, tm.MS)
		}
	}
}

// TestIconOnlyTargets: one-character names are kept (an icon-only close
// button, a div with a listener), and a listener span inside a button does
// not get a ref of its own.
func TestIconOnlyTargets(t *testing.T) {
	needChromium(t)
	obs := snapshotJSON(t, servePage(t, "listeners.html"))
	for _, want := range []string{`clickable "×" [ref=`, `clickable "Open menu" [ref=`, `clickable "Press me" [ref=`, `button "Buy now" [ref=`} {
		if !strings.Contains(obs.Snapshot, want) {
			t.Errorf("snapshot lacks %s:\n%s", want, obs.Snapshot)
		}
	}
	if strings.Count(obs.Snapshot, `"Buy now"`) != 1 || strings.Count(obs.Snapshot, `"Read more"`) != 1 {
		t.Errorf("an inner listener got a second ref:\n%s", obs.Snapshot)
	}
}
