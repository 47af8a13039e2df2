package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/fuse"
)

// Key traps (testdata/pages/traps/keys.html): the page moves the focus
// while an action's keys are on their way, to a Delete button, another
// field, a checkbox, a button in a frame; a select holds hidden options
// with a visible one's label. Each case is judged by the page's own log
// of what its controls received (trapLog), not by axfuse's answer.

// keyTrap is one action on the trap page and what must follow.
type keyTrap struct {
	name         string
	do           func(s *act.Session, ref func(role, name string) string) error
	refused      string // a piece of the refusal; "" for an action that must succeed
	log          string // the page's log after it (JSON)
	check, value string // an element (by id) and its value after, when set
}

var keyTraps = []keyTrap{
	{name: "Enter after a keydown focuses Delete",
		do: func(s *act.Session, ref func(string, string) string) error {
			return s.Press(ref("textbox", "Search"), "Enter")
		},
		refused: "the page moved the focus to button#del as the keydown arrived", log: `[]`},
	{name: "Space after a keydown focuses Delete",
		do: func(s *act.Session, ref func(string, string) string) error {
			return s.Press(ref("textbox", "Search"), " ")
		},
		refused: "the page moved the focus to button#del", log: `[]`},
	// The first try is stopped at the beforeinput (no text goes in) and the
	// focus given back; the retry, the trap spent, types into the field.
	{name: "typing after a beforeinput focuses another field",
		do: func(s *act.Session, ref func(string, string) string) error {
			return s.Type(ref("textbox", "Note"), "hello", false, false)
		},
		log: `[]`, check: "other", value: ""},
	{name: "typing after a beforeinput focuses another field, every time",
		do: func(s *act.Session, ref func(string, string) string) error {
			return s.Type(ref("textbox", "Memo"), "hello", false, false)
		},
		refused: "the page moved the focus to input#other as the beforeinput arrived", log: `[]`, check: "memo", value: ""},
	{name: "Enter after a keydown focuses a button in a frame",
		do: func(s *act.Session, ref func(string, string) string) error {
			return s.Press(ref("textbox", "Name"), "Enter")
		},
		refused: "the page moved the focus to iframe#fr as the keydown arrived", log: `[]`},
	{name: "Space after a keydown focuses a checkbox",
		do: func(s *act.Session, ref func(string, string) string) error {
			return s.Press(ref("textbox", "Code"), " ")
		},
		refused: "the page moved the focus to input#box", log: `[]`},
	{name: "Tab moves the focus by the browser's own default",
		do: func(s *act.Session, ref func(string, string) string) error {
			return s.Press(ref("textbox", "Plain"), "Tab")
		},
		log: `[]`},
	{name: "typing into a field no trap watches",
		do: func(s *act.Session, ref func(string, string) string) error {
			return s.Type(ref("textbox", "Other"), "fine", false, false)
		},
		log: `["other got fine"]`, check: "other", value: "fine"},
	{name: "select picks the shown option, not a hidden one of the same label",
		do: func(s *act.Session, ref func(string, string) string) error {
			return s.Select(ref("combobox", "Size"), "Large")
		},
		log: `["size large"]`, check: "size", value: "large"},
	{name: "select refuses a hidden option",
		do: func(s *act.Session, ref func(string, string) string) error {
			return s.Select(ref("combobox", "Size"), "Secret")
		},
		refused: `option "Secret" is hidden`, log: `[]`, check: "size", value: "s"},
}

// TestKeyTraps: each trap on a fresh load of the page, through act as the
// CLI and the MCP server use it.
func TestKeyTraps(t *testing.T) {
	b := openBrowser(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	url := servePage(t, "traps/keys.html")
	for _, tc := range keyTraps {
		t.Run(tc.name, func(t *testing.T) {
			tab := openPageTab(t, b, url, 100*time.Millisecond)
			s, err := act.Open(tab, "keytraps", fuse.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s.Settle = 500 * time.Millisecond
			obs, err := s.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			ref := func(role, name string) string {
				for _, e := range obs.Elements {
					if e.Role == role && e.Name == name {
						return e.Ref
					}
				}
				t.Fatalf("no %s %q in\n%s", role, name, obs.Snapshot)
				return ""
			}
			err = tc.do(s, ref)
			switch {
			case tc.refused == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
				t.Errorf("answer %v, want a refusal saying %q", err, tc.refused)
			}
			checkTrapLog(t, tab, tc)
		})
	}
}

// checkTrapLog reads what the page's controls received.
func checkTrapLog(t *testing.T, tab *chrome.Tab, tc keyTrap) {
	t.Helper()
	time.Sleep(100 * time.Millisecond) // a keyup handler's log, if any, lands
	got, err := tab.Evaluate(`JSON.stringify(trapLog)`)
	if err != nil {
		t.Fatal(err)
	}
	var log string
	if err := json.Unmarshal([]byte(got), &log); err != nil {
		t.Fatalf("trapLog %s: %v", got, err)
	}
	if log != tc.log {
		t.Errorf("the page's log is %s, want %s", log, tc.log)
	}
	if tc.check != "" {
		v, err := tab.Evaluate(`document.getElementById(` + quoteJS(tc.check) + `).value`)
		if err != nil {
			t.Fatal(err)
		}
		if v != quoteJS(tc.value) {
			t.Errorf("#%s's value is %s, want %q", tc.check, v, tc.value)
		}
	}
}

func quoteJS(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestKeyTrapsThroughCLIAndMCP: the Delete trap and the hidden option
// through the command line and the MCP server, judged by the page's log.
func TestKeyTrapsThroughCLIAndMCP(t *testing.T) {
	endpoint, first := attachedURL(t, servePage(t, "traps/keys.html"), `textbox "Search"`)
	out, err := runCLI(t, "act", "--cdp", endpoint, "press", refOf(t, first, `textbox "Search"`), "Enter")
	if err == nil || !strings.Contains(err.Error(), "the page moved the focus to button#del") {
		t.Errorf("CLI press: %v\n%s", err, out)
	}
	if _, err := runCLI(t, "act", "--cdp", endpoint, "select", refOf(t, first, `combobox "Size"`), "Large"); err != nil {
		t.Errorf("CLI select: %v", err)
	}
	log := mustCLI(t, "snapshot", "--cdp", endpoint)
	if !strings.Contains(log, `/value: Large`) {
		t.Errorf("CLI select chose no Large:\n%s", log)
	}

	cs := mcpSession(t, "--caps", "evaluate")
	text, _ := call(t, cs, "browser_navigate", map[string]any{"url": servePage(t, "traps/keys.html")}, false)
	text, _ = call(t, cs, "browser_press_key", map[string]any{"ref": refOf(t, text, `textbox "Search"`), "key": "Enter"}, true)
	if !strings.Contains(text, "the page moved the focus to button#del") {
		t.Errorf("MCP press:\n%s", text)
	}
	text, _ = call(t, cs, "browser_evaluate", map[string]any{"function": "() => JSON.stringify(trapLog)"}, false)
	if !strings.Contains(text, `[]`) {
		t.Errorf("MCP press reached the page's Delete button: %s", text)
	}
}

// TestSlideTraps (testdata/pages/traps/slide.html): things laid over a
// button as the pointer arrives — a nearly clear same-origin frame, a
// clear link laid by a capture listener the page registered before the
// guard (which also hides the press from later listeners), a cross-site
// frame — must not receive the press, and the click must say what it
// would have reached. An ordinary button beside them still clicks.
func TestSlideTraps(t *testing.T) {
	b := openBrowser(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	page := servePage(t, "traps/slide.html")
	frame := servePage(t, "traps/slide-frame.html")
	// Another site: the same server under the name localhost.
	cross := strings.Replace(frame, "127.0.0.1", "localhost", 1)
	for _, tc := range []struct{ button, refused string }{
		{"Pay", "would land on iframe#fr"},
		{"Save", "would land on a#evil.cover"},
		{"Send", "would land on iframe#xfr"},
		{"Keep", ""},
		// Laid over at the press, after the point was judged: the guard's
		// first listeners stop the release before the page's capture
		// listener sees it, and a frame's drop a release it saw no press
		// for.
		{"Sign", "a#evil2.cover"},
		{"File", "another frame or window"},
	} {
		t.Run(tc.button, func(t *testing.T) {
			tab := openPageTab(t, b, page+"?x="+cross, 100*time.Millisecond)
			s, err := act.Open(tab, "slide", fuse.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s.Settle = 500 * time.Millisecond
			obs, err := s.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			ref := ""
			for _, e := range obs.Elements {
				if e.Role == "button" && e.Name == tc.button {
					ref = e.Ref
				}
			}
			err = s.Click(ref, 1)
			switch {
			case tc.refused == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
				t.Errorf("answer %v, want a refusal saying %q", err, tc.refused)
			}
			time.Sleep(300 * time.Millisecond) // a cross-site frame's message arrives
			got, err := tab.Evaluate(`JSON.stringify(trapLog)`)
			if err != nil {
				t.Fatal(err)
			}
			want := `"[]"`
			if tc.refused == "" {
				want = `"[\"keep\"]"`
			}
			if got != want {
				t.Errorf("the page's log is %s, want %s", got, want)
			}
		})
	}
}
