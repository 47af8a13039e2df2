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
	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
)

// This file holds what the commands share: reaching a browser and a page,
// the view and capture options their flags make, an attached tab's ref
// session, and printing an observation.

// withBrowser launches or attaches to the browser the flags name.
func withBrowser(ctx context.Context, cfg *config, f func(b *chrome.Browser) error) error {
	b, err := chrome.Open(ctx, chrome.Options{
		Endpoint: cfg.cdp, BrowserPath: cfg.browser,
		Width: cfg.width, Height: cfg.height, Scale: cfg.scale, CallTimeout: cfg.timeout, FrameDepth: cfg.frameDepth,
		Tab: cfg.tab,
	})
	if err != nil {
		return err
	}
	defer b.Close()
	return f(b)
}

// withTab reaches a browser, loads the page (the demo page when there is
// no URL and no --cdp; the attached browser's current tab, not navigated,
// with --cdp and no URL) and runs f on the tab.
func withTab(ctx context.Context, cfg *config, f func(tab *chrome.Tab) error) error {
	page := cfg.url
	if page == "" && cfg.cdp == "" {
		srv, err := serveDemo()
		if err != nil {
			return err
		}
		defer srv.Close()
		page = srv.URL
	}
	return withBrowser(ctx, cfg, func(b *chrome.Browser) error {
		if page == "" {
			// Observing only: a lean session, no domains enabled.
			tab, err := b.CurrentTabLean()
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
func openPage(b *chrome.Browser, cfg *config, page string) (*chrome.Tab, error) {
	page, err := normalizeURL(page)
	if err != nil {
		return nil, err
	}
	tab, err := b.NewTab()
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
func (cfg *config) captureInSession(tab *chrome.Tab, co browser.CaptureOptions) (*domsnap.Capture, fuse.Options, string, error) {
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
func (cfg *config) sessionOptions(tab *chrome.Tab, c *domsnap.Capture) (fuse.Options, string, error) {
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
