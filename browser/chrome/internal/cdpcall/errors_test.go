package cdpcall

import (
	"errors"
	"fmt"
	"testing"

	"github.com/axfuse/axfuse/browser"
	"github.com/chromedp/cdproto"
)

// TestClassifyReadsChromesMessagesOnce: each message Chrome answers a call
// on a gone context or document with becomes its typed error, through
// wrapping too; the text is unchanged; other errors are left alone.
func TestClassifyReadsChromesMessagesOnce(t *testing.T) {
	cdpErr := func(msg string) error { return &cdproto.Error{Code: -32000, Message: msg} }
	for _, c := range []struct {
		err               error
		context, document bool
	}{
		{cdpErr("Cannot find context with specified id"), true, true},
		{fmt.Errorf("guard read: %w", cdpErr("Execution context was destroyed.")), true, true},
		{cdpErr("Inspected target navigated or closed"), true, true},
		{cdpErr("Could not find object with given id"), false, true},
		{cdpErr("No node with given id found"), false, true},
		{cdpErr("Node with given id does not belong to the document"), false, true},
		{cdpErr("Invalid parameters"), false, false},
		{fmt.Errorf("step: %w", browser.ErrTabGone), false, false},
		{errors.New("Cannot find context with specified id"), false, false}, // not the browser's answer
	} {
		got := Classify(c.err)
		if got.Error() != c.err.Error() {
			t.Errorf("%v: text became %q", c.err, got)
		}
		if errors.Is(got, browser.ErrContextGone) != c.context || errors.Is(got, browser.ErrDocumentGone) != c.document {
			t.Errorf("%v: context gone %v, document gone %v; want %v, %v", c.err,
				errors.Is(got, browser.ErrContextGone), errors.Is(got, browser.ErrDocumentGone), c.context, c.document)
		}
		if !errors.Is(got, c.err) {
			t.Errorf("%v: no longer wraps the error", c.err)
		}
	}
	if Classify(nil) != nil {
		t.Error("Classify(nil) is not nil")
	}
}

// TestLaunchAndAttachFailuresAreTyped: chromedp's words for a browser
// that did not start, or an endpoint that refused the handshake, are read
// here once into typed errors and values; the text stays the same.
func TestLaunchAndAttachFailuresAreTyped(t *testing.T) {
	tooLong := errors.New("chrome failed to start:\n[FATAL:process_singleton_posix.cc] Socket path too long: /tmp/very/long/org.chromium.Chromium.abc/SingletonSocket\n")
	var sock *SocketTooLongError
	if got := ClassifyLaunch(tooLong); !errors.As(got, &sock) || sock.Dir != "/tmp/very/long/org.chromium.Chromium.abc" || got.Error() != tooLong.Error() {
		t.Errorf("too long a socket path: %#v", got)
	}
	var notStarted *NotStartedError
	if got := ClassifyLaunch(errors.New("chrome failed to start:\n  not a browser\n")); !errors.As(got, &notStarted) || notStarted.Output != "not a browser" {
		t.Errorf("not started: %#v", got)
	}
	if got := ClassifyLaunch(errors.New("chrome failed to start:\n")); !errors.As(got, &notStarted) || notStarted.Output != "" {
		t.Errorf("not started, no output: %#v", got)
	}
	if other := errors.New("no answer within 20s"); ClassifyLaunch(other) != other || ClassifyLaunch(nil) != nil {
		t.Error("other launch errors changed")
	}
	refused := fmt.Errorf("websocket handshake failed: unexpected status %q, body %q", "429 Too Many Requests", "queue full")
	if got := RefusedStatus(refused); got != 429 {
		t.Errorf("RefusedStatus = %d, want 429", got)
	}
	if RefusedStatus(errors.New("connection refused")) != 0 || RefusedStatus(nil) != 0 {
		t.Error("a refusal found where there is none")
	}
}
