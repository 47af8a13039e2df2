package main

import (
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/screenshot"
)

// This file holds the snapshot command: its declaration, its runner with
// the annotated screenshot it attaches, and the embedded demo page, which
// it (like every command that loads a page) observes given no URL and no
// --cdp.

// snapshotCommand prints the fused observation of a page.
func snapshotCommand() *command {
	return &command{name: "snapshot", args: "[flags] [URL]", run: snapshot,
		summary: "print the fused observation of a page (the demo page with no URL)",
		detail:  "Print the fused observation of URL: the accessibility tree fused with the DOM snapshot and event listeners, pruned, with refs on interactive elements. With no URL and no --cdp, of the embedded demo page; with --cdp and no URL, of the attached browser's tab (--tab), without navigating it; --from FILE fuses a recorded capture, no browser needed.",
		example: "axfuse snapshot https://example.com\naxfuse snapshot --cdp http://127.0.0.1:9222 --format json\naxfuse snapshot --from page.capture.json --mode ax",
		flags:   flagsOf(pageFlags, viewFlags, []string{"format", "from", "screenshot", "no-screenshot"})}
}

func snapshot(ctx context.Context, cfg *config, stdout io.Writer) error {
	if cfg.from != "" {
		c, err := domsnap.Load(cfg.from)
		if err != nil {
			return err
		}
		return writeObservation(stdout, cfg, fuse.Snapshot(c, cfg.fuseOptions()))
	}
	return withTab(ctx, cfg, func(tab cliTab) error {
		if d := tab.OpenDialog(); d != nil {
			// The page waits for the dialog: it is all there is to see.
			return writeObservation(stdout, cfg, act.DialogObservation(d))
		}
		co := cfg.captureOptions()
		var early *screenshot.Pending
		switch {
		case cfg.screenshot != "":
			early = screenshot.Start(tab, cfg.timeout)
		case !cfg.noScreenshot:
			// A canvas usually means a screenshot: take it while the
			// capture runs rather than after it.
			co.OnCanvas = func() { early = screenshot.Start(tab, cfg.timeout) }
		}
		c, opts, path, err := cfg.captureInSession(tab, co)
		if err != nil {
			early.Drop()
			return err
		}
		if path != "" {
			defer func() {
				if err := act.SaveTable(path, opts.Refs); err != nil {
					fmt.Fprintf(cfg.stderr, "axfuse: saving the ref session: %v\n", err)
				}
			}()
		}
		obs := fuse.Snapshot(c, opts)
		if cfg.screenshot != "" || len(obs.Regions) > 0 && !cfg.noScreenshot {
			if err := attachScreenshot(tab, cfg, obs, early); err != nil {
				return err
			}
		} else if early != nil {
			// Cancelling does not stop a frame Chrome has begun: the wait
			// says what the unneeded screenshot cost.
			start := time.Now()
			early.Drop()
			obs.Stats.Timings = append(obs.Stats.Timings, domsnap.TimingSince("Page.captureScreenshot (taken alongside the capture, not needed: dropped)", start))
		}
		return writeObservation(stdout, cfg, obs)
	})
}

// attachScreenshot takes the viewport (or the one taken alongside the
// capture), annotates it, and records it: where --screenshot says, else a
// new file in the temporary directory.
func attachScreenshot(tab cliTab, cfg *config, obs *fuse.Observation, early *screenshot.Pending) error {
	start := time.Now()
	step := "Page.captureScreenshot (taken alongside the capture: the wait for it)"
	if early == nil {
		step = "Page.captureScreenshot"
		early = screenshot.Start(tab, cfg.timeout)
	}
	shot, err := early.Wait()
	if err != nil {
		return err
	}
	obs.Stats.Timings = append(obs.Stats.Timings, domsnap.TimingSince(step, start))
	start = time.Now()
	defer func() {
		obs.Stats.Timings = append(obs.Stats.Timings, domsnap.TimingSince("annotate and write the screenshot", start))
	}()
	path := cfg.screenshot
	if path == "" {
		f, err := os.CreateTemp("", "axfuse-screenshot-*.png")
		if err != nil {
			return err
		}
		path = f.Name()
		f.Close()
	}
	reason := fuse.Reasons(obs.Regions)
	if cfg.screenshot != "" && reason == "" {
		reason = "requested with --screenshot"
	}
	return writeScreenshot(path, shot, obs, reason)
}

// writeScreenshot annotates the viewport PNG with every ref'd element and
// every region with no node, and records it in the observation.
func writeScreenshot(path string, shot []byte, obs *fuse.Observation, reason string) error {
	png, err := screenshot.Annotate(shot, screenshot.MarksOf(obs), obs.Viewport.DevicePixelRatio)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		return err
	}
	obs.AttachScreenshot(path, reason)
	return nil
}

//go:embed demo
var demoFiles embed.FS

// demoServer serves the embedded demo page on loopback.
type demoServer struct {
	URL string
	srv *http.Server
}

func serveDemo() (*demoServer, error) {
	sub, err := fs.Sub(demoFiles, "demo")
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("serving the demo page: %w", err)
	}
	srv := &http.Server{Handler: http.FileServerFS(sub), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	return &demoServer{URL: "http://" + ln.Addr().String() + "/", srv: srv}, nil
}

func (d *demoServer) Close() { d.srv.Close() }
