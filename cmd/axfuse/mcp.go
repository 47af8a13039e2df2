package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/axfuse/axfuse/mcpserver"
)

// This file holds the mcp command: its declaration and its runner
// (launcher.go gives the MCP server its browser).

// mcpCommand serves the browser_* tools over MCP.
func mcpCommand() *command {
	return &command{name: "mcp", args: "[flags]", run: func(ctx context.Context, cfg *config, _ io.Writer) error { return serveMCP(ctx, cfg) },
		summary: "serve the browser_* tools to an agent over MCP (stdio or HTTP)",
		detail:  "Serve the browser_* tools to an agent over MCP on stdin/stdout, or with --port over Streamable HTTP, each client session in a browser context of its own (cookies, storage, tabs and refs apart). A browser is launched on first use unless --cdp (a launched browser that dies is started again on the next call, which says so); snapshots are cut to --max-tokens (default 8000, 0: none). Page content is untrusted, and so is the agent it drives: file: URLs are refused unless --allow-file-urls, pages load only from --allowed-origins and never from --blocked-origins (the browser stops every other request at the network: frames, popups, redirects, form posts, subresources), files are read from --upload-root and written under --output-dir only.",
		example: "axfuse mcp\naxfuse mcp --cdp http://127.0.0.1:9222 --max-tokens 4000\naxfuse mcp --port 8931 --caps vision",
		flags: []string{"cdp", "tab", "browser", "viewport", "timeout", "frame-depth", "capture", "max-tokens", "upload-root",
			"allowed-origins", "blocked-origins", "allow-file-urls", "output-dir", "caps", "port", "host", "max-sessions"}}
}

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
		Launch:   cfg.launcher(),
		Endpoint: redactEndpoint(cfg.cdp), CallTimeout: cfg.timeout, MaxTokens: budget, Capture: cfg.capture,
		PerSession: isFarm(cfg.cdp), // a farm lends each session a browser of its own
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
