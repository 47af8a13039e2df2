package replay

import (
	"fmt"
	"sync"

	"github.com/axfuse/axfuse/mcpserver"
)

var (
	_ mcpserver.Browser = (*Browser)(nil)
	_ mcpserver.Browser = (*RecordingBrowser)(nil)
)

// Browser plays a recorded session's tabs back: each tab the server opens
// (however: a new tab, the current one, one in a context) is the next
// recorded tab.
type Browser struct {
	mu       sync.Mutex
	tabs     []*Tab
	opened   int
	contexts int
	dead     bool
}

// NewBrowser plays back the session's tabs.
func NewBrowser(s *Session) *Browser {
	b := &Browser{}
	for _, calls := range s.Tabs {
		b.tabs = append(b.tabs, NewTab(calls))
	}
	return b
}

// Tab is the i-th recorded tab (nil when there is none).
func (b *Browser) Tab(i int) *Tab {
	if i < 0 || i >= len(b.tabs) {
		return nil
	}
	return b.tabs[i]
}

// Opened counts the tabs handed out.
func (b *Browser) Opened() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.opened
}

// Kill makes the browser gone, as a crash would.
func (b *Browser) Kill() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.dead = true
}

func (b *Browser) open() (mcpserver.Tab, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.opened >= len(b.tabs) {
		return nil, fmt.Errorf("replay: tab %d opened, but the recording holds %d: %w", b.opened+1, len(b.tabs), ErrOffScript)
	}
	b.opened++
	return b.tabs[b.opened-1], nil
}

func (b *Browser) NewTab() (mcpserver.Tab, error)          { return b.open() }
func (b *Browser) CurrentTab() (mcpserver.Tab, error)      { return b.open() }
func (b *Browser) AttachTab(string) (mcpserver.Tab, error) { return b.open() }
func (b *Browser) NewTabIn(string) (mcpserver.Tab, error)  { return b.open() }
func (b *Browser) DisposeContext(string) error             { return nil }
func (b *Browser) Attached() bool                          { return false }

func (b *Browser) NewIsolatedContext() (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.contexts++
	return fmt.Sprintf("context-%d", b.contexts), nil
}

func (b *Browser) Alive() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return !b.dead
}

func (b *Browser) Close() {
	for _, t := range b.tabs {
		t.Close()
	}
}

// RecordingBrowser is a live browser whose tabs are recorded.
type RecordingBrowser struct {
	mcpserver.Browser
	mu   sync.Mutex
	tabs []*Recorder
}

// RecordBrowser wraps a live browser.
func RecordBrowser(in mcpserver.Browser) *RecordingBrowser { return &RecordingBrowser{Browser: in} }

// Tabs are the recorders of the tabs opened so far, in order.
func (b *RecordingBrowser) Tabs() []*Recorder {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]*Recorder(nil), b.tabs...)
}

func (b *RecordingBrowser) wrap(t mcpserver.Tab, err error) (mcpserver.Tab, error) {
	if err != nil {
		return nil, err
	}
	r := Record(t)
	b.mu.Lock()
	b.tabs = append(b.tabs, r)
	b.mu.Unlock()
	return r, nil
}

func (b *RecordingBrowser) NewTab() (mcpserver.Tab, error)     { return b.wrap(b.Browser.NewTab()) }
func (b *RecordingBrowser) CurrentTab() (mcpserver.Tab, error) { return b.wrap(b.Browser.CurrentTab()) }
func (b *RecordingBrowser) AttachTab(id string) (mcpserver.Tab, error) {
	return b.wrap(b.Browser.AttachTab(id))
}
func (b *RecordingBrowser) NewTabIn(id string) (mcpserver.Tab, error) {
	return b.wrap(b.Browser.NewTabIn(id))
}

// TakeSent is the input sent to any tab since the last TakeSent.
func (b *Browser) TakeSent() []string {
	var out []string
	for _, t := range b.tabs {
		out = append(out, t.TakeSent()...)
	}
	return out
}

// Problems are every tab's calls off the recording.
func (b *Browser) Problems() []string {
	var out []string
	for i, t := range b.tabs {
		for _, p := range t.Problems() {
			out = append(out, fmt.Sprintf("tab %d: %s", i, p))
		}
	}
	return out
}

// TakeSent is the input sent to any tab since the last TakeSent.
func (b *RecordingBrowser) TakeSent() []string {
	var out []string
	for _, r := range b.Tabs() {
		out = append(out, r.TakeSent()...)
	}
	return out
}

// ServerOptions are the MCP server's options in recorded sessions: the
// recording and its replay run the server alike.
func ServerOptions(launch mcpserver.Launcher) mcpserver.Options {
	return mcpserver.Options{Launch: launch, MaxTokens: 8000, Version: "replay"}
}
