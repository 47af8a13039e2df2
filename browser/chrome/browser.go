// Package chrome is the Chrome driver: it launches headless Chromium or
// attaches to a running browser over CDP (chromedp), and drives its tabs:
// lifecycle, endpoints and contexts, out-of-process frame sessions,
// navigation, guarded input and the wait after it, dialogs, logs,
// screenshots and hit tests. A tab's captures are made by its capture
// engine (package capture), which reaches the tab only through
// capture.Page; the calls both make are in internal/cdpcall.
//
// With its engine it is the only package that talks to the browser;
// everything after the capture is pure Go on recorded data.
package chrome

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// Options configure how a browser is reached.
type Options struct {
	// Endpoint attaches to a running browser (http://host:port or ws://...)
	// or a browser farm's connect URL instead of launching one.
	Endpoint string
	// Headers go with every request to the endpoint (a farm that
	// authenticates by header). Their values are never printed.
	Headers http.Header
	// BrowserPath overrides the executable search.
	BrowserPath string
	// Width and Height set the viewport of a launched browser (CSS px).
	Width, Height int
	// Scale is the device pixel ratio of a launched browser (default 1).
	Scale float64
	// CallTimeout bounds every single CDP call (default 20s).
	CallTimeout time.Duration
	// FrameDepth is how deep out-of-process iframes are followed
	// (default DefaultFrameDepth); deeper ones are reported, not captured.
	FrameDepth int
	// Tab picks the tab of an attached browser: a target id, an index in
	// Pages' order, or a piece of its URL ("" : the page the endpoint
	// names, else the tab in use).
	Tab string
	// LoopbackOnly makes a launched browser resolve no host name but
	// loopback ones: a saved page's third-party hosts fail at once. On a
	// machine without a network Chromium's own resolver can take 10–15 s
	// to give up on them, and the load event waits that long (the corpus
	// tests' pages are served from loopback).
	LoopbackOnly bool
}

func (o Options) callTimeout() time.Duration {
	if o.CallTimeout > 0 {
		return o.CallTimeout
	}
	return 20 * time.Second
}

// Browser is a launched or attached browser.
type Browser struct {
	ctx      context.Context // browser-level chromedp context
	cancel   context.CancelFunc
	opts     Options
	attached bool
	// farm: attached through a farm's connect URL, which lends this
	// Browser a browser of its own for as long as it stays connected.
	farm bool
	// connect dials an attached browser's own websocket on first need (a
	// launched one is connected by Open); connectErr is why it failed.
	connect    sync.Once
	connectErr error
	// page is the tab a page websocket endpoint named.
	page string
	// path is a launched browser's executable.
	path string
	// gate stops requests a policy refuses, once GateRequests armed it.
	gate atomic.Pointer[requestGate]
}

// Open launches or attaches to a browser. Close releases it: a launched
// browser is stopped, an attached one is left running.
func Open(ctx context.Context, opts Options) (*Browser, error) {
	if opts.Width <= 0 {
		opts.Width = 1280
	}
	if opts.Height <= 0 {
		opts.Height = 720
	}
	if opts.Scale <= 0 {
		opts.Scale = 1
	}
	var allocCtx context.Context
	var cancelAlloc context.CancelFunc
	var ep endpoint
	if opts.Endpoint != "" {
		rctx, cancel := context.WithTimeout(ctx, opts.callTimeout())
		var err error
		ep, err = resolveEndpoint(rctx, opts.Endpoint, opts.Headers)
		cancel()
		if err != nil {
			return nil, scrub(err, secretsOf(opts.Endpoint, opts.Headers))
		}
		allocCtx, cancelAlloc = remote.NewAllocator(ctx, ep.browser, remote.NoModifyURL, remote.WithDialTimeout(opts.callTimeout()),
			remote.WithDialHTTPHeader(opts.Headers))
	} else {
		path, err := FindBrowser(opts.BrowserPath)
		if err != nil {
			return nil, err
		}
		// The profile is ours, not chromedp's, so that its singleton
		// link can be read once the browser has exited (removeProfile).
		profile, err := os.MkdirTemp("", "axfuse-profile-")
		if err != nil {
			return nil, fmt.Errorf("a profile directory for the browser: %w", err)
		}
		allocCtx, cancelAlloc = chromedp.NewExecAllocator(ctx, append(launchFlags(path, opts), chromedp.UserDataDir(profile))...)
		cancelAlloc = afterwards(cancelAlloc, func() { removeProfile(profile) })
		ep.path = path
	}
	// chromedp logs its own errors to stderr (a write to a browser that
	// died); they reach the caller as errors anyway, so they are dropped
	// unless AXFUSE_DEBUG is set.
	logf := func(string, ...any) {}
	if os.Getenv("AXFUSE_DEBUG") != "" {
		logf = log.Printf
	}
	bctx, cancelB := chromedp.NewContext(allocCtx, chromedp.WithErrorf(logf))
	b := &Browser{ctx: bctx, opts: opts, attached: opts.Endpoint != "", farm: ep.farm, page: ep.page, path: ep.path}
	b.cancel = func() { cancelB(); cancelAlloc() }
	if b.attached {
		// Dialled on first need: a lean tab of a one-page browser never
		// needs the browser's websocket (see CurrentTabLean).
		return b, nil
	}
	if err := b.connected(); err != nil {
		b.cancel()
		return nil, err
	}
	return b, nil
}

// connected starts (or dials) the browser without opening a tab, once.
// The browser's lifetime follows the context of the first chromedp call on
// it, so that call gets the browser context itself, bounded from outside.
func (b *Browser) connected() error {
	b.connect.Do(func() {
		err := bounded(b.opts.callTimeout(), func() error { _, err := chromedp.Targets(b.ctx); return err })
		if !b.attached {
			err = cdpcall.ClassifyLaunch(err)
		}
		var tooLong *cdpcall.SocketTooLongError
		var notStarted *cdpcall.NotStartedError
		switch {
		case err != nil && b.attached:
			b.connectErr = scrub(attachError(b.opts.Endpoint, err), secretsOf(b.opts.Endpoint, b.opts.Headers))
		case errors.As(err, &tooLong):
			// Chromium puts its singleton socket below TMPDIR, and a Unix
			// socket's path has at most 107 bytes. The directory it made
			// for the socket stays, empty: removed here.
			removeSingleton(tooLong.Dir)
			b.connectErr = fmt.Errorf("the browser %s did not start: the temporary folder %s is too long a path for its singleton socket; set TMPDIR to a shorter one", b.path, os.TempDir())
		case errors.As(err, &notStarted):
			out := notStarted.Output
			if out == "" {
				out = "it exited with no output"
			}
			b.connectErr = fmt.Errorf("the browser %s did not start: %s (is it Chromium? --browser names another)", b.path, cut(out, 300))
		case err != nil:
			b.connectErr = fmt.Errorf("starting the browser: %w", err)
		}
	})
	return b.connectErr
}

func checkEndpoint(ep string) error {
	u, err := url.Parse(ep)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "ws" && u.Scheme != "https" && u.Scheme != "wss") {
		return fmt.Errorf("--cdp %s: want http://host:port, ws://host:port/devtools/browser/..., or a browser farm's ws:// or wss:// address", RedactEndpoint(ep))
	}
	return nil
}

// Close releases the browser.
func (b *Browser) Close() { b.cancel() }

// Alive reports whether the browser's connection still stands: a browser
// that exited, crashed or dropped its connection is not alive, and every
// later call on it fails.
func (b *Browser) Alive() bool { return b.ctx.Err() == nil }

// Attached reports whether the browser was attached to, not launched.
func (b *Browser) Attached() bool { return b.attached }
