package main

import (
	"context"
	"net/http"

	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/mcpserver"
)

// This file is the only one of the CLI that names the Chrome driver: it
// launches or attaches to Chrome and hands the commands and the MCP server
// the browser and its tabs as interfaces (cliBrowser, cliTab,
// mcpserver.Browser). The rest of the CLI depends on those alone, so that
// another driver, or a recorded session, could stand in for Chrome.

// defaultFrameDepth is --frame-depth's default: the driver's.
const defaultFrameDepth = chrome.DefaultFrameDepth

// chromeOptions are the driver's options the flags give, built here only,
// so that every command launches or attaches alike. The launch-only ones
// (--browser, --viewport, --scale) are refused with --cdp, and a command
// that does not take one gets its default, which is the driver's own.
func (cfg *config) chromeOptions() chrome.Options {
	return cfg.chromeOptionsAt(cfg.cdp)
}

// chromeOptionsAt are chromeOptions attached to one endpoint of several
// (batch and compare --batch spread their pages over every --cdp).
func (cfg *config) chromeOptionsAt(endpoint string) chrome.Options {
	var headers http.Header
	for _, h := range cfg.cdpHeaders {
		if headers == nil {
			headers = http.Header{}
		}
		_ = chrome.ParseHeader(headers, h) // checked with the flags (checkHeader)
	}
	return chrome.Options{
		Endpoint: endpoint, Headers: headers, BrowserPath: cfg.browser,
		Width: cfg.width, Height: cfg.height, Scale: cfg.scale, CallTimeout: cfg.timeout, FrameDepth: cfg.frameDepth,
		Tab: cfg.tab,
	}
}

// checkHeader says what is wrong with a --cdp-header, without quoting it.
func checkHeader(line string) error { return chrome.ParseHeader(http.Header{}, line) }

// redactEndpoint is an endpoint as it may be printed: its query's values
// and password replaced by "…".
func redactEndpoint(endpoint string) string { return chrome.RedactEndpoint(endpoint) }

// scrubSecrets takes the endpoints' and headers' secrets out of an
// error's message, whatever said it.
func (cfg *config) scrubSecrets(err error) error {
	return chrome.ScrubSecrets(err, cfg.cdpAll, cfg.chromeOptions().Headers)
}

// isFarm says an endpoint is a browser farm's connect URL: each
// connection to it gets a browser of its own.
func isFarm(endpoint string) bool { return chrome.IsFarmAddress(endpoint) }

// launchOrAttach launches or attaches to a browser with these options; the
// caller closes it.
func launchOrAttach(ctx context.Context, opts chrome.Options) (cliBrowser, error) {
	b, err := chrome.Open(ctx, opts)
	if err != nil {
		return nil, err
	}
	return chromeBrowser{b}, nil
}

// withBrowser launches or attaches to the browser the flags name, runs f
// on it and closes it (a launched browser exits, an attached one stays).
func withBrowser(ctx context.Context, cfg *config, f func(b cliBrowser) error) error {
	b, err := chrome.Open(ctx, cfg.chromeOptions())
	if err != nil {
		return err
	}
	defer b.Close()
	return f(chromeBrowser{b})
}

// launcher is how the MCP server gets its browser: the one the flags name.
func (cfg *config) launcher() mcpserver.Launcher { return chromeLauncher(cfg.chromeOptions()) }

// chromeLauncher launches or attaches to Chrome with these options, on
// the MCP server's first tool call and again after a launched one died.
func chromeLauncher(opts chrome.Options) mcpserver.Launcher {
	return func(ctx context.Context) (mcpserver.Browser, error) {
		b, err := chrome.Open(ctx, opts)
		if err != nil {
			return nil, err
		}
		return chromeBrowser{b}, nil
	}
}

// chromeBrowser is a Chrome browser as the MCP server (mcpserver.Browser)
// and the commands (cliBrowser) see it: the same methods, with tabs as
// interfaces and page tabs as listedTab.
type chromeBrowser struct{ *chrome.Browser }

func (b chromeBrowser) NewTab() (mcpserver.Tab, error)     { return asTab(b.Browser.NewTab()) }
func (b chromeBrowser) CurrentTab() (mcpserver.Tab, error) { return asTab(b.Browser.CurrentTab()) }
func (b chromeBrowser) AttachTab(id string) (mcpserver.Tab, error) {
	return asTab(b.Browser.AttachTab(id))
}
func (b chromeBrowser) NewTabIn(id string) (mcpserver.Tab, error) {
	return asTab(b.Browser.NewTabIn(id))
}

func (b chromeBrowser) OpenTab() (cliTab, error)           { return asTab(b.Browser.NewTab()) }
func (b chromeBrowser) AttachCurrentTab() (cliTab, error)  { return asTab(b.Browser.CurrentTab()) }
func (b chromeBrowser) ObserveCurrentTab() (cliTab, error) { return asTab(b.Browser.CurrentTabLean()) }

func (b chromeBrowser) Pages() ([]listedTab, error) {
	pages, err := b.Browser.Pages()
	if err != nil {
		return nil, err
	}
	listed := make([]listedTab, len(pages))
	for i, p := range pages {
		listed[i] = listedTab{ID: p.ID, URL: p.URL, Title: p.Title, InUse: p.InUse}
	}
	return listed, nil
}

// SelectPage picks the page tab --tab names among pages, as the driver
// picks the tab it attaches to, so that close and --tab agree.
func (chromeBrowser) SelectPage(pages []listedTab, want string) (listedTab, error) {
	chromePages := make([]chrome.Page, len(pages))
	for i, p := range pages {
		chromePages[i] = chrome.Page{ID: p.ID, URL: p.URL, Title: p.Title, InUse: p.InUse}
	}
	p, err := chrome.SelectPage(chromePages, want)
	if err != nil {
		return listedTab{}, err
	}
	return listedTab{ID: p.ID, URL: p.URL, Title: p.Title, InUse: p.InUse}, nil
}

// asTab keeps a failed open a nil interface, not a nil *chrome.Tab in one
// (which would compare unequal to nil).
func asTab(t *chrome.Tab, err error) (cliTab, error) {
	if err != nil {
		return nil, err
	}
	return t, nil
}
