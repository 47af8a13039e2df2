package main

import (
	"context"

	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/mcpserver"
)

// chromeLauncher is how the MCP server gets its browser: the Chrome
// driver, launched or attached with these options.
func chromeLauncher(opts chrome.Options) mcpserver.Launcher {
	return func(ctx context.Context) (mcpserver.Browser, error) {
		b, err := chrome.Open(ctx, opts)
		if err != nil {
			return nil, err
		}
		return mcpBrowser{b}, nil
	}
}

// mcpBrowser is a Chrome browser as the MCP server sees it: the same
// methods, with tabs as mcpserver.Tab.
type mcpBrowser struct{ *chrome.Browser }

func (b mcpBrowser) NewTab() (mcpserver.Tab, error)     { return asTab(b.Browser.NewTab()) }
func (b mcpBrowser) CurrentTab() (mcpserver.Tab, error) { return asTab(b.Browser.CurrentTab()) }
func (b mcpBrowser) AttachTab(id string) (mcpserver.Tab, error) {
	return asTab(b.Browser.AttachTab(id))
}
func (b mcpBrowser) NewTabIn(id string) (mcpserver.Tab, error) { return asTab(b.Browser.NewTabIn(id)) }

// asTab keeps a failed open a nil interface, not a nil *chrome.Tab in one.
func asTab(t *chrome.Tab, err error) (mcpserver.Tab, error) {
	if err != nil {
		return nil, err
	}
	return t, nil
}
