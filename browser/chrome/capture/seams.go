package capture

import (
	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
)

// Seams for the driver's end-to-end tests, which drive a real tab and
// must reach between the engine's steps. Nothing that ships calls them.

// SetPassHooks sets what runs around a viewport pass (nil: nothing):
// before, once the AX nodes the quiet check named were answered and
// before the pass; after, between the pass and the calls that follow it.
func (e *Engine) SetPassHooks(before, after func()) {
	e.beforePass, e.afterPass = before, after
}

// ForgetMemo drops what the last viewport pass fetched: the next viewport
// capture walks the whole document.
func (e *Engine) ForgetMemo() { e.memo.Store(nil) }

// CaptureAfresh captures as if the engine had no memo (a whole walk,
// every node asked), under a memo name of its own, so that the memo, its
// record of changes in the page and the reused capture stay as they were.
func (e *Engine) CaptureAfresh(o browser.CaptureOptions) (*domsnap.Capture, error) {
	e.memoToken()
	saved, token, quiet := e.memo.Load(), e.memoTok, e.quiet.Load()
	e.memoTok = token + "-whole"
	e.memo.Store(nil)
	defer func() { e.memoTok = token; e.memo.Store(saved); e.quiet.Store(quiet) }()
	o.Fresh = true
	return e.CaptureWith(o)
}
