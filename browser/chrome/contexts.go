package chrome

import (
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// NewIsolatedContext creates a browser context of its own (cookies,
// storage, cache and tabs apart from every other), as an incognito
// window is, and gives its id. DisposeContext ends it with its tabs.
func (b *Browser) NewIsolatedContext() (string, error) {
	if err := b.connected(); err != nil {
		return "", err
	}
	var id string
	err := bounded(b.opts.callTimeout(), func() error {
		yes := true
		r, err := chromedp.CallBrowser(b.ctx, target.CreateBrowserContext, target.CreateBrowserContextParams{DisposeOnDetach: &yes})
		if err == nil {
			id = string(r.BrowserContextID)
		}
		return err
	})
	if err != nil {
		return "", fmt.Errorf("creating a browser context: %w", err)
	}
	return id, nil
}

// NewTabIn opens a tab in the browser context id (NewIsolatedContext).
func (b *Browser) NewTabIn(id string) (*Tab, error) {
	if err := b.connected(); err != nil {
		return nil, err
	}
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithExistingBrowserContext(cdp.BrowserContextID(id)))
	t := newTab(ctx, cancel, b)
	if err := t.init(true); err != nil {
		cancel()
		return nil, err
	}
	return t, nil
}

// DisposeContext ends a browser context and closes its tabs.
func (b *Browser) DisposeContext(id string) error {
	if !b.Alive() {
		return nil // gone with the browser
	}
	return bounded(b.opts.callTimeout(), func() error {
		_, err := chromedp.CallBrowser(b.ctx, target.DisposeBrowserContext, target.DisposeBrowserContextParams{BrowserContextID: cdp.BrowserContextID(id)})
		return err
	})
}
