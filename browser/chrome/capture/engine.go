// Package capture is the Chrome driver's capture engine: it turns a tab
// into a domsnap.Capture. A full capture joins DOMSnapshot, the AX trees
// and event listeners of every process the page runs in (out-of-process
// iframes stitched under their iframe elements); a viewport capture runs
// one pass in an isolated world over what meets the screen; an
// incremental one reuses what the last pass fetched, and a quiet page's
// last capture is reused whole. Text the model cannot judge is settled
// by the browser's own pixels (TextPixels).
//
// The engine holds its caches per tab and reaches the browser only
// through Page, which the driver (package chrome) provides: calls on the
// tab's sessions with the driver's deadlines, the attaching of frame
// targets, and what the driver's settle tracker counts in the page.
package capture

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/axfuse/axfuse/browser/chrome/internal/testseam"
	"github.com/chromedp/cdproto/runtime"
)

// Page is what the engine needs of the tab it captures.
type Page interface {
	// TargetID is the tab's target id; Top the context of its own session.
	TargetID() string
	Top() context.Context
	// CallIn runs f on a session's context with the driver's per-call
	// deadline (ended early by a crash or a dialog), naming step in errors.
	CallIn(session context.Context, step string, f func(ctx context.Context) error) error
	// CallTargets is CallIn on the tab's own session for a call on the
	// browser's targets (Target.*), which a page's open dialog does not
	// hold up: it is not cut when one opens.
	CallTargets(step string, f func(ctx context.Context) error) error

	// Session is the session of a target the tab holds (its own, or an
	// out-of-process frame's it attached to), nil for none; Attach
	// attaches to a frame target on first use; KeepTargets detaches from
	// the frame targets not in live.
	Session(target string) context.Context
	Attach(target string) (context.Context, error)
	KeepTargets(live map[string]bool)
	// Route hands the driver the routes of the capture just made, for
	// acting in its frames; SessionFor reads them back (the tab's own
	// session for a frame of its process).
	Route(Routes)
	SessionFor(frame string) context.Context
	// World is axfuse's isolated world of a frame in a session (the one
	// the input guard runs in), made anew when fresh or when there is
	// none; made says it was.
	World(ctx, session context.Context, frame string, fresh bool) (world runtime.ExecutionContextID, made bool, err error)

	// DOMCounts installs the driver's page-side change record if need be
	// and reads its counts: wide (changes the viewport memo cannot
	// follow) and listenSeq (target listeners added or removed), -1 each
	// when unknown. Listened asks it which nodes had target listeners
	// added or removed after count since.
	DOMCounts() (wide, listenSeq int64)
	Listened(since int64) (seq int64, lost bool, heard map[int64]bool, wide int64, err error)
}

// Routes say which target's session holds each frame of a capture, and
// which iframe element holds each out-of-process frame.
type Routes struct {
	ByFrame  map[string]string // frame id → target id
	Children map[Owner]string  // iframe element → the frame's target id
}

// Owner is an iframe element: the target whose process holds it, and its
// backend node id there.
type Owner struct {
	Target  string
	Backend int64
}

// Options are the driver's settings the engine follows.
type Options struct {
	// FrameDepth is how deep out-of-process iframes are followed.
	FrameDepth int
	// CallTimeout bounds one call (the screenshot of a pixel check).
	CallTimeout time.Duration
	// Scale is the device scale the viewport is emulated at (1 for an
	// attached tab).
	Scale float64
	// Seams are the driver's tests' (seams.go), nil in shipping code.
	Seams *testseam.Seams
}

// Engine captures one tab. Its caches make the next capture of the same
// document cheaper; they never outlive the document they describe.
type Engine struct {
	page Page
	opts Options
	// small is the document last found small (viewport.go), nil for none.
	small atomic.Pointer[smallDoc]
	// memo is what the last viewport capture fetched, for an incremental
	// one (incremental.go); memoTok names it in the page.
	memo     atomic.Pointer[viewMemo]
	memoLost atomic.Pointer[string] // why the last capture kept no memo
	memoOnce sync.Once
	memoTok  string
	// quiet is the last capture, for reuse while nothing changes (quiet.go).
	quiet      atomic.Pointer[quietMemo]
	quietLost  atomic.Pointer[string] // why the last capture left none
	quietNever atomic.Pointer[neverQuiet]
	perfOn     atomic.Bool
	// world is the engine's isolated world in the top frame's current
	// document (worldLoader), for the viewport pass.
	worldMu     sync.Mutex
	world       runtime.ExecutionContextID
	worldLoader string
}

// New is the engine of the tab page is.
func New(page Page, opts Options) *Engine {
	e := &Engine{page: page, opts: opts}
	if opts.Seams != nil {
		e.fillSeams(opts.Seams)
	}
	return e
}

// call runs f on the tab's own session (Page.CallIn).
func (e *Engine) call(step string, f func(ctx context.Context) error) error {
	return e.page.CallIn(e.page.Top(), step, f)
}

func (e *Engine) callIn(session context.Context, step string, f func(ctx context.Context) error) error {
	return e.page.CallIn(session, step, f)
}

// ctx is the tab's own session.
func (e *Engine) ctx() context.Context { return e.page.Top() }

// frameOwner is the backend node id of the element that holds a frame,
// asked on the session of the frame's parent.
func (e *Engine) frameOwner(session context.Context, frame string) (int64, error) {
	var owner int64
	err := e.callIn(session, "DOM.getFrameOwner", func(ctx context.Context) error {
		var err error
		owner, err = cdpcall.FrameOwner(ctx, frame)
		return err
	})
	return owner, err
}

// resolveInWorld gives a node's object in axfuse's isolated world of its
// frame (Page.World), within a call already made.
func (e *Engine) resolveInWorld(ctx, session context.Context, frame string, backend int64) (runtime.RemoteObjectID, error) {
	return cdpcall.ResolveInWorld(ctx, backend, func(fresh bool) (runtime.ExecutionContextID, bool, error) {
		return e.page.World(ctx, session, frame, fresh)
	})
}
