package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/mcpserver"
	"github.com/axfuse/axfuse/oracle"
)

// This file holds what the commands share: the interfaces they reach a
// browser and its tabs through (launcher.go makes them of the driver),
// reaching a page, the view and capture options their flags make, an
// attached tab's ref session, and printing an observation.

// cliTab is what the commands need of a tab: what the MCP server needs
// (mcpserver.Tab: act's ref session, captures, screenshots, navigation)
// and the hit tests compare and capture --hits measure with
// (oracle.Page).
type cliTab interface {
	mcpserver.Tab
	oracle.Page
}

// cliBrowser is what the commands need of a browser: what the MCP server
// needs (mcpserver.Browser), tabs as cliTab, and the attached browser's
// page tabs for the tabs and close commands.
type cliBrowser interface {
	mcpserver.Browser
	// OpenTab opens a new tab. AttachCurrentTab attaches to the attached
	// browser's tab --tab names (else the endpoint's, else the one in
	// use), with its events (dialogs, loads); ObserveCurrentTab to the
	// same tab for observing only: a lean session, no domains enabled.
	OpenTab() (cliTab, error)
	AttachCurrentTab() (cliTab, error)
	ObserveCurrentTab() (cliTab, error)
	// Pages lists the page tabs in the order --tab's index counts them;
	// SelectPage picks the one a --tab value names; CloseTab closes one by
	// target id.
	Pages() ([]listedTab, error)
	SelectPage(pages []listedTab, want string) (listedTab, error)
	CloseTab(id string) error
}

// listedTab is one page tab of a browser, as `axfuse tabs` lists it.
type listedTab struct {
	ID, URL, Title string
	// InUse: a client is attached to it (the tab an agent works in).
	InUse bool
}

// withTab reaches a browser, loads the page (the demo page when there is
// no URL and no --cdp; the attached browser's current tab, not navigated,
// with --cdp and no URL) and runs f on the tab.
func withTab(ctx context.Context, cfg *config, f func(tab cliTab) error) error {
	page := cfg.url
	if page == "" && cfg.cdp == "" {
		srv, err := serveDemo()
		if err != nil {
			return err
		}
		defer srv.Close()
		page = srv.URL
	}
	return withBrowser(ctx, cfg, func(b cliBrowser) error {
		if page == "" {
			// Observing only: a lean session, no domains enabled.
			tab, err := b.ObserveCurrentTab()
			if err != nil {
				return err
			}
			defer tab.Close()
			return f(tab)
		}
		tab, err := openPage(b, cfg, page)
		if err != nil {
			return err
		}
		defer tab.Close()
		return f(tab)
	})
}

// openPage opens a new tab on a URL or local file; a page whose load event
// never comes but whose document is parsed is a warning, not a failure.
func openPage(b cliBrowser, cfg *config, page string) (cliTab, error) {
	page, err := normalizeURL(page)
	if err != nil {
		return nil, err
	}
	tab, err := b.OpenTab()
	if err != nil {
		return nil, err
	}
	switch err := tab.Navigate(page, cfg.wait); {
	case errors.Is(err, browser.ErrStillLoading):
		fmt.Fprintf(cfg.stderr, "axfuse: warning: %v\n", err)
	case err != nil:
		tab.Close()
		return nil, err
	}
	return tab, nil
}

// normalizeURL accepts URLs and local file paths.
func normalizeURL(s string) (string, error) {
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		return s, nil
	}
	abs, err := filepath.Abs(s)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", fmt.Errorf("%q is neither a URL nor a readable file: %w", s, err)
	}
	return (&url.URL{Scheme: "file", Path: abs}).String(), nil
}

// captureInSession captures the tab and gives the view options with the
// attached tab's ref session (and the session file's path, "" when none).
func (cfg *config) captureInSession(tab cliTab, co browser.CaptureOptions) (*domsnap.Capture, fuse.Options, string, error) {
	c, err := tab.CaptureWith(co)
	if err != nil {
		return nil, fuse.Options{}, "", err
	}
	opts, path, err := cfg.sessionOptions(tab, c)
	return c, opts, path, err
}

// sessionOptions are the view options with, for an attached tab, the refs
// of its session (so `act` in another process sees the same refs) and the
// session file's path ("" when launched).
func (cfg *config) sessionOptions(tab cliTab, c *domsnap.Capture) (fuse.Options, string, error) {
	opts := cfg.fuseOptions()
	if cfg.cdp == "" {
		return opts, "", nil
	}
	path, err := act.SessionPath(cfg.cdp, tab.TargetID())
	if err != nil {
		return opts, "", err
	}
	opts.Refs = act.LoadTable(path)
	opts.Refs.Document(act.DocumentID(c))
	return opts, path, nil
}

// captureOptions say what a live snapshot fetches (--capture), widened
// to the full page when the view needs it.
func (cfg *config) captureOptions() browser.CaptureOptions {
	return act.CaptureFor(browser.CaptureOptions{Mode: cfg.capture}, cfg.fuseOptions())
}

func (cfg *config) fuseOptions() fuse.Options {
	return fuse.Options{Mode: cfg.mode, Offscreen: cfg.offscreen, Margin: cfg.margin, Scope: cfg.scope, Depth: cfg.depth,
		MaxTokens: cfg.maxTokens, Audit: cfg.audit, FindHint: "search the rest with axfuse find (--role, --name, --text) or print one part with --scope"}
}

// writeObservation prints an observation as --format says.
func writeObservation(w io.Writer, cfg *config, obs *fuse.Observation) error {
	if cfg.format == "json" {
		return obs.WriteJSON(w)
	}
	_, err := io.WriteString(w, obs.Snapshot)
	return err
}
