package cdpcall

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/axfuse/axfuse/browser"
	"github.com/chromedp/cdproto"
)

// This file is the one place that reads the browser's error text, and
// chromedp's. CDP answers most failures with the generic server error
// (-32000) and a message; the few messages that mean "the document or the
// script context is gone" are matched here, once, and every decision
// elsewhere checks the typed errors of package browser with errors.Is. A
// launch or an attach that failed is read here too (ClassifyLaunch,
// RefusedStatus), into typed errors and values.

// goneMessages are Chrome's messages, by what they mean.
var goneMessages = []struct {
	prefix string
	kind   []error
}{
	{"Cannot find context with specified id", []error{browser.ErrContextGone, browser.ErrDocumentGone}},
	{"Execution context was destroyed", []error{browser.ErrContextGone, browser.ErrDocumentGone}},
	{"Cannot find default execution context", []error{browser.ErrContextGone, browser.ErrDocumentGone}},
	{"Inspected target navigated or closed", []error{browser.ErrContextGone, browser.ErrDocumentGone}},
	{"Could not find object with given id", []error{browser.ErrDocumentGone}},
	{"No node with given id found", []error{browser.ErrDocumentGone}},
	{"Node with given id does not belong to the document", []error{browser.ErrDocumentGone}},
	{"Could not find node with given id", []error{browser.ErrDocumentGone}},
}

// Classify gives err with the typed errors its CDP message means
// (browser.ErrContextGone, browser.ErrDocumentGone) joined to it; its text
// stays the same. Errors it knows nothing of come back as they were.
func Classify(err error) error {
	var ce *cdproto.Error
	if err == nil || !errors.As(err, &ce) {
		return err
	}
	for _, m := range goneMessages {
		if strings.HasPrefix(ce.Message, m.prefix) {
			return &classified{err: err, kinds: m.kind}
		}
	}
	return err
}

// classified is an error and what it means; it reads as the error alone.
type classified struct {
	err   error
	kinds []error
}

func (c *classified) Error() string { return c.err.Error() }

func (c *classified) Unwrap() []error { return append([]error{c.err}, c.kinds...) }

// Starting and attaching to a browser fail in chromedp's words, which
// carry the browser's output or the endpoint's HTTP answer: they are read
// here too, into the typed errors and values below.

// SocketTooLongError: a launched browser did not start because the path
// of its singleton socket, below the temporary folder, is too long for a
// Unix socket (107 bytes). Dir is the directory Chromium made for the
// socket, as its output names it ("" when it does not).
type SocketTooLongError struct {
	Dir string
	Err error
}

func (e *SocketTooLongError) Error() string { return e.Err.Error() }
func (e *SocketTooLongError) Unwrap() error { return e.Err }

// NotStartedError: chromedp says a launched browser failed to start;
// Output is what the browser printed, trimmed ("" when nothing).
type NotStartedError struct {
	Output string
	Err    error
}

func (e *NotStartedError) Error() string { return e.Err.Error() }
func (e *NotStartedError) Unwrap() error { return e.Err }

// tooLongSocket finds the socket path in Chromium's FATAL line.
var tooLongSocket = regexp.MustCompile(`Socket path too long: (\S+)/SingletonSocket`)

// ClassifyLaunch gives the error of a launched browser's first call as
// a *SocketTooLongError or *NotStartedError when chromedp's text says it
// is one; its text stays the same. Others come back as they were.
func ClassifyLaunch(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "Socket path too long"):
		e := &SocketTooLongError{Err: err}
		if m := tooLongSocket.FindStringSubmatch(msg); m != nil {
			e.Dir = m[1]
		}
		return e
	case strings.Contains(msg, "chrome failed to start"):
		// chromedp's words, then the browser's output, often none.
		return &NotStartedError{Output: strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(msg), "chrome failed to start:")), Err: err}
	}
	return err
}

// refusedStatus finds the HTTP status a websocket handshake was refused
// with, in chromedp's words: unexpected status "429 Too Many Requests".
var refusedStatus = regexp.MustCompile(`unexpected status "(\d{3})[^"]*"`)

// RefusedStatus is the HTTP status an endpoint refused a websocket
// handshake with, 0 when err is no such refusal. chromedp's handshake
// error carries the status in its text only.
func RefusedStatus(err error) int {
	if err == nil {
		return 0
	}
	m := refusedStatus.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	code, _ := strconv.Atoi(m[1])
	return code
}
