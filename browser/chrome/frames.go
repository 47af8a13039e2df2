package chrome

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// Out-of-process iframes. With site isolation (Chrome's default) a
// cross-site iframe runs in its own renderer: the tab's DOMSnapshot and AX
// tree stop at its <iframe> element. Each such frame is a target of type
// "iframe" whose id is its frame id; axfuse attaches to it (a flattened
// session), captures it like a tab, and stitches its documents under the
// iframe element that DOM.getFrameOwner names in the parent's process.
// Everything is joined by the browser's ids; nothing the page writes (ids,
// names, URLs) can point one frame at another's nodes.

// DefaultFrameDepth is how deep out-of-process iframes are followed when
// Options.FrameDepth is 0.
const DefaultFrameDepth = 8

// frameRouter holds the tab's sessions on out-of-process iframes, by
// target id, and the routes of its last capture: which session holds
// each frame. Acting in a frame and the capture engine go through it.
type frameRouter struct {
	t        *Tab
	mu       sync.Mutex
	attached map[string]*session
	routes   atomic.Pointer[routes]
}

// session is one CDP session of the tab: the page's own, or one attached to
// an out-of-process iframe.
type session struct {
	ctx    context.Context
	cancel context.CancelFunc
	target string
}

// routes says which session holds each frame, and which iframe element (by
// its process and backend id) holds each out-of-process frame. A capture
// replaces it whole.
type routes struct {
	byFrame  map[string]*session
	children map[ownerKey]*session
}

type ownerKey struct {
	target  string
	backend int64
}

func (b *Browser) frameDepth() int {
	if d := b.opts.FrameDepth; d > 0 {
		return d
	}
	return DefaultFrameDepth
}

// sessions is the tab's own session and its attached iframe sessions.
func (f *frameRouter) sessions() map[string]*session {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]*session{f.t.TargetID(): {ctx: f.t.ctx, target: f.t.TargetID()}}
	for id, s := range f.attached {
		out[id] = s
	}
	return out
}

// frameOwner is the backend node id of the element (iframe, frame) that
// holds a frame, asked on the session of the frame's parent.
func (t *Tab) frameOwner(session context.Context, frame string) (int64, error) {
	var owner int64
	err := t.callIn(session, "DOM.getFrameOwner", func(ctx context.Context) error {
		var err error
		owner, err = cdpcall.FrameOwner(ctx, frame)
		return err
	})
	return owner, err
}

// sessionOf returns the session of a target: the tab's or an attached
// iframe's; nil when there is none.
func (f *frameRouter) sessionOf(id string) *session {
	if id == f.t.TargetID() {
		return &session{ctx: f.t.ctx, target: id}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.attached[id]
}

// attach returns a session on an iframe target, attaching on first use.
// Closing the tab detaches it (the frame itself is the page's).
func (f *frameRouter) attach(id string) (*session, error) {
	if s := f.sessionOf(id); s != nil && s.ctx.Err() == nil {
		return s, nil
	}
	var s *session
	var err error
	if lean, ok := cdpcall.SessionOf(f.t.ctx).(*leanSession); ok && lean != nil {
		s, err = f.attachLean(lean, id)
	} else {
		s, err = f.attachChromedp(id)
	}
	if err != nil {
		return nil, fmt.Errorf("attaching to the iframe: %w", err)
	}
	f.mu.Lock()
	if f.attached == nil {
		f.attached = map[string]*session{}
	}
	f.attached[id] = s
	f.mu.Unlock()
	return s, nil
}

// attachChromedp attaches through the browser's websocket, as chromedp
// does (its domains enabled), for a tab that lives long enough to want
// the frame's events.
func (f *frameRouter) attachChromedp(id string) (*session, error) {
	if err := f.t.browser.connected(); err != nil {
		return nil, err
	}
	ctx, cancel := chromedp.NewContext(f.t.ctx, chromedp.WithTargetID(target.ID(id)), chromedp.WithDetachOnCancel())
	// chromedp ties the session's life to the context of its first call.
	err := bounded(f.t.browser.opts.callTimeout(), func() error {
		_, err := cdpcall.Do(ctx, page.GetFrameTree, cdp.Empty{})
		return err
	})
	if err == nil {
		err = f.t.bootGuard(ctx)
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return &session{ctx: ctx, cancel: cancel, target: id}, nil
}

// attachLean attaches a flattened session on the lean tab's own socket: one
// round trip, no domain enabled, no browser websocket dialled (a page with
// one cross-site frame: capture 76 → 28 ms against chromedp's attach).
// Closing the socket detaches it; a frame that goes away takes its session
// with it.
func (f *frameRouter) attachLean(tab *leanSession, id string) (*session, error) {
	var sid target.SessionID
	err := f.t.callWith(f.t.ctx, "Target.attachToTarget", throughDialog, func(ctx context.Context) error {
		r, err := cdpcall.Do(ctx, target.AttachToTarget, target.AttachToTargetParams{TargetID: target.ID(id), Flatten: new(true)})
		sid = r.SessionID
		return err
	})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(cdpcall.WithSession(f.t.ctx, &leanSession{leanSocket: tab.leanSocket, id: sid}))
	return &session{ctx: ctx, cancel: cancel, target: id}, nil
}

// forgetGone detaches from iframe targets that no longer exist (not in
// live).
func (f *frameRouter) forgetGone(live map[string]bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for id, s := range f.attached {
		if !live[id] {
			s.cancel()
			delete(f.attached, id)
		}
	}
}

// sessionFor is the session holding a frame: an out-of-process iframe's,
// else the tab's own.
func (f *frameRouter) sessionFor(frame string) context.Context {
	if r := f.routes.Load(); r != nil {
		if s := r.byFrame[frame]; s != nil && s.ctx != nil {
			return s.ctx
		}
	}
	return f.t.ctx
}

// HitTest asks the browser which node a click at (x, y) (top-level viewport
// CSS px) reaches, following the point into out-of-process iframes: the
// tab's hit test stops at their <iframe> element.
func (t *Tab) HitTest(x, y float64) (browser.Hit, error) {
	r := t.frames.routes.Load()
	s := &session{ctx: t.ctx, target: t.TargetID()}
	for range t.browser.frameDepth() + 1 {
		b, err := t.nodeAt(s.ctx, int64(math.Round(x)), int64(math.Round(y)))
		if err != nil {
			return browser.Hit{}, err
		}
		var child *session
		if r != nil {
			child = r.children[ownerKey{s.target, b}]
		}
		if child == nil || child.ctx == nil {
			return browser.Hit{Target: s.target, Backend: b}, nil
		}
		ox, oy, err := t.frames.contentOrigin(s.ctx, b)
		if err != nil {
			return browser.Hit{}, err
		}
		x, y, s = x-ox, y-oy, child
	}
	return browser.Hit{}, errors.New("hit test: iframes nested too deep")
}

// contentOrigin is the top-left of an iframe element's content box in its
// own frame's viewport: where the inner frame's viewport starts.
func (f *frameRouter) contentOrigin(ctx context.Context, backend int64) (x, y float64, err error) {
	err = f.t.callIn(ctx, "DOM.getBoxModel", func(ctx context.Context) error {
		res, err := cdpcall.Do(ctx, dom.GetBoxModel, dom.GetBoxModelParams{BackendNodeID: cdp.BackendNodeID(backend)})
		if err != nil {
			return err
		}
		if res.Model == nil || len(res.Model.Content) < 8 {
			return errors.New("the iframe has no box")
		}
		q := res.Model.Content
		x, y = math.Min(math.Min(q[0], q[2]), math.Min(q[4], q[6])), math.Min(math.Min(q[1], q[3]), math.Min(q[5], q[7]))
		return nil
	})
	return x, y, err
}
