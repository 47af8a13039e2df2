package chrome

// Navigation: loading a URL, history, reload, and where the tab is.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

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
	err = t.callWith(t.ctx, "Target.getTargetInfo", throughDialog, func(ctx context.Context) error {
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
