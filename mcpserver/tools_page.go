package mcpserver

// The tools that wait on the page: for an open dialog's answer, for text
// to come or go.

import (
	"errors"
	"fmt"
	"time"

	"github.com/axfuse/axfuse/fuse"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type (
	dialogArgs struct {
		Accept     bool   `json:"accept" jsonschema:"accept (true) or dismiss (false)"`
		PromptText string `json:"promptText,omitempty" jsonschema:"the answer to a prompt"`
	}
	waitArgs struct {
		Text     string  `json:"text,omitempty" jsonschema:"wait until this text is on the page"`
		TextGone string  `json:"textGone,omitempty" jsonschema:"wait until this text is gone"`
		Time     float64 `json:"time,omitempty" jsonschema:"or wait this many seconds (at most 30)"`
	}
)

// pageTools answer dialogs and wait.
func pageTools() []toolAdder {
	return []toolAdder{
		toolDef[dialogArgs]{spec: toolSpec{name: "browser_handle_dialog", title: "Answer a dialog", effect: changes,
			desc: "Accept or dismiss the open alert, confirm, prompt or beforeunload dialog (promptText answers a prompt)."}, handle: func(s *Server, ts *tabState, in dialogArgs) (*mcp.CallToolResult, error) {
			did, err := ts.sess.AnswerOpenDialog(in.Accept, in.PromptText)
			if err != nil {
				return nil, err
			}
			if did == "" {
				return nil, errors.New("no dialog is open")
			}
			return s.look(ts, false, did+".")
		}},
		toolDef[waitArgs]{spec: toolSpec{name: "browser_wait_for", title: "Wait for text", effect: reads, rules: map[string]rule{"time": between(0, 30)},
			desc: "Wait for text to appear or go (up to time seconds, default 10), or for time seconds; returns what changed."}, handle: (*Server).waitFor},
	}
}

// waitFor polls observations (what the agent would see) until the text is
// there or gone, or sleeps.
func (s *Server) waitFor(ts *tabState, in waitArgs) (*mcp.CallToolResult, error) {
	if in.Text == "" && in.TextGone == "" {
		if in.Time <= 0 || in.Time > 30 {
			return nil, errors.New("give text, textGone, or time from 0 to 30 seconds")
		}
		time.Sleep(time.Duration(in.Time * float64(time.Second)))
		return s.look(ts, false, "")
	}
	limit := 10 * time.Second
	if in.Time > 0 && in.Time <= 30 {
		limit = time.Duration(in.Time * float64(time.Second))
	}
	deadline := time.Now().Add(limit)
	for {
		o, err := ts.sess.ObserveAll(s.viewOptions(0))
		if err != nil {
			return nil, err
		}
		has := func(t string) bool { return len(o.Tree.Find(fuse.Query{Text: t})) > 0 }
		if (in.Text == "" || has(in.Text)) && (in.TextGone == "" || !has(in.TextGone)) {
			return s.look(ts, false, "")
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("waited %s; the text is still %s", limit, map[bool]string{true: "there", false: "missing"}[in.Text == ""])
		}
		time.Sleep(250 * time.Millisecond)
	}
}
