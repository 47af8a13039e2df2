package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// client connects the SDK's own client to a server over in-memory pipes.
func client(t *testing.T, opts Options) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go New(opts).Run(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestToolSchemas: every tool has a title, annotations, a description an
// agent can act on, and a schema with enums and ranges where its
// arguments have them, and no "null" type.
func TestToolSchemas(t *testing.T) {
	cs := client(t, Options{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		byName[tl.Name] = tl
		if tl.Annotations == nil || tl.Annotations.Title == "" || tl.Title == "" {
			t.Errorf("%s: no title or annotations", tl.Name)
		}
		if len(tl.Description) < 50 {
			t.Errorf("%s: a thin description: %q", tl.Name, tl.Description)
		}
		b, _ := json.Marshal(tl.InputSchema)
		if strings.Contains(string(b), `"null"`) {
			t.Errorf("%s: a null type in the schema: %s", tl.Name, b)
		}
	}
	for _, want := range []struct{ tool, fragment string }{
		{"browser_snapshot", `"enum":["fused","ax"]`},
		{"browser_tabs", `"enum":["list","new","select","close"]`},
		{"browser_snapshot", `"minimum":0`},
		{"browser_scroll", `"pattern"`},
		{"browser_click", `"required":["ref"]`},
		{"browser_click", `"maximum":60,"minimum":0,"type":"number"`},
		{"browser_click", `"enum":["auto","always","never"]`},
		{"browser_snapshot", `"enum":["auto","always","never"]`},
		{"browser_drag", `"settle"`},
	} {
		tl := byName[want.tool]
		if tl == nil {
			t.Errorf("no %s", want.tool)
			continue
		}
		if b, _ := json.Marshal(tl.InputSchema); !strings.Contains(string(b), want.fragment) {
			t.Errorf("%s schema lacks %s: %s", want.tool, want.fragment, b)
		}
	}
	for name, readOnly := range map[string]bool{"browser_snapshot": true, "browser_find": true, "browser_click": false, "browser_navigate": false} {
		if tl := byName[name]; tl != nil && tl.Annotations.ReadOnlyHint != readOnly {
			t.Errorf("%s: readOnlyHint %v", name, tl.Annotations.ReadOnlyHint)
		}
	}
	if d := byName["browser_click"].Annotations.DestructiveHint; d == nil || !*d {
		t.Error("browser_click is not marked destructive")
	}
	for _, name := range []string{"browser_navigate_forward", "browser_reload"} {
		if byName[name] == nil {
			t.Errorf("no %s", name)
		}
	}
}

// TestBadArgumentsAreNamed: wrong arguments fail before the browser is
// touched, with a message naming the argument and what it must be.
func TestBadArgumentsAreNamed(t *testing.T) {
	// Any browser use would fail differently: with the launcher's error.
	cs := client(t, Options{Launch: func(context.Context) (Browser, error) { return nil, errors.New("no browser in this test") }})
	for _, tc := range []struct {
		tool string
		args any
		want string
	}{
		{"browser_click", map[string]any{"ref": nil}, "ref must be a string, not null"},
		{"browser_click", map[string]any{}, "ref is required"},
		{"browser_click", map[string]any{"ref": "button"}, `ref "button"`},
		{"browser_click", map[string]any{"ref": "e1", "force": true}, `unknown argument "force"`},
		{"browser_snapshot", map[string]any{"depth": -1}, "depth -1 is out of range: from 0 to 512"},
		{"browser_snapshot", map[string]any{"max_tokens": -5}, "max_tokens -5 is out of range"},
		{"browser_snapshot", map[string]any{"depth": 1.5}, "depth must be a whole number"},
		{"browser_snapshot", map[string]any{"mode": "raw"}, `mode "raw" is not one of: fused, ax`},
		{"browser_tabs", map[string]any{"action": "frobnicate"}, "is not one of: list, new, select, close"},
		{"browser_fill_form", map[string]any{"fields": nil}, "fields must be an array, not null"},
		{"browser_fill_form", map[string]any{"fields": []any{map[string]any{"ref": "e1"}}}, "fields[0].value is required"},
		{"browser_scroll", map[string]any{"amount": "sideways"}, `amount "sideways"`},
		{"browser_locate", map[string]any{"x": -1, "y": 3}, "x -1 is out of range"},
		{"browser_wait_for", map[string]any{"time": 99}, "time 99 is out of range: from 0 to 30"},
		{"browser_click", map[string]any{"ref": "e1", "settle": 61}, "settle 61 is out of range: from 0 to 60"},
		{"browser_click", map[string]any{"ref": "e1", "screenshot": "sometimes"}, "screenshot"},
		{"browser_navigate", []any{1}, "arguments must be an object"},
		{"browser_click", map[string]any{"ref": "g1e5"}, `ref "g1e5"`},
		{"browser_snapshot", map[string]any{"mode": "a" + strings.Repeat("é", 40)}, `mode "a` + strings.Repeat("é", 29) + `…" is not one of`}, // cut whole runes
		{"browser_scroll", map[string]any{"ref": "f1"}, `ref "f1"`},
	} {
		raw, _ := json.Marshal(tc.args)
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: json.RawMessage(raw)})
		if err != nil {
			t.Errorf("%s %s: protocol error %v", tc.tool, raw, err)
			continue
		}
		text := ""
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		if !res.IsError || !strings.Contains(text, tc.want) || strings.Contains(text, "reflect") || strings.Contains(text, "--") {
			t.Errorf("%s %s: %q, want an error saying %q", tc.tool, raw, text, tc.want)
		}
	}
}

// FuzzToolArguments: no argument JSON makes decoding panic; what decodes
// passed the schema.
func FuzzToolArguments(f *testing.F) {
	for _, seed := range []string{`{}`, `null`, `{"ref":null}`, `{"fields":[{"ref":"e1","value":"x"}]}`, `{"depth":1e308}`, `[`, `{"mode":"ax","depth":-0}`} {
		f.Add(seed)
	}
	specs := []toolSpec{{name: "a", rules: map[string]rule{"mode": {enum: []string{"fused", "ax"}}, "depth": between(0, 512)}}}
	snap, err := inputSchema[snapshotArgs](specs[0])
	if err != nil {
		f.Fatal(err)
	}
	fill, _ := inputSchema[fillArgs](toolSpec{name: "b"})
	click, _ := inputSchema[clickArgs](toolSpec{name: "c", rules: map[string]rule{"ref": refRule}})
	f.Fuzz(func(t *testing.T, raw string) {
		if in, err := decodeArgs[snapshotArgs](json.RawMessage(raw), snap); err == nil && (in.Depth < 0 || in.Depth > 512 || in.Mode != "" && in.Mode != "fused" && in.Mode != "ax") {
			t.Fatalf("%q decoded past the schema: %+v", raw, in)
		}
		decodeArgs[fillArgs](json.RawMessage(raw), fill)
		if in, err := decodeArgs[clickArgs](json.RawMessage(raw), click); err == nil && !strings.HasPrefix(in.Ref, "e") && !strings.HasPrefix(in.Ref, "f") {
			t.Fatalf("%q: ref %q passed", raw, in.Ref)
		}
	})
}
