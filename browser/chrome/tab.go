package chrome

// Tabs: opening, attaching, listing and closing them, and the events that
// keep a tab's state.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
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
)

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

// Context is the tab's chromedp context, for the other package that talks
// to the browser (screenshot). Calls on it should carry their own deadline.
func (t *Tab) Context() context.Context { return t.ctx }

// Close closes a tab this process opened, or detaches from an attached one.
func (t *Tab) Close() { t.cancel() }
