package mcpserver_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/internal/testkit/replay"
	"github.com/axfuse/axfuse/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// These tests replay MCP sessions recorded from real Chromium by
// cmd/axfuse's TestRecordedSessionsHoldLive (make record-sessions): the
// scenario's tool calls go through the SDK's own client to a server whose
// browser plays the recording back, and every call must ask the browser
// what it asked while recording and answer what it answered then. Each
// test then checks the behaviour it names.

type played struct {
	rec     *replay.Session
	browser *replay.Browser
	out     []replay.Outcome
	cs      *mcp.ClientSession
}

func load(t *testing.T, name string) *replay.Session {
	t.Helper()
	rec, err := replay.Load(filepath.Join("..", "testdata", "sessions", name+".session.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// serve starts a server whose launcher hands out these browsers in turn,
// and connects a client to it.
func serve(t *testing.T, browsers ...*replay.Browser) *mcp.ClientSession {
	t.Helper()
	return serveWith(t, func(*mcpserver.Options) {}, browsers...)
}

// serveWith is serve with the server's options changed by edit.
func serveWith(t *testing.T, edit func(*mcpserver.Options), browsers ...*replay.Browser) *mcp.ClientSession {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	launched := 0
	launch := func(context.Context) (mcpserver.Browser, error) {
		b := browsers[min(launched, len(browsers)-1)]
		launched++
		return b, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ct, st := mcp.NewInMemoryTransports()
	opts := replay.ServerOptions(launch)
	edit(&opts)
	go mcpserver.New(opts).Run(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func replayMCP(t *testing.T, name string) played {
	t.Helper()
	rec := load(t, name)
	b := replay.NewBrowser(rec)
	cs := serve(t, b)
	out := replay.RunMCP(context.Background(), cs, rec.Steps, replay.Script{Sent: b.TakeSent, URL: rec.URL})
	for _, p := range b.Problems() {
		t.Errorf("off the recording: %s", p)
	}
	for i := range out {
		if i < len(rec.Outcomes) && !same(out[i], rec.Outcomes[i]) {
			t.Errorf("step %d (%s) answered\n%+v\nrecorded\n%+v", i, rec.Steps[i].Tool, out[i], rec.Outcomes[i])
		}
	}
	return played{rec, b, out, cs}
}

func same(a, b replay.Outcome) bool {
	return a.Text == b.Text && a.Err == b.Err && slices.Equal(a.Sent, b.Sent)
}

// says checks that step i answered without error, and with each of want.
func (p played) says(t *testing.T, i int, want ...string) {
	t.Helper()
	if p.out[i].Err != "" {
		t.Fatalf("step %d (%s): %s", i, p.rec.Steps[i].Tool, p.out[i].Err)
	}
	for _, w := range want {
		if !strings.Contains(p.out[i].Text, w) {
			t.Errorf("step %d (%s) does not say %q:\n%s", i, p.rec.Steps[i].Tool, w, p.out[i].Text)
		}
	}
}

// TestActionAnswersWithWhatChanged: after a click the answer is what
// changed since the agent's last look, not the whole page again.
func TestActionAnswersWithWhatChanged(t *testing.T) {
	p := replayMCP(t, "mcp-click-delta")
	p.says(t, 0, `button "Add to cart" [ref=`, "Tent")
	p.says(t, 1, "1 item")
	if strings.Contains(p.out[1].Text, "Stove") {
		t.Errorf("the click's answer repeats unchanged lines:\n%s", p.out[1].Text)
	}
	if len(p.out[1].Sent) != 2 || !strings.HasPrefix(p.out[1].Sent[0], "Hover[") || !strings.HasPrefix(p.out[1].Sent[1], "Press[") {
		t.Errorf("the click sent %v", p.out[1].Sent)
	}
}

// TestUnknownRefIsAnError: a ref never given out is an error result that
// names it, and nothing is sent.
func TestUnknownRefIsAnError(t *testing.T) {
	p := replayMCP(t, "mcp-click-delta")
	if !strings.Contains(p.out[2].Err, "e999") || len(p.out[2].Sent) > 0 {
		t.Errorf("click e999: error %q, sent %v", p.out[2].Err, p.out[2].Sent)
	}
	// A frame-prefixed ref passes the schema (index's ref grammar) and is
	// unknown, as every ref no snapshot gave out.
	for _, call := range []struct {
		tool string
		args map[string]any
	}{{"browser_click", map[string]any{"ref": "f1e5"}}, {"browser_scroll", map[string]any{"ref": "f1e5"}}} {
		res, err := p.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: call.tool, Arguments: call.args})
		if err != nil {
			t.Fatal(err)
		}
		text := ""
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		if want := "Ref f1e5 not found in the current page snapshot"; !res.IsError || text != want {
			t.Errorf("%s f1e5: %q, want the error %q", call.tool, text, want)
		}
		if sent := p.browser.TakeSent(); len(sent) > 0 {
			t.Errorf("%s f1e5 sent %v", call.tool, sent)
		}
	}
}

// TestSnapshotKeepsToItsBudget: a snapshot asked for 300 tokens is cut to
// about that, says what it left out, and find reaches what was cut.
func TestSnapshotKeepsToItsBudget(t *testing.T) {
	p := replayMCP(t, "mcp-budget")
	p.says(t, 1, "left out for the token budget")
	if n := strings.Count(p.out[1].Text, "\n"); n > 60 {
		t.Errorf("a 300-token snapshot has %d lines", n)
	}
	if strings.Contains(p.out[1].Text, "Product number 250") {
		t.Error("the cut snapshot still holds the 250th product")
	}
	p.says(t, 2, `"Product number 250"`, "[ref=")
}

// TestTabsAreKeptApart: a new tab is selected and navigated on its own;
// selecting the first tab again shows the first page, not the second.
func TestTabsAreKeptApart(t *testing.T) {
	p := replayMCP(t, "mcp-tabs")
	p.says(t, 3, "First page", "Second page")
	p.says(t, 5, "First")
	if strings.Contains(p.out[5].Text, "Only here") {
		t.Errorf("tab 0's snapshot shows tab 1's page:\n%s", p.out[5].Text)
	}
	if p.browser.Opened() != 2 {
		t.Errorf("%d tabs opened, want 2", p.browser.Opened())
	}
}

// TestDialogIsAnsweredThroughTheTool: a prompt opened by a click is
// reported, the snapshot shows only it, and browser_handle_dialog answers
// it with the text given.
func TestDialogIsAnsweredThroughTheTool(t *testing.T) {
	p := replayMCP(t, "mcp-dialog")
	p.says(t, 2, `A prompt dialog is open with "Your name?"`, "browser_handle_dialog")
	if strings.Contains(p.out[2].Text, "[ref=") {
		t.Errorf("the snapshot offers refs while the page waits on a dialog:\n%s", p.out[2].Text)
	}
	p.says(t, 3, `accepted with "Ada"`)
	if !slices.Contains(p.out[3].Sent, `AnswerDialog[true,"Ada"]`) {
		t.Errorf("answering sent %v", p.out[3].Sent)
	}
}

// TestCoveredTargetIsFoundAsCovered: find reports an element under a
// cookie banner as covered; once the banner is accepted the element is
// there to act on.
func TestCoveredTargetIsFoundAsCovered(t *testing.T) {
	p := replayMCP(t, "mcp-covered")
	p.says(t, 1, "covered by")
	p.says(t, 3, `button "Buy now" [ref=`)
	if strings.Contains(p.out[0].Text, `"Buy now" [ref=`) {
		t.Errorf("the first snapshot offers the covered button:\n%s", p.out[0].Text)
	}
}

// TestTypeClickAndWait: typed text reaches the field, the click reads it,
// and waiting for a text already there ends at once, with nothing new.
func TestTypeClickAndWait(t *testing.T) {
	p := replayMCP(t, "mcp-form")
	if !slices.Contains(p.out[1].Sent, `InsertText["tents"]`) {
		t.Errorf("typing sent %v", p.out[1].Sent)
	}
	p.says(t, 2, "results for tents")
	p.says(t, 3, "nothing changed")
}

// TestConsoleAndNetworkLogs: what the page logged and fetched during the
// session is listed.
func TestConsoleAndNetworkLogs(t *testing.T) {
	p := replayMCP(t, "mcp-logs")
	p.says(t, 2, "low stock: 2 left")
	p.says(t, 3, "/stock")
}

// TestHistoryMovesBothWays: a link's navigation, back and forward each
// answer with the page they reached.
func TestHistoryMovesBothWays(t *testing.T) {
	p := replayMCP(t, "mcp-navigate")
	p.says(t, 1, "About")
	p.says(t, 2, "Home")
	p.says(t, 3, "We sell tents")
}

// TestDeadBrowserIsReplaced: a launched browser that died is noticed on
// the next call, which starts another and says that the tabs are gone.
func TestDeadBrowserIsReplaced(t *testing.T) {
	first := replay.NewBrowser(load(t, "mcp-navigate"))
	second := replay.NewBrowser(load(t, "mcp-click-delta"))
	cs := serve(t, first, second)
	call := func(name string, args map[string]any) string {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		var text []string
		for _, c := range res.Content {
			if c, ok := c.(*mcp.TextContent); ok {
				text = append(text, c.Text)
			}
		}
		return strings.Join(text, "\n")
	}
	if text := call("browser_snapshot", map[string]any{}); !strings.Contains(text, "Home") {
		t.Fatalf("first snapshot:\n%s", text)
	}
	first.Kill()
	text := call("browser_snapshot", map[string]any{})
	if !strings.Contains(text, "a new one was started") || !strings.Contains(text, "Add to cart") {
		t.Errorf("after the browser died:\n%s", text)
	}
	if second.Opened() != 1 {
		t.Errorf("the new browser opened %d tabs", second.Opened())
	}
}

// TestBlockedOriginLoadsNothing: a navigation the policy forbids is an
// error before the tab loads anything.
func TestBlockedOriginLoadsNothing(t *testing.T) {
	rec := load(t, "mcp-navigate")
	b := replay.NewBrowser(rec)
	cs := serveWith(t, func(o *mcpserver.Options) { o.Policy.BlockedOrigins = []string{rec.URL} }, b)
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "browser_navigate", Arguments: map[string]any{"url": rec.URL + "/"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "blocked") {
		t.Errorf("navigating to a blocked origin: %+v", res.Content[0])
	}
	if tab := b.Tab(0); b.Opened() > 0 && tab.Played("Load")+tab.Played("Navigate") > 0 {
		t.Error("the tab loaded a page of a blocked origin")
	}
}
