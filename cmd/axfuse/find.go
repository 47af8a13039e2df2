package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/layout"
)

// This file holds the find command: its declaration, its check and its
// runner.

// findCommand searches the whole fused tree.
func findCommand() *command {
	return &command{name: "find", args: "[flags] [URL] --role R --name TEXT --text QUERY", run: find, check: checkFind,
		summary: "search the whole fused tree, off-screen and covered parts too",
		detail:  "Search the whole fused tree, off-screen and covered nodes included: each match with its path, box, where it stands and its ref (acting on an off-screen one scrolls it into view).",
		example: "axfuse find https://example.com --role button --name Pay\naxfuse find --from page.capture.json --text \"free shipping\"",
		flags:   flagsOf(pageFlags, []string{"format", "from", "mode", "role", "name", "text"})}
}

// checkFind: find needs something to match.
func checkFind(cfg *config) error {
	if cfg.role == "" && cfg.name == "" && cfg.text == "" {
		return errors.New("needs --role, --name or --text")
	}
	return nil
}

// find searches the whole fused tree of a page or a recorded capture.
func find(ctx context.Context, cfg *config, stdout io.Writer) error {
	q := fuse.Query{Role: cfg.role, Name: cfg.name, Text: cfg.text}
	if cfg.from != "" {
		c, err := domsnap.Load(cfg.from)
		if err != nil {
			return err
		}
		return writeMatches(stdout, cfg, fuse.Build(c, layout.Compute(c), cfg.fuseOptions()).Find(q))
	}
	return withTab(ctx, cfg, func(tab cliTab) error {
		// Attached, the refs of the matches (off-screen ones too) join the
		// tab's session, so that act can use them.
		c, opts, path, err := cfg.captureInSession(tab, browser.CaptureOptions{Mode: domsnap.CaptureFull})
		if err != nil {
			return err
		}
		matches := fuse.Build(c, layout.Compute(c), opts).Find(q)
		if path != "" {
			if err := act.SaveTable(path, opts.Refs); err != nil {
				return fmt.Errorf("saving the ref session: %w", err)
			}
		}
		return writeMatches(stdout, cfg, matches)
	})
}

func writeMatches(stdout io.Writer, cfg *config, matches []fuse.Match) error {
	if cfg.format == "json" {
		if matches == nil {
			matches = []fuse.Match{}
		}
		return fuse.EncodeJSON(stdout, matches, true)
	}
	if len(matches) == 0 {
		_, err := fmt.Fprintln(stdout, "# no match")
		return err
	}
	_, err := io.WriteString(stdout, fuse.MatchesYAML(matches))
	return err
}
