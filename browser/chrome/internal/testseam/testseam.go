// Package testseam holds the seams the Chrome driver's end-to-end tests
// reach between the capture engine's steps. Nothing that ships sets one:
// a capture engine made with Seams (capture.Options) fills in what the
// tests call and runs the hooks they set. Being internal, the seams are
// no part of the driver's API.
package testseam

import (
	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
)

// Seams are one capture engine's.
type Seams struct {
	// BeforePass, when set, runs once the AX nodes the quiet check named
	// were answered and before the viewport pass; AfterPass between the
	// pass and the calls that follow it (a navigation there must not mix
	// documents).
	BeforePass, AfterPass func()

	// ForgetMemo, filled in by the engine, drops what the last viewport
	// pass fetched: the next viewport capture walks the whole document.
	ForgetMemo func()
	// CaptureAfresh, filled in by the engine, captures as if it had no
	// memo (a whole walk, every node asked), under a memo name of its own,
	// so that the memo, its record of changes in the page and the reused
	// capture stay as they were.
	CaptureAfresh func(browser.CaptureOptions) (*domsnap.Capture, error)
}
