package chrome

// Calls on a tab: each bounded by the per-call deadline, cut short when
// the tab goes or a dialog opens, its error naming the step.

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/chromedp/chromedp"
)

// call runs f on the tab's own session with the per-call deadline and names
// the step in errors; a JavaScript dialog that opens cuts it short.
func (t *Tab) call(step string, f func(ctx context.Context) error) error {
	return t.callWith(t.ctx, step, cutByDialog, f)
}

// callIn is call on a given session (an out-of-process iframe's).
func (t *Tab) callIn(session context.Context, step string, f func(ctx context.Context) error) error {
	return t.callWith(session, step, cutByDialog, f)
}

// dialogs says what a JavaScript dialog that is open, or opens, does to
// a call.
type dialogs int

const (
	// cutByDialog: the call waits on the page, which waits on the
	// dialog: it is given up when one opens (ErrDialogOpen), rather than
	// held to its deadline: a page that opens alert after alert must not
	// hold every call for 20 s.
	cutByDialog dialogs = iota
	// throughDialog: the call works, or must be made, while a dialog is
	// open: answering it, input (which may open one), loading a page, the
	// browser's list of targets.
	throughDialog
)

// callWith runs f on session with the per-call deadline, as d says an
// open dialog does to it, and names the step in errors.
func (t *Tab) callWith(session context.Context, step string, d dialogs, f func(ctx context.Context) error) error {
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
	if d == cutByDialog {
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
	// Chrome's words for a gone document or context become typed errors
	// (cdpcall.Classify), whichever way f called the browser.
	err := cdpcall.Classify(f(ctx))
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
