package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/fuse"
)

// This file holds the commands that drive the attached browser's tabs:
// open, back, forward, reload, tabs and close; their declarations, their
// checks and their runners.

// tabCommands are the commands that steer the attached browser's tabs.
func tabCommands() []*command {
	return []*command{
		{name: "open", args: "--cdp ENDPOINT [flags] URL", run: navCommand, check: checkAttached,
			summary: "load URL in the attached tab and print its snapshot (refs for act)",
			detail:  "Load URL in the attached browser's tab (--tab, else the tab in use) and print its snapshot. Its refs are the tab's session: act uses them.",
			example: "axfuse open --cdp http://127.0.0.1:9222 https://example.com",
			flags:   flagsOf([]string{"cdp", "tab", "timeout", "frame-depth", "wait", "format", "dialog"}, viewFlags)},
		{name: "back", args: "--cdp ENDPOINT [flags]", run: navCommand, check: checkAttached,
			summary: "go back in the attached tab's history and print its snapshot",
			detail:  "Go back one page in the attached tab's history and print the snapshot.",
			example: "axfuse back --cdp http://127.0.0.1:9222",
			flags:   flagsOf([]string{"cdp", "tab", "timeout", "frame-depth", "format"}, viewFlags)},
		{name: "forward", args: "--cdp ENDPOINT [flags]", run: navCommand, check: checkAttached,
			summary: "go forward in the attached tab's history and print its snapshot",
			detail:  "Go forward one page in the attached tab's history and print the snapshot.",
			example: "axfuse forward --cdp http://127.0.0.1:9222",
			flags:   flagsOf([]string{"cdp", "tab", "timeout", "frame-depth", "format"}, viewFlags)},
		{name: "reload", args: "--cdp ENDPOINT [flags]", run: navCommand, check: checkAttached,
			summary: "reload the attached tab and print its snapshot",
			detail:  "Reload the attached tab, wait for its load event and --wait, and print the snapshot.",
			example: "axfuse reload --cdp http://127.0.0.1:9222",
			flags:   flagsOf([]string{"cdp", "tab", "timeout", "frame-depth", "wait", "format"}, viewFlags)},
		{name: "tabs", args: "--cdp ENDPOINT [flags]", run: tabsCommand, check: checkAttached,
			summary: "list the attached browser's tabs: index, id, title, URL",
			detail:  "List the attached browser's page tabs, in the order --tab's index counts them: index, target id, whether a client is attached to it (in use), title and URL.",
			example: "axfuse tabs --cdp http://127.0.0.1:9222\naxfuse snapshot --cdp http://127.0.0.1:9222 --tab 1",
			flags:   []string{"cdp", "timeout", "format"}},
		{name: "close", args: "--cdp ENDPOINT --tab TAB", run: closeCommand, check: checkClose,
			summary: "close a tab of the attached browser",
			detail:  "Close the attached browser's tab that --tab names (an id, an index or a piece of its URL). The tab must be named: closing the one in use by default would surprise.",
			example: "axfuse close --cdp http://127.0.0.1:9222 --tab 2",
			flags:   []string{"cdp", "tab", "timeout"}},
	}
}

// checkAttached: the tab commands drive a browser that outlives them.
func checkAttached(cfg *config) error {
	if cfg.cdp == "" {
		return errors.New("needs --cdp ENDPOINT: a browser that outlives the command (a launched one would close with it)")
	}
	return nil
}

// checkClose: close needs --cdp, and the tab to close named.
func checkClose(cfg *config) error {
	if err := checkAttached(cfg); err != nil {
		return err
	}
	if cfg.tab == "" {
		return errors.New("name the tab to close with --tab (axfuse tabs lists them)")
	}
	return nil
}

// navCommand loads, goes back or forward in, or reloads the attached tab,
// then prints its snapshot with the tab's session refs.
func navCommand(ctx context.Context, cfg *config, stdout io.Writer) error {
	return withAttachedTab(ctx, cfg, func(b cliBrowser, tab cliTab) error {
		var err error
		switch cfg.cmd {
		case "open":
			page, nerr := normalizeURL(cfg.url)
			if nerr != nil {
				return nerr
			}
			err = tab.Navigate(page, cfg.wait)
		case "back":
			err = tab.Back()
		case "forward":
			err = tab.Forward()
		case "reload":
			err = tab.Reload(cfg.wait)
		}
		note := ""
		switch {
		case errors.Is(err, browser.ErrStillLoading):
			note = "warning: " + err.Error()
		case err != nil:
			return err
		}
		s, err := act.Open(tab, cfg.cdp, cfg.fuseOptions())
		if err != nil {
			return err
		}
		s.Capture = browser.CaptureOptions{Mode: cfg.capture}
		if note, err = dialogNote(s, cfg, note); err != nil {
			return err
		}
		obs, err := s.Snapshot()
		if err != nil {
			return err
		}
		if note != "" {
			obs.Snapshot = fuse.YAML([]*fuse.Node{{Role: "note", Text: note}}) + obs.Snapshot
		}
		return writeObservation(stdout, cfg, obs)
	})
}

// dialogNote answers a dialog the page opened (a process cannot leave it
// for the next one) and adds what was answered to note.
func dialogNote(s *act.Session, cfg *config, note string) (string, error) {
	answered, err := s.AnswerOpenDialog(cfg.dialog != "dismiss", cfg.dialogText())
	if err != nil || answered == "" {
		return note, err
	}
	if note == "" {
		return answered, nil
	}
	return answered + "; " + note, nil
}

// withAttachedTab attaches to the browser --cdp names and to the tab
// --tab (or the endpoint) names, with its events (dialogs, loads).
func withAttachedTab(ctx context.Context, cfg *config, f func(b cliBrowser, tab cliTab) error) error {
	return withBrowser(ctx, cfg, func(b cliBrowser) error {
		tab, err := b.AttachCurrentTab()
		if err != nil {
			return err
		}
		defer tab.Close()
		return f(b, tab)
	})
}

// tabsCommand lists the attached browser's page tabs.
func tabsCommand(ctx context.Context, cfg *config, stdout io.Writer) error {
	return withBrowser(ctx, cfg, func(b cliBrowser) error {
		pages, err := b.Pages()
		if err != nil {
			return err
		}
		if cfg.format == "json" {
			type tabJSON struct {
				Index int    `json:"index"`
				ID    string `json:"id"`
				Title string `json:"title"`
				URL   string `json:"url"`
				InUse bool   `json:"inUse"`
			}
			out := []tabJSON{}
			for i, p := range pages {
				title, _, _ := fuse.Visible(p.Title)
				url, _, _ := fuse.Visible(p.URL)
				out = append(out, tabJSON{i, p.ID, title, url, p.InUse})
			}
			return fuse.EncodeJSON(stdout, out, true)
		}
		if len(pages) == 0 {
			_, err := fmt.Fprintln(stdout, "# no page tab")
			return err
		}
		for i, p := range pages {
			use := ""
			if p.InUse {
				use = " [in use]"
			}
			// Titles and URLs are the page's: quoted, one line each.
			if _, err := fmt.Fprintf(stdout, "- tab %d%s: id %s, %s %s\n", i, use, p.ID, fuse.Quote(fuse.DisplayName(p.Title)), fuse.Quote(fuse.DisplayName(p.URL))); err != nil {
				return err
			}
		}
		return nil
	})
}

// closeCommand closes the tab --tab names.
func closeCommand(ctx context.Context, cfg *config, stdout io.Writer) error {
	return withBrowser(ctx, cfg, func(b cliBrowser) error {
		pages, err := b.Pages()
		if err != nil {
			return err
		}
		p, err := b.SelectPage(pages, cfg.tab)
		if err != nil {
			return err
		}
		if err := b.CloseTab(p.ID); err != nil {
			return fmt.Errorf("closing tab %s: %w", p.ID, err)
		}
		_, err = fmt.Fprintf(stdout, "- note: closed tab %s %s\n", p.ID, fuse.Quote(fuse.DisplayName(p.URL)))
		return err
	})
}
