package main

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/screenshot"
)

//go:embed demo
var demoFiles embed.FS

func snapshot(ctx context.Context, cfg *config, stdout io.Writer) error {
	if cfg.from != "" {
		c, err := domsnap.Load(cfg.from)
		if err != nil {
			return err
		}
		return writeObservation(stdout, cfg, fuse.Snapshot(c, cfg.fuseOptions()))
	}
	return withTab(ctx, cfg, func(tab *chrome.Tab) error {
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
func attachScreenshot(tab *chrome.Tab, cfg *config, obs *fuse.Observation, early *screenshot.Pending) error {
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

// locate says what a click at a viewport point reaches: a ref, a node, or
// nothing (then a cropped annotated screenshot around the point).
func locate(ctx context.Context, cfg *config, stdout io.Writer) error {
	return withTab(ctx, cfg, func(tab *chrome.Tab) error {
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
func cropAround(tab *chrome.Tab, cfg *config, c *domsnap.Capture, tree *fuse.Tree) (string, error) {
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
	return withTab(ctx, cfg, func(tab *chrome.Tab) error {
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

func writeMatches(stdout io.Writer, cfg *config, matches []fuse.Match) error {
	if cfg.format == "json" {
		if matches == nil {
			matches = []fuse.Match{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(matches)
	}
	if len(matches) == 0 {
		_, err := fmt.Fprintln(stdout, "# no match")
		return err
	}
	_, err := io.WriteString(stdout, fuse.MatchesYAML(matches))
	return err
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
		return withTab(ctx, cfg, func(tab *chrome.Tab) error {
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
	err := withTab(ctx, cfg, func(tab *chrome.Tab) error {
		var err error
		c, err = tab.CaptureWith(co)
		return err
	})
	return c, err
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
