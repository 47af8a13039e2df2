package mcpserver

// The tools that click, point, press, scroll and drag by ref, and how an
// action is answered.

import (
	"fmt"
	"strings"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/internal/keys"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type (
	refArgs struct {
		answerArgs
		Element string `json:"element,omitempty" jsonschema:"what the element is, in words (for the record)"`
		Ref     string `json:"ref" jsonschema:"the element's ref from the snapshot, e.g. e12"`
	}
	clickArgs struct {
		answerArgs
		Element     string `json:"element,omitempty" jsonschema:"what the element is, in words (for the record)"`
		Ref         string `json:"ref" jsonschema:"the element's ref from the snapshot"`
		DoubleClick bool   `json:"doubleClick,omitempty" jsonschema:"double-click instead"`
	}
	keyArgs struct {
		answerArgs
		Key string `json:"key"` // described by its rule: keys.ArgHelp
		Ref string `json:"ref,omitempty" jsonschema:"focus this element first (else the focused one gets it)"`
	}
	scrollArgs struct {
		answerArgs
		Ref    string `json:"ref,omitempty" jsonschema:"a scroll container's ref (default: the page)"`
		Amount string `json:"amount,omitempty" jsonschema:"down (default), up, or signed CSS pixels"`
	}
	dragArgs struct {
		answerArgs
		StartRef string `json:"startRef" jsonschema:"the ref to drag"`
		EndRef   string `json:"endRef" jsonschema:"the ref to drop on"`
	}
)

// inputTools act on an element by ref. Each reads its arguments into an
// act.Input and runs the verb of act's verb table that it is
// (act.Verb.Run), so what a verb does and checks is defined there, once;
// the arguments stay typed here, since the tools' schemas and words are
// the MCP's own (optional refs, values, paths). formTools do the same.
func inputTools() []toolAdder {
	click, dblclick, hover, press, scroll, drag := verb("click"), verb("dblclick"), verb("hover"), verb("press"), verb("scroll"), verb("drag")
	return []toolAdder{
		toolDef[clickArgs]{spec: toolSpec{name: "browser_click", title: "Click", effect: changes, rules: map[string]rule{"ref": refRule},
			desc: "Click an element by ref. The browser's hit test must reach that element at the point clicked, or nothing is done and the answer says what is in the way. " +
				"Returns what changed since your last snapshot."}, handle: func(s *Server, ts *tabState, in clickArgs) (*mcp.CallToolResult, error) {
			v := click
			if in.DoubleClick {
				v = dblclick
			}
			return s.after(ts, v.Run(ts.sess, act.Input{Ref: in.Ref}))
		}},
		toolDef[refArgs]{spec: toolSpec{name: "browser_hover", title: "Hover", effect: acts, rules: map[string]rule{"ref": refRule},
			desc: "Move the mouse over an element by ref (menus that open on hover). Returns what changed."}, handle: func(s *Server, ts *tabState, in refArgs) (*mcp.CallToolResult, error) {
			return s.after(ts, hover.Run(ts.sess, act.Input{Ref: in.Ref}))
		}},
		toolDef[keyArgs]{spec: toolSpec{name: "browser_press_key", title: "Press a key", effect: changes,
			rules: map[string]rule{"ref": optionalRefRule, "key": {desc: keys.ArgHelp}},
			desc:  "Press a key or chord (Playwright's key names: " + keys.Examples + ", a character), on an element by ref (focused first) or on the focused one."}, handle: func(s *Server, ts *tabState, in keyArgs) (*mcp.CallToolResult, error) {
			return s.after(ts, press.Run(ts.sess, act.Input{Ref: in.Ref, Key: in.Key}))
		}},
		toolDef[scrollArgs]{spec: toolSpec{name: "browser_scroll", title: "Scroll", effect: acts,
			rules: map[string]rule{"ref": optionalRefRule, "amount": {pattern: `^(|down|up|[-+]?[0-9]{1,7}(\.[0-9]+)?)$`}},
			desc:  "Scroll the page, or a scroll container by ref, down (default) or up a screen, or by signed CSS pixels."}, handle: func(s *Server, ts *tabState, in scrollArgs) (*mcp.CallToolResult, error) {
			return s.after(ts, scroll.Run(ts.sess, act.Input{Ref: in.Ref, Amount: in.Amount}))
		}},
		toolDef[dragArgs]{spec: toolSpec{name: "browser_drag", title: "Drag and drop", effect: changes, rules: map[string]rule{"startRef": refRule, "endRef": refRule},
			desc: "Drag one element onto another by refs: HTML5 drag and drop for draggable elements, else a mouse drag; says what moved."}, handle: func(s *Server, ts *tabState, in dragArgs) (*mcp.CallToolResult, error) {
			return s.after(ts, drag.Run(ts.sess, act.Input{Ref: in.StartRef, To: in.EndRef}))
		}},
	}
}

// after answers an action: its error, or what changed; either way what
// the page did meanwhile (errors, tabs it opened, which join the list).
func (s *Server) after(ts *tabState, err error) (*mcp.CallToolResult, error) {
	done := ts.sess.LastDone()
	notes := done.Notes
	for _, o := range done.Opened {
		if s.opts.Policy.NamesOrigins() && !s.opts.Policy.AllowsRequest(o.URL) {
			notes = append(notes, s.leftOut(ts.owner.browser, o))
			continue
		}
		tab, aerr := ts.owner.browser.AttachTab(o.ID)
		if aerr != nil {
			notes = append(notes, fmt.Sprintf("opened a tab %s %s that could not be attached: %v", fuse.Quote(fuse.DisplayName(o.Title)), fuse.Quote(fuse.DisplayName(o.URL)), aerr))
			continue
		}
		if _, aerr := s.addTab(ts.owner, tab, false); aerr != nil {
			continue
		}
		notes = append(notes, fmt.Sprintf("opened tab %d: %s %s (browser_tabs {action: select, index: %d} switches to it)",
			len(ts.owner.tabs)-1, fuse.Quote(fuse.DisplayName(o.Title)), fuse.Quote(fuse.DisplayName(o.URL)), len(ts.owner.tabs)-1))
	}
	if len(done.Opened) > 0 {
		// The new tab came to the front; the agent's stays the one it acts
		// on, and a tab behind another runs no animation frames.
		if ferr := ts.tab.BringToFront(); ferr != nil {
			notes = append(notes, "the tab could not be brought back to the front: "+ferr.Error())
		}
	}
	if err != nil {
		if len(notes) > 0 {
			err = fmt.Errorf("%w\n%s", err, strings.Join(notes, "\n"))
		}
		return nil, err
	}
	if fc := ts.sess.OpenedFileChooser(func(string) string { return "browser_file_upload {paths}" }); fc != "" {
		notes = append(notes, fc)
	}
	res, err := s.look(ts, false, strings.Join(notes, "\n"))
	if res != nil && res.Meta != nil {
		if timings := done.Timings(); len(timings) > 0 {
			res.Meta["settle"] = timings
		}
	}
	return res, err
}
