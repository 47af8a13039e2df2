package mcpserver

// How a tool is declared and registered, and the answer arguments the
// acting tools share; each group's tools, with their arguments and
// handlers, are in the tools_*.go files.

import (
	"context"
	"fmt"
	"time"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/index"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// answerArgs say how an answer is made; every tool that acts takes them,
// and browser_snapshot takes the screenshot choice.
type answerArgs struct {
	Settle float64 `json:"settle,omitempty" jsonschema:"after the action: the longest wait, in seconds, for what it caused (a navigation, its requests, timers, DOM changes, animations; not the page's background activity); default 3"`
	screenshotArg
}

// screenshotArg is the screenshot choice, of answerArgs and of
// browser_snapshot's arguments.
type screenshotArg struct {
	Screenshot string `json:"screenshot,omitempty" jsonschema:"attach the annotated viewport screenshot: auto (when a target has no node: a canvas, an uncaptured frame; the default), always, or never"`
}

func (a screenshotArg) screenshotChoice() string { return a.Screenshot }

func (a answerArgs) answer() answerArgs { return a }

// answering is a tool's arguments that embed answerArgs.
type answering interface{ answer() answerArgs }

// answerRules limit answerArgs on every tool that takes them.
var answerRules = map[string]rule{"settle": between(0, 60), "screenshot": {enum: []string{"auto", "always", "never"}}}

// choosesScreenshot is a tool's arguments that embed screenshotArg
// alone (browser_snapshot's).
type choosesScreenshot interface{ screenshotChoice() string }

// A toolDef is one tool, declared whole (as chrome-devtools-mcp's
// defineTool): its spec (name, title, description, effect, argument
// rules) and its handler; In, its arguments, gives its schema.
type toolDef[In any] struct {
	spec   toolSpec
	handle func(s *Server, ts *tabState, in In) (*mcp.CallToolResult, error)
}

// A toolAdder is a declared tool, ready to be registered on a server.
type toolAdder interface {
	add(s *Server, srv *mcp.Server)
}

func (d toolDef[In]) add(s *Server, srv *mcp.Server) {
	tool(s, srv, d.spec, func(ts *tabState, in In) (*mcp.CallToolResult, error) { return d.handle(s, ts, in) })
}

// register registers every tool (tools/list gives them sorted by name):
// each group's, then those of the capabilities the server was started
// with.
func (s *Server) register(srv *mcp.Server) {
	groups := [][]toolAdder{navigationTools(), tabTools(), snapshotTools(), formTools(), inputTools(), pageTools(), recordTools()}
	for _, c := range Capabilities() {
		if s.hasCap(c.Name) {
			groups = append(groups, c.tools())
		}
	}
	for _, g := range groups {
		for _, t := range g {
			t.add(s, srv)
		}
	}
}

// tool registers one handler that runs with the server's lock and the
// active tab. Its arguments are checked against its schema first, with
// messages that name the argument and what it must be.
func tool[In any](s *Server, srv *mcp.Server, sp toolSpec, h func(ts *tabState, in In) (*mcp.CallToolResult, error)) {
	var zero In
	if _, ok := any(zero).(answering); ok {
		sp.rules = withRules(sp.rules, answerRules)
	}
	schema, err := inputSchema[In](sp)
	if err != nil {
		panic("mcpserver: " + err.Error()) // a programming error: TestToolSchemas
	}
	t := &mcp.Tool{Name: sp.name, Title: sp.title, Description: sp.desc, InputSchema: schema, Annotations: sp.annotations()}
	srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		in, err := decodeArgs[In](req.Params.Arguments, schema)
		if err != nil {
			return errorResult(fmt.Errorf("%s: %w", sp.name, err)), nil
		}
		res, err := s.onActiveTab(req.Session, func(ts *tabState) (*mcp.CallToolResult, error) {
			ts.answerWith(in)
			return h(ts, in)
		})
		if err != nil {
			return errorResult(err), nil
		}
		return res, nil
	})
}

func withRules(a, b map[string]rule) map[string]rule {
	out := map[string]rule{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// answerWith sets how this call's answer is made: the settle bound and
// the screenshot choice, each the default when the call gives none.
func (ts *tabState) answerWith(in any) {
	var a answerArgs
	switch v := in.(type) {
	case answering:
		a = v.answer()
	case choosesScreenshot:
		a.Screenshot = v.screenshotChoice()
	}
	ts.sess.Settle = act.DefaultSettle
	if a.Settle > 0 {
		ts.sess.Settle = time.Duration(a.Settle * float64(time.Second))
	}
	ts.screenshot = a.Screenshot
}

// refRule is the pattern of a ref argument, optionalRefRule of one that
// may be left empty: index's ref grammar.
var (
	refRule         = rule{pattern: index.RefPattern}
	optionalRefRule = rule{pattern: `^(` + index.RefGrammar + `)?$`}
)

// verb is the verb of act's table so named, looked up as the tools are
// registered: a name the table lacks is a programming error, which every
// test that lists the tools meets.
func verb(name string) act.Verb {
	v, ok := act.Lookup(name)
	if !ok {
		panic("mcpserver: act has no verb " + name)
	}
	return v
}
