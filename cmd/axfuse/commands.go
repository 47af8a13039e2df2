package main

import (
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/domsnap/chrome"
	"github.com/axfuse/axfuse/fuse"
)

//go:embed demo
var demoFiles embed.FS

func snapshot(ctx context.Context, cfg *config, stdout io.Writer) error {
	var c *domsnap.Capture
	var err error
	if cfg.from != "" {
		c, err = domsnap.Load(cfg.from)
	} else {
		c, err = captureLive(ctx, cfg)
	}
	if err != nil {
		return err
	}
	obs := fuse.Snapshot(c, fuse.Options{Mode: cfg.mode})
	if cfg.format == "json" {
		return obs.WriteJSON(stdout)
	}
	_, err = io.WriteString(stdout, obs.Snapshot)
	return err
}

func capture(ctx context.Context, cfg *config) error {
	c, err := captureLive(ctx, cfg)
	if err != nil {
		return err
	}
	return c.Save(cfg.out)
}

// captureLive reaches a browser, loads the page (or takes the attached
// browser's current tab) and captures it.
func captureLive(ctx context.Context, cfg *config) (*domsnap.Capture, error) {
	target := cfg.url
	if target == "" && cfg.cdp == "" {
		srv, err := serveDemo()
		if err != nil {
			return nil, err
		}
		defer srv.Close()
		target = srv.URL
	}
	if target != "" {
		var err error
		if target, err = normalizeURL(target); err != nil {
			return nil, err
		}
	}
	b, err := chrome.Open(ctx, chrome.Options{
		Endpoint: cfg.cdp, BrowserPath: cfg.browser,
		Width: cfg.width, Height: cfg.height, CallTimeout: cfg.timeout,
	})
	if err != nil {
		return nil, err
	}
	defer b.Close()
	var tab *chrome.Tab
	if target == "" {
		tab, err = b.CurrentTab()
	} else {
		tab, err = b.NewTab()
	}
	if err != nil {
		return nil, err
	}
	defer tab.Close()
	if target != "" {
		if err := tab.Navigate(target, cfg.wait); err != nil {
			return nil, err
		}
	}
	return tab.Capture()
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
