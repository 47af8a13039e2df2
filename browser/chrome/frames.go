package chrome

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
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

// frameConcurrency bounds the iframe targets captured at once.
const frameConcurrency = 4

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

func (t *Tab) frameDepth() int {
	if d := t.browser.opts.FrameDepth; d > 0 {
		return d
	}
	return DefaultFrameDepth
}

// sessions is the tab's own session and its attached iframe sessions.
func (t *Tab) sessions() map[string]*session {
	t.framesMu.Lock()
	defer t.framesMu.Unlock()
	out := map[string]*session{t.TargetID(): {ctx: t.ctx, target: t.TargetID()}}
	for id, s := range t.attached {
		out[id] = s
	}
	return out
}

// captureFrameTargets captures every out-of-process iframe below the tab,
// breadth first (parents before children), to the depth limit. A frame that
// cannot be captured comes back with its error, never silently dropped.
func (t *Tab) captureFrameTargets(top *parts, kept map[int64]bool) []*parts {
	start := time.Now()
	var infos []*target.Info
	// Asked on the tab's own session: a lean tab never needs the browser's
	// websocket for its frames.
	err := t.call("Target.getTargets", func(ctx context.Context) error {
		res, err := do(ctx, target.GetTargets, target.GetTargetsParams{})
		infos = res.TargetInfos
		return err
	})
	if err != nil {
		top.time("iframe targets (failed: "+err.Error()+")", start)
		return nil
	}
	children := map[string][]*target.Info{}
	for _, in := range infos {
		if in != nil && in.Type == "iframe" && in.ParentID != "" {
			children[string(in.ParentID)] = append(children[string(in.ParentID)], in)
		}
	}
	t.forgetGone(infos)
	var out []*parts
	level := children[top.target]
	for depth := 1; len(level) > 0; depth++ {
		follow := depth <= t.frameDepth()
		got := make([]*parts, len(level))
		parallel(len(level), frameConcurrency, func(i int) { got[i] = t.captureFrameTarget(level[i], follow, kept) })
		for _, g := range got {
			if g != nil {
				out = append(out, g)
			}
		}
		kept = nil
		if !follow {
			break
		}
		var next []*target.Info
		for i, in := range level {
			if got[i] != nil {
				next = append(next, children[string(in.TargetID)]...)
			}
		}
		level = next
	}
	top.time(fmt.Sprintf("Target.getTargets, iframe targets (%d)", len(out)), start)
	return out
}

// captureFrameTarget finds one iframe target's element in its parent and,
// when follow, attaches to the target and captures it.
func (t *Tab) captureFrameTarget(in *target.Info, follow bool, kept map[int64]bool) *parts {
	id := string(in.TargetID)
	failed := func(err error) *parts {
		return &parts{target: id, parentFrame: string(in.ParentFrameID), url: in.URL, err: err}
	}
	parent := t.sessionOf(string(in.ParentID))
	if parent == nil {
		return failed(errors.New("its parent frame was not captured"))
	}
	owner, err := t.frameOwner(parent.ctx, id)
	if err != nil {
		return failed(err)
	}
	if kept != nil && !kept[owner] {
		return nil // its iframe lies outside the viewport capture
	}
	if !follow {
		p := failed(fmt.Errorf("nested deeper than %d frames", t.frameDepth()))
		p.owner = owner
		return p
	}
	s, err := t.attach(id)
	if err != nil {
		return failed(err)
	}
	frames, err := t.frameTree(s.ctx)
	if err != nil {
		return failed(err)
	}
	p := newParts(id, frames)
	p.parentFrame, p.owner, p.url = string(in.ParentFrameID), owner, in.URL
	var wg sync.WaitGroup
	var snapErr error
	wg.Go(func() { snapErr = t.captureSnapshot(s.ctx, p) })
	wg.Go(func() { t.discoverListeners(s.ctx, p) })
	t.axTrees(s.ctx, p, &wg)
	wg.Wait()
	p.err = snapErr
	return p
}

// frameOwner is the backend node id of the element (iframe, frame) that
// holds a frame, asked on the session of the frame's parent.
func (t *Tab) frameOwner(session context.Context, frame string) (int64, error) {
	var owner int64
	err := t.callIn(session, "DOM.getFrameOwner", func(ctx context.Context) error {
		res, err := do(ctx, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: cdp.FrameID(frame)})
		owner = int64(res.BackendNodeID)
		return err
	})
	return owner, err
}

// sessionOf returns the session of a target: the tab's or an attached
// iframe's; nil when there is none.
func (t *Tab) sessionOf(id string) *session {
	if id == t.TargetID() {
		return &session{ctx: t.ctx, target: id}
	}
	t.framesMu.Lock()
	defer t.framesMu.Unlock()
	return t.attached[id]
}

// attach returns a session on an iframe target, attaching on first use.
// Closing the tab detaches it (the frame itself is the page's).
func (t *Tab) attach(id string) (*session, error) {
	if s := t.sessionOf(id); s != nil && s.ctx.Err() == nil {
		return s, nil
	}
	var s *session
	var err error
	if lean, ok := t.ctx.Value(leanKey{}).(*leanSession); ok && lean != nil {
		s, err = t.attachLean(lean, id)
	} else {
		s, err = t.attachChromedp(id)
	}
	if err != nil {
		return nil, fmt.Errorf("attaching to the iframe: %w", err)
	}
	t.framesMu.Lock()
	if t.attached == nil {
		t.attached = map[string]*session{}
	}
	t.attached[id] = s
	t.framesMu.Unlock()
	return s, nil
}

// attachChromedp attaches through the browser's websocket, as chromedp
// does (its domains enabled), for a tab that lives long enough to want
// the frame's events.
func (t *Tab) attachChromedp(id string) (*session, error) {
	if err := t.browser.connected(); err != nil {
		return nil, err
	}
	ctx, cancel := chromedp.NewContext(t.ctx, chromedp.WithTargetID(target.ID(id)), chromedp.WithDetachOnCancel())
	// chromedp ties the session's life to the context of its first call.
	err := bounded(t.browser.opts.callTimeout(), func() error {
		_, err := do(ctx, page.GetFrameTree, cdp.Empty{})
		return err
	})
	if err == nil {
		err = t.bootGuard(ctx)
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
func (t *Tab) attachLean(tab *leanSession, id string) (*session, error) {
	var sid target.SessionID
	err := t.call("Target.attachToTarget", func(ctx context.Context) error {
		r, err := do(ctx, target.AttachToTarget, target.AttachToTargetParams{TargetID: target.ID(id), Flatten: new(true)})
		sid = r.SessionID
		return err
	})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.WithValue(t.ctx, leanKey{}, &leanSession{leanSocket: tab.leanSocket, id: sid}))
	return &session{ctx: ctx, cancel: cancel, target: id}, nil
}

// forgetGone detaches from iframe targets that no longer exist.
func (t *Tab) forgetGone(infos []*target.Info) {
	live := map[string]bool{}
	for _, in := range infos {
		if in != nil {
			live[string(in.TargetID)] = true
		}
	}
	t.framesMu.Lock()
	defer t.framesMu.Unlock()
	for id, s := range t.attached {
		if !live[id] {
			s.cancel()
			delete(t.attached, id)
		}
	}
}

// stitch appends each iframe process's documents and frames to c, linking
// its top document under the iframe element that holds it, and returns the
// routes for acting in them. A frame that failed keeps a Frame entry with
// its error, and its iframe element its ContentFrame.
func stitch(c *domsnap.Capture, top *parts, subs []*parts, sessions map[string]*session) *routes {
	r := &routes{byFrame: map[string]*session{}, children: map[ownerKey]*session{}}
	for _, p := range subs {
		d, k, ok := frameOwner(c, p)
		if !ok {
			c.Frames = append(c.Frames, domsnap.Frame{FrameID: p.target, ParentFrameID: p.parentFrame, URL: p.url,
				Error: "its iframe element was not found in the parent frame"})
			continue
		}
		owner := &c.Documents[d].Nodes[k]
		owner.ContentFrame = p.target
		root := -1
		if p.err == nil && p.snapshot != nil {
			root = appendDocuments(c, p)
		}
		if root < 0 {
			why := "its document was not captured"
			if p.err != nil {
				why = p.err.Error()
			}
			c.Frames = append(c.Frames, domsnap.Frame{FrameID: p.target, ParentFrameID: p.parentFrame, URL: p.url, Error: why})
			continue
		}
		owner.ContentDocument = root
		c.Frames = append(c.Frames, convertFrames(p)...)
		s := sessions[p.target]
		r.children[ownerKey{c.Documents[d].Target, owner.Backend}] = s
		for _, f := range p.frames {
			r.byFrame[f.id] = s
		}
	}
	return r
}

// frameOwner finds the iframe element of an out-of-process frame: in the
// document of its parent frame, the node with the backend id
// DOM.getFrameOwner gave, in the process of that frame.
func frameOwner(c *domsnap.Capture, p *parts) (doc, node int, ok bool) {
	for d := range c.Documents {
		if c.Documents[d].FrameID != p.parentFrame {
			continue
		}
		for k := range c.Documents[d].Nodes {
			n := &c.Documents[d].Nodes[k]
			if n.Backend == p.owner && n.Type == domsnap.ElementNode && n.ContentDocument == 0 && n.ContentFrame == "" {
				return d, k, true
			}
		}
	}
	return 0, 0, false
}

// appendDocuments appends a process's documents, moving their
// content-document indexes past the documents already there, and returns
// the index of the frame's own document (-1 when it is missing).
func appendDocuments(c *domsnap.Capture, p *parts) int {
	docs := convertDocuments(p)
	off := len(c.Documents)
	root := -1
	for i := range docs {
		for k := range docs[i].Nodes {
			if cd := docs[i].Nodes[k].ContentDocument; cd > 0 {
				docs[i].Nodes[k].ContentDocument = cd + off
			}
		}
		if docs[i].FrameID == p.target && root < 0 {
			root = off + i
		}
	}
	if root < 0 {
		return -1
	}
	c.Documents = append(c.Documents, docs...)
	return root
}

// sessionFor is the session holding a frame: an out-of-process iframe's,
// else the tab's own.
func (t *Tab) sessionFor(frame string) context.Context {
	if r := t.routes.Load(); r != nil {
		if s := r.byFrame[frame]; s != nil && s.ctx != nil {
			return s.ctx
		}
	}
	return t.ctx
}

// HitTest asks the browser which node a click at (x, y) (top-level viewport
// CSS px) reaches, following the point into out-of-process iframes: the
// tab's hit test stops at their <iframe> element.
func (t *Tab) HitTest(x, y float64) (browser.Hit, error) {
	r := t.routes.Load()
	s := &session{ctx: t.ctx, target: t.TargetID()}
	for range t.frameDepth() + 1 {
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
		ox, oy, err := t.contentOrigin(s.ctx, b)
		if err != nil {
			return browser.Hit{}, err
		}
		x, y, s = x-ox, y-oy, child
	}
	return browser.Hit{}, errors.New("hit test: iframes nested too deep")
}

// contentOrigin is the top-left of an iframe element's content box in its
// own frame's viewport: where the inner frame's viewport starts.
func (t *Tab) contentOrigin(ctx context.Context, backend int64) (x, y float64, err error) {
	err = t.callIn(ctx, "DOM.getBoxModel", func(ctx context.Context) error {
		res, err := do(ctx, dom.GetBoxModel, dom.GetBoxModelParams{BackendNodeID: cdp.BackendNodeID(backend)})
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
