package chrome

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/capture"
	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
)

//go:embed guard.js
var guardJS string

//go:embed guardboot.js
var guardBootJS string

// bootGuard has guardboot.js run in axfuse's isolated world of every frame
// of the session at document start, before the page's scripts, and now in
// the documents already there (decision 2026-12-06-the-guard-listens-first).
// The world is the one guards arm in: Chrome keeps one world per frame and
// name.
func (t *Tab) bootGuard(session context.Context) error {
	return t.callIn(session, "Page.addScriptToEvaluateOnNewDocument", func(ctx context.Context) error {
		_, err := cdpcall.Do(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: guardBootJS, WorldName: "axfuse", RunImmediately: new(true),
		})
		return err
	})
}

// The events each kind of action sends, that a guard watches. Enter and
// leave events are left out: they go to every ancestor the pointer
// enters, not only to what it is over.
var (
	pointerEvents = []string{"pointerover", "mouseover", "pointermove", "mousemove"}
	pressEvents   = []string{"pointerdown", "mousedown", "pointerup", "mouseup", "click", "dblclick", "auxclick", "contextmenu"}
	// A keyup or input after the browser itself moved the focus (a Tab) is
	// let through wherever it goes; one after the page's script moved it
	// is stopped (guard.js's focus watch).
	keyEvents  = []string{"keydown", "keypress", "beforeinput", "keyup", "input"}
	dragEvents = []string{"dragstart", "dragenter", "dragover", "drop"}
)

func guardEvents(kind browser.GuardKind) []string {
	switch kind {
	case browser.GuardHover:
		return pointerEvents
	case browser.GuardType:
		return slices.Concat(pointerEvents, pressEvents, keyEvents)
	case browser.GuardKey:
		return keyEvents
	case browser.GuardDrag:
		return slices.Concat(pointerEvents, []string{"pointerdown", "mousedown", "dragstart"})
	case browser.GuardDrop:
		// The release ends a mouse drag (a slider, a sortable list): it
		// must land on the drop end as the drop of an HTML5 drag must.
		return slices.Concat(dragEvents[1:], []string{"pointerup", "mouseup"})
	}
	return slices.Concat(pointerEvents, pressEvents)
}

// ownerEvents are the events the guard on a frame's <iframe> watches: the
// action's, less a key's release and keypress. A key whose press went to
// the frame ends outside it when the browser's own default moved the
// focus out (a Shift+Tab from the frame's first field): guardboot.js
// drops such a tail, whose press its document never saw, by itself.
func ownerEvents(kind browser.GuardKind) []string {
	return slices.DeleteFunc(slices.Clone(guardEvents(kind)), func(e string) bool { return e == "keyup" || e == "keypress" })
}

// guard is Chrome's browser.Guard: a guard armed in axfuse's isolated
// world of the element's frame, and one on the <iframe> of each frame
// above it.
type guard struct {
	t      *Tab
	elem   armedGuard // the element's own (levels[0] while armed)
	levels []armedGuard
	armed  browser.Armed
}

// Armed is the element as it was when the guard armed.
func (g *guard) Armed() browser.Armed { return g.armed }

type armedGuard struct {
	session context.Context
	object  runtime.RemoteObjectID
	token   string
}

// guardWorlds caches axfuse's isolated world per session and frame: a
// world is created once per document (a stale one fails and is made anew).
type guardWorlds struct {
	mu sync.Mutex
	m  map[string]runtime.ExecutionContextID
}

func (w *guardWorlds) get(key string) runtime.ExecutionContextID {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.m[key]
}

func (w *guardWorlds) set(key string, id runtime.ExecutionContextID) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.m == nil {
		w.m = map[string]runtime.ExecutionContextID{}
	}
	w.m[key] = id
}

// Arm checks that the element can take the action now and arms the guard.
// An element that cannot is a *NotActionable error and nothing is armed.
func (t *Tab) Arm(spec browser.GuardSpec) (browser.Guard, error) {
	g := &guard{t: t}
	opts := map[string]any{"verb": spec.Kind, "events": guardEvents(spec.Kind), "enabled": spec.Enabled, "stable": spec.Stable, "want": spec.Want, "follow": spec.Follow}
	if spec.Seen != nil {
		opts["seen"] = spec.Seen[:]
	}
	lvl, res, err := t.armOne(t.frames.sessionFor(spec.Node.Frame), spec.Node, opts)
	if err != nil {
		return nil, err
	}
	if res.Problem != "" {
		return nil, &browser.NotActionable{Problem: res.Problem}
	}
	g.armed, g.elem = browser.Armed{Box: res.Box, Value: res.Value, ValueInput: res.ValueInput, Aim: res.Aim, Pointerless: res.Pointerless}, lvl
	g.levels = append(g.levels, lvl)
	child := spec.Node.Frame
	for _, parent := range spec.Parents {
		ps := t.frames.sessionFor(parent)
		owner, err := t.frameOwner(ps, child)
		if err != nil {
			g.Finish()
			return nil, err
		}
		ownerOpts := map[string]any{"verb": browser.GuardClick, "events": ownerEvents(spec.Kind), "owner": true, "follow": spec.Follow}
		lvl, _, err := t.armOne(ps, domsnap.Key{Frame: parent, Backend: owner}, ownerOpts)
		if err != nil {
			g.Finish()
			return nil, err
		}
		g.levels = append(g.levels, lvl)
		child = parent
	}
	return g, nil
}

type armResult struct {
	Problem     string      `json:"problem"`
	Box         [4]float64  `json:"box"`
	Value       string      `json:"value"`
	Token       string      `json:"token"`
	ValueInput  bool        `json:"valueInput"`
	Aim         *[2]float64 `json:"aim"`
	Pointerless bool        `json:"pointerless"`
}

// armOne runs guard.js on one element in the isolated world of its frame.
func (t *Tab) armOne(session context.Context, n domsnap.Key, opts map[string]any) (armedGuard, armResult, error) {
	lvl := armedGuard{session: session}
	var res armResult
	err := t.callIn(session, "arm the input guard", func(ctx context.Context) error {
		obj, err := t.guardWorlds.resolveInWorld(ctx, session, n)
		if err != nil {
			return err
		}
		lvl.object = obj
		return cdpcall.CallFunction(ctx, obj, guardJS, &res, opts)
	})
	lvl.token = res.Token
	return lvl, res, err
}

// resolveInWorld gives the element's object in axfuse's isolated world of
// its frame, making the world when the frame has none (or a dead one).
func (w *guardWorlds) resolveInWorld(ctx context.Context, session context.Context, n domsnap.Key) (runtime.RemoteObjectID, error) {
	return cdpcall.ResolveInWorld(ctx, n.Backend, func(fresh bool) (runtime.ExecutionContextID, bool, error) {
		return w.frameWorld(ctx, session, n.Frame, fresh)
	})
}

// frameWorld is axfuse's isolated world of the frame, made once per
// document and kept per session and frame; anew (made true) when asked
// for a fresh one or none is kept. A world kept may be of a document the
// frame has since replaced: a caller whose call fails there asks again
// with fresh.
func (w *guardWorlds) frameWorld(ctx, session context.Context, frame string, fresh bool) (world runtime.ExecutionContextID, made bool, err error) {
	key := fmt.Sprintf("%p|%s", session, frame)
	if world = w.get(key); world != 0 && !fresh {
		return world, false, nil
	}
	r, err := cdpcall.Do(ctx, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: cdp.FrameID(frame), WorldName: "axfuse"})
	if err != nil {
		return 0, false, fmt.Errorf("Page.createIsolatedWorld: %w", err)
	}
	w.set(key, r.ExecutionContextID)
	return r.ExecutionContextID, true, nil
}

const finishJS = `function (token, keep) {
  const m = globalThis.__axfuseGuards, f = m && m.get(token);
  if (!f) return null;
  if (!keep) m.delete(token);
  return f(keep);
}`

// Finish disarms the guard and says what it saw. Safe to call twice.
func (g *guard) Finish() (browser.Verdict, error) { return g.read(false) }

// Peek says what the guard saw so far and leaves it armed (a field's focus
// checked before typing into it).
func (g *guard) Peek() (browser.Verdict, error) { return g.read(true) }

// Run calls fn, a JavaScript function whose this is the element, in the
// guard's isolated world (where the page cannot patch what it calls), and
// decodes its result into out (nil: ignored).
func (g *guard) Run(step, fn string, out any, args ...any) error {
	return g.t.callIn(g.elem.session, step, func(ctx context.Context) error {
		return cdpcall.CallFunction(ctx, g.elem.object, fn, out, args...)
	})
}

func (g *guard) read(keep bool) (browser.Verdict, error) {
	var v browser.Verdict
	var firstErr error
	for i, lvl := range g.levels {
		var raw struct {
			Blocked *browser.Interception `json:"blocked"`
			Events  int                   `json:"events"`
			Focused bool                  `json:"focused"`
			Focus   string                `json:"focus"`
			Checked bool                  `json:"checked"`
			Value   string                `json:"value"`
			Box     [4]float64            `json:"box"`
		}
		err := g.t.callIn(lvl.session, "read the input guard", func(ctx context.Context) error {
			return cdpcall.CallFunction(ctx, lvl.object, finishJS, &raw, lvl.token, keep)
		})
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if i == 0 {
			v.Events, v.Focused, v.Focus, v.Checked, v.Value, v.Box = raw.Events, raw.Focused, raw.Focus, raw.Checked, raw.Value, raw.Box
		}
		if raw.Blocked != nil && v.Blocked == nil {
			v.Blocked = raw.Blocked
			v.Blocked.Above = i > 0
		}
	}
	if !keep {
		g.levels = nil
	}
	return v, firstErr
}

// RunOn calls fn (this: the node's element) in axfuse's isolated world of
// the node's frame and decodes its result into out (nil: ignored).
func (t *Tab) RunOn(n domsnap.Key, step, fn string, out any, args ...any) error {
	session := t.frames.sessionFor(n.Frame)
	return t.callIn(session, step, func(ctx context.Context) error {
		obj, err := t.guardWorlds.resolveInWorld(ctx, session, n)
		if err != nil {
			return err
		}
		return cdpcall.CallFunction(ctx, obj, fn, out, args...)
	})
}

// ElementOn calls fn (this: the node's element) in the isolated world and
// names the element it returns, with its centre in the frame's viewport;
// ok false when fn returns no element.
func (t *Tab) ElementOn(n domsnap.Key, step, fn string, arg string) (found domsnap.Key, center [2]float64, ok bool, err error) {
	session := t.frames.sessionFor(n.Frame)
	err = t.callIn(session, step, func(ctx context.Context) error {
		obj, err := t.guardWorlds.resolveInWorld(ctx, session, n)
		if err != nil {
			return err
		}
		v, _ := json.Marshal(arg)
		r, err := cdpcall.Do(ctx, runtime.CallFunctionOn, runtime.CallFunctionOnParams{FunctionDeclaration: fn, ObjectID: obj, Arguments: []*runtime.CallArgument{{Value: v}}})
		if err != nil {
			return err
		}
		if r.ExceptionDetails != nil {
			return fmt.Errorf("%s", cdpcall.ExceptionText(r.ExceptionDetails))
		}
		if r.Result == nil || r.Result.ObjectID == "" || r.Result.Subtype != "node" {
			return nil
		}
		d, err := cdpcall.Do(ctx, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: r.Result.ObjectID})
		if err != nil || d.Node == nil {
			return err
		}
		const centre = `function () { const r = this.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }`
		if err := cdpcall.CallFunction(ctx, r.Result.ObjectID, centre, &center); err != nil {
			return err
		}
		found, ok = domsnap.Key{Frame: n.Frame, Backend: int64(d.Node.BackendNodeID)}, true
		return nil
	})
	return found, center, ok, err
}

// AXRoleName reads a node's role and name from the browser's
// accessibility tree now.
func (t *Tab) AXRoleName(n domsnap.Key) (role, name string, err error) {
	err = t.callIn(t.frames.sessionFor(n.Frame), "Accessibility.getPartialAXTree", func(ctx context.Context) error {
		res, err := cdpcall.Do(ctx, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{BackendNodeID: cdp.BackendNodeID(n.Backend), FetchRelatives: new(false)})
		if err != nil {
			return err
		}
		for _, a := range res.Nodes {
			if a != nil && int64(a.BackendDOMNodeID) == n.Backend {
				role, name = capture.ValueString(a.Role), capture.ValueString(a.Name)
				return nil
			}
		}
		return errors.New("no accessibility node")
	})
	return role, name, err
}
