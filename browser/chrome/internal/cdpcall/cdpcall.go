// Package cdpcall holds the few ways of calling the browser that the
// Chrome driver (package chrome) and its capture engine (package capture)
// share: a command on the session a context carries, a function called on
// a page object, an expression whose DOM nodes come back as backend ids,
// and a page-side script called briefly once installed. It knows no tab:
// the session is always the caller's context.
//
// errors.go is the driver's one reader of error text, the browser's and
// chromedp's: it gives typed errors (a gone document or context, a launch
// that failed) and values (the status a handshake was refused with).
package cdpcall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// sessionKey marks a context whose commands go to a session of the
// driver's own (a lean websocket), not chromedp's.
type sessionKey struct{}

// WithSession gives a context whose commands Do sends to s; a nil s sends
// them to the chromedp session of ctx again.
func WithSession(ctx context.Context, s cdp.Session) context.Context {
	return context.WithValue(ctx, sessionKey{}, s)
}

// SessionOf is the session WithSession put on ctx, nil for none.
func SessionOf(ctx context.Context) cdp.Session {
	s, _ := ctx.Value(sessionKey{}).(cdp.Session)
	return s
}

// Do runs a command on the session of ctx: the driver's own, or chromedp's.
// Its error is classified (errors.go): a gone document or context is
// errors.Is browser.ErrDocumentGone / ErrContextGone.
func Do[P, R any](ctx context.Context, cmd cdp.Command[P, R], params P) (R, error) {
	var r R
	var err error
	if s := SessionOf(ctx); s != nil {
		r, err = cdp.Call(ctx, s, cmd, params)
	} else {
		r, err = chromedp.Call(ctx, cmd, params)
	}
	return r, Classify(err)
}

// CallFunction calls fn (a function declaration, this: the object) with
// JSON arguments, awaits a promise it returns, and decodes the result's
// value into out (nil: ignored).
func CallFunction(ctx context.Context, obj runtime.RemoteObjectID, fn string, out any, args ...any) error {
	cargs := make([]*runtime.CallArgument, len(args))
	for i, a := range args {
		v, err := json.Marshal(a)
		if err != nil {
			return err
		}
		cargs[i] = &runtime.CallArgument{Value: v}
	}
	r, err := Do(ctx, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: fn, ObjectID: obj, Arguments: cargs, AwaitPromise: new(true), ReturnByValue: new(true),
	})
	if err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return fmt.Errorf("%s", ExceptionText(r.ExceptionDetails))
	}
	if out != nil && r.Result != nil && len(r.Result.Value) > 0 {
		return json.Unmarshal(r.Result.Value, out)
	}
	return nil
}

// ExceptionText is what a script's exception says: its description, else
// the browser's text.
func ExceptionText(e *runtime.ExceptionDetails) string {
	if e.Exception != nil && e.Exception.Description != "" {
		return e.Exception.Description
	}
	return e.Text
}

// OneLine is the first line of s, at most 300 bytes: page text in an
// error or log line never spans lines.
func OneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// EvaluateDeep evaluates expr and returns its deep-serialized value, which
// carries each DOM node's backendNodeId: one round trip for any number of
// nodes. commandLine lets the expression use the console's helpers.
func EvaluateDeep(ctx context.Context, expr string, depth int64, commandLine bool) ([]byte, error) {
	res, err := Do(ctx, runtime.Evaluate, runtime.EvaluateParams{
		Expression:            expr,
		IncludeCommandLineAPI: &commandLine,
		Silent:                new(true),
		SerializationOptions:  NodeSerialization(depth),
	})
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, fmt.Errorf("script threw: %s", res.ExceptionDetails.Text)
	}
	if res.Result == nil || res.Result.DeepSerializedValue == nil {
		return nil, fmt.Errorf("no result")
	}
	return res.Result.DeepSerializedValue.Value, nil
}

// NodeSerialization asks for a result deep-serialized depth levels down,
// each DOM node in it as its backendNodeId and loaderId only.
func NodeSerialization(depth int64) *runtime.SerializationOptions {
	return &runtime.SerializationOptions{
		Serialization:        "deep",
		MaxDepth:             &depth,
		AdditionalParameters: []byte(`{"maxNodeDepth":0,"includeShadowTree":"none"}`),
	}
}

// Serialized is the shape of one deep-serialized value.
type Serialized struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
	Ref   int64           `json:"weakLocalObjectReference"`
}

// ErrNotInstalled is what an evaluation given to ShortElseInstall returns
// when the short call found no script installed.
var ErrNotInstalled = errors.New("not installed in this document")

// ShortElseInstall evaluates the short call, which finds the page-side
// script installed and sends only its arguments; when it finds none
// (ErrNotInstalled) it evaluates the install call, which sends the whole
// script and runs it. Scripts are installed once per document (or world):
// V8 keeps their optimized code, and later calls do not send them.
func ShortElseInstall(short, install string, eval func(expr string) error) error {
	err := eval(short)
	if !errors.Is(err, ErrNotInstalled) {
		return err
	}
	if err = eval(install); errors.Is(err, ErrNotInstalled) {
		return errors.New("the script did not install")
	}
	return err
}

// InstalledCall gives the two expressions that run body (statements that
// call f, the installed function, and return its answer) against the
// function source installs under key in the global scope: the short one
// evaluates to null when nothing is installed there yet.
func InstalledCall(key, source, body string) (short, install string) {
	short = fmt.Sprintf(`(() => { const f = Object.prototype.hasOwnProperty.call(globalThis, %q) ? globalThis[%q] : null;
		if (typeof f !== 'function') return null; %s })()`, key, key, body)
	install = fmt.Sprintf(`(() => { const f = globalThis[%q] = (%s); %s })()`, key, source, body)
	return short, install
}

// FrameOwner is the backend node id of the element (iframe, frame) that
// holds a frame, asked on the session of the frame's parent.
func FrameOwner(ctx context.Context, frame string) (int64, error) {
	res, err := Do(ctx, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: cdp.FrameID(frame)})
	return int64(res.BackendNodeID), err
}

// ResolveInWorld gives a node's object in an isolated world that world
// gives (fresh: made anew; made: it was). A world kept may be of a
// document the frame has since replaced (a reload keeps the frame id):
// the node is asked once more in a fresh one.
func ResolveInWorld(ctx context.Context, backend int64, world func(fresh bool) (runtime.ExecutionContextID, bool, error)) (runtime.RemoteObjectID, error) {
	for fresh := false; ; fresh = true {
		w, made, err := world(fresh)
		if err != nil {
			return "", err
		}
		fresh = fresh || made
		obj, err := Do(ctx, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: cdp.BackendNodeID(backend), ExecutionContextID: w})
		switch {
		case err == nil && obj.Object != nil && obj.Object.ObjectID != "":
			return obj.Object.ObjectID, nil
		case !fresh:
			continue
		case err != nil:
			return "", err
		}
		return "", fmt.Errorf("node %d is gone", backend)
	}
}
