package mcpserver

// The tools that move the current tab between pages.

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type (
	navigateArgs struct {
		URL string `json:"url" jsonschema:"the URL to load"`
	}
	noArgs struct{}
)

// navigationTools load a URL, go back and forward, and reload.
func navigationTools() []toolAdder {
	return []toolAdder{
		toolDef[navigateArgs]{spec: toolSpec{name: "browser_navigate", title: "Navigate to a URL", effect: changes,
			desc: "Load a URL in the current tab and return its snapshot, with the HTTP status of the document. " +
				"Only http(s) URLs the server's policy allows load (file: is refused unless the server allows it)."}, handle: (*Server).navigate},
		toolDef[noArgs]{spec: toolSpec{name: "browser_navigate_back", title: "Go back", effect: changes,
			desc: "Go back one page in the current tab's history and return its snapshot."}, handle: func(s *Server, ts *tabState, _ noArgs) (*mcp.CallToolResult, error) {
			if err := ts.tab.Back(); err != nil {
				return nil, err
			}
			return s.look(ts, true, "")
		}},
		toolDef[noArgs]{spec: toolSpec{name: "browser_navigate_forward", title: "Go forward", effect: changes,
			desc: "Go forward one page in the current tab's history and return its snapshot."}, handle: func(s *Server, ts *tabState, _ noArgs) (*mcp.CallToolResult, error) {
			if err := ts.tab.Forward(); err != nil {
				return nil, err
			}
			return s.look(ts, true, "")
		}},
		toolDef[noArgs]{spec: toolSpec{name: "browser_reload", title: "Reload the page", effect: changes,
			desc: "Reload the current tab, wait for it to load, and return its snapshot."}, handle: func(s *Server, ts *tabState, _ noArgs) (*mcp.CallToolResult, error) {
			note := ""
			switch err := ts.tab.Reload(300 * time.Millisecond); {
			case errors.Is(err, browser.ErrStillLoading):
				note = "Warning: " + err.Error()
			case err != nil:
				return nil, err
			}
			return s.look(ts, true, note)
		}},
	}
}

func (s *Server) navigate(ts *tabState, in navigateArgs) (*mcp.CallToolResult, error) {
	if strings.TrimSpace(in.URL) == "" {
		return nil, errors.New("url is empty")
	}
	if err := s.opts.Policy.CheckURL(in.URL); err != nil {
		return nil, err
	}
	note := ""
	resp, err := ts.tab.Load(in.URL, 300*time.Millisecond)
	switch {
	case errors.Is(err, browser.ErrStillLoading):
		note = "Warning: " + err.Error()
	case err != nil:
		return nil, err
	}
	if resp.Status != 0 {
		status := fmt.Sprintf("HTTP status: %d %s", resp.Status, http.StatusText(resp.Status))
		if resp.Status >= 400 {
			status += " (the page is an error page)"
		}
		note = strings.TrimSpace(status + "\n" + note)
	}
	return s.look(ts, true, note)
}
