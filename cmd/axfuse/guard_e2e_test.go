package main

// End-to-end tests of acting exactly: on testdata/pages/actguard.html,
// whose controls are traps (an overlay laid on the first mouse move, in the
// page, in a shadow root and in an iframe; a label swapped on hover; a
// disabled button) or controls each verb must reach and no other. Each
// case asserts what the page itself logged, not only the answer.

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// pageEval evaluates a JavaScript expression in the attached browser's tab
// in use, as the page's own script sees it.
func pageEval(t *testing.T, endpoint, expr string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tab, done := attachedTab(t, ctx, endpoint)
	defer done()
	out, err := chromedp.Run(tab.Context(), chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return out
}

// pageLog is the page's log: one line per handler that ran.
func pageLog(t *testing.T, endpoint string) string {
	return pageEval(t, endpoint, `document.getElementById('log').innerText`)
}

// guardCase is one action and what the page may and must log after it.
type guardCase struct {
	name    string
	args    func(snap string) []string
	wantErr string   // a substring of the one-line refusal; "" for success
	wantOut string   // a substring of the answer on success
	logs    []string // lines the page logged
	never   []string // lines the page must never log
}

func TestActGuardCLI(t *testing.T) {
	endpoint, snap := attachedURL(t, servePage(t, "actguard.html"), `heading "Act guard"`)
	file := filepath.Join(t.TempDir(), "receipt.txt")
	os.WriteFile(file, []byte("paid"), 0o600)
	act := func(verb string, rest ...string) []string {
		return append([]string{"act", "--cdp", endpoint, verb}, rest...)
	}
	ref := func(snap, line string) string { return refOf(t, snap, line) }
	cases := []guardCase{
		{name: "an overlay laid on the first mouse move takes no click",
			args:    func(s string) []string { return act("click", ref(s, `button "Moving target"`)) },
			wantErr: `button "Moving target": the click would land on div#overlay.cover (inserted after the check); nothing was done`,
			never:   []string{"overlay pressed", "overlay clicked", "moving target clicked"}},
		{name: "a label swapped on hover is not clicked",
			args:    func(s string) []string { return act("click", ref(s, `button "Delete nothing"`)) },
			wantErr: `button "Delete nothing" changed as the pointer reached it (now "Delete account"); nothing was done`,
			never:   []string{"account deleted", "nothing deleted"}},
		{name: "a disabled button says so",
			args:    func(s string) []string { return act("click", ref(s, `button "Pay"`)) },
			wantErr: `button "Pay" is disabled; nothing was done`, never: []string{"paid"}},
		{name: "text that starts with a dash is text",
			args:    func(s string) []string { return act("type", ref(s, `textbox "Name"`), "-2") },
			wantOut: `textbox "Name"`, logs: []string{"name typed: -2"}},
		{name: "typing into a select is refused, not sent to the focused field",
			args:    func(s string) []string { return act("type", ref(s, `combobox "Size"`), "hi") },
			wantErr: `combobox "Size" is a <select>, not a field to type into (select picks an option); nothing was done`,
			never:   []string{"name typed: -2hi", "name typed: hi"}},
		{name: "typing into a checkbox does not click it",
			args:    func(s string) []string { return act("type", ref(s, `checkbox "Gift"`), "hi") },
			wantErr: `checkbox "Gift" is an <input type=checkbox>, not a field to type into`, never: []string{"gift: true"}},
		{name: "typing into a submit button does not submit",
			args:    func(s string) []string { return act("type", ref(s, `button "Send"`), "hi") },
			wantErr: `button "Send" is a <button>, not a field to type into (click it); nothing was done`, never: []string{"form submitted"}},
		{name: "check on a button does not click it",
			args:    func(s string) []string { return act("check", ref(s, `button "Send"`)) },
			wantErr: `button "Send" is a <button>, not a checkbox, radio or switch; nothing was done`, never: []string{"form submitted"}},
		{name: "a chord is a chord",
			args:    func(s string) []string { return act("press", ref(s, `textbox "Keys"`), "Control+A") },
			wantOut: `textbox "Keys"`, logs: []string{"key ctrl+a"}, never: []string{"key C", "key o"}},
		{name: "an unknown key name is an error, not text",
			args:    func(s string) []string { return act("press", ref(s, `textbox "Keys"`), "NoSuchKey") },
			wantErr: `unknown key "NoSuchKey"`, never: []string{"key N"}},
		{name: "a hidden checkbox is checked through its label, and the state verified",
			args:    func(s string) []string { return act("check", ref(s, `checkbox "Accept terms"`)) },
			wantOut: `checkbox "Accept terms" [checked]`, logs: []string{"terms: true"}},
		{name: "a click inside a label goes on to its control, as the page's own doing",
			args:    func(s string) []string { return act("click", ref(s, `button "Info"`)) },
			wantOut: `button "Info"`, logs: []string{"info clicked"}},
		{name: "a closed select's option is chosen by the select (the options have no box and no ref)",
			args:    func(s string) []string { return act("select", ref(s, `combobox "Size"`), "Large") },
			wantOut: `/value: Large`, logs: []string{"size: Large"}},
		{name: "an overlay inside a shadow root takes no click",
			args:    func(s string) []string { return act("click", ref(s, `button "Shadow button"`)) },
			wantErr: `button "Shadow button": the click would land on div#scover (inserted after the check); nothing was done`,
			never:   []string{"shadow overlay clicked", "shadow button clicked"}},
		{name: "an overlay inside an iframe takes no click",
			args:    func(s string) []string { return act("click", ref(s, `button "Frame button"`)) },
			wantErr: `button "Frame button": the click would land on div#cover (inserted after the check); nothing was done`,
			never:   []string{"frame overlay pressed", "frame overlay clicked", "frame button clicked"}},
		{name: "an option of an ARIA listbox is clicked",
			args:    func(s string) []string { return act("select", ref(s, `listbox "Color"`), "Green") },
			wantOut: `option "Green" [selected]`, logs: []string{"color: Green"}},
		{name: "a combobox is opened, then its option clicked",
			args:    func(s string) []string { return act("select", ref(s, `combobox "City"`), "Oslo") },
			wantOut: `combobox "City"`, logs: []string{"city: Oslo"}},
		{name: "select on a button is refused",
			args:    func(s string) []string { return act("select", ref(s, `button "Send"`), "x") },
			wantErr: `button "Send" is a <button>, not a <select>, listbox or combobox; nothing was done`, never: []string{"form submitted"}},
		{name: "a handler that throws is reported",
			args:    func(s string) []string { return act("click", ref(s, `button "Throw"`)) },
			wantOut: `page error during the action: \"uncaught Error: boom from the page\"`, logs: []string{"throw clicked"}},
		{name: "a mouse drag says what it changed",
			args:    func(s string) []string { return act("drag", ref(s, `slider "Volume"`), ref(s, `button "Loud"`)) },
			wantOut: `(mouse drag): its value went from \"0\" to \"100\"`, logs: []string{"volume 100"}},
		{name: "a button that opens a file chooser takes the upload",
			args:    func(s string) []string { return act("upload", ref(s, `button "Attach"`), file) },
			wantOut: `button "Attach"`, logs: []string{"files: receipt.txt"}},
		{name: "a new tab is named in the answer",
			args:    func(s string) []string { return act("click", ref(s, `link "Docs"`)) },
			wantOut: `"http://127.0.0.1:`, logs: nil},
	}
	// Control+A then Backspace empties the field: the chord selected.
	keysRef := refOf(t, snap, `textbox "Keys"`)
	mustCLI(t, "act", "--cdp", endpoint, "type", keysRef, "abc")
	mustCLI(t, "act", "--cdp", endpoint, "press", keysRef, "Control+A")
	mustCLI(t, "act", "--cdp", endpoint, "press", keysRef, "Backspace")
	if v := pageEval(t, endpoint, `document.getElementById('keys').value`); v != "" {
		t.Errorf("Control+A, Backspace left %q in the field", v)
	}
	for _, c := range cases {
		args := c.args(snap)
		out, err := runCLI(t, args...)
		log := pageLog(t, endpoint)
		switch {
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%s: error %v, want %q\n%s", c.name, err, c.wantErr, out)
		case c.wantErr != "" && (strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "ref ") && !strings.Contains(err.Error(), "key")):
			t.Errorf("%s: the refusal is not one line naming the ref: %q", c.name, err)
		case c.wantErr == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.wantErr == "" && !strings.Contains(out, c.wantOut):
			t.Errorf("%s: the answer lacks %q:\n%s", c.name, c.wantOut, out)
		}
		for _, l := range c.logs {
			if !strings.Contains(log, l) {
				t.Errorf("%s: the page did not log %q; its log:\n%s", c.name, l, log)
			}
		}
		for _, l := range c.never {
			if strings.Contains(log, l) {
				t.Errorf("%s: the page logged %q; its log:\n%s", c.name, l, log)
			}
		}
		if out != "" {
			snap = out
		}
	}
	if !strings.Contains(snap, "opened tab ") || !strings.Contains(snap, `/?docs`) {
		t.Errorf("the opened tab is not named:\n%s", snap)
	}
}

// TestActMovingAndValueInputs: an element that keeps moving is refused;
// a date input takes typed text as its value.
func TestActMovingAndValueInputs(t *testing.T) {
	endpoint, snap := attachedURL(t, servePage(t, "traps/moving.html"), `heading "Moving"`)
	_, err := runCLI(t, "act", "--cdp", endpoint, "click", refOf(t, snap, `button "Drifting"`))
	if err == nil || !strings.Contains(err.Error(), `button "Drifting" is still moving`) {
		t.Errorf("clicking the drifting button: %v", err)
	}
	out := mustCLI(t, "act", "--cdp", endpoint, "type", refOf(t, snap, `"Day"`), "2024-05-06")
	log := pageEval(t, endpoint, `document.getElementById('log').innerText`)
	if strings.Contains(log, "drifting clicked") || !strings.Contains(log, "day: 2024-05-06") {
		t.Errorf("the page logged %q:\n%s", log, out)
	}
}

// TestActBoxlessLink: a link with no box of its own is clicked where the
// heading it holds shows, as a person would; one whose content lies off
// the page is refused, and nothing is clicked.
func TestActBoxlessLink(t *testing.T) {
	endpoint, snap := attachedURL(t, servePage(t, "traps/boxless.html"), `heading "Boxless"`)
	out := mustCLI(t, "act", "--cdp", endpoint, "click", refOf(t, snap, `link "Home page"`))
	if log := pageEval(t, endpoint, `document.getElementById('log').innerText`); !strings.Contains(log, "home clicked") {
		t.Errorf("the boxless link was not clicked; log %q:\n%s", log, out)
	}
	found := mustCLI(t, "find", "--cdp", endpoint, "--role", "link", "--name", "Ghost link")
	ref := ""
	for _, l := range strings.Split(found, "\n") {
		if r, ok := strings.CutPrefix(strings.TrimSpace(l), "ref: "); ok {
			ref = r
		}
	}
	if ref == "" {
		t.Fatalf("find gave the ghost link no ref:\n%s", found)
	}
	_, err := runCLI(t, "act", "--cdp", endpoint, "click", ref)
	if err == nil || !strings.Contains(err.Error(), "nothing was done") {
		t.Errorf("clicking the ghost link: %v, want a refusal", err)
	}
	if log := pageEval(t, endpoint, `document.getElementById('log').innerText`); strings.Contains(log, "ghost clicked") {
		t.Errorf("the ghost link was clicked; log %q", log)
	}
}

// TestActTypesIntoATerminalsClearField: a terminal's clear field over its
// screen keeps a ref (its own name withheld), and what is typed into it
// lands there and shows on the screen, as a person's typing does.
func TestActTypesIntoATerminalsClearField(t *testing.T) {
	endpoint, snap := attachedURL(t, servePage(t, "standin.html"), `heading "ok00 Stand-ins"`)
	if strings.Contains(snap, "qz05") {
		t.Fatalf("the field's unseen name is printed:\n%s", snap)
	}
	ref := ""
	for _, l := range strings.Split(snap, "\n") {
		if m := regexp.MustCompile(`^\s*- textbox \[ref=(e\d+)\]`).FindStringSubmatch(l); m != nil {
			ref = m[1]
		}
	}
	if ref == "" {
		t.Fatalf("the terminal's field has no ref:\n%s", snap)
	}
	out := mustCLI(t, "act", "--cdp", endpoint, "type", ref, "ls -la")
	if got := pageEval(t, endpoint, `document.activeElement.id + ' ' + document.getElementById('st7').value`); got != "st7 ls -la" {
		t.Errorf("the typing did not land in the terminal's field: %q\n%s", got, out)
	}
	if !strings.Contains(out, "ok05 $ ls -la") {
		t.Errorf("the answer does not show the screen's echo:\n%s", out)
	}
}

// TestActFollowsAnElementAHoverMoves: a strip that slides out from under
// the pointer when hovered (aria-practices' "Skip To Content") is clicked,
// once a click: the retry follows it. One that slides under a cover is not
// clicked, and the cover is never pressed. (Before the pointer followed,
// such a click landed only when the hover's flicker happened to stop in
// the hovered state: 5 of 15 first clicks here. Each of three rounds
// loads the page afresh, so that chance must come three times: the old
// code failed 12 runs of 12.)
func TestActFollowsAnElementAHoverMoves(t *testing.T) {
	url := servePage(t, "traps/shy.html")
	endpoint, _ := attachedURL(t, url, `heading "Shy"`)
	for round := 1; round <= 3; round++ {
		snap := mustCLI(t, "open", "--cdp", endpoint, url)
		// The pointer events the page saw, for a failure's message.
		pageEval(t, endpoint, `window.seen = []; for (const ty of ['pointerover', 'pointerdown', 'pointerup', 'click']) window.addEventListener(ty, (e) => seen.push(ty + ' ' + e.clientX + ',' + e.clientY + ' ' + e.composedPath()[0].localName), true); ''`)
		if _, err := runCLI(t, "act", "--cdp", endpoint, "click", refOf(t, snap, `button "Skip to content"`)); err != nil {
			t.Fatalf("round %d: %v\nthe page saw:\n%s", round, err, pageEval(t, endpoint, `seen.join('\n')`))
		}
		if log := pageLog(t, endpoint); strings.Count(log, "skip clicked") != 1 {
			t.Fatalf("round %d: the strip was not clicked once; log %q", round, log)
		}
		_, err := runCLI(t, "act", "--cdp", endpoint, "click", refOf(t, snap, `button "Lured"`))
		if err == nil || !strings.Contains(err.Error(), "nothing was done") {
			t.Errorf("round %d: clicking the strip that slides under a cover: %v, want a refusal", round, err)
		}
		if log := pageLog(t, endpoint); strings.Contains(log, "cover") || strings.Contains(log, "lured clicked") {
			t.Errorf("round %d: the cover or the covered strip took the click; log %q", round, log)
		}
	}
}

// TestActDragHTML5: a draggable card is dragged onto a drop zone with
// HTML5 drag and drop; the page's drop handler moves it.
func TestActDragHTML5(t *testing.T) {
	endpoint, snap := attachedURL(t, servePage(t, "drag.html"), `heading "Sprint board"`)
	out := mustCLI(t, "act", "--cdp", endpoint, "drag", refOf(t, snap, `clickable "Write tests"`), refOf(t, snap, `clickable "Done Update docs"`))
	if !strings.Contains(out, "(HTML5 drag and drop): it moved") {
		t.Errorf("the drag's answer does not say what moved:\n%s", out)
	}
	if log := pageEval(t, endpoint, `document.getElementById('log').innerText`); !strings.Contains(log, "moved Write tests to Done") {
		t.Errorf("the drop handler did not run; log %q", log)
	}
}

// TestActGuardMCP: the same traps through the MCP server (one
// implementation in act); file uploads stay inside --upload-root; a tab
// an action opens joins browser_tabs.
func TestActGuardMCP(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "receipt.txt")
	os.WriteFile(file, []byte("paid"), 0o600)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("secret"), 0o600)
	link := filepath.Join(root, "link.txt")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	cs := mcpSession(t, "--upload-root", root)
	snap, _ := call(t, cs, "browser_navigate", map[string]any{"url": servePage(t, "actguard.html")}, false)
	// The page's log, as the server shows its scope.
	log := func() string {
		text, _ := call(t, cs, "browser_snapshot", map[string]any{"target": "list:Log"}, false)
		return text
	}
	refuse := func(tool string, args map[string]any, want string, never ...string) {
		t.Helper()
		text, _ := call(t, cs, tool, args, true)
		if !strings.Contains(text, want) {
			t.Errorf("%s %v: %q, want %q", tool, args, text, want)
		}
		l := log()
		for _, n := range never {
			if strings.Contains(l, n) {
				t.Errorf("%s %v: the page logged %q:\n%s", tool, args, n, l)
			}
		}
	}
	ref := func(line string) string { return refOf(t, snap, line) }
	refuse("browser_click", map[string]any{"ref": ref(`button "Moving target"`)},
		`the click would land on div#overlay.cover (inserted after the check); nothing was done`, "overlay pressed", "overlay clicked", "moving target clicked")
	refuse("browser_click", map[string]any{"ref": ref(`button "Delete nothing"`)},
		`changed as the pointer reached it (now "Delete account"); nothing was done`, "account deleted", "nothing deleted")
	refuse("browser_click", map[string]any{"ref": ref(`button "Pay"`)}, `button "Pay" is disabled; nothing was done`, "paid")
	refuse("browser_click", map[string]any{"ref": ref(`button "Shadow button"`)}, `would land on div#scover`, "shadow overlay clicked", "shadow button clicked")
	refuse("browser_click", map[string]any{"ref": ref(`button "Frame button"`)}, `would land on div#cover`, "frame overlay pressed", "frame button clicked")
	// browser_type on a submit button neither submits nor types into the
	// field that has the focus.
	call(t, cs, "browser_click", map[string]any{"ref": ref(`textbox "Name"`)}, false)
	refuse("browser_type", map[string]any{"ref": ref(`button "Send"`), "text": "hi"}, `is a <button>, not a field to type into`, "form submitted", "name typed")
	refuse("browser_press_key", map[string]any{"ref": ref(`textbox "Keys"`), "key": "NoSuchKey"}, `unknown key "NoSuchKey"`, "key N")
	refuse("browser_type", map[string]any{"ref": ref(`combobox "Size"`), "text": "hi"}, `is a <select>, not a field to type into`, "name typed")
	refuse("browser_type", map[string]any{"ref": ref(`checkbox "Gift"`), "text": "hi"}, `not a field to type into`, "gift: true")
	refuse("browser_select_option", map[string]any{"ref": ref(`button "Send"`), "values": []string{"x"}}, `not a <select>, listbox or combobox`, "form submitted")
	for _, c := range []struct {
		tool string
		args map[string]any
		log  string
	}{
		{"browser_select_option", map[string]any{"ref": ref(`combobox "Size"`), "values": []string{"Large"}}, "size: Large"},
		{"browser_click", map[string]any{"ref": ref(`checkbox "Accept terms"`)}, "terms: true"},
		{"browser_select_option", map[string]any{"ref": ref(`listbox "Color"`), "values": []string{"Blue"}}, "color: Blue"},
		{"browser_select_option", map[string]any{"ref": ref(`combobox "City"`), "values": []string{"Paris"}}, "city: Paris"},
		{"browser_type", map[string]any{"ref": ref(`textbox "Name"`), "text": "-2"}, "name typed: -2"},
	} {
		call(t, cs, c.tool, c.args, false)
		if l := log(); !strings.Contains(l, c.log) {
			t.Errorf("%s %v: the page did not log %q:\n%s", c.tool, c.args, c.log, l)
		}
	}

	text, _ := call(t, cs, "browser_press_key", map[string]any{"ref": ref(`textbox "Keys"`), "key": "Control+A"}, false)
	if l := log(); !strings.Contains(l, "key ctrl+a") {
		t.Errorf("Control+A did not reach the field as a chord:\n%s\n%s", text, l)
	}
	text, _ = call(t, cs, "browser_click", map[string]any{"ref": ref(`button "Throw"`)}, false)
	if !strings.Contains(text, `page error during the action: "uncaught Error: boom from the page"`) {
		t.Errorf("the page's error is not in the answer:\n%s", text)
	}
	text, _ = call(t, cs, "browser_drag", map[string]any{"startRef": ref(`slider "Volume"`), "endRef": ref(`button "Loud"`)}, false)
	if !strings.Contains(text, `its value went from "0" to "100"`) {
		t.Errorf("the drag's answer does not say what changed:\n%s", text)
	}

	// Uploads: from the root only, through a button's file chooser or an
	// input's ref.
	refuse("browser_file_upload", map[string]any{"ref": ref(`button "Attach"`), "paths": []string{outside}}, "outside the allowed folder", "secret.txt")
	refuse("browser_file_upload", map[string]any{"ref": ref(`button "Attach"`), "paths": []string{link}}, "outside the allowed folder", "secret.txt", "link.txt")
	refuse("browser_file_upload", map[string]any{"paths": []string{file}}, "no file chooser is open")
	call(t, cs, "browser_file_upload", map[string]any{"ref": ref(`button "Attach"`), "paths": []string{file}}, false)
	if l := log(); !strings.Contains(l, "files: receipt.txt") {
		t.Errorf("the chooser did not take the file:\n%s", l)
	}

	// A target=_blank tab is named in the answer and listed.
	text, _ = call(t, cs, "browser_click", map[string]any{"ref": ref(`link "Docs"`)}, false)
	if !strings.Contains(text, "opened tab 1:") || !strings.Contains(text, "?docs") {
		t.Fatalf("the opened tab is not named:\n%s", text)
	}
	text, _ = call(t, cs, "browser_tabs", map[string]any{"action": "list"}, false)
	if !strings.Contains(text, "1: ") || !strings.Contains(text, "?docs") {
		t.Errorf("the opened tab is not listed:\n%s", text)
	}
	call(t, cs, "browser_tabs", map[string]any{"action": "select", "index": 1}, false)

	// A reload keeps the frame's id: the guard's world is made anew for
	// the new document.
	call(t, cs, "browser_tabs", map[string]any{"action": "select", "index": 0}, false)
	snap, _ = call(t, cs, "browser_navigate", map[string]any{"url": servePage(t, "actguard.html")}, false)
	text, _ = call(t, cs, "browser_click", map[string]any{"ref": refOf(t, snap, `button "Throw"`)}, false)
	if !strings.Contains(text, "throw clicked") {
		t.Errorf("a click after a reload did not land:\n%s", text)
	}

	// An element that keeps moving is not clicked.
	snap, _ = call(t, cs, "browser_navigate", map[string]any{"url": servePage(t, "traps/moving.html")}, false)
	refuse("browser_click", map[string]any{"ref": refOf(t, snap, `button "Drifting"`)}, `button "Drifting" is still moving`, "drifting clicked")

	// HTML5 drag and drop.
	snap, _ = call(t, cs, "browser_navigate", map[string]any{"url": servePage(t, "drag.html")}, false)
	text, _ = call(t, cs, "browser_drag", map[string]any{"startRef": refOf(t, snap, `clickable "Write tests"`), "endRef": refOf(t, snap, `clickable "Done Update docs"`)}, false)
	if !strings.Contains(text, "HTML5 drag and drop") || !strings.Contains(text, "moved Write tests to Done") {
		t.Errorf("the card was not dropped:\n%s", text)
	}
}
