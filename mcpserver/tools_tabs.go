package mcpserver

// The tools that list, open, select, size and close tabs.

import (
	"fmt"
	"strings"

	"github.com/axfuse/axfuse/fuse"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type (
	tabsArgs struct {
		Action string `json:"action" jsonschema:"list, new, select or close"`
		Index  int    `json:"index,omitempty" jsonschema:"the tab for select and close (from list)"`
		URL    string `json:"url,omitempty" jsonschema:"for new: a URL to load in the new tab"`
	}
	resizeArgs struct {
		Width  int `json:"width" jsonschema:"viewport width in CSS px"`
		Height int `json:"height" jsonschema:"viewport height in CSS px"`
	}
)

// tabTools manage the session's tabs and the current one's viewport.
func tabTools() []toolAdder {
	return []toolAdder{
		toolDef[tabsArgs]{spec: toolSpec{name: "browser_tabs", title: "List, open, select or close tabs", effect: changes,
			desc:  "List the tabs (the current one marked *), open a new one (with a url to load), select one by index (it becomes the tab the other tools use, and its snapshot is returned), or close one by index.",
			rules: map[string]rule{"action": {enum: []string{"list", "new", "select", "close"}}, "index": between(0, 1000)}}, handle: (*Server).tabsTool},
		toolDef[resizeArgs]{spec: toolSpec{name: "browser_resize", title: "Resize the viewport", effect: acts,
			rules: map[string]rule{"width": between(100, 10000), "height": between(100, 10000)},
			desc:  "Set the current tab's viewport size in CSS px and return its snapshot."}, handle: func(s *Server, ts *tabState, in resizeArgs) (*mcp.CallToolResult, error) {
			if err := ts.tab.Resize(in.Width, in.Height); err != nil {
				return nil, err
			}
			return s.look(ts, true, fmt.Sprintf("The viewport is %d×%d.", in.Width, in.Height))
		}},
		toolDef[noArgs]{spec: toolSpec{name: "browser_close", title: "Close the tab", effect: changes,
			desc: "Close the current tab; the previous one becomes current (the next call opens a new tab when none is left)."}, handle: func(s *Server, ts *tabState, _ noArgs) (*mcp.CallToolResult, error) {
			return s.tabsTool(ts, tabsArgs{Action: "close", Index: ts.owner.current})
		}},
	}
}

func (s *Server) tabsTool(ts *tabState, in tabsArgs) (*mcp.CallToolResult, error) {
	st := ts.owner
	switch in.Action {
	case "list", "":
	case "new":
		nt, err := s.openTab(st, s.newTab(st))
		if err != nil {
			return nil, err
		}
		if in.URL != "" {
			return s.navigate(nt, navigateArgs{URL: in.URL})
		}
	case "select":
		i, err := st.tabIndex(in.Index)
		if err != nil {
			return nil, err
		}
		st.current = i
		if err := st.tabs[i].tab.BringToFront(); err != nil {
			return nil, err
		}
		return s.look(st.tabs[i], true, "")
	case "close":
		i, err := st.tabIndex(in.Index)
		if err != nil {
			return nil, err
		}
		st.tabs[i].tab.Close()
		st.tabs = append(st.tabs[:i], st.tabs[i+1:]...)
		if st.current >= len(st.tabs) {
			st.current = len(st.tabs) - 1
		}
	default:
		return nil, fmt.Errorf("action %q: want list, new, select or close", in.Action)
	}
	var sb strings.Builder
	for i, t := range st.tabs {
		url, title, err := t.tab.Location()
		mark := " "
		if i == st.current {
			mark = "*"
		}
		if err != nil {
			fmt.Fprintf(&sb, "%s %d: (%v)\n", mark, i, err)
			continue
		}
		fmt.Fprintf(&sb, "%s %d: %s %s\n", mark, i, fuse.Quote(fuse.DisplayName(title)), fuse.Quote(fuse.DisplayName(url)))
	}
	if len(st.tabs) == 0 {
		sb.WriteString("no tabs open; the next tool call opens one\n")
	}
	return textResult(sb.String(), nil), nil
}
