package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"

	"github.com/chromedp/cdproto/runtime"
)

// The page side of a pixel run: the texts' elements found and registered
// in each frame's isolated world, made transparent and restored
// (pixels.js, pixelhide.js).

// register resolves the frame's parents in its isolated world and stores
// them there under the token; a parent not found keeps slot -1 (its
// probes are unsure), a frame that fails has no anchor.
func (r *pixelRun) register(ctx context.Context, f *pixelFrame) {
	backends := make([]int64, len(f.parents))
	for i, k := range f.parents {
		backends[i] = r.parents[k].backend
	}
	objs := r.e.resolveAll(ctx, f.session, f.id, backends)
	args := []*runtime.CallArgument{{Value: jsonValue(r.token)}}
	var found []int // indexes in f.parents, in argument order
	for i, obj := range objs {
		if obj != "" {
			args = append(args, &runtime.CallArgument{ObjectID: obj})
			found = append(found, i)
		}
	}
	if len(found) == 0 {
		return
	}
	var ok []bool
	err := r.e.pixelStep(ctx, f.session, "register the texts' parents", pixelStyleTimeout, func(ctx context.Context) error {
		return callObjects(ctx, objs[found[0]], registerJS, args, &ok)
	})
	if err != nil || len(ok) != len(found) {
		return
	}
	f.anchor = objs[found[0]]
	for j, i := range found {
		if ok[j] {
			r.parents[f.parents[i]].slot = j
		}
	}
}

// resolveAll resolves nodes in the frame's isolated world ("" for a node
// not found). resolveInWorld makes a new world when a node is gone (it
// cannot tell that from a stale world), so after a failure the others are
// resolved again: every object ends in the one world current then.
func (e *Engine) resolveAll(ctx, session context.Context, frame string, backends []int64) []runtime.RemoteObjectID {
	objs := make([]runtime.RemoteObjectID, len(backends))
	live := make([]int, len(backends))
	for i := range live {
		live[i] = i
	}
	for range 3 {
		var failed atomic.Bool
		resolve := func(i int) bool {
			objs[i] = ""
			err := e.pixelStep(ctx, session, "DOM.resolveNode", pixelStyleTimeout, func(ctx context.Context) error {
				obj, err := e.resolveInWorld(ctx, session, frame, backends[i])
				objs[i] = obj
				return err
			})
			if err != nil {
				objs[i] = ""
				failed.Store(true)
			}
			return err == nil
		}
		// The first that resolves makes (or checks) the world the rest,
		// resolved at once, find in the cache.
		first := 0
		for first < len(live) && !resolve(live[first]) {
			first++
		}
		if first < len(live) {
			parallel(len(live)-first-1, 8, func(j int) { resolve(live[first+1+j]) })
		}
		if !failed.Load() {
			return objs
		}
		live = live[:0]
		for i, obj := range objs {
			if obj != "" {
				live = append(live, i)
			}
		}
		if len(live) == 0 {
			return objs
		}
	}
	return make([]runtime.RemoteObjectID, len(backends)) // nodes keep going away
}

func jsonValue(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// callObjects is callFunction with ready-made arguments (remote objects).
func callObjects(ctx context.Context, this runtime.RemoteObjectID, fn string, args []*runtime.CallArgument, out any) error {
	res, err := cdpcall.Do(ctx, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: fn, ObjectID: this, Arguments: args, AwaitPromise: new(true), ReturnByValue: new(true),
	})
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return errors.New(cdpcall.ExceptionText(res.ExceptionDetails))
	}
	if out != nil && res.Result != nil && len(res.Result.Value) > 0 {
		return json.Unmarshal(res.Result.Value, out)
	}
	return nil
}

// pixelStep runs one CDP step under the tab's call rules, its deadline
// cut to limit and ended early when ctx (the caller's) ends.
func (e *Engine) pixelStep(ctx, session context.Context, step string, limit time.Duration, f func(context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", step, err)
	}
	return e.callIn(session, step, func(c context.Context) error {
		c, cancel := context.WithTimeout(c, limit)
		defer cancel()
		defer context.AfterFunc(ctx, cancel)()
		return f(c)
	})
}

// style makes the chosen parents transparent in every frame at once (nil:
// none chosen in a frame means it is left alone).
func (r *pixelRun) style(ctx context.Context, hide, pin []bool) error {
	errs := make([]error, len(r.frames))
	parallel(len(r.frames), frameConcurrency, func(i int) {
		f := r.frames[i]
		h, p := r.slots(f, hide), r.slots(f, pin)
		if f.anchor == "" || len(h) == 0 {
			return
		}
		errs[i] = r.e.pixelStep(ctx, f.session, "make the texts transparent", pixelStyleTimeout, func(ctx context.Context) error {
			return cdpcall.CallFunction(ctx, f.anchor, hideJS, nil, r.token, h, p)
		})
	})
	return errors.Join(errs...)
}

// slots are the registered slots of a frame's parents chosen in pick.
func (r *pixelRun) slots(f *pixelFrame, pick []bool) []int {
	out := []int{}
	for _, k := range f.parents {
		if pick != nil && pick[k] && r.parents[k].slot >= 0 {
			out = append(out, r.parents[k].slot)
		}
	}
	return out
}

// restore puts back every style attribute the run changed, in every
// frame, whatever the caller's context says; drop also forgets the
// registered elements.
func (r *pixelRun) restore(drop bool) error {
	errs := make([]error, len(r.frames))
	parallel(len(r.frames), frameConcurrency, func(i int) {
		f := r.frames[i]
		if f.anchor == "" {
			return
		}
		errs[i] = r.e.pixelStep(context.Background(), f.session, "restore the texts' styles", pixelStyleTimeout, func(ctx context.Context) error {
			return cdpcall.CallFunction(ctx, f.anchor, restoreJS, nil, r.token, drop)
		})
	})
	return errors.Join(errs...)
}

// cleanup is the last restore, run on every path out of TextPixels.
func (r *pixelRun) cleanup() { _ = r.restore(true) }
