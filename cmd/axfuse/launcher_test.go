package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOddEndpointIsAnError: mcp --cdp at an address whose /json/version
// has no browser websocket (chromedp's discovery panicked on it) answers
// each call with an error, and the server goes on.
func TestOddEndpointIsAnError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"Browser":"x"}`)) }))
	defer srv.Close()
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	server := mcpserver.New(mcpserver.Options{Launch: chromeLauncher(chrome.Options{Endpoint: srv.URL}), Endpoint: srv.URL})
	go server.Run(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for range 2 {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "browser_snapshot", Arguments: map[string]any{}})
		if err != nil {
			t.Fatalf("protocol error: %v", err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if !res.IsError || !strings.Contains(text, "Chrome DevTools endpoint") {
			t.Errorf("snapshot on an odd endpoint: %q", text)
		}
	}
}
