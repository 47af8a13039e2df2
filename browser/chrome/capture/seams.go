package capture

import (
	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/internal/testseam"
	"github.com/axfuse/axfuse/domsnap"
)

// Seams for the driver's end-to-end tests (package testseam), which drive
// a real tab and must reach between the engine's steps. Nothing that
// ships sets Options.Seams.

// fillSeams gives the tests what they call on the engine.
func (e *Engine) fillSeams(s *testseam.Seams) {
	s.ForgetMemo = func() { e.memo.Store(nil) }
	s.CaptureAfresh = e.captureAfresh
}

// captureAfresh captures as if the engine had no memo (a whole walk,
// every node asked), under a memo name of its own, so that the memo, its
// record of changes in the page and the reused capture stay as they were.
func (e *Engine) captureAfresh(o browser.CaptureOptions) (*domsnap.Capture, error) {
	e.memoToken()
	saved, token, quiet := e.memo.Load(), e.memoTok, e.quiet.Load()
	e.memoTok = token + "-whole"
	e.memo.Store(nil)
	defer func() { e.memoTok = token; e.memo.Store(saved); e.quiet.Store(quiet) }()
	o.Fresh = true
	return e.CaptureWith(o)
}
