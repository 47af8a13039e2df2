package chrome

import (
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/internal/keys"
	"github.com/chromedp/chromedp"
)

// keysPage has two text fields and logs every keydown and keyup.
const keysPage = `<!doctype html><title>keys</title>
<input id=first value=one><input id=second>
<script>
window.log = [];
for (const type of ['keydown', 'keyup']) addEventListener(type, e => log.push({
  type, key: e.key, code: e.code, keyCode: e.keyCode, location: e.location,
  ctrl: e.ctrlKey, shift: e.shiftKey, alt: e.altKey, meta: e.metaKey,
}), true);
</script>`

type keyLog struct {
	Type     string `json:"type"`
	Key      string `json:"key"`
	Code     string `json:"code"`
	KeyCode  int    `json:"keyCode"`
	Location int    `json:"location"`
	Ctrl     bool   `json:"ctrl"`
	Shift    bool   `json:"shift"`
	Alt      bool   `json:"alt"`
	Meta     bool   `json:"meta"`
}

// TestPressChord presses chords into a real headless Chromium.
func TestPressChord(t *testing.T) {
	requireBrowser(t)
	tab := pageTab(t, keysPage, 60*time.Second)
	press := func(chords ...string) {
		t.Helper()
		for _, s := range chords {
			c, err := keys.Parse(s)
			if err != nil {
				t.Fatal(err)
			}
			if err := tab.PressChord(c); err != nil {
				t.Fatalf("press %s: %v", s, err)
			}
		}
	}
	value := func() string {
		t.Helper()
		return evalIn[string](t, tab, `document.activeElement.id + ":" + document.activeElement.value`)
	}
	evalIn[chromedp.Void](t, tab, `document.getElementById('second').focus(); log.length = 0`)

	// Typing, select all and delete, undo and redo, copy, cut and paste
	// (headless Chromium's clipboard is its own): each step's keys and the
	// field after them.
	for _, step := range []struct {
		keys []string
		want string
	}{
		{[]string{"a", "Shift+b", "C", "Digit1", "Shift+Digit3", "Space", "é"}, "second:aBC1# é"},
		{[]string{"Control+A", "Backspace"}, "second:"},
		{[]string{"Control+Z"}, "second:aBC1# é"},
		{[]string{"Shift+Control+Z"}, "second:"},
		{[]string{"x", "y", "ArrowLeft", "Backspace"}, "second:y"},
		{[]string{"Control+A", "Control+C", "End", "Control+V"}, "second:yy"},
		{[]string{"Control+A", "Control+X"}, "second:"},
		{[]string{"Control+V", "Control+V", "Shift+ArrowLeft", "Delete"}, "second:yyy"},
	} {
		press(step.keys...)
		if v := value(); v != step.want {
			t.Errorf("after %s: %q, want %q", strings.Join(step.keys, " "), v, step.want)
		}
	}

	log := evalIn[[]keyLog](t, tab, `log`)
	want := []keyLog{
		{Type: "keydown", Key: "Control", Code: "ControlLeft", KeyCode: 17, Location: 1, Ctrl: true},
		{Type: "keydown", Key: "a", Code: "KeyA", KeyCode: 65, Ctrl: true},
		{Type: "keyup", Key: "a", Code: "KeyA", KeyCode: 65, Ctrl: true},
		{Type: "keyup", Key: "Control", Code: "ControlLeft", KeyCode: 17, Location: 1},
	}
	found := false
	for i := range log {
		if i+len(want) <= len(log) && equalLogs(log[i:i+len(want)], want) {
			found = true
		}
	}
	if !found {
		t.Errorf("no Control+A sequence %+v in the page's log %+v", want, log)
	}
	if len(log) == 0 || log[0] != (keyLog{Type: "keydown", Key: "a", Code: "KeyA", KeyCode: 65}) {
		t.Errorf("first key event %+v, want keydown a KeyA 65 without modifiers", log[:min(len(log), 1)])
	}

	press("Shift+Tab")
	if v := value(); v != "first:one" {
		t.Errorf("after Shift+Tab focus is on %q, want the first field", v)
	}
	press("Tab")
	if v := value(); v != "second:yyy" {
		t.Errorf("after Tab focus is on %q, want the second field", v)
	}

	// A key that opens a dialog ends the press; the dialog is the state.
	evalIn[chromedp.Void](t, tab, `addEventListener('keydown', e => { if (e.key === 'F2') alert('F2 pressed'); })`)
	start := time.Now()
	press("Shift+F2")
	if d := tab.OpenDialog(); d == nil || d.Message != "F2 pressed" {
		t.Errorf("after Shift+F2 the dialog is %+v, want the alert", d)
	} else if err := tab.AnswerDialog(true, ""); err != nil {
		t.Error(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Shift+F2 with an alert took %v", took)
	}
}

// evalIn evaluates js in the tab's page and returns its value.
func evalIn[T any](t *testing.T, tab *Tab, js string) T {
	t.Helper()
	v, err := chromedp.Run(tab.Context(), chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

func equalLogs(a, b []keyLog) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}
