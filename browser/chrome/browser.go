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
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/capture"
	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// ErrNoBrowser is returned when no Chromium executable can be found.
var ErrNoBrowser = errors.New("no Chromium found: install Debian's chromium package (apt-get install chromium), pass --browser PATH, or attach to a running browser with --cdp URL")

// candidates are the executable names tried, in order.
var candidates = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"}

// FindBrowser returns the browser executable: override when given (it must
// exist), else the first candidate on PATH.
func FindBrowser(override string) (string, error) {
	if override != "" {
		p, err := exec.LookPath(override)
		if err != nil {
			return "", fmt.Errorf("browser %q: %w", override, err)
		}
		return p, nil
	}
	for _, name := range candidates {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoBrowser
}

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
		switch {
		case err != nil && b.attached:
			b.connectErr = scrub(attachError(b.opts.Endpoint, err), secretsOf(b.opts.Endpoint, b.opts.Headers))
		case err != nil && strings.Contains(err.Error(), "Socket path too long"):
			// Chromium puts its singleton socket below TMPDIR, and a Unix
			// socket's path has at most 107 bytes. The directory it made
			// for the socket stays, empty: removed here.
			removeSingletonNamedIn(err.Error())
			b.connectErr = fmt.Errorf("the browser %s did not start: the temporary folder %s is too long a path for its singleton socket; set TMPDIR to a shorter one", b.path, os.TempDir())
		case err != nil && strings.Contains(err.Error(), "chrome failed to start"):
			// chromedp's words, then the browser's output, often none.
			out := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(err.Error()), "chrome failed to start:"))
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

func launchFlags(path string, opts Options) []chromedp.ExecAllocatorOption {
	flags := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("hide-scrollbars", true),
		// chromedp turns Chromium's IPC flooding protection off (after
		// Puppeteer); with it off a page that calls history.pushState
		// 5,000 times while loading holds the browser for 26–40 s (2 s
		// with it on, as Chrome ships): a page must not be able to wedge
		// the tab.
		chromedp.Flag("disable-ipc-flooding-protection", false),
		// A page restored from the back/forward cache comes back as it
		// was left, timers stopped: the guard of the click that left it
		// was still armed and stopped the next action's events (guard.js
		// now disarms on pagehide). After `back` the agent observes a page
		// loaded afresh.
		chromedp.Flag("disable-back-forward-cache", true),
		chromedp.WindowSize(opts.Width, opts.Height),
	)
	if os.Geteuid() == 0 {
		flags = append(flags, chromedp.NoSandbox)
	}
	if opts.LoopbackOnly {
		flags = append(flags, chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]"))
	}
	return flags
}

// afterwards returns cancel followed by then.
func afterwards(cancel context.CancelFunc, then func()) context.CancelFunc {
	return func() { cancel(); then() }
}

// removeProfile removes a launched browser's profile once the browser has
// exited (chromedp's cancel waits for that), and the directory its
// SingletonSocket link points to: Chromium makes that one in the
// temporary directory (org.chromium.Chromium.*) and, stopped as chromedp
// stops it or crashed, leaves it there, one a run. Only the two entries
// Chromium puts there are removed, and then the directory if empty. A
// child process may still be writing to the profile for a moment, so its
// removal is tried again for up to a second.
func removeProfile(profile string) {
	if sock, err := os.Readlink(filepath.Join(profile, "SingletonSocket")); err == nil && filepath.Base(sock) == "SingletonSocket" {
		singleton := filepath.Dir(sock)
		os.Remove(sock)
		os.Remove(filepath.Join(singleton, "SingletonCookie"))
		os.Remove(singleton)
	}
	for deadline := time.Now().Add(time.Second); ; time.Sleep(20 * time.Millisecond) {
		if err := os.RemoveAll(profile); err == nil || time.Now().After(deadline) {
			return
		}
	}
}

// tooLongSocket finds the socket path in Chromium's FATAL line.
var tooLongSocket = regexp.MustCompile(`Socket path too long: (\S+)/SingletonSocket`)

// removeSingletonNamedIn removes the empty singleton directory a browser
// that could not start names in its output, if it lies in our temporary
// folder (os.Remove takes empty directories only).
func removeSingletonNamedIn(out string) {
	if m := tooLongSocket.FindStringSubmatch(out); m != nil && filepath.Dir(m[1]) == filepath.Clean(os.TempDir()) {
		os.Remove(m[1])
	}
}

// Close releases the browser.
func (b *Browser) Close() { b.cancel() }

// Alive reports whether the browser's connection still stands: a browser
// that exited, crashed or dropped its connection is not alive, and every
// later call on it fails.
func (b *Browser) Alive() bool { return b.ctx.Err() == nil }

// Attached reports whether the browser was attached to, not launched.
func (b *Browser) Attached() bool { return b.attached }

// Tab is one page target.
type Tab struct {
	ctx     context.Context
	cancel  context.CancelFunc
	browser *Browser
	// dialog is the JavaScript dialog open on the page, if any.
	dialog dialogState
	// settle follows what an action caused, for the wait after it.
	settle *settleTracker
	// shot is the last screenshot, given again while nothing repainted.
	shot lastShot
	// eng is the tab's capture engine, with its caches (package capture).
	eng *capture.Engine
	// chooser is the file chooser an action opened, once interception is on.
	chooser atomic.Pointer[browser.FileChooser]
	// frames holds the sessions on out-of-process iframes and says which
	// session holds each frame (frames.go).
	frames frameRouter
	// gone ends every call in flight when the renderer crashes or the tab
	// is closed under us; why says which.
	gone    context.Context
	setGone context.CancelCauseFunc
	// target is the tab's target id when its session is a lean one.
	target string
	// guardWorlds: the isolated worlds input guards run in (guard.go).
	guardWorlds guardWorlds
	// act: script errors and opened tabs, for actions' answers.
	act activity
	// log: console messages and requests, for the agent to read.
	log pageLog
}

func newTab(ctx context.Context, cancel context.CancelFunc, b *Browser) *Tab {
	t := &Tab{ctx: ctx, cancel: cancel, browser: b}
	t.gone, t.setGone = context.WithCancelCause(context.Background())
	t.frames.t = t
	t.eng = capture.New(enginePage{t}, b.engineOptions())
	return t
}

// engineOptions are the settings a tab's capture engine follows.
func (b *Browser) engineOptions() capture.Options {
	return capture.Options{FrameDepth: b.frameDepth(), CallTimeout: b.opts.callTimeout(), Scale: b.emulatedScale()}
}

// NewTab opens a fresh tab (a launched browser's first tab is reused).
func (b *Browser) NewTab() (*Tab, error) {
	if err := b.connected(); err != nil {
		return nil, err
	}
	ctx, cancel := chromedp.NewContext(b.ctx)
	t := newTab(ctx, cancel, b)
	if err := t.init(!b.attached); err != nil {
		cancel()
		return nil, err
	}
	return t, nil
}

// CurrentTab attaches to the browser's current page tab without navigating
// it; closing the Tab detaches and leaves the page open.
func (b *Browser) CurrentTab() (*Tab, error) {
	id, err := b.currentPage()
	if err != nil {
		return nil, err
	}
	ctx, cancelTab := chromedp.NewContext(b.ctx, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
	t := newTab(ctx, cancelTab, b)
	if err := t.init(false); err != nil {
		cancelTab()
		return nil, err
	}
	return t, nil
}

// currentPage is the target id of the tab CurrentTab attaches to: the
// one Options.Tab or the endpoint names, else the page in use.
func (b *Browser) currentPage() (target.ID, error) {
	pages, err := b.Pages()
	if err != nil {
		return "", err
	}
	want := b.opts.Tab
	if want == "" {
		want = b.page
	}
	p, err := selectPage(pages, want)
	if err != nil {
		if len(pages) == 0 {
			return "", errors.New("the browser has no page tab to snapshot: give a URL")
		}
		return "", err
	}
	return target.ID(p.ID), nil
}

// Pages lists the browser's page tabs (DevTools and extension pages
// aside), in the browser's order: the order Options.Tab indexes.
func (b *Browser) Pages() ([]Page, error) {
	if err := b.connected(); err != nil {
		return nil, err
	}
	var infos []*target.Info
	err := bounded(b.opts.callTimeout(), func() error {
		var err error
		infos, err = chromedp.Targets(b.ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing tabs: %w", err)
	}
	var pages []Page
	for _, in := range infos {
		if isPageTab(in) {
			pages = append(pages, Page{ID: string(in.TargetID), URL: in.URL, Title: in.Title, InUse: in.Attached})
		}
	}
	return pages, nil
}

// CloseTab closes the page tab with target id id.
func (b *Browser) CloseTab(id string) error {
	if err := b.connected(); err != nil {
		return err
	}
	err := bounded(b.opts.callTimeout(), func() error {
		_, err := chromedp.CallBrowser(b.ctx, target.CloseTarget, target.CloseTargetParams{TargetID: target.ID(id)})
		return err
	})
	if err != nil {
		return err
	}
	// Chrome answers before the tab has left its target list: wait, a
	// little, until it has, so that what lists tabs next does not see it.
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		pages, err := b.Pages()
		if err != nil || !slices.ContainsFunc(pages, func(p Page) bool { return p.ID == id }) {
			break
		}
	}
	return nil
}

// isPageTab reports whether a target is a tab a snapshot may take.
func isPageTab(in *target.Info) bool {
	return in != nil && in.Type == "page" && !strings.HasPrefix(in.URL, "devtools://") && !strings.HasPrefix(in.URL, "chrome-extension://")
}

// bounded runs f, which must use a context that outlives the call (the
// first command on a chromedp context binds the browser or tab to it), and
// gives up after d. The caller cancels that context on error, which ends f.
func bounded(d time.Duration, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		return fmt.Errorf("%w within %s", errNoAnswer, d)
	}
}

var errNoAnswer = errors.New("no answer")

// init runs the first command on the tab (which attaches chromedp to it) and,
// for a launched browser, pins the viewport.
func (t *Tab) init(setViewport bool) error {
	ctx := t.ctx
	err := bounded(t.browser.opts.callTimeout(), func() error {
		if !setViewport {
			// An attached tab keeps whatever viewport its owner gave it.
			_, err := cdpcall.Do(ctx, page.GetFrameTree, cdp.Empty{})
			return err
		}
		o := t.browser.opts
		_, err := cdpcall.Do(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: int64(o.Width), Height: int64(o.Height), DeviceScaleFactor: o.Scale,
		})
		return err
	})
	if err != nil && ctx.Err() != nil {
		err = browser.ErrConnectionClosed
	}
	if err != nil && errors.Is(err, errNoAnswer) && t.browser.attached {
		err = fmt.Errorf("%w (%s)", err, blockedHint)
	}
	if err != nil {
		return fmt.Errorf("attaching to the tab: %w", err)
	}
	t.watchPage()
	t.watchSettle()
	t.act.watch(ctx, t.TargetID())
	t.log.watch(ctx)
	if err := t.bootGuard(ctx); err != nil {
		return fmt.Errorf("arming the input guard's first listeners: %w", err)
	}
	return nil
}

// watchPage keeps t.dialog and t.net current from the page's events, and
// marks the tab gone when its renderer crashes or the tab closes.
func (t *Tab) watchPage() {
	on(t.ctx, inspector.TargetCrashed, func(inspector.EventTargetCrashed) {
		t.setGone(fmt.Errorf("%w: the page's renderer crashed (Inspector.targetCrashed); open the page again", browser.ErrTabGone))
	})
	on(t.ctx, inspector.Detached, func(ev inspector.EventDetached) {
		t.setGone(fmt.Errorf("%w: the browser detached from it (%s)", browser.ErrTabGone, ev.Reason))
	})
	// Opening and closing in the order they came: on separate goroutines a
	// close handled first would leave a closed dialog recorded as open.
	chromedp.Listen(t.ctx, func(ev any) {
		switch ev := ev.(type) {
		case *page.EventJavascriptDialogOpening:
			t.dialog.Store(&browser.Dialog{Type: string(ev.Type), Message: ev.Message, DefaultPrompt: ev.DefaultPrompt})
			t.dialog.signal(true)
		case *page.EventJavascriptDialogClosed:
			t.dialog.Store(nil)
			t.dialog.signal(false)
		}
	})
	on(t.ctx, page.FileChooserOpened, func(ev page.EventFileChooserOpened) {
		t.chooser.Store(&browser.FileChooser{Backend: int64(ev.BackendNodeID), Mode: string(ev.Mode), Frame: string(ev.FrameID)})
	})
}

// on subscribes now and calls f for each event until the tab goes away.
func on[E any](ctx context.Context, ev cdp.Event[E], f func(E)) {
	events := chromedp.Events(ctx, ev)
	go func() {
		for e, err := range events {
			if err != nil {
				return
			}
			f(e)
		}
	}()
}

// OpenDialog returns the JavaScript dialog open on the page, or nil.
func (t *Tab) OpenDialog() *browser.Dialog { return t.dialog.Load() }

// AnswerDialog accepts or dismisses the open dialog (text for a prompt).
func (t *Tab) AnswerDialog(accept bool, text string) error {
	answered := t.dialog.Load()
	err := t.call("Page.handleJavaScriptDialog", func(ctx context.Context) error {
		_, err := cdpcall.Do(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: accept, PromptText: text})
		return err
	})
	// The page may open its next dialog before this answer comes back (an
	// alert loop): only the dialog answered is forgotten.
	if err == nil && answered != nil && t.dialog.CompareAndSwap(answered, nil) {
		t.dialog.signal(false)
	}
	return err
}

// dialogProof are the calls that work, or must be made, while a dialog
// is open; every other call waiting on the page is given up when one
// opens (ErrDialogOpen), rather than held to its deadline: a page that
// opens alert after alert must not hold every call for 20 s.
var dialogProof = map[string]bool{"Page.handleJavaScriptDialog": true, "Input.dispatchMouseEvent": true, "Input.dispatchDragEvent": true, "reload": true,
	"Input.dispatchKeyEvent": true, "Input.insertText": true}

// Context is the tab's chromedp context, for the other package that talks
// to the browser (screenshot). Calls on it should carry their own deadline.
func (t *Tab) Context() context.Context { return t.ctx }

// Close closes a tab this process opened, or detaches from an attached one.
func (t *Tab) Close() { t.cancel() }

// call runs f on the tab's own session with the per-call deadline and names
// the step in errors.
func (t *Tab) call(step string, f func(ctx context.Context) error) error {
	return t.callIn(t.ctx, step, f)
}

// callIn is call on a given session (an out-of-process iframe's).
func (t *Tab) callIn(session context.Context, step string, f func(ctx context.Context) error) error {
	if t.gone != nil {
		if cause := context.Cause(t.gone); cause != nil {
			return fmt.Errorf("%s: %w", step, cause)
		}
	}
	ctx, cancel := context.WithTimeout(session, t.browser.opts.callTimeout())
	defer cancel()
	if t.gone != nil {
		defer context.AfterFunc(t.gone, cancel)()
	}
	var dialogCut atomic.Bool
	if !dialogProof[step] && !strings.HasPrefix(step, "navigate to ") && !strings.HasPrefix(step, "Target.") {
		sig := t.dialog.opened()
		select {
		case <-sig:
			return fmt.Errorf("%s: %w", step, browser.ErrDialogOpen)
		default:
		}
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			select {
			case <-sig:
				dialogCut.Store(true)
				cancel()
			case <-stop:
			}
		}()
	}
	err := f(ctx)
	if err == nil {
		return nil
	}
	if dialogCut.Load() {
		return fmt.Errorf("%s: %w", step, browser.ErrDialogOpen)
	}
	if t.gone != nil {
		if cause := context.Cause(t.gone); cause != nil {
			return fmt.Errorf("%s: %w", step, cause)
		}
	}
	if session == t.ctx && errors.Is(err, chromedp.ErrTargetDetached) {
		// The answer can beat the Inspector.detached event: the tab is
		// gone either way, for this call and every later one.
		t.setGone(fmt.Errorf("%w: the browser detached from it (closed or crashed)", browser.ErrTabGone))
		return fmt.Errorf("%s: %w", step, context.Cause(t.gone))
	}
	if session.Err() != nil {
		return fmt.Errorf("%s: %w", step, browser.ErrConnectionClosed)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &DeadlineError{Step: step, After: t.browser.opts.callTimeout(), Attached: t.browser.attached}
	}
	return fmt.Errorf("%s: %w", step, err)
}

// Navigate loads url, waits for the load event, then lets the page settle
// for wait. Pages whose load event waits on dead third-party hosts are
// common; when the document is parsed (readyState interactive) but load has
// not fired by the deadline, Navigate returns an error wrapping
// ErrStillLoading and leaves the tab usable.
func (t *Tab) Navigate(rawURL string, wait time.Duration) error {
	_, err := t.Load(rawURL, wait)
	return err
}

// Load is Navigate that also gives the document's HTTP status: a 404 page
// loads like any other, and only the status says it is one.
func (t *Tab) Load(rawURL string, wait time.Duration) (browser.Response, error) {
	var resp browser.Response
	// A dialog the page opens while loading ends the wait: the page waits
	// for it, and the caller sees it (OpenDialog).
	err := t.input("navigate to "+rawURL, func(ctx context.Context) error {
		r, err := chromedp.Run(ctx, chromedp.NavigateResponse(rawURL))
		if r != nil {
			resp = browser.Response{Status: int(r.Status), StatusText: r.StatusText}
		}
		return err
	})
	return resp, t.loaded(err, wait)
}

// loaded finishes a load: a deadline with the document parsed is
// ErrStillLoading, else the settle wait.
func (t *Tab) loaded(err error, wait time.Duration) error {
	if errors.Is(err, context.DeadlineExceeded) && t.ctx.Err() == nil && t.documentParsed() {
		return fmt.Errorf("%w within %s (document parsed; observing it anyway): %v", browser.ErrStillLoading, t.browser.opts.callTimeout(), err)
	}
	if err != nil {
		return err
	}
	if wait > 0 {
		select {
		case <-time.After(wait):
		case <-t.ctx.Done():
			return t.ctx.Err()
		}
	}
	return nil
}

// Back goes back one entry in the tab's history and waits until that
// document is loaded. A page restored from the back/forward cache fires no
// load event, so this polls the URL and readyState instead.
func (t *Tab) Back() error { return t.historyStep(-1) }

// Forward goes forward one entry in the tab's history, as Back does.
func (t *Tab) Forward() error { return t.historyStep(+1) }

func (t *Tab) historyStep(delta int64) error {
	var want string
	word := map[int64]string{-1: "back", 1: "forward"}[delta]
	err := t.call("navigate "+word, func(ctx context.Context) error {
		h, err := cdpcall.Do(ctx, page.GetNavigationHistory, cdp.Empty{})
		if err != nil {
			return err
		}
		k := h.CurrentIndex + delta
		if h.CurrentIndex < 0 || k < 0 || k >= int64(len(h.Entries)) {
			if delta < 0 {
				return errors.New("no earlier page in this tab's history")
			}
			return errors.New("no later page in this tab's history")
		}
		to := h.Entries[k]
		want = to.URL
		_, err = cdpcall.Do(ctx, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: to.ID})
		return err
	})
	if err != nil {
		return err
	}
	return t.call("wait for the "+map[int64]string{-1: "earlier", 1: "later"}[delta]+" page", func(ctx context.Context) error {
		for {
			state, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[location.href, document.readyState]`))
			if err == nil && len(state) == 2 && state[0] == want && state[1] == "complete" {
				return nil
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
}

// Reload reloads the page and waits for its load event, then wait; a
// document parsed but still loading at the deadline is ErrStillLoading,
// as in Navigate.
func (t *Tab) Reload(wait time.Duration) error {
	err := t.input("reload", func(ctx context.Context) error { return chromedp.Do(ctx, chromedp.Reload()) })
	return t.loaded(err, wait)
}

// Location is the tab's current URL and title.
func (t *Tab) Location() (url, title string, err error) {
	err = t.call("Target.getTargetInfo", func(ctx context.Context) error {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			return err
		}
		for _, in := range infos {
			if string(in.TargetID) == t.TargetID() {
				url, title = in.URL, in.Title
				return nil
			}
		}
		return errors.New("the tab is gone")
	})
	return url, title, err
}

// documentParsed reports whether the tab's document is past "loading".
func (t *Tab) documentParsed() bool {
	var state string
	err := t.call("read document.readyState", func(ctx context.Context) error {
		var err error
		state, err = chromedp.Run(ctx, chromedp.Evaluate[string]("document.readyState"))
		return err
	})
	return err == nil && (state == "interactive" || state == "complete")
}

// DeadlineError says which CDP step got no answer in time.
type DeadlineError struct {
	Step  string
	After time.Duration
	// Attached: the tab was found open, so it may have been blocked before
	// axfuse came (the error says how).
	Attached bool
}

func (e *DeadlineError) Error() string {
	msg := fmt.Sprintf("%s: no answer within %s", e.Step, e.After)
	if e.Attached {
		msg += " (" + blockedHint + ")"
	}
	return msg
}

// blockedHint explains an attached tab that answers nothing. Chrome holds
// every command to a page whose script does not yield or that shows an
// alert, confirm or prompt, and a client attaching later is not told of
// the dialog (chromium issue behind puppeteer#9729).
const blockedHint = "the page answers nothing: a script that does not yield, or an alert, confirm or prompt it showed before axfuse attached, which only the client that was attached then, or a person, can answer"

// Unwrap lets errors.Is(err, context.DeadlineExceeded) hold.
func (e *DeadlineError) Unwrap() error { return context.DeadlineExceeded }

// dialogState is the JavaScript dialog open on the page (nil when none)
// and a channel closed while one is open, replaced by an open channel
// when it closes: calls waiting on the page give up on it.
type dialogState struct {
	atomic.Pointer[browser.Dialog]
	mu     sync.Mutex
	openCh chan struct{}
}

// signal closes the dialog channel as a dialog opens, and gives a
// fresh one once none is open.
func (d *dialogState) signal(open bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.openCh == nil:
		d.openCh = make(chan struct{})
		if open {
			close(d.openCh)
		}
	case open:
		select {
		case <-d.openCh:
		default:
			close(d.openCh)
		}
	default:
		select {
		case <-d.openCh:
			d.openCh = make(chan struct{})
		default:
		}
	}
}

// opened is the channel closed while a dialog is open.
func (d *dialogState) opened() chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.openCh == nil {
		d.openCh = make(chan struct{})
	}
	return d.openCh
}
