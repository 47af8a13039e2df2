package act_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/internal/testkit/replay"
)

// These tests replay sessions recorded from real Chromium by
// cmd/axfuse's TestRecordedSessionsHoldLive (make record-sessions): each
// step of a scenario runs on an act.Session over the recorded tab, and
// must ask the browser what it asked while recording and answer what it
// answered then. Each test then checks the behaviour it names.

// played is a scenario replayed: its recording, the tab and the outcomes.
type played struct {
	rec *replay.Session
	tab *replay.Tab
	out []replay.Outcome
}

func replayAct(t *testing.T, name string) played {
	t.Helper()
	rec, err := replay.Load(filepath.Join("..", "testdata", "sessions", name+".session.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	tab := replay.NewTab(rec.Tabs[0])
	s, err := act.Open(tab, "replay", fuse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := replay.RunAct(s, rec.Steps, replay.Script{Sent: tab.TakeSent, URL: rec.URL})
	for _, p := range tab.Problems() {
		t.Errorf("off the recording: %s", p)
	}
	for i := range out {
		if i < len(rec.Outcomes) && !same(out[i], rec.Outcomes[i]) {
			t.Errorf("step %d (%s) answered\n%+v\nrecorded\n%+v", i, rec.Steps[i].Do, out[i], rec.Outcomes[i])
		}
	}
	return played{rec, tab, out}
}

func same(a, b replay.Outcome) bool {
	return a.Text == b.Text && a.Err == b.Err && slices.Equal(a.Sent, b.Sent)
}

// refused checks that step i failed saying want, and sent nothing.
func (p played) refused(t *testing.T, i int, want string) {
	t.Helper()
	o := p.out[i]
	if !strings.Contains(o.Err, want) {
		t.Errorf("step %d: error %q, want it to say %q", i, o.Err, want)
	}
	if !strings.Contains(o.Err, "nothing was done") && !strings.Contains(o.Err, "not found") {
		t.Errorf("step %d: the refusal %q does not say that nothing was done", i, o.Err)
	}
	if len(o.Sent) > 0 {
		t.Errorf("step %d: refused, yet sent %v", i, o.Sent)
	}
}

// succeeded checks that step i did not fail.
func (p played) succeeded(t *testing.T, i int) {
	t.Helper()
	if p.out[i].Err != "" {
		t.Fatalf("step %d: %s", i, p.out[i].Err)
	}
}

// box is the box of the element named name in the first recorded
// capture.
func (p played) box(t *testing.T, name string) [4]float64 {
	t.Helper()
	var first struct{ Capture *domsnap.Capture }
	for _, c := range p.rec.Tabs[0] {
		if c.Op == "CaptureWith" {
			if err := json.Unmarshal(c.Result, &first); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if first.Capture == nil {
		t.Fatal("no capture recorded")
	}
	for _, e := range fuse.Snapshot(first.Capture, fuse.Options{}).Elements {
		if e.Name == name && e.Box != nil {
			return *e.Box
		}
	}
	t.Fatalf("no element named %q in the first capture", name)
	return [4]float64{}
}

// clickAt reads the point of a sent click.
func clickAt(t *testing.T, sent string) (x, y float64) {
	t.Helper()
	var args []float64
	if err := json.Unmarshal([]byte(strings.TrimPrefix(strings.TrimPrefix(sent, "Click"), "Press")), &args); err != nil || len(args) != 3 {
		t.Fatalf("not a click: %q", sent)
	}
	return args[0], args[1]
}

// TestClickLandsInsideItsElement: a click by ref sends a move and then
// one press, at a point inside the element's box, and the page reacts.
func TestClickLandsInsideItsElement(t *testing.T) {
	p := replayAct(t, "act-click")
	p.succeeded(t, 1)
	if len(p.out[1].Sent) != 2 || !strings.HasPrefix(p.out[1].Sent[0], "Hover[") || !strings.HasPrefix(p.out[1].Sent[1], "Press[") {
		t.Fatalf("sent %v, want a move and one press", p.out[1].Sent)
	}
	x, y := clickAt(t, p.out[1].Sent[1])
	b := p.box(t, "Pay")
	if x < b[0] || x > b[0]+b[2] || y < b[1] || y > b[1]+b[3] {
		t.Errorf("clicked (%v,%v), outside the button's box %v", x, y, b)
	}
	if !strings.Contains(p.out[2].Text, "Paid") {
		t.Errorf("after the click:\n%s", p.out[2].Text)
	}
}

// TestUnknownRefIsRefused: a ref the session never gave out is refused.
func TestUnknownRefIsRefused(t *testing.T) {
	p := replayAct(t, "act-stale-ref")
	p.refused(t, 3, "Ref e999 not found in the current page snapshot")
}

// TestRemovedElementIsRefused: a ref whose element left the page is
// refused, and nothing is clicked in its place.
func TestRemovedElementIsRefused(t *testing.T) {
	p := replayAct(t, "act-stale-ref")
	p.refused(t, 2, "not found in the current page snapshot")
}

// TestChangedElementIsRefused: the same node, now saying something else
// (a label swapped under the agent), is refused with both names.
func TestChangedElementIsRefused(t *testing.T) {
	p := replayAct(t, "act-fingerprint")
	p.refused(t, 2, `changed since the snapshot: was button "Save draft"`)
	if !strings.Contains(p.out[2].Err, `"Delete account"`) {
		t.Errorf("the refusal does not say what it is now: %s", p.out[2].Err)
	}
}

// TestCoveredElementIsRefused: a banner laid over the element after the
// snapshot: the click is refused, not sent to the banner.
func TestCoveredElementIsRefused(t *testing.T) {
	p := replayAct(t, "act-covered")
	p.refused(t, 2, "is covered by")
}

// TestGuardStopsAnOverlayLaidOnHover: an overlay the page lays on the
// first mouse move never gets the click, and the answer says so.
func TestGuardStopsAnOverlayLaidOnHover(t *testing.T) {
	p := replayAct(t, "act-guard")
	if !strings.Contains(p.out[1].Err, "would land on div#cover") {
		t.Errorf("the click on the trap: %q", p.out[1].Err)
	}
	if strings.Contains(p.out[2].Text, "overlay clicked") || strings.Contains(p.out[2].Text, "button clicked") {
		t.Errorf("a click got through:\n%s", p.out[2].Text)
	}
}

// TestDisabledElementIsRefused: a disabled button is not clicked.
func TestDisabledElementIsRefused(t *testing.T) {
	p := replayAct(t, "act-disabled")
	p.refused(t, 1, `button "Place order" is disabled`)
}

// TestDialogIsShownAndAnswered: a click that opens a confirm says so; the
// snapshot shows only the dialog; accepting it lets the page go on.
func TestDialogIsShownAndAnswered(t *testing.T) {
	p := replayAct(t, "act-dialog")
	p.succeeded(t, 1)
	if !strings.Contains(p.out[1].Text, "a dialog is open") {
		t.Errorf("the click's answer: %q", p.out[1].Text)
	}
	if !strings.Contains(p.out[2].Text, `confirm dialog open with "Delete 3 files?"`) || strings.Contains(p.out[2].Text, "ref=") {
		t.Errorf("the snapshot with the dialog open:\n%s", p.out[2].Text)
	}
	if !strings.Contains(p.out[3].Text, `confirm dialog "Delete 3 files?" was accepted`) {
		t.Errorf("answering: %q", p.out[3].Text)
	}
	if !strings.Contains(p.out[4].Text, "answered true") {
		t.Errorf("after the answer:\n%s", p.out[4].Text)
	}
}

// TestFormControlsTakeTheirInput: typing inserts the text, check clicks
// the box, select picks the option; checking a checked box sends nothing.
func TestFormControlsTakeTheirInput(t *testing.T) {
	p := replayAct(t, "act-form")
	for i := 1; i <= 3; i++ {
		p.succeeded(t, i)
	}
	if !slices.Contains(p.out[1].Sent, `InsertText["Ada"]`) {
		t.Errorf("type sent %v", p.out[1].Sent)
	}
	for _, want := range []string{`textbox "Name" [ref=e1]: Ada`, `checkbox "Gift wrap" [checked]`, `combobox "Size"`, "/value: Large"} {
		if !strings.Contains(p.out[4].Text, want) {
			t.Errorf("the form after the input lacks %q:\n%s", want, p.out[4].Text)
		}
	}
	p.succeeded(t, 5)
	if len(p.out[5].Sent) != 0 {
		t.Errorf("checking a checked box sent %v", p.out[5].Sent)
	}
}

// TestPageErrorsAreNoted: a script error the action caused is in its
// answer, quoted.
func TestPageErrorsAreNoted(t *testing.T) {
	p := replayAct(t, "act-page-error")
	p.succeeded(t, 1)
	if !strings.Contains(p.out[1].Text, "page error during the action: ") || !strings.Contains(p.out[1].Text, "boom at checkout") {
		t.Errorf("the click's answer: %q", p.out[1].Text)
	}
}

// TestOffscreenRefIsScrolledIntoView: a ref the page scrolled out of view
// since the snapshot is scrolled back to before the click, which lands.
func TestOffscreenRefIsScrolledIntoView(t *testing.T) {
	p := replayAct(t, "act-offscreen")
	p.succeeded(t, 2)
	scrolled := false
	for _, c := range p.rec.Tabs[0] {
		scrolled = scrolled || c.Op == "ScrollIntoView"
	}
	if !scrolled {
		t.Error("the recording has no ScrollIntoView")
	}
	if !strings.Contains(p.out[3].Text, "clicked after the scroll") {
		t.Errorf("after the click:\n%s", p.out[3].Text)
	}
}

// TestListenerDivIsATarget: a role-less div with a click listener gets a
// ref, and a click by it reaches the listener.
func TestListenerDivIsATarget(t *testing.T) {
	p := replayAct(t, "act-listener-div")
	if !strings.Contains(p.out[0].Text, `"Open menu" [ref=`) {
		t.Errorf("the div has no ref:\n%s", p.out[0].Text)
	}
	p.succeeded(t, 1)
	if !strings.Contains(p.out[2].Text, "menu open") {
		t.Errorf("after the click:\n%s", p.out[2].Text)
	}
}

// TestReplayNoticesAnotherRequest: the double is strict — a click at
// another point than the recording's fails, and is listed as a problem —
// so the tests above fail when act's behaviour drifts.
func TestReplayNoticesAnotherRequest(t *testing.T) {
	rec, err := replay.Load(filepath.Join("..", "testdata", "sessions", "act-click.session.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	tab := replay.NewTab(rec.Tabs[0])
	if err := tab.Click(-1, -1, 1); err == nil || len(tab.Problems()) != 1 {
		t.Errorf("a click off the recording: %v, problems %v", err, tab.Problems())
	}
}

// TestClickThePageNeverTookIsRefused: the recorded click, replayed as if
// the page had taken none of its events (a page restored from the
// back/forward cache of an attached browser was so): the guard read its
// page and counted nothing, and the click is refused, not reported done.
func TestClickThePageNeverTookIsRefused(t *testing.T) {
	rec, err := replay.Load(filepath.Join("..", "testdata", "sessions", "act-click.session.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range rec.Tabs[0] {
		if c.Op == "Guard.Peek" || c.Op == "Guard.Finish" {
			var v map[string]any
			if err := json.Unmarshal(c.Result, &v); err != nil {
				t.Fatal(err)
			}
			v["Events"] = 0
			rec.Tabs[0][i].Result, _ = json.Marshal(v)
		}
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	s, err := act.Open(replay.NewTab(rec.Tabs[0]), "replay", fuse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := replay.RunAct(s, rec.Steps[:2], replay.Script{URL: rec.URL})
	if len(out) < 2 || !strings.Contains(out[1].Err, "took no input events; nothing was done") {
		t.Errorf("the click the page never took answered %+v", out)
	}
}
