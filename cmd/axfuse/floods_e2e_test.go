package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Pages that flood the browser (testdata/pages/floods): the session
// history, same-document navigations, dialogs, reloads. Each gets an
// answer within a bound, and the tab, and the agent's other tabs, stay
// usable after it.

func serveFloods(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join("..", "..", "testdata", "pages", "floods"))))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestFloodsThroughMCP: navigate to each flood, look, then do something
// ordinary in the same tab; an alert loop's tab is closed and the other
// tab lives on.
func TestFloodsThroughMCP(t *testing.T) {
	base := serveFloods(t)
	calm := servePage(t, "traps/keys.html")
	cs := mcpSession(t, "--timeout", "10s")
	// A tab of the agent's that every flood must leave alone.
	call(t, cs, "browser_navigate", map[string]any{"url": calm}, false)
	call(t, cs, "browser_tabs", map[string]any{"action": "new"}, false)
	for _, page := range []string{"history.html", "hashes.html"} {
		start := time.Now()
		text, _ := call(t, cs, "browser_navigate", map[string]any{"url": base + "/" + page}, false)
		t.Logf("%s: navigate answered in %v", page, time.Since(start).Round(time.Millisecond))
		if !strings.Contains(text, `button "Press me"`) {
			t.Errorf("%s: no page in the answer:\n%s", page, text)
		}
		text, _ = call(t, cs, "browser_click", map[string]any{"ref": refOf(t, text, `button "Press me"`)}, false)
		if !strings.Contains(text, "pressed") {
			t.Errorf("%s: the click after it did nothing:\n%s", page, text)
		}
	}
	// After the floods the same tab still loads an ordinary page.
	text, _ := call(t, cs, "browser_navigate", map[string]any{"url": calm}, false)
	if !strings.Contains(text, `textbox "Search"`) {
		t.Errorf("the tab is not usable after the floods:\n%s", text)
	}

	text, _ = call(t, cs, "browser_navigate", map[string]any{"url": base + "/alerts.html"}, false)
	if !strings.Contains(text, "alert dialog is open") {
		t.Errorf("alert loop: no dialog in the answer:\n%s", text)
	}
	for range 5 {
		call(t, cs, "browser_handle_dialog", map[string]any{"accept": true}, false)
	}
	text, _ = call(t, cs, "browser_tabs", map[string]any{"action": "list"}, false)
	if !strings.Contains(text, "* 1:") {
		t.Fatalf("the alert loop is not in tab 1:\n%s", text)
	}
	call(t, cs, "browser_tabs", map[string]any{"action": "close", "index": 1}, false)
	text, _ = call(t, cs, "browser_tabs", map[string]any{"action": "list"}, false)
	if !strings.Contains(text, `"Key traps"`) {
		t.Errorf("closing the alert loop's tab lost the other tab:\n%s", text)
	}
	text, _ = call(t, cs, "browser_snapshot", map[string]any{}, false)
	if !strings.Contains(text, `textbox "Search"`) {
		t.Errorf("the other tab is not usable after the alert loop's was closed:\n%s", text)
	}
	// A page that reloads itself for ever has no document to observe: the
	// answer, an observation or an error, says so within its bound.
	// (Last: leaving it may be overtaken by one last reload of it, a
	// known fault, see the closing note of 2026-12-06.)
	for range 2 {
		start := time.Now()
		text, res := callAny(t, cs, "browser_navigate", map[string]any{"url": base + "/reloads.html"})
		t.Logf("reloads.html: navigate answered in %v", time.Since(start).Round(time.Millisecond))
		if res.IsError && !strings.Contains(text, "keeps loading new documents") && !strings.Contains(text, "ERR_ABORTED") {
			t.Errorf("reload loop: %s", text)
		}
	}
}

// TestHistoryFloodThroughCLI: the CLI observes the history flood as
// Chrome alone loads it, not after its call deadline.
func TestHistoryFloodThroughCLI(t *testing.T) {
	needChromium(t)
	out, err := runCLI(t, "snapshot", "--timeout", "15s", serveFloods(t)+"/history.html")
	if err != nil || !strings.Contains(out, `button "Press me"`) {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Contains(out, "warning") {
		t.Errorf("the load did not finish:\n%s", out)
	}
}
