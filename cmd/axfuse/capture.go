package main

import (
	"context"
	"errors"
	"io"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
)

// This file holds the capture command: its declaration, its check and its
// runner.

// captureCommand records a capture for replay with --from.
func captureCommand() *command {
	return &command{name: "capture", args: "[flags] URL -o FILE", run: func(ctx context.Context, cfg *config, _ io.Writer) error { return capture(ctx, cfg) }, check: checkCapture,
		summary: "record one capture (plain JSON) for replay with --from",
		detail:  "Record one capture of URL (or, with --cdp and no URL, of the attached tab), plain JSON, for replay with snapshot --from: the whole page unless --capture says otherwise.",
		example: "axfuse capture https://example.com -o example.capture.json",
		flags:   flagsOf(pageFlags, []string{"capture", "o", "hits"})}
}

// checkCapture: capture needs a page and a file to write.
func checkCapture(cfg *config) error {
	if cfg.url == "" && cfg.cdp == "" || cfg.out == "" {
		return errors.New("needs a URL (or --cdp) and -o FILE")
	}
	return nil
}

func capture(ctx context.Context, cfg *config) error {
	co := browser.CaptureOptions{Mode: domsnap.CaptureFull}
	if cfg.captureSet {
		co = cfg.captureOptions()
	}
	if cfg.hits {
		if co.Mode != domsnap.CaptureFull {
			return usageError{errors.New("--hits records a full capture; leave out --capture or give --capture full")}
		}
		return withTab(ctx, cfg, func(tab cliTab) error {
			c, _, err := captureWithHits(tab, cfg, false)
			if err != nil {
				return err
			}
			return c.Save(cfg.out)
		})
	}
	c, err := captureLive(ctx, cfg, co)
	if err != nil {
		return err
	}
	return c.Save(cfg.out)
}

// captureLive reaches a browser, loads the page (or takes the attached
// browser's current tab) and captures it.
func captureLive(ctx context.Context, cfg *config, co browser.CaptureOptions) (*domsnap.Capture, error) {
	var c *domsnap.Capture
	err := withTab(ctx, cfg, func(tab cliTab) error {
		var err error
		c, err = tab.CaptureWith(co)
		return err
	})
	return c, err
}
