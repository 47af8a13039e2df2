package cdpcall

import (
	"errors"
	"strings"

	"github.com/axfuse/axfuse/browser"
	"github.com/chromedp/cdproto"
)

// This file is the one place that reads the browser's error text. CDP
// answers most failures with the generic server error (-32000) and a
// message; the few messages that mean "the document or the script context
// is gone" are matched here, once, and every decision elsewhere checks the
// typed errors of package browser with errors.Is.

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
