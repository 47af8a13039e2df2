package chrome

import (
	"context"
	"fmt"
	"sync"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// activity keeps what the page did on its own that an action's answer
// must tell: script errors it raised and tabs it opened. Both are kept as
// they come, numbered, so that an action reads just those since it began.
type activity struct {
	mu     sync.Mutex
	seq    int
	errors []numbered
	opened []numbered
}

type numbered struct {
	n    int
	text string // an error's message, or an opened tab's target id
}

// most is how many of each are kept: a page that throws in a loop must
// not grow the tab without bound.
const most = 64

func (a *activity) add(list *[]numbered, text string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seq++
	*list = append(*list, numbered{a.seq, text})
	if len(*list) > most {
		*list = (*list)[len(*list)-most:]
	}
}

// Since returns the page's script errors and the target ids of the tabs
// it opened after mark.
func (t *Tab) Since(mark int) (errors, opened []string) {
	t.act.mu.Lock()
	defer t.act.mu.Unlock()
	for _, e := range t.act.errors {
		if e.n > mark {
			errors = append(errors, e.text)
		}
	}
	for _, o := range t.act.opened {
		if o.n > mark {
			opened = append(opened, o.text)
		}
	}
	return errors, opened
}

// watch records uncaught exceptions, console.error calls and the
// tabs this one opens (window.open, target=_blank).
func (a *activity) watch(ctx context.Context, tab string) {
	on(ctx, runtime.ExceptionThrown, func(ev runtime.EventExceptionThrown) {
		if ev.ExceptionDetails != nil {
			a.add(&a.errors, "uncaught "+cdpcall.OneLine(cdpcall.ExceptionText(ev.ExceptionDetails)))
		}
	})
	on(ctx, runtime.ConsoleAPICalled, func(ev runtime.EventConsoleAPICalled) {
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
			return
		}
		a.add(&a.errors, "console.error: "+cdpcall.OneLine(consoleText(ev.Args)))
	})
	seen := sync.Map{}
	on(ctx, target.TargetCreated, func(ev target.EventTargetCreated) {
		in := ev.TargetInfo
		if in == nil || in.Type != "page" || string(in.OpenerID) != tab {
			return
		}
		if _, dup := seen.LoadOrStore(in.TargetID, true); !dup {
			a.add(&a.opened, string(in.TargetID))
		}
	})
}

// Describe reads the URL and title of tabs by target id (ones that closed
// are left out).
func (t *Tab) Describe(ids []string) ([]browser.TabInfo, error) {
	var out []browser.TabInfo
	err := t.callWith(t.ctx, "Target.getTargets", throughDialog, func(ctx context.Context) error {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			return err
		}
		for _, id := range ids {
			for _, in := range infos {
				if string(in.TargetID) == id {
					out = append(out, browser.TabInfo{ID: id, URL: in.URL, Title: in.Title})
				}
			}
		}
		return nil
	})
	return out, err
}

// AttachTab attaches to another page tab of the browser by target id (a
// tab an action opened) without navigating it.
func (b *Browser) AttachTab(id string) (*Tab, error) {
	if err := b.connected(); err != nil {
		return nil, err
	}
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(target.ID(id)), chromedp.WithDetachOnCancel())
	t := newTab(ctx, cancel, b)
	if err := t.init(false); err != nil {
		cancel()
		return nil, fmt.Errorf("tab %s: %w", id, err)
	}
	return t, nil
}

// BringToFront makes the tab the browser's visible one: a tab behind
// another runs no animation frames and throttles its timers, so a page
// the agent acts on must be in front (an action that opened a tab leaves
// the new one in front).
func (t *Tab) BringToFront() error {
	return t.call("Page.bringToFront", func(ctx context.Context) error {
		_, err := cdpcall.Do(ctx, page.BringToFront, cdp.Empty{})
		return err
	})
}
