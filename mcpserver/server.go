// Package mcpserver serves axfuse to agents over the Model Context
// Protocol (the official Go SDK): browser_* tools on one browser, launched
// on first use or attached over CDP.
//
// Each tab keeps the last complete observation (act.Session; replaced
// whole, never half-built). browser_find, browser_locate and ref
// resolution answer from it; the browser's hit test still checks every
// action's target. After an action the result carries what changed since
// the observation the agent last saw (fuse.Diff), or the full snapshot
// when the document changed, with both token counts in the result's
// metadata. Snapshots are cut to a token budget (fuse.Options.MaxTokens).
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/domsnap/chrome"
	"github.com/axfuse/axfuse/fuse"
)

// Options configure the server and the browser it drives.
type Options struct {
	Endpoint    string // attach to this CDP endpoint; launch a browser when empty
	BrowserPath string
	Width       int
	Height      int
	CallTimeout time.Duration
	FrameDepth  int
	// MaxTokens is the default budget of a snapshot (0: no limit).
	MaxTokens int
	// Capture is how snapshots capture the page: chrome.CaptureAuto
	// (default), CaptureFull or CaptureViewport; searches always capture
	// the whole page.
	Capture string
	// UploadRoot is the folder browser_file_upload takes files from
	// (symbolic links followed); "" allows any readable file.
	UploadRoot string
	// Policy is what pages and files the agent may reach.
	Policy Policy
	// Caps are the opt-in tool groups: "evaluate" (browser_evaluate: the
	// agent runs JavaScript in the page), "vision" (input at viewport
	// coordinates: browser_mouse_click_xy, browser_mouse_wheel) and "pdf"
	// (browser_pdf_save).
	Caps []string
	Version string
}

// Server is one MCP server: one browser, its tabs, one tool call at a time.
type Server struct {
	opts    Options
	mu      sync.Mutex // tools share the browser and the tabs
	ctx     context.Context
	browser *chrome.Browser
	tabs    []*tabState
	current int
	// restarted says why the next answer begins with a notice: a launched
	// browser died and a new one was started.
	restarted string
}

// tabState is one tab, its ref session, and what the agent last saw of it.
type tabState struct {
	tab  *chrome.Tab
	sess *act.Session
	seen *act.Observed
}

// New makes a server; the browser starts with the first tool call.
func New(opts Options) *Server {
	if opts.Width == 0 || opts.Height == 0 {
		opts.Width, opts.Height = 1280, 720
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	return &Server{opts: opts}
}

// Run serves MCP over the transport until the client goes away or ctx
// ends, then closes the tabs it opened and the browser it launched.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	s.ctx = ctx
	defer s.close()
	return s.MCP().Run(ctx, t)
}

// MCP builds the SDK server with every tool registered.
func (s *Server) MCP() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "axfuse", Version: s.opts.Version}, &mcp.ServerOptions{
		Instructions: "axfuse drives a Chrome tab. browser_snapshot shows the page as YAML with [ref=eN] on every " +
			"interactive element (role-less click targets included); act by ref. After an action you get what " +
			"changed since your last look. Use browser_find for content outside the viewport.",
	})
	s.register(srv)
	return srv
}

func (s *Server) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ts := range s.tabs {
		ts.tab.Close()
	}
	s.tabs = nil
	if s.browser != nil {
		s.browser.Close()
		s.browser = nil
	}
}

// active returns the selected tab, starting the browser and a first tab
// when there is none. The caller holds s.mu.
func (s *Server) active() (*tabState, error) {
	if err := s.checkAlive(); err != nil {
		return nil, err
	}
	if s.browser == nil {
		ctx := s.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		b, err := chrome.Open(ctx, chrome.Options{
			Endpoint: s.opts.Endpoint, BrowserPath: s.opts.BrowserPath,
			Width: s.opts.Width, Height: s.opts.Height, CallTimeout: s.opts.CallTimeout, FrameDepth: s.opts.FrameDepth,
		})
		if err != nil {
			return nil, err
		}
		s.browser = b
	}
	if len(s.tabs) == 0 {
		open := s.browser.NewTab
		if s.browser.Attached() {
			open = s.browser.CurrentTab
		}
		if _, err := s.openTab(open); err != nil {
			return nil, err
		}
	}
	if s.current < 0 || s.current >= len(s.tabs) {
		s.current = len(s.tabs) - 1
	}
	return s.tabs[s.current], nil
}

// checkAlive notices a browser that is gone. A launched one is dropped
// with its tabs (the next call starts another, and its answer says so);
// an attached one is an error saying what to do, and is dialled again on
// the call after.
func (s *Server) checkAlive() error {
	if s.browser == nil || s.browser.Alive() {
		return nil
	}
	for _, ts := range s.tabs {
		ts.tab.Close()
	}
	s.tabs, s.current = nil, 0
	s.browser.Close()
	s.browser = nil
	if s.opts.Endpoint != "" {
		return fmt.Errorf("the browser at %s is gone (it exited, crashed or dropped the connection); start it again with its remote-debugging port and call again, or restart the server with another endpoint", s.opts.Endpoint)
	}
	s.restarted = "The browser had stopped (it exited or crashed); a new one was started. The earlier tabs, their pages and refs are gone: navigate again."
	return nil
}

// openTab adds a tab with its session and selects it.
func (s *Server) openTab(open func() (*chrome.Tab, error)) (*tabState, error) {
	tab, err := open()
	if err != nil {
		return nil, err
	}
	return s.addTab(tab, true)
}

// addTab adds an open tab with its session, selected or not.
func (s *Server) addTab(tab *chrome.Tab, selectIt bool) (*tabState, error) {
	endpoint := s.opts.Endpoint
	if endpoint == "" {
		endpoint = "mcp-launched"
	}
	sess, err := act.Open(tab, endpoint, s.viewOptions(0))
	if err != nil {
		tab.Close()
		return nil, err
	}
	sess.Cache = true
	sess.UploadRoot = s.opts.UploadRoot
	sess.Capture = chrome.CaptureOptions{Mode: s.opts.Capture}
	if sess.Capture.Mode == "" {
		sess.Capture.Mode = chrome.CaptureAuto
	}
	ts := &tabState{tab: tab, sess: sess}
	s.tabs = append(s.tabs, ts)
	if selectIt {
		s.current = len(s.tabs) - 1
	}
	return ts, nil
}

// viewOptions are the fused view's options with a budget (0: the
// server's default).
func (s *Server) viewOptions(maxTokens int) fuse.Options {
	if maxTokens <= 0 {
		maxTokens = s.opts.MaxTokens
	}
	return fuse.Options{MaxTokens: maxTokens,
		FindHint: "search the rest with browser_find {role, name, text}, or snapshot one part with browser_snapshot {target}"}
}

// hasCap reports whether the server was started with capability c.
func (s *Server) hasCap(c string) bool {
	for _, x := range s.opts.Caps {
		if x == c {
			return true
		}
	}
	return false
}

// errNoTab is returned by tab tools given an index out of range.
var errNoTab = errors.New("no tab at that index; browser_tabs {action: list} lists them")

func (s *Server) tabIndex(i int) (int, error) {
	if i < 0 || i >= len(s.tabs) {
		return 0, fmt.Errorf("tab %d: %w", i, errNoTab)
	}
	return i, nil
}
