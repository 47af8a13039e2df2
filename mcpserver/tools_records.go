package mcpserver

import (
	"fmt"
	"strings"

	"github.com/axfuse/axfuse/fuse"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The page's own records: what it logged and what it requested. Their
// texts are the page's, so they are quoted.

type (
	consoleArgs struct {
		OnlyErrors bool `json:"onlyErrors,omitempty" jsonschema:"only errors, warnings and uncaught exceptions"`
	}
	networkArgs struct {
		OnlyFailed bool `json:"onlyFailed,omitempty" jsonschema:"only requests that failed or answered 400 or more"`
	}
)

// recordTools read the page's console and network records.
func recordTools() []toolAdder {
	return []toolAdder{
		toolDef[consoleArgs]{spec: toolSpec{name: "browser_console_messages", title: "Console messages", effect: reads,
			desc: "The current tab's console messages and uncaught exceptions since it was opened (the last 500), oldest first; the texts are the page's."}, handle: (*Server).consoleTool},
		toolDef[networkArgs]{spec: toolSpec{name: "browser_network_requests", title: "Network requests", effect: reads,
			desc: "The current tab's network requests since it was opened (the last 1000): method, status (or why it failed), type and URL."}, handle: (*Server).networkTool},
	}
}

func (s *Server) consoleTool(ts *tabState, in consoleArgs) (*mcp.CallToolResult, error) {
	var sb strings.Builder
	n := 0
	for _, m := range ts.tab.ConsoleMessages() {
		if in.OnlyErrors && m.Level != "error" && m.Level != "warning" && m.Level != "exception" && m.Level != "assert" {
			continue
		}
		n++
		fmt.Fprintf(&sb, "- %s: %s", m.Level, fuse.Quote(fuse.DisplayName(m.Text)))
		if m.Source != "" && m.Source != ":1" {
			fmt.Fprintf(&sb, " at %s", fuse.Quote(fuse.DisplayName(m.Source)))
		}
		sb.WriteString("\n")
	}
	if n == 0 {
		return textResult("No console messages.", nil), nil
	}
	return textResult(fmt.Sprintf("%d console messages (the page's words, quoted):\n%s", n, sb.String()), nil), nil
}

func (s *Server) networkTool(ts *tabState, in networkArgs) (*mcp.CallToolResult, error) {
	var sb strings.Builder
	n := 0
	for _, r := range ts.tab.Requests() {
		failed := r.Failed != "" || r.Status >= 400
		if in.OnlyFailed && !failed {
			continue
		}
		n++
		status := fmt.Sprint(r.Status)
		switch {
		case r.Failed != "":
			status = "failed: " + r.Failed
		case r.Status == 0:
			status = "pending"
		}
		fmt.Fprintf(&sb, "- %s %s [%s] %s\n", r.Method, fuse.Quote(fuse.DisplayName(r.URL)), status, strings.ToLower(r.Type))
	}
	if n == 0 {
		return textResult("No network requests.", nil), nil
	}
	return textResult(fmt.Sprintf("%d requests:\n%s", n, sb.String()), nil), nil
}
