package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/mcpserver"
)

// defaultMCPBudget is the snapshot budget of `axfuse mcp` when
// --max-tokens is not given: well under what MCP clients accept in one
// tool result.
const defaultMCPBudget = 8000

// serveMCP runs the MCP server on stdin/stdout until the client leaves, or
// with --port over Streamable HTTP until interrupted.
func serveMCP(ctx context.Context, cfg *config) error {
	budget := cfg.maxTokens
	if !cfg.maxTokensSet {
		budget = defaultMCPBudget
	}
	// An agent uploads from the folder the server was started in unless
	// --upload-root names another ("/" for any readable file).
	root := cfg.uploadRoot
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		root = wd
	}
	srv := mcpserver.New(mcpserver.Options{
		Launch: chromeLauncher(chrome.Options{Endpoint: cfg.cdp, BrowserPath: cfg.browser, Tab: cfg.tab,
			Width: cfg.width, Height: cfg.height, CallTimeout: cfg.timeout, FrameDepth: cfg.frameDepth}),
		Endpoint: cfg.cdp, CallTimeout: cfg.timeout, MaxTokens: budget, Capture: cfg.capture,
		UploadRoot: root,
		Policy: mcpserver.Policy{AllowedOrigins: origins(cfg.allowedOrigins), BlockedOrigins: origins(cfg.blockedOrigins),
			AllowFileURLs: cfg.allowFileURLs, OutputDir: cfg.outputDir},
		Caps: origins(cfg.caps),
	})
	if cfg.port < 0 {
		return srv.Run(ctx, mcpserver.Stdio(os.Stdin, os.Stdout))
	}
	return srv.ServeHTTP(ctx, mcpserver.HTTPOptions{
		Addr: net.JoinHostPort(cfg.host, strconv.Itoa(cfg.port)), MaxSessions: cfg.maxSessions,
		Ready: func(addr string) {
			fmt.Fprintf(cfg.stderr, "axfuse mcp: serving MCP (Streamable HTTP) at http://%s/\n", addr)
		},
	})
}

// origins splits an origin list written with ; or , between them.
func origins(list string) []string {
	var out []string
	for _, o := range strings.FieldsFunc(list, func(r rune) bool { return r == ';' || r == ',' }) {
		if o = strings.TrimSpace(o); o != "" {
			out = append(out, o)
		}
	}
	return out
}
