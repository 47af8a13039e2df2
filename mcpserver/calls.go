package mcpserver

// How one tool call runs: on the active tab under its session's lock,
// kept to the policy, with what happened to the browser said.

import (
	"fmt"
	"strings"

	"github.com/axfuse/axfuse/browser"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// onActiveTab runs a handler on the active tab under its session's lock
// (other sessions' calls run meanwhile), keeps the tab to the policy, and
// words what happened to the browser.
func (s *Server) onActiveTab(ss *mcp.ServerSession, h func(*tabState) (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
	st := s.sessionOf(ss)
	st.mu.Lock()
	defer st.mu.Unlock()
	ts, err := s.active(st)
	if err != nil {
		return nil, err
	}
	res, err := h(ts)
	var blocked []browser.Blocked
	if g, ok := st.browser.(RequestGate); ok {
		blocked = g.TakeBlocked()
	}
	// Also after a failed call: a navigation the browser stopped at the
	// network fails, and leaves the tab on an error page at the refused
	// address.
	if kerr := s.keepToPolicy(ts, blocked); kerr != nil {
		err = kerr
	}
	if note := blockedNote(blocked); note != "" {
		if err != nil {
			err = fmt.Errorf("%w\n%s", err, note)
		} else if res != nil {
			res.Content = append(res.Content, &mcp.TextContent{Text: note})
		}
	}
	if err != nil && st.browser != nil && !st.browser.Alive() {
		switch {
		case s.opts.PerSession:
			err = fmt.Errorf("%w (this session's browser is gone; the next call starts a new one)", err)
		case s.opts.Endpoint == "":
			err = fmt.Errorf("%w (the browser is gone; the next call starts a new one)", err)
		default:
			err = fmt.Errorf("%w (the browser at %s is gone; start it again, then call again)", err, s.opts.Endpoint)
		}
	}
	if notice := st.restarted; notice != "" && (res != nil || err != nil) {
		st.restarted = ""
		if err != nil {
			return nil, fmt.Errorf("%s\n%w", notice, err)
		}
		res.Content = append([]mcp.Content{&mcp.TextContent{Text: notice}}, res.Content...)
	}
	return res, err
}

func errorResult(err error) *mcp.CallToolResult {
	var r mcp.CallToolResult
	r.SetError(err)
	return &r
}

// leftOut closes a tab the page opened on an origin the policy refuses
// (the browser stopped its request, it shows an error page) and says so,
// naming nothing of its address but its origin.
func (s *Server) leftOut(b Browser, o browser.TabInfo) string {
	note := "the page opened a tab on " + browser.OriginOf(o.URL) + ", which this server does not allow: its request was stopped, and the tab is left out"
	if c, ok := b.(interface{ CloseTab(id string) error }); ok && c.CloseTab(o.ID) == nil {
		note += " (closed)"
	}
	return note
}

// blockedNote says which requests the browser stopped at the network
// during a call (origins, never paths), "" for none.
func blockedNote(bl []browser.Blocked) string {
	if len(bl) == 0 {
		return ""
	}
	counts := map[string][2]int{}
	var order []string
	for _, b := range bl {
		c, seen := counts[b.Origin]
		if !seen {
			order = append(order, b.Origin)
		}
		c[0]++
		if b.Document {
			c[1]++
		}
		counts[b.Origin] = c
	}
	parts := make([]string, 0, len(order))
	for _, o := range order {
		c := counts[o]
		part := fmt.Sprintf("%d to %s", c[0], o)
		if c[1] > 0 {
			part += fmt.Sprintf(" (%d of them pages or frames)", c[1])
		}
		parts = append(parts, part)
	}
	return "The browser stopped requests the server's origin policy does not allow: " + strings.Join(parts, ", ") + "; nothing of them loaded."
}

// keepToPolicy checks where the tab is after a tool ran: a page the
// policy refuses (a link to file:, a redirect to a blocked origin) is
// not shown; the tab goes to about:blank and the call fails saying so.
func (s *Server) keepToPolicy(ts *tabState, blocked []browser.Blocked) error {
	url, _, err := ts.tab.Location()
	refused := err == nil && url != "" && url != "about:blank" && !strings.HasPrefix(url, "chrome-error:") && s.opts.Policy.CheckURL(url) != nil
	for _, b := range blocked {
		// The tab's own page was stopped at the network: its error page
		// commits at the refused address, maybe after this call.
		if b.Document && b.Frame == ts.tab.TargetID() && !refused {
			refused, url = true, b.Origin
		}
	}
	if !refused {
		return nil
	}
	ts.seen = nil
	// Its origin, never its path or query: the address a blocked page
	// was asked for may carry what the page wanted to leak.
	where := browser.OriginOf(url)
	if strings.HasPrefix(url, "file:") {
		where = "a file: URL"
	}
	if nerr := ts.tab.Navigate("about:blank", 0); nerr != nil {
		return fmt.Errorf("the tab went to %s, which this server does not allow, and could not be cleared: %v", where, nerr)
	}
	return fmt.Errorf("the tab went to %s, which this server does not allow; nothing of it is shown, and the tab was sent to about:blank", where)
}
