package act

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/axfuse/axfuse/browser"
)

// goneCall is a CDP error as the driver gives it: Chrome's text, with the
// typed errors its message means joined to it (cdpcall.Classify).
type goneCall struct {
	text  string
	kinds []error
}

func (e *goneCall) Error() string   { return e.text }
func (e *goneCall) Unwrap() []error { return e.kinds }

// finishing is a page whose guard's read fails with err.
type finishing struct {
	Page
	err error
}

func (finishing) OpenDialog() *browser.Dialog { return nil }

type failedGuard struct {
	browser.Guard
	err error
}

func (g failedGuard) Armed() browser.Armed                  { return browser.Armed{} }
func (g failedGuard) Finish() (browser.Verdict, error)      { return browser.Verdict{Events: 1}, g.err }
func (g failedGuard) Peek() (browser.Verdict, error)        { return g.Finish() }
func (g failedGuard) Run(string, string, any, ...any) error { return g.err }

// TestOnlyAGoneDocumentEndsTheGuardWell: a guard whose document went (the
// input replaced it: a link, a submit) is read as a success; a tab gone, a
// closed connection or a read that got no answer is the action's error,
// whatever its text says.
func TestOnlyAGoneDocumentEndsTheGuardWell(t *testing.T) {
	contextGone := fmt.Errorf("read the input guard: %w", &goneCall{"Cannot find context with specified id (-32000)",
		[]error{browser.ErrContextGone, browser.ErrDocumentGone}})
	objectGone := fmt.Errorf("read the input guard: %w", &goneCall{"Could not find object with given id (-32000)",
		[]error{browser.ErrDocumentGone}})
	for _, c := range []struct {
		err     error
		success bool
	}{
		{contextGone, true},
		{objectGone, true},
		{fmt.Errorf("read the input guard: %w", browser.ErrTabGone), false},
		{fmt.Errorf("read the input guard: %w: the page's renderer crashed", browser.ErrTabGone), false},
		{fmt.Errorf("read the input guard: %w", browser.ErrConnectionClosed), false},
		{fmt.Errorf("read the input guard: %w", context.DeadlineExceeded), false},
		{fmt.Errorf("read the input guard: %w", context.Canceled), false},
		// Chrome's words alone, not the driver's typed answer: not read.
		{errors.New("read the input guard: Cannot find context with specified id (-32000)"), false},
	} {
		if got := documentGone(c.err); got != c.success {
			t.Errorf("documentGone(%q) = %v, want %v", c.err, got, c.success)
		}
		s := &Session{Tab: finishing{err: c.err}}
		_, err := s.sendGuarded(target("e1", "link", "Next"), failedGuard{err: c.err}, clickVerb, func(Target, browser.Guard) error { return nil })
		if c.success && err != nil {
			t.Errorf("%q: the action failed: %v", c.err, err)
		}
		if !c.success && !errors.Is(err, c.err) {
			t.Errorf("%q: the action answered %v, want the guard's error", c.err, err)
		}
	}
}
