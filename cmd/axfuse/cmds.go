package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/fuse"
)

// commands are the CLI's verbs; `axfuse CMD --help` prints each.
var commands = map[string]*command{}

func init() {
	for _, c := range slices.Concat(pageCommands(), tabCommands(), viewCommands(), runCommands()) {
		commands[c.name] = c
	}
}

// pageCommands are the commands that observe and act on one page.
func pageCommands() []*command {
	return []*command{
		{name: "snapshot", args: "[flags] [URL]", run: snapshot,
			summary: "print the fused observation of a page (the demo page with no URL)",
			detail:  "Print the fused observation of URL: the accessibility tree fused with the DOM snapshot and event listeners, pruned, with refs on interactive elements. With no URL and no --cdp, of the embedded demo page; with --cdp and no URL, of the attached browser's tab (--tab), without navigating it; --from FILE fuses a recorded capture, no browser needed.",
			example: "axfuse snapshot https://example.com\naxfuse snapshot --cdp http://127.0.0.1:9222 --format json\naxfuse snapshot --from page.capture.json --mode ax",
			flags:   flagsOf(pageFlags, viewFlags, []string{"format", "from", "screenshot", "no-screenshot"})},
		{name: "act", args: "--cdp ENDPOINT [flags] VERB ARGS...", run: runAct,
			summary: "act on a ref of the attached tab, then print its new snapshot",
			detail:  "Act on refs of the attached browser's tab (refs from an earlier snapshot --cdp, open, back, ...), then print the new snapshot. A stale, changed, covered, disabled or wrong kind of target fails, and input that would land on another element is stopped: nothing is done. After the verb only a flag's exact name is a flag; the rest is taken verbatim (\"-2\" too); after -- nothing is a flag.\nVerbs: click REF | dblclick REF | hover REF | check REF | uncheck REF | type REF TEXT [--clear] [--submit] | press REF KEY (Playwright's names: Enter, Shift+Tab, Control+A, ArrowDown, a character) | select REF OPTION | fill REF=TEXT... | scroll [REF] [down|up|PX] | scrollto REF | drag REF REF | upload REF FILE... (a file input, or what opens a file chooser).",
			example: "axfuse act --cdp http://127.0.0.1:9222 click e12\naxfuse act --cdp http://127.0.0.1:9222 type e4 \"-2\" --submit",
			flags:   []string{"cdp", "tab", "timeout", "frame-depth", "format", "mode", "offscreen", "margin", "scope", "depth", "max-tokens", "capture", "audit", "clear", "submit", "dialog", "settle"}},
	}
}

// tabCommands are the commands that steer the attached browser's tabs.
func tabCommands() []*command {
	return []*command{
		{name: "open", args: "--cdp ENDPOINT [flags] URL", run: navCommand,
			summary: "load URL in the attached tab and print its snapshot (refs for act)",
			detail:  "Load URL in the attached browser's tab (--tab, else the tab in use) and print its snapshot. Its refs are the tab's session: act uses them.",
			example: "axfuse open --cdp http://127.0.0.1:9222 https://example.com",
			flags:   flagsOf([]string{"cdp", "tab", "timeout", "frame-depth", "wait", "format", "dialog"}, viewFlags)},
		{name: "back", args: "--cdp ENDPOINT [flags]", run: navCommand,
			summary: "go back in the attached tab's history and print its snapshot",
			detail:  "Go back one page in the attached tab's history and print the snapshot.",
			example: "axfuse back --cdp http://127.0.0.1:9222",
			flags:   flagsOf([]string{"cdp", "tab", "timeout", "frame-depth", "format"}, viewFlags)},
		{name: "forward", args: "--cdp ENDPOINT [flags]", run: navCommand,
			summary: "go forward in the attached tab's history and print its snapshot",
			detail:  "Go forward one page in the attached tab's history and print the snapshot.",
			example: "axfuse forward --cdp http://127.0.0.1:9222",
			flags:   flagsOf([]string{"cdp", "tab", "timeout", "frame-depth", "format"}, viewFlags)},
		{name: "reload", args: "--cdp ENDPOINT [flags]", run: navCommand,
			summary: "reload the attached tab and print its snapshot",
			detail:  "Reload the attached tab, wait for its load event and --wait, and print the snapshot.",
			example: "axfuse reload --cdp http://127.0.0.1:9222",
			flags:   flagsOf([]string{"cdp", "tab", "timeout", "frame-depth", "wait", "format"}, viewFlags)},
		{name: "tabs", args: "--cdp ENDPOINT [flags]", run: tabsCommand,
			summary: "list the attached browser's tabs: index, id, title, URL",
			detail:  "List the attached browser's page tabs, in the order --tab's index counts them: index, target id, whether a client is attached to it (in use), title and URL.",
			example: "axfuse tabs --cdp http://127.0.0.1:9222\naxfuse snapshot --cdp http://127.0.0.1:9222 --tab 1",
			flags:   []string{"cdp", "timeout", "format"}},
		{name: "close", args: "--cdp ENDPOINT --tab TAB", run: closeCommand,
			summary: "close a tab of the attached browser",
			detail:  "Close the attached browser's tab that --tab names (an id, an index or a piece of its URL). The tab must be named: closing the one in use by default would surprise.",
			example: "axfuse close --cdp http://127.0.0.1:9222 --tab 2",
			flags:   []string{"cdp", "tab", "timeout"}},
	}
}

// viewCommands are the commands that search, compare and record observations.
func viewCommands() []*command {
	return []*command{
		{name: "find", args: "[flags] [URL] --role R --name TEXT --text QUERY", run: find,
			summary: "search the whole fused tree, off-screen and covered parts too",
			detail:  "Search the whole fused tree, off-screen and covered nodes included: each match with its path, box, where it stands and its ref (acting on an off-screen one scrolls it into view).",
			example: "axfuse find https://example.com --role button --name Pay\naxfuse find --from page.capture.json --text \"free shipping\"",
			flags:   flagsOf(pageFlags, []string{"format", "from", "mode", "role", "name", "text"})},
		{name: "locate", args: "[flags] X Y [URL]", run: locate,
			summary: "what a click at viewport point (X,Y) reaches",
			detail:  "What a click at viewport point (X,Y), in CSS px, reaches: a ref, a node, or \"no node covers (X,Y)\" with a cropped annotated screenshot around it.",
			example: "axfuse locate 640 360 https://example.com",
			flags:   flagsOf(pageFlags, []string{"capture"})},
		{name: "compare", args: "[flags] [URL]", run: compare,
			summary: "the AX-only view beside the fused view, measured against the browser's ground truth",
			detail: "The AX-only view beside the fused view of one capture (the demo page with no URL), a table of what differs, the targets one view has that the other lacks, " +
				"and both measured against the browser's ground truth: the elements in the viewport with a click listener or native activation, visible, whose centre the browser's hit test reaches " +
				"(recall of those targets, listener-only ones apart; refs a click cannot reach; tokens). With --batch, every page of a list; with --html, a report to look at.",
			example: "axfuse compare https://example.com\naxfuse compare --from page.capture.json --format json\naxfuse compare --batch urls.txt --parallel 2 --html report.html > pages.jsonl",
			flags:   flagsOf(pageFlags, []string{"format", "from", "offscreen", "margin", "batch", "parallel", "html", "peer"})},
		{name: "capture", args: "[flags] URL -o FILE", run: func(ctx context.Context, cfg *config, _ io.Writer) error { return capture(ctx, cfg) },
			summary: "record one capture (plain JSON) for replay with --from",
			detail:  "Record one capture of URL (or, with --cdp and no URL, of the attached tab), plain JSON, for replay with snapshot --from: the whole page unless --capture says otherwise.",
			example: "axfuse capture https://example.com -o example.capture.json",
			flags:   flagsOf(pageFlags, []string{"capture", "o", "hits"})},
	}
}

// runCommands are the commands that run at length: timings, batches, the MCP server.
func runCommands() []*command {
	return []*command{
		{name: "bench", args: "[flags] [URL...]", run: bench,
			summary: "time each stage of the observation of pages",
			detail:  "Capture and fuse each page --runs times (the demo page with no URL) and print each stage's median: CDP calls, layout, fuse, serialize, the whole observation. A page that cannot be measured is reported and makes the exit status 1.",
			example: "axfuse bench --runs 10 https://example.com",
			flags:   flagsOf(pageFlags, viewFlags, []string{"format", "runs"})},
		{name: "batch", args: "[flags] FILE", run: batch,
			summary: "snapshot every URL or path in FILE, several tabs at once",
			detail:  "Snapshot every URL or path in FILE (one a line) with --parallel tabs at once: one JSON object a page on stdout (errors too), a progress bar and a summary on stderr.",
			example: "axfuse batch --parallel 2 urls.txt > out.jsonl",
			flags:   flagsOf(pageFlags, viewFlags, []string{"parallel"})},
		{name: "mcp", args: "[flags]", run: func(ctx context.Context, cfg *config, _ io.Writer) error { return serveMCP(ctx, cfg) },
			summary: "serve the browser_* tools to an agent over MCP (stdio or HTTP)",
			detail:  "Serve the browser_* tools to an agent over MCP on stdin/stdout, or with --port over Streamable HTTP, each client session in a browser context of its own (cookies, storage, tabs and refs apart). A browser is launched on first use unless --cdp (a launched browser that dies is started again on the next call, which says so); snapshots are cut to --max-tokens (default 8000, 0: none). Page content is untrusted, and so is the agent it drives: file: URLs are refused unless --allow-file-urls, pages load only from --allowed-origins and never from --blocked-origins, files are read from --upload-root and written under --output-dir only.",
			example: "axfuse mcp\naxfuse mcp --cdp http://127.0.0.1:9222 --max-tokens 4000\naxfuse mcp --port 8931 --caps vision",
			flags: []string{"cdp", "tab", "browser", "viewport", "timeout", "frame-depth", "capture", "max-tokens", "upload-root",
				"allowed-origins", "blocked-origins", "allow-file-urls", "output-dir", "caps", "port", "host", "max-sessions"}},
	}
}

// navCommand loads, goes back or forward in, or reloads the attached tab,
// then prints its snapshot with the tab's session refs.
func navCommand(ctx context.Context, cfg *config, stdout io.Writer) error {
	return withAttachedTab(ctx, cfg, func(b *chrome.Browser, tab *chrome.Tab) error {
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
func withAttachedTab(ctx context.Context, cfg *config, f func(b *chrome.Browser, tab *chrome.Tab) error) error {
	return withBrowser(ctx, cfg, func(b *chrome.Browser) error {
		tab, err := b.CurrentTab()
		if err != nil {
			return err
		}
		defer tab.Close()
		return f(b, tab)
	})
}

// tabsCommand lists the attached browser's page tabs.
func tabsCommand(ctx context.Context, cfg *config, stdout io.Writer) error {
	return withBrowser(ctx, cfg, func(b *chrome.Browser) error {
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
				out = append(out, tabJSON{i, p.ID, p.Title, p.URL, p.InUse})
			}
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(out)
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
	return withBrowser(ctx, cfg, func(b *chrome.Browser) error {
		pages, err := b.Pages()
		if err != nil {
			return err
		}
		p, err := chrome.SelectPage(pages, cfg.tab)
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
