// Package mcpserver serves axfuse to agents over the Model Context
// Protocol (the official Go SDK): browser_* tools on one browser, launched
// on first use or attached over CDP, over stdio (Stdio: bad lines are
// answered, not fatal) or Streamable HTTP (ServeHTTP: each client session
// in a browser context of its own).
//
// Each tab keeps the last complete observation (act.Session; replaced
// whole, never half-built). browser_find, browser_locate and ref
// resolution answer from it; the browser's hit test still checks every
// action's target. After an action the result carries what changed since
// the observation the agent last saw (fuse.Diff), or the full snapshot
// when the document changed, with both token counts in the result's
// metadata. Snapshots are cut to a token budget (fuse.Options.MaxTokens).
// A Policy bounds what the agent may load and write; tool arguments are
// checked against each tool's schema before anything runs.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure the server.
type Options struct {
	// Launch starts or attaches to the browser the server drives.
	Launch Launcher
	// Endpoint is the CDP endpoint Launch attaches to as it may be printed
	// (its secrets redacted), "" when it launches a browser: it names the
	// ref sessions, and the advice given when the browser is gone.
	Endpoint string
	// CallTimeout bounds a screenshot (default 30s).
	CallTimeout time.Duration
	// MaxTokens is the default budget of a snapshot (0: no limit).
	MaxTokens int
	// Capture is how snapshots capture the page: domsnap.CaptureAuto
	// (default), CaptureFull or CaptureViewport; searches always capture
	// the whole page.
	Capture domsnap.CaptureMode
	// UploadRoot is the folder browser_file_upload takes files from
	// (symbolic links followed); "" allows any readable file.
	UploadRoot string
	// Policy is what pages and files the agent may reach.
	Policy Policy
	// Caps name the opt-in tool groups to register, as Capabilities
	// lists them.
	Caps    []string
	Version string
	// PerSession gives each client session a browser of its own from
	// Launch (a browser farm lends one a connection) instead of a browser
	// context in one shared browser; it is closed when the session ends.
	PerSession bool
}

// Server is one MCP server: for each client session its own tabs (and,
// over HTTP, its own browser context: cookies, storage and tabs no other
// session sees; or, PerSession, a browser of its own), one tool call of a
// session at a time, the calls of different sessions at once.
type Server struct {
	opts Options
	// mu guards the session list and the shared browser; it is held only
	// to read or change them, never across a tool call.
	mu      sync.Mutex
	ctx     context.Context
	browser Browser
	// gen counts the shared browsers started: a session whose tabs are of
	// an earlier one drops them.
	gen int
	// sessions are the client sessions' states; isolate gives each a
	// browser context of its own (HTTP), else they share the default one
	// (stdio has one session).
	sessions map[*mcp.ServerSession]*session
	isolate  bool
	made     int // sessions made, for their output folders
}

// session is one client's browser and tabs.
type session struct {
	// mu runs the session's tool calls one at a time.
	mu sync.Mutex
	// browser is the one its tabs live in (the shared one, of generation
	// gen, or its own with PerSession).
	browser Browser
	gen     int
	tabs    []*tabState
	current int
	// context is the session's browser context ("" : the default one).
	context string
	// outDir is the session's own folder below the output folder ("":
	// the output folder itself).
	outDir string
	// restarted says why the next answer begins with a notice: a launched
	// browser died and a new one was started.
	restarted string
}

// tabState is one tab, its ref session, and what the agent last saw of it.
type tabState struct {
	tab   Tab
	sess  *act.Session
	seen  *act.Observed
	owner *session
	// screenshot is this call's choice: auto (""), always or never.
	screenshot string
	// annotatedLast is the last annotated screenshot, for a page whose
	// pixels and marks did not change.
	annotatedLast *annotatedShot
}

// New makes a server; the browser starts with the first tool call.
func New(opts Options) *Server {
	if opts.Version == "" {
		opts.Version = "dev"
	}
	return &Server{opts: opts, sessions: map[*mcp.ServerSession]*session{}}
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
		InitializedHandler: func(_ context.Context, req *mcp.InitializedRequest) {
			// A session's tabs (and browser context) end with it.
			go func() {
				req.Session.Wait()
				s.endSession(req.Session)
			}()
		},
	})
	s.register(srv)
	return srv
}

func (s *Server) close() {
	s.mu.Lock()
	var all []*session
	for ss, st := range s.sessions {
		all = append(all, st)
		delete(s.sessions, ss)
	}
	s.mu.Unlock()
	for _, st := range all {
		s.endState(st)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.browser != nil {
		s.browser.Close()
		s.browser = nil
	}
}

// endSession closes a finished session's tabs and browser context (or
// its own browser).
func (s *Server) endSession(ss *mcp.ServerSession) {
	s.mu.Lock()
	st := s.sessions[ss]
	delete(s.sessions, ss)
	s.mu.Unlock()
	if st != nil {
		s.endState(st)
	}
}

// endState ends a session's state once its running call is over.
func (s *Server) endState(st *session) {
	st.mu.Lock()
	defer st.mu.Unlock()
	s.dropTabs(st)
	if s.opts.PerSession && st.browser != nil {
		st.browser.Close()
	}
	st.browser = nil
}

// dropTabs closes a session's tabs and its browser context. The caller
// holds st.mu.
func (s *Server) dropTabs(st *session) {
	for _, ts := range st.tabs {
		ts.tab.Close()
	}
	st.tabs, st.current = nil, 0
	if st.context != "" && st.browser != nil && st.browser.Alive() {
		st.browser.DisposeContext(st.context)
	}
	st.context = ""
}

// sessionOf is the state of a client session, made on first use.
func (s *Server) sessionOf(ss *mcp.ServerSession) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.sessions[ss]
	if st == nil {
		st = &session{}
		if s.isolate {
			// Over HTTP each session writes into a folder of its own: no
			// session overwrites, or is told the path of, another's file.
			s.made++
			st.outDir = fmt.Sprintf("session-%d", s.made)
		}
		s.sessions[ss] = st
	}
	return st
}

// outputPath is where a session's file name lands (Policy.outputPath,
// below the session's own folder over HTTP).
func (s *Server) outputPath(st *session, name string) (string, error) {
	p := s.opts.Policy
	if st.outDir != "" {
		p.OutputDir = filepath.Join(p.outputDir(), st.outDir)
	}
	return p.outputPath(name)
}

// active returns the session's selected tab, starting its browser and a
// first tab when there is none. The caller holds st.mu.
func (s *Server) active(st *session) (*tabState, error) {
	if err := s.browserFor(st); err != nil {
		return nil, err
	}
	if len(st.tabs) == 0 {
		if _, err := s.openTab(st, s.firstTab(st)); err != nil {
			return nil, err
		}
	}
	if st.current < 0 || st.current >= len(st.tabs) {
		st.current = len(st.tabs) - 1
	}
	return st.tabs[st.current], nil
}

// browserFor makes sure the session has a live browser: its own
// (PerSession), else the shared one. Tabs of a browser that is gone are
// dropped, and the next answer says so. The caller holds st.mu.
func (s *Server) browserFor(st *session) error {
	if s.opts.PerSession {
		if st.browser != nil && !st.browser.Alive() {
			s.dropTabs(st)
			st.browser.Close()
			st.browser = nil
			st.restarted = "This session's browser had ended (the farm closed it, or it crashed); a new one was started. The earlier tabs, their pages and refs are gone: navigate again."
		}
		if st.browser == nil {
			b, err := s.launch()
			if err != nil {
				return err
			}
			st.browser = b
		}
		return nil
	}
	b, gen, err := s.shared()
	if err != nil {
		return err
	}
	if st.gen != gen && st.browser != nil {
		// The tabs are of a browser that is gone.
		s.dropTabs(st)
		if s.opts.Endpoint == "" {
			st.restarted = "The browser had stopped (it exited or crashed); a new one was started. The earlier tabs, their pages and refs are gone: navigate again."
		}
	}
	st.browser, st.gen = b, gen
	return nil
}

// shared is the shared browser, started on first need and again after a
// launched one died; an attached one that is gone is an error saying what
// to do, and is dialled again on the call after.
func (s *Server) shared() (Browser, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.browser != nil && !s.browser.Alive() {
		s.browser.Close()
		s.browser = nil
		s.gen++
		if s.opts.Endpoint != "" {
			return nil, 0, fmt.Errorf("the browser at %s is gone (it exited, crashed or dropped the connection); start it again with its remote-debugging port and call again, or restart the server with another endpoint", s.opts.Endpoint)
		}
	}
	if s.browser == nil {
		b, err := s.launch()
		if err != nil {
			return nil, 0, err
		}
		s.browser = b
		s.gen++
	}
	return s.browser, s.gen, nil
}

// launch starts or attaches to a browser through Options.Launch.
func (s *Server) launch() (Browser, error) {
	ctx := s.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if s.opts.Launch == nil {
		return nil, errors.New("the server has no browser to drive (Options.Launch is not set)")
	}
	b, err := s.opts.Launch(ctx)
	if err != nil || !s.opts.Policy.NamesOrigins() {
		return b, err
	}
	// The origin policy holds at the network: the browser stops every
	// request it refuses, in frames and popups too, before it is sent.
	g, ok := b.(RequestGate)
	if !ok {
		b.Close()
		return nil, errors.New("this browser cannot stop requests at the network, so the origin policy (--allowed-origins, --blocked-origins) cannot hold; nothing was loaded")
	}
	if err := g.GateRequests(s.opts.Policy.AllowsRequest); err != nil {
		b.Close()
		return nil, fmt.Errorf("the origin policy cannot hold: the browser refused to stop requests at the network (%w); nothing was loaded", err)
	}
	return b, nil
}

// firstTab is how a session's first tab opens: in its own browser
// context when sessions share an isolating browser; else a new tab, or
// the attached browser's tab in use.
func (s *Server) firstTab(st *session) func() (Tab, error) {
	b := st.browser
	switch {
	case s.isolate && !s.opts.PerSession:
		return func() (Tab, error) {
			if st.context == "" {
				id, err := b.NewIsolatedContext()
				if err != nil {
					return nil, err
				}
				st.context = id
			}
			return b.NewTabIn(st.context)
		}
	case b.Attached() && !s.opts.PerSession:
		return b.CurrentTab
	}
	return b.NewTab
}

// newTab is how a session opens another tab (browser_tabs new).
func (s *Server) newTab(st *session) func() (Tab, error) {
	b := st.browser
	if st.context != "" {
		return func() (Tab, error) { return b.NewTabIn(st.context) }
	}
	return b.NewTab
}

// openTab adds a tab with its session and selects it.
func (s *Server) openTab(st *session, open func() (Tab, error)) (*tabState, error) {
	tab, err := open()
	if err != nil {
		return nil, err
	}
	return s.addTab(st, tab, true)
}

// addTab adds an open tab with its session, selected or not.
func (s *Server) addTab(st *session, tab Tab, selectIt bool) (*tabState, error) {
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
	sess.Capture = browser.CaptureOptions{Mode: s.opts.Capture}
	if sess.Capture.Mode == "" {
		sess.Capture.Mode = domsnap.CaptureAuto
	}
	ts := &tabState{tab: tab, sess: sess, owner: st}
	st.tabs = append(st.tabs, ts)
	if selectIt {
		st.current = len(st.tabs) - 1
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

func (st *session) tabIndex(i int) (int, error) {
	if i < 0 || i >= len(st.tabs) {
		return 0, fmt.Errorf("tab %d: %w", i, errNoTab)
	}
	return i, nil
}
