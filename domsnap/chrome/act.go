package chrome

import (
	"context"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TargetID is the browser's id of the tab (stable while the tab lives).
func (t *Tab) TargetID() string {
	if c := chromedp.FromContext(t.ctx); c != nil && c.Target != nil {
		return string(c.Target.TargetID)
	}
	return ""
}

// NodeAt asks the browser which node a click at (x, y) reaches
// (DOM.getNodeForLocation; whole CSS pixels).
func (t *Tab) NodeAt(x, y int64) (int64, error) {
	var backend int64
	err := t.call("DOM.getNodeForLocation", func(ctx context.Context) error {
		res, err := chromedp.Call(ctx, dom.GetNodeForLocation, dom.GetNodeForLocationParams{X: x, Y: y})
		backend = int64(res.BackendNodeID)
		return err
	})
	return backend, err
}

// ScrollIntoView scrolls a node into view if it is not.
func (t *Tab) ScrollIntoView(backend int64) error {
	return t.call("DOM.scrollIntoViewIfNeeded", func(ctx context.Context) error {
		_, err := chromedp.Call(ctx, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{BackendNodeID: cdp.BackendNodeID(backend)})
		return err
	})
}

// Click dispatches real mouse events at (x, y): a move, then count presses
// and releases (count 2 is a double click).
func (t *Tab) Click(x, y float64, count int) error {
	if err := t.Hover(x, y); err != nil {
		return err
	}
	for c := 1; c <= count; c++ {
		for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
			err := t.call("Input.dispatchMouseEvent", func(ctx context.Context) error {
				_, err := chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{
					Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: int64(c),
				})
				return err
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// Hover moves the mouse to (x, y).
func (t *Tab) Hover(x, y float64) error {
	return t.call("Input.dispatchMouseEvent", func(ctx context.Context) error {
		_, err := chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: x, Y: y})
		return err
	})
}

// InsertText types text into the focused element, as an IME would.
func (t *Tab) InsertText(text string) error {
	return t.call("Input.insertText", func(ctx context.Context) error {
		_, err := chromedp.Call(ctx, input.InsertText, input.InsertTextParams{Text: text})
		return err
	})
}

// Keys sends key presses: printable characters and chromedp's kb keys
// ("\r" Enter, "\b" Backspace, kb.End ...).
func (t *Tab) Keys(keys string) error {
	return t.call("Input.dispatchKeyEvent", func(ctx context.Context) error {
		return chromedp.Do(ctx, chromedp.KeyEvent(keys))
	})
}

// SelectAll selects the focused field's content (so typing replaces it).
func (t *Tab) SelectAll() error {
	return t.call("select the field's text", func(ctx context.Context) error {
		return chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(() => { const e = document.activeElement; if (e && e.select) e.select(); else document.execCommand('selectAll'); })()`))
	})
}

// Settle waits until the page is quiet after an action: a short pause, then
// until the document has loaded, bounded by max.
func (t *Tab) Settle(pause, max time.Duration) {
	deadline := time.Now().Add(max)
	time.Sleep(pause)
	for time.Now().Before(deadline) {
		var state string
		err := t.call("document.readyState", func(ctx context.Context) error {
			var err error
			state, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.readyState`))
			return err
		})
		if err == nil && state == "complete" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}
