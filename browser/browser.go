// Package browser is the vocabulary of the browser boundary: the plain
// data, errors and the one handle (Guard) that pass between a browser
// driver and the code that acts through it. It holds no code that talks to
// a browser. The Chrome driver (browser/chrome) produces these values;
// act, mcpserver and screenshot consume them through interfaces of their
// own (act.Page, mcpserver.Tab, screenshot.Camera), so that they build,
// and are unit-tested on recorded sessions, without chromedp, and a
// second driver has one place to meet.
package browser

import (
	"errors"
	"net/url"

	"github.com/axfuse/axfuse/domsnap"
)

// CaptureOptions say how much of the page a capture fetches.
type CaptureOptions struct {
	// Mode is domsnap.CaptureFull (default), CaptureViewport, or
	// CaptureAuto.
	Mode domsnap.CaptureMode
	// Margin grows the viewport on every side (CSS px) in viewport mode.
	Margin float64
	// OnCanvas, when set, is called once as soon as the capture learns that
	// a <canvas> of the top document meets the viewport, so the caller can
	// start what a canvas will likely need, a screenshot, alongside the
	// capture. (A canvas outside the viewport, or with no area, never needs
	// one: the fused view's regions are in view.)
	OnCanvas func()
	// Fresh walks the whole document even where the tab's last viewport
	// capture of it could be reused (an incremental capture): what a
	// measurement of whole captures needs.
	Fresh bool
}

// Hit is what a click at a point reaches: a node, named by its backend id
// within the target (process) that holds it.
type Hit struct {
	Target  string
	Backend int64
}

// GuardKind says which events an armed guard watches.
type GuardKind string

// Guard kinds.
const (
	GuardHover GuardKind = "hover" // the pointer's move onto the element
	GuardClick GuardKind = "click" // move, press, release, click
	GuardType  GuardKind = "type"  // a click that focuses, then keys and text input
	GuardKey   GuardKind = "key"   // keys to the focused element (focus given by script)
	GuardCheck GuardKind = "check" // a click on a checkbox, radio or switch (or its label)
	GuardDrag  GuardKind = "drag"  // the press that starts a drag and its dragstart
	GuardDrop  GuardKind = "drop"  // the drop end: dragenter, dragover, drop, release
)

// GuardSpec is an action about to reach one element.
type GuardSpec struct {
	Node domsnap.Key
	// Parents are the frames above the element's, nearest first: each
	// holds a guard on the <iframe> of the frame below it, so that an
	// overlay laid over the whole frame is stopped too.
	Parents []string
	Kind    GuardKind
	// Enabled requires the element (or the control it labels) enabled.
	Enabled bool
	// Stable requires its box unchanged over two animation frames; Seen,
	// when given, is its box (x, y, w, h in its frame's viewport) as an
	// earlier observation laid it out, which counts as the earlier frame.
	Stable bool
	Seen   *[4]float64
	// Want is the state a check action wants (false: uncheck).
	Want bool
	// Follow: the pointer may pass over other nodes on its way to the
	// press (it follows an element that a hover moved away from under
	// it). Those moves are stopped as ever, but do not stop the action;
	// the press and what follows must still reach the element.
	Follow bool `json:",omitempty"`
}

// Guard is armed on an element (and on the iframes above it) until
// Finish: it stops any event of the action that would reach something
// else, before a page handler runs.
type Guard interface {
	// Armed is the element as it was when the guard armed.
	Armed() Armed
	// Run calls a function (JavaScript source, `this` is the element) in
	// the guard's world; out, when not nil, takes its JSON result. A
	// thrown error says step failed.
	Run(step, fn string, out any, args ...any) error
	// Peek reads what the guard saw so far and leaves it armed.
	Peek() (Verdict, error)
	// Finish reads what the guard saw and disarms it.
	Finish() (Verdict, error)
}

// Armed is an element's state when its guard armed.
type Armed struct {
	// Box is its box (x, y, w, h in its frame's viewport); Value its value.
	Box   [4]float64
	Value string
	// ValueInput: a date, time, colour or range input, which takes a
	// value, not keys.
	ValueInput bool
	// Aim, when set, is where a press reaches the field and none of the
	// parts the browser draws inside it (a number field's spin buttons,
	// a search field's cancel button), in its frame's viewport; Pointerless:
	// those parts leave no such point, and the field is focused without a
	// pointer.
	Aim         *[2]float64 `json:",omitempty"`
	Pointerless bool        `json:",omitempty"`
}

// Verdict is what a guard saw once the action's input was sent.
type Verdict struct {
	// Blocked is set when the guard stopped the action's events.
	Blocked *Interception
	// Events counts the action's events that reached the element's window.
	Events int
	// Focused: the element (the field a type action is for) has the focus;
	// Focus names what has it.
	Focused bool
	Focus   string
	// Checked is the state of the checkbox, radio or switch after a check.
	Checked bool
	// Value is the element's aria-valuenow or value afterwards; Box its
	// box (x, y, w, h in its frame's viewport).
	Value string
	Box   [4]float64
}

// Interception is an event the guard stopped.
type Interception struct {
	Event string `json:"event"`
	// Hit names what the event would have reached (tag#id.class).
	Hit string `json:"hit"`
	// Inserted: that element was added to the page after the guard armed.
	Inserted bool `json:"inserted"`
	// Changed is set when the element itself changed (its text now) before
	// the press: a hover swapped its label or role.
	Changed string `json:"changed"`
	// Above: the event came in a frame above the element's, over its iframe.
	Above bool `json:"above,omitempty"`
	// Focus: the page's script moved the focus off the element (to Hit)
	// while one of the action's keys was being dispatched.
	Focus bool `json:"focus,omitempty"`
}

// NotActionable says why an element cannot take an action now; nothing
// was sent to it. Problem is one of: detached, hidden, disabled, readonly,
// moving, radio-uncheck, not-editable:WHAT, not-checkable:WHAT,
// not-pickable:WHAT.
type NotActionable struct{ Problem string }

func (e *NotActionable) Error() string { return "not actionable: " + e.Problem }

// Dialog is an open alert, confirm, prompt or beforeunload dialog: the
// page's script waits until it is answered.
type Dialog struct {
	Type, Message, DefaultPrompt string
}

// FileChooser is a file chooser the page opened (its native dialog is
// intercepted): the input element and whether it takes several files.
type FileChooser struct {
	Backend int64
	Frame   string
	Mode    string // "selectSingle" or "selectMultiple"
}

// TabInfo names a tab: its target id, URL and title.
type TabInfo struct{ ID, URL, Title string }

// OriginOf is a URL's scheme://host[:port], never its path or query: what
// an answer may say of an address the origin policy refused.
func OriginOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "an address that does not parse"
	}
	return u.Scheme + "://" + u.Host
}

// Blocked is a request the browser stopped at the network because the
// origin policy refused it: its origin only (never its path or query),
// and whether it was a document (a page, a frame, a popup).
type Blocked struct {
	Origin   string
	Document bool
	// Frame is the frame the request was for (a page's main frame has
	// its tab's target id).
	Frame string
}

// A ConsoleMessage is one console call or uncaught exception of the page.
type ConsoleMessage struct {
	Level  string // log, info, warning, error, debug, exception, ...
	Text   string // the page's words, one line, cut
	Source string // url:line when the browser says
}

// A Request is one network request of the page and how it ended.
type Request struct {
	Method, URL, Type string
	Status            int    // 0 until a response came
	Failed            string // why it failed (net::ERR_…), or ""
}

// A Response is the HTTP answer to a document's request (Status 0 when the
// load had none: about:blank, data:, a same-document navigation).
type Response struct {
	Status     int
	StatusText string
}

// Errors a driver's calls end with.
var (
	// ErrConnectionClosed: the browser exited or crashed, or the
	// connection dropped.
	ErrConnectionClosed = errors.New("the connection to the browser closed (the browser exited or crashed, or the connection dropped)")
	// ErrTabGone is the cause of calls cut short because the page's
	// renderer crashed or its tab was closed.
	ErrTabGone = errors.New("the tab is gone")
	// ErrStillLoading wraps a navigation's error when the load event did
	// not come within the wait but the document itself has been parsed:
	// the page is usable and the caller may observe it, with a warning.
	ErrStillLoading = errors.New("load event not fired")
	// ErrDialogOpen: a JavaScript dialog opened (or was open) while the
	// call waited on the page, whose script waits for the dialog: the call
	// was given up at once instead of at its deadline. The caller shows
	// the dialog (Page.OpenDialog).
	ErrDialogOpen = errors.New("a JavaScript dialog is open and the page waits for it")
	// ErrDocumentGone: the call named a node or object of a document that
	// is no longer there (the page navigated or re-rendered it away).
	ErrDocumentGone = errors.New("the document the call named is gone")
	// ErrContextGone: the script context the call ran in was destroyed
	// (its frame navigated or was detached). Such an error is also an
	// ErrDocumentGone: the context went with its document.
	ErrContextGone = errors.New("the script context the call named is gone")
)
