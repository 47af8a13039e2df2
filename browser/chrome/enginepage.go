package chrome

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/axfuse/axfuse/browser/chrome/capture"
	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/chromedp/cdproto/runtime"
)

// enginePage is the tab as its capture engine reaches it (capture.Page):
// the tab's sessions with its deadlines, the out-of-process frames it
// attaches to, and what its settle tracker counts in the page. It keeps
// the engine's needs off Tab's own methods.
type enginePage struct{ t *Tab }

func (p enginePage) TargetID() string     { return p.t.TargetID() }
func (p enginePage) Top() context.Context { return p.t.ctx }

func (p enginePage) CallIn(session context.Context, step string, f func(ctx context.Context) error) error {
	return p.t.callIn(session, step, f)
}

// CallTargets goes through a dialog, as the driver's own Target.* calls do.
func (p enginePage) CallTargets(step string, f func(ctx context.Context) error) error {
	return p.t.callWith(p.t.ctx, step, throughDialog, f)
}

func (p enginePage) Session(target string) context.Context {
	if s := p.t.frames.sessionOf(target); s != nil {
		return s.ctx
	}
	return nil
}

func (p enginePage) Attach(target string) (context.Context, error) {
	s, err := p.t.frames.attach(target)
	if err != nil {
		return nil, err
	}
	return s.ctx, nil
}

func (p enginePage) KeepTargets(live map[string]bool) { p.t.frames.forgetGone(live) }

// Route keeps the capture's routes with the sessions they name as they
// are now: a frame whose session goes later is not acted in through
// another's.
func (p enginePage) Route(r capture.Routes) {
	sessions := p.t.frames.sessions()
	out := &routes{byFrame: map[string]*session{}, children: map[ownerKey]*session{}}
	for frame, target := range r.ByFrame {
		out.byFrame[frame] = sessions[target]
	}
	for owner, target := range r.Children {
		out.children[ownerKey{owner.Target, owner.Backend}] = sessions[target]
	}
	p.t.frames.routes.Store(out)
}

func (p enginePage) SessionFor(frame string) context.Context { return p.t.frames.sessionFor(frame) }

func (p enginePage) World(ctx, session context.Context, frame string, fresh bool) (runtime.ExecutionContextID, bool, error) {
	return p.t.guardWorlds.frameWorld(ctx, session, frame, fresh)
}

func (p enginePage) DOMCounts() (wide, listenSeq int64) { return p.t.watchDOM() }

var errNoListenRecord = errors.New("settle.js keeps no listener record in this document")

// Listened asks settle.js which nodes had target listeners added or
// removed after its count since: the count now, whether some were lost
// (more than it keeps), and their backend ids.
func (p enginePage) Listened(since int64) (seq int64, lost bool, heard map[int64]bool, wide int64, err error) {
	if p.t.settle == nil {
		return 0, true, nil, -1, errNoListenRecord
	}
	key := p.t.settle.key
	expr := fmt.Sprintf("window[%q] && window[%q].listened ? window[%q].listened(%d) : null", key, key, key, since)
	var raw []byte
	err = p.t.call("listeners added since the last capture", func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, pageCall)
		defer cancel()
		var err error
		raw, err = cdpcall.EvaluateDeep(ctx, expr, 2, false)
		return err
	})
	if err != nil {
		return 0, true, nil, -1, err
	}
	var top []cdpcall.Serialized
	var items []cdpcall.Serialized
	if json.Unmarshal(raw, &top) != nil || len(top) != 4 || json.Unmarshal(top[0].Value, &seq) != nil ||
		json.Unmarshal(top[1].Value, &lost) != nil || json.Unmarshal(top[2].Value, &items) != nil || json.Unmarshal(top[3].Value, &wide) != nil {
		return 0, true, nil, -1, errNoListenRecord
	}
	heard = map[int64]bool{}
	for _, it := range items {
		var n struct {
			Backend int64 `json:"backendNodeId"`
		}
		if it.Type == "node" && json.Unmarshal(it.Value, &n) == nil && n.Backend != 0 {
			heard[n.Backend] = true
		}
	}
	return seq, lost, heard, wide, nil
}
