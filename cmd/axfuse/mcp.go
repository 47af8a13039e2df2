package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axfuse/axfuse/mcpserver"
)

// defaultMCPBudget is the snapshot budget of `axfuse mcp` when
// --max-tokens is not given: well under what MCP clients accept in one
// tool result.
const defaultMCPBudget = 8000

// serveMCP runs the MCP server on stdin/stdout until the client leaves.
func serveMCP(ctx context.Context, cfg *config) error {
	budget := cfg.maxTokens
	if !cfg.maxTokensSet {
		budget = defaultMCPBudget
	}
	srv := mcpserver.New(mcpserver.Options{
		Endpoint: cfg.cdp, BrowserPath: cfg.browser, Width: cfg.width, Height: cfg.height,
		CallTimeout: cfg.timeout, FrameDepth: cfg.frameDepth, MaxTokens: budget, Capture: cfg.capture,
	})
	return srv.Run(ctx, &mcp.StdioTransport{})
}
