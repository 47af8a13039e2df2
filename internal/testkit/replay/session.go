// Package replay records what act and the MCP server asked of a real
// browser tab, and plays it back without one: recorded sessions are to
// act and mcpserver what testdata/captures are to the pure stages.
//
// A Recorder wraps a live tab (the Chrome driver's) and writes down each
// call and its answer: captures, hit tests, guard verdicts, dialogs, page
// errors. A Tab plays a recording back: each call takes the next recorded
// answer of its kind, and a call whose arguments differ from the
// recording's (a click at another point, a guard on another node) or that
// the recording never saw fails with an error saying so, so a test
// notices when act stops doing what it did. Sent lists the input that
// reached the page, for tests that promise nothing was done.
//
// Recordings are made by the tool itself (scripts/record-sessions, `make
// record-sessions`) from the scenarios in testdata/sessions/scenarios.json.
package replay

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/axfuse/axfuse/browser"
)

// Session is one recorded scenario: the page, the steps taken, what each
// step answered, and every tab's calls.
type Session struct {
	Name string `json:"name"`
	// Kind is "act" (steps on an act.Session) or "mcp" (tool calls).
	Kind string `json:"kind"`
	Page string `json:"page"` // the HTML served at / while recording
	// Files are more pages served beside it, by path.
	Files map[string]string `json:"files,omitempty"`
	// URL is where the page was served while recording; it replaces {url}
	// in step arguments.
	URL   string `json:"url"`
	Steps []Step `json:"steps"`
	// Outcomes are what each step answered while recording.
	Outcomes []Outcome `json:"outcomes"`
	// Tabs are the calls of each tab, in the order the tabs opened.
	Tabs [][]Call `json:"tabs"`
}

// Step is one thing a scenario does.
type Step struct {
	// Do is the step: for act sessions snapshot, accept, dismiss or any
	// verb of act's table (act.Names: click, type, drag, upload, ...); for
	// both, page (run JS in the live page while recording:
	// the page changes as a person or a timer would change it); for MCP
	// sessions, tool.
	Do string `json:"do"`
	// Ref is a ref, or @NAME: the ref of the element so named in the last
	// snapshot.
	Ref  string `json:"ref,omitempty"`
	To   string `json:"to,omitempty"` // a drag's target, as Ref
	Text string `json:"text,omitempty"`
	JS   string `json:"js,omitempty"`
	// Tool and Args are an MCP tool call (Args may name refs as @NAME).
	Tool string         `json:"tool,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// Outcome is what a step answered: its text (a snapshot, an action's
// notes, a tool result) or its error, and the input it sent.
type Outcome struct {
	Text string   `json:"text,omitempty"`
	Err  string   `json:"err,omitempty"`
	Sent []string `json:"sent,omitempty"`
}

// Call is one recorded call of a tab (or of a guard it armed).
type Call struct {
	Op     string          `json:"op"`
	Args   json.RawMessage `json:"args,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Err    *Error          `json:"err,omitempty"`
}

// Error is a recorded error: its text, and which of the boundary's errors
// it wraps, so that errors.Is and errors.As answer as they did.
type Error struct {
	Text string `json:"text"`
	// Kind is not-actionable (Problem set), still-loading, tab-gone,
	// connection-closed, context-gone (its document went too),
	// document-gone, or "" for any other.
	Kind    string `json:"kind,omitempty"`
	Problem string `json:"problem,omitempty"`
}

func recordError(err error) *Error {
	if err == nil {
		return nil
	}
	e := &Error{Text: err.Error()}
	var na *browser.NotActionable
	switch {
	case errors.As(err, &na):
		e.Kind, e.Problem = "not-actionable", na.Problem
	case errors.Is(err, browser.ErrStillLoading):
		e.Kind = "still-loading"
	case errors.Is(err, browser.ErrTabGone):
		e.Kind = "tab-gone"
	case errors.Is(err, browser.ErrConnectionClosed):
		e.Kind = "connection-closed"
	case errors.Is(err, browser.ErrContextGone):
		e.Kind = "context-gone"
	case errors.Is(err, browser.ErrDocumentGone):
		e.Kind = "document-gone"
	}
	return e
}

// replayed is a recorded error played back: the same text, wrapping the
// same boundary error.
type replayed struct {
	text  string
	cause error
}

func (e *replayed) Error() string { return e.text }
func (e *replayed) Unwrap() error { return e.cause }

func (e *Error) err() error {
	if e == nil {
		return nil
	}
	var cause error
	switch e.Kind {
	case "not-actionable":
		cause = &browser.NotActionable{Problem: e.Problem}
	case "still-loading":
		cause = browser.ErrStillLoading
	case "tab-gone":
		cause = browser.ErrTabGone
	case "connection-closed":
		cause = browser.ErrConnectionClosed
	case "context-gone":
		cause = errors.Join(browser.ErrContextGone, browser.ErrDocumentGone)
	case "document-gone":
		cause = browser.ErrDocumentGone
	case "":
		cause = goneBefore(e.Text)
	}
	return &replayed{e.Text, cause}
}

// goneBefore is what an error recorded before Kind named gone contexts
// and documents meant: such a recording holds Chrome's answer in its text
// alone, "...: Cannot find context with specified id (-32000)". These are
// the messages the driver reads live (browser/chrome/internal/cdpcall,
// errors.go), ending the text as the CDP error does; nil for any other.
func goneBefore(text string) error {
	for _, m := range []struct {
		message string
		cause   error
	}{
		{"Cannot find context with specified id", errors.Join(browser.ErrContextGone, browser.ErrDocumentGone)},
		{"Execution context was destroyed", errors.Join(browser.ErrContextGone, browser.ErrDocumentGone)},
		{"Cannot find default execution context", errors.Join(browser.ErrContextGone, browser.ErrDocumentGone)},
		{"Inspected target navigated or closed", errors.Join(browser.ErrContextGone, browser.ErrDocumentGone)},
		{"Could not find object with given id", browser.ErrDocumentGone},
		{"No node with given id found", browser.ErrDocumentGone},
		{"Node with given id does not belong to the document", browser.ErrDocumentGone},
		{"Could not find node with given id", browser.ErrDocumentGone},
	} {
		if strings.HasSuffix(text, " (-32000)") && strings.Contains(text, ": "+m.message) {
			return m.cause
		}
	}
	return nil
}

// Load reads a recorded session (gzip-compressed JSON).
func Load(path string) (*Session, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b, err := io.ReadAll(io.LimitReader(z, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var s Session
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// Save writes a session, gzip-compressed.
func (s *Session) Save(path string) error {
	b, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	z, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	z.Write(b)
	if err := z.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
