package mcpserver

import (
	"context"
	"time"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/browser"
)

// Tab is what the server needs of a browser tab: what a ref session acts
// through (act.Page), the camera of its screenshots, and the navigation,
// page logs and tools of the tab tools.
type Tab interface {
	act.Page
	// Context ends when the tab does; CapturePNG takes its viewport.
	Context() context.Context
	CapturePNG(ctx context.Context) ([]byte, error)

	// Load navigates and waits, at most wait after the commit, for the load
	// event: a browser.ErrStillLoading error means the page is usable.
	Load(url string, wait time.Duration) (browser.Response, error)
	Navigate(url string, wait time.Duration) error
	Back() error
	Forward() error
	Reload(wait time.Duration) error
	Location() (url, title string, err error)
	BringToFront() error
	Close()

	ConsoleMessages() []browser.ConsoleMessage
	Requests() []browser.Request
	Evaluate(expression string) (string, error)
	Resize(width, height int) error
	PDF() ([]byte, error)
}

// Browser is what the server needs of a browser: tabs, browser contexts
// (an HTTP client session's own cookies, storage and tabs) and whether it
// is still there.
type Browser interface {
	// NewTab opens a tab; CurrentTab attaches to an attached browser's tab
	// in use; AttachTab to a tab by target id.
	NewTab() (Tab, error)
	CurrentTab() (Tab, error)
	AttachTab(id string) (Tab, error)
	// NewIsolatedContext makes a browser context, NewTabIn opens a tab in
	// it and DisposeContext closes it with its tabs.
	NewIsolatedContext() (string, error)
	NewTabIn(context string) (Tab, error)
	DisposeContext(context string) error
	// Attached says the browser was attached to, not launched; Alive that
	// its connection holds; Close ends it (a launched one exits).
	Attached() bool
	Alive() bool
	Close()
}

// A Launcher starts or attaches to the browser, on the first tool call and
// again after a launched browser died. Its context bounds the browser's
// life.
type Launcher func(ctx context.Context) (Browser, error)

// RequestGate is a browser that stops requests at the network: with a
// policy that names origins, the server gates every browser it gets, and
// refuses to go on with one it cannot gate (the policy holds at the
// network or not at all).
type RequestGate interface {
	// GateRequests has the browser stop every request allow refuses.
	GateRequests(allow func(rawURL string) bool) error
	// TakeBlocked returns the requests stopped since the last take.
	TakeBlocked() []browser.Blocked
}
