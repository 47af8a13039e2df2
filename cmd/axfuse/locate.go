package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/screenshot"
)

// This file holds the locate command: its declaration and its runner.

// locateCommand says what a click at a viewport point reaches.
func locateCommand() *command {
	return &command{name: "locate", args: "[flags] X Y [URL]", run: locate,
		summary: "what a click at viewport point (X,Y) reaches",
		detail:  "What a click at viewport point (X,Y), in CSS px, reaches: a ref, a node, or \"no node covers (X,Y)\" with a cropped annotated screenshot around it.",
		example: "axfuse locate 640 360 https://example.com",
		flags:   flagsOf(pageFlags, []string{"capture"})}
}

// locate says what a click at a viewport point reaches: a ref, a node, or
// nothing (then a cropped annotated screenshot around the point).
func locate(ctx context.Context, cfg *config, stdout io.Writer) error {
	return withTab(ctx, cfg, func(tab cliTab) error {
		c, opts, _, err := cfg.captureInSession(tab, cfg.captureOptions())
		if err != nil {
			return err
		}
		if vw, vh := float64(c.Viewport.Width), float64(c.Viewport.Height); cfg.x >= vw || cfg.y >= vh {
			return fmt.Errorf("(%g,%g) lies outside the %g×%g viewport", cfg.x, cfg.y, vw, vh)
		}
		tree := fuse.Build(c, layout.Compute(c), opts)
		spot := tree.At(cfg.x, cfg.y)
		if spot.Covered {
			if spot.Ref != "" {
				_, err = fmt.Fprintf(stdout, "- ref %s: %s\n", spot.Ref, spot.Line)
			} else {
				_, err = fmt.Fprintf(stdout, "- node: %s (no ref)\n", spot.Line)
			}
			return err
		}
		path, err := cropAround(tab, cfg, c, tree)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "- note: no node covers (%g,%g)\n- screenshot: %s\n", cfg.x, cfg.y, path)
		return err
	})
}

// cropAround writes an annotated screenshot of 400×300 CSS px around the
// located point.
func cropAround(tab cliTab, cfg *config, c *domsnap.Capture, tree *fuse.Tree) (string, error) {
	sctx, cancel := context.WithTimeout(tab.Context(), cfg.timeout)
	defer cancel()
	shot, err := screenshot.Capture(sctx, tab)
	if err != nil {
		return "", err
	}
	dpr := c.Viewport.DevicePixelRatio
	annotated, err := screenshot.Annotate(shot, screenshot.MarksOf(&fuse.Observation{Elements: tree.Elements}), dpr)
	if err != nil {
		return "", err
	}
	crop, err := screenshot.Crop(annotated, [4]float64{cfg.x - 200, cfg.y - 150, 400, 300}, dpr)
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp("", "axfuse-locate-*.png")
	if err != nil {
		return "", err
	}
	defer f.Close()
	_, err = f.Write(crop)
	return f.Name(), err
}
