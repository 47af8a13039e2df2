package main

import (
	"context"
	"embed"
	"encoding/json"
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
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/domsnap/chrome"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/screenshot"
)

//go:embed demo
var demoFiles embed.FS

func snapshot(ctx context.Context, cfg *config, stdout io.Writer) error {
	var c *domsnap.Capture
	var shot []byte
	var target string
	var err error
	if cfg.from != "" {
		c, err = domsnap.Load(cfg.from)
	} else {
		c, shot, target, err = captureTab(ctx, cfg)
	}
	if err != nil {
		return err
	}
	opts := cfg.fuseOptions()
	if cfg.cdp != "" && target != "" {
		// Attached: refs persist for `act` in another process.
		path, err := act.SessionPath(cfg.cdp, target)
		if err != nil {
			return err
		}
		opts.Refs = act.LoadTable(path)
		opts.Refs.Document(act.DocumentID(c))
		defer func() {
			if err := act.SaveTable(path, opts.Refs); err != nil {
				fmt.Fprintf(os.Stderr, "axfuse: saving the ref session: %v\n", err)
			}
		}()
	}
	obs := fuse.Snapshot(c, opts)
	if shot != nil {
		if err := writeScreenshot(cfg.screenshot, shot, obs); err != nil {
			return err
		}
	}
	if cfg.format == "json" {
		return obs.WriteJSON(stdout)
	}
	_, err = io.WriteString(stdout, obs.Snapshot)
	return err
}

func (cfg *config) fuseOptions() fuse.Options {
	return fuse.Options{Mode: cfg.mode, Offscreen: cfg.offscreen, Margin: cfg.margin, Scope: cfg.scope, Depth: cfg.depth}
}

// find searches the whole fused tree of a page or a recorded capture.
func find(ctx context.Context, cfg *config, stdout io.Writer) error {
	var c *domsnap.Capture
	var err error
	if cfg.from != "" {
		c, err = domsnap.Load(cfg.from)
	} else {
		c, _, err = captureLive(ctx, cfg)
	}
	if err != nil {
		return err
	}
	t := fuse.Build(c, layout.Compute(c), cfg.fuseOptions())
	matches := t.Find(fuse.Query{Role: cfg.role, Name: cfg.name, Text: cfg.text})
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
	_, err = io.WriteString(stdout, fuse.MatchesYAML(matches))
	return err
}

func capture(ctx context.Context, cfg *config) error {
	c, _, err := captureLive(ctx, cfg)
	if err != nil {
		return err
	}
	return c.Save(cfg.out)
}

// captureLive reaches a browser, loads the page (or takes the attached
// browser's current tab) and captures it, with a viewport PNG when
// --screenshot asks for one.
func captureLive(ctx context.Context, cfg *config) (*domsnap.Capture, []byte, error) {
	c, shot, _, err := captureTab(ctx, cfg)
	return c, shot, err
}

// captureTab is captureLive that also names the tab it captured.
func captureTab(ctx context.Context, cfg *config) (c *domsnap.Capture, shot []byte, target string, err error) {
	page := cfg.url
	if page == "" && cfg.cdp == "" {
		srv, err := serveDemo()
		if err != nil {
			return nil, nil, "", err
		}
		defer srv.Close()
		page = srv.URL
	}
	if page != "" {
		var err error
		if page, err = normalizeURL(page); err != nil {
			return nil, nil, "", err
		}
	}
	b, err := chrome.Open(ctx, chrome.Options{
		Endpoint: cfg.cdp, BrowserPath: cfg.browser,
		Width: cfg.width, Height: cfg.height, CallTimeout: cfg.timeout,
	})
	if err != nil {
		return nil, nil, "", err
	}
	defer b.Close()
	var tab *chrome.Tab
	if page == "" {
		tab, err = b.CurrentTab()
	} else {
		tab, err = b.NewTab()
	}
	if err != nil {
		return nil, nil, "", err
	}
	defer tab.Close()
	if page != "" {
		if err := tab.Navigate(page, cfg.wait); err != nil {
			return nil, nil, "", err
		}
	}
	target = tab.TargetID()
	if c, err = tab.Capture(); err != nil || cfg.screenshot == "" {
		return c, nil, target, err
	}
	sctx, cancel := context.WithTimeout(tab.Context(), cfg.timeout)
	defer cancel()
	shot, err = screenshot.Capture(sctx)
	return c, shot, target, err
}

// writeScreenshot annotates the viewport PNG with every ref'd element and
// records it in the observation.
func writeScreenshot(path string, shot []byte, obs *fuse.Observation) error {
	var marks []screenshot.Mark
	for _, el := range obs.Elements {
		if el.Box != nil {
			marks = append(marks, screenshot.Mark{Ref: el.Ref, Kind: markKind(el), Box: *el.Box})
		}
	}
	png, err := screenshot.Annotate(shot, marks, obs.Viewport.DevicePixelRatio)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		return err
	}
	obs.Screenshot = &fuse.Screenshot{Path: path, Reason: "requested with --screenshot", Regions: []any{}}
	return nil
}

func markKind(el fuse.Element) string {
	switch {
	case el.Tag == "canvas":
		return screenshot.KindCanvas
	case el.Role == "textbox" || el.Role == "searchbox" || el.Role == "spinbutton":
		return screenshot.KindTextField
	case el.Role == "link":
		return screenshot.KindLink
	case index.OnlyFromDOM(el.Reasons):
		return screenshot.KindListener
	}
	return screenshot.KindControl
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
