package chrome

// JavaScript dialogs: the one open, answering it, and the calls it
// holds up.

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/chromedp/cdproto/page"
)

// OpenDialog returns the JavaScript dialog open on the page, or nil.
func (t *Tab) OpenDialog() *browser.Dialog { return t.dialog.Load() }

// AnswerDialog accepts or dismisses the open dialog (text for a prompt).
func (t *Tab) AnswerDialog(accept bool, text string) error {
	answered := t.dialog.Load()
	err := t.callWith(t.ctx, "Page.handleJavaScriptDialog", throughDialog, func(ctx context.Context) error {
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
