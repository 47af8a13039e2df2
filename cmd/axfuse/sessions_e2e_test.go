package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/internal/testkit/replay"
	"github.com/axfuse/axfuse/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionsDir holds the scenarios and their recordings.
var sessionsDir = filepath.Join("..", "..", "testdata", "sessions")

// TestRecordedSessionsHoldLive runs every scenario of
// testdata/sessions/scenarios.json on real Chromium through a recorder.
// With AXFUSE_RECORD=1 it writes the recordings that the act and mcpserver
// unit tests replay (make record-sessions); otherwise it checks that live
// Chromium still answers each step as its recording says — an error or
// none, the same kinds of input sent — so a recording cannot drift from
// the browser unnoticed.
func TestRecordedSessionsHoldLive(t *testing.T) {
	needChromium(t)
	b, err := os.ReadFile(filepath.Join(sessionsDir, "scenarios.json"))
	if err != nil {
		t.Fatal(err)
	}
	var scenarios []replay.Session
	if err := json.Unmarshal(b, &scenarios); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the ref sessions' files
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			// Each scenario has a browser and a server of its own: two at
			// a time.
			t.Parallel()
			rec := recordScenario(t, sc)
			path := filepath.Join(sessionsDir, sc.Name+".session.json.gz")
			if os.Getenv("AXFUSE_RECORD") == "1" {
				if err := rec.Save(path); err != nil {
					t.Fatal(err)
				}
				return
			}
			saved, err := replay.Load(path)
			if err != nil {
				t.Fatalf("%v (record it: make record-sessions)", err)
			}
			holdsLive(t, saved.Outcomes, rec.Outcomes)
		})
	}
}

// holdsLive compares a live run's outcomes with the recorded ones.
func holdsLive(t *testing.T, recorded, live []replay.Outcome) {
	t.Helper()
	if len(recorded) != len(live) {
		t.Fatalf("%d steps recorded, %d run", len(recorded), len(live))
	}
	for i := range live {
		r, l := recorded[i], live[i]
		if (r.Err == "") != (l.Err == "") {
			t.Errorf("step %d: recorded error %q, live %q", i, r.Err, l.Err)
		}
		if !slices.Equal(ops(r.Sent), ops(l.Sent)) {
			t.Errorf("step %d: recorded input %v, live %v", i, r.Sent, l.Sent)
		}
	}
}

// ops are the kinds of input sent (Click, InsertText, ...).
func ops(sent []string) []string {
	out := make([]string, len(sent))
	for i, s := range sent {
		out[i], _, _ = strings.Cut(s, "[")
	}
	return out
}

// recordScenario runs one scenario live and returns its recording.
func recordScenario(t *testing.T, sc replay.Session) *replay.Session {
	pages := map[string]string{"/": sc.Page}
	for path, body := range sc.Files {
		pages[path] = body
	}
	srv := serve(t, pages)
	sc.URL = srv.URL
	switch sc.Kind {
	case "act":
		recordAct(t, &sc)
	case "mcp":
		recordMCP(t, &sc)
	default:
		t.Fatalf("kind %q", sc.Kind)
	}
	return &sc
}

func recordAct(t *testing.T, sc *replay.Session) {
	br := openBrowser(t)
	tab, err := br.NewTab()
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	if err := tab.Navigate(sc.URL+"/", 5*time.Second); err != nil {
		t.Fatal(err)
	}
	rec := replay.Record(tab)
	s, err := act.Open(rec, "replay", fuse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc.Outcomes = replay.RunAct(s, sc.Steps, replay.Script{Page: livePage(tab), Sent: rec.TakeSent, URL: sc.URL})
	sc.Tabs = [][]replay.Call{rec.Calls()}
}

func recordMCP(t *testing.T, sc *replay.Session) {
	var rb *replay.RecordingBrowser
	launch := func(ctx context.Context) (mcpserver.Browser, error) {
		b, err := chromeLauncher(chrome.Options{CallTimeout: 30 * time.Second})(ctx)
		if err != nil {
			return nil, err
		}
		rb = replay.RecordBrowser(b)
		return rb, nil
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ct, st := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- mcpserver.New(replay.ServerOptions(launch)).Run(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "record"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	page := func(js string) error {
		tabs := rb.Tabs()
		_, err := tabs[len(tabs)-1].Live().Evaluate(js)
		return err
	}
	sent := func() []string {
		if rb == nil {
			return nil
		}
		return rb.TakeSent()
	}
	sc.Outcomes = replay.RunMCP(ctx, cs, sc.Steps, replay.Script{Page: page, Sent: sent, URL: sc.URL})
	cs.Close()
	cancel()
	<-done
	for _, r := range rb.Tabs() {
		sc.Tabs = append(sc.Tabs, r.Calls())
	}
}

// livePage runs a scenario's page step in the live tab.
func livePage(tab *chrome.Tab) func(js string) error {
	return func(js string) error {
		_, err := tab.Evaluate(js)
		return err
	}
}
