package act

import (
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/internal/keys"
)

// Page is the tab a Session acts on: what act needs of a browser, and no
// more. The Chrome driver's *browser.Tab is one; the tests' recorded
// sessions (internal/testkit/replay) are another. Points are CSS px in the
// top-level viewport; nodes are named by their domsnap.Key.
type Page interface {
	// TargetID is the browser's id of the tab, stable while it lives.
	TargetID() string
	// CaptureWith captures the page as plain data.
	CaptureWith(browser.CaptureOptions) (*domsnap.Capture, error)
	// HitTest says which node a click at (x, y) reaches.
	HitTest(x, y float64) (browser.Hit, error)
	// ScrollIntoView scrolls a node into view if it is not.
	ScrollIntoView(domsnap.Key) error

	// Arm checks that an element can take an action now and arms a guard
	// on it; an element that cannot is a *browser.NotActionable error.
	Arm(browser.GuardSpec) (browser.Guard, error)
	// RunOn calls a function (JavaScript source, `this` is the node) in
	// the node's frame; out, when not nil, takes its JSON result.
	RunOn(n domsnap.Key, step, fn string, out any, args ...any) error
	// ElementOn calls fn with arg on n and resolves the element it returns
	// (ok false for none), with its box's centre.
	ElementOn(n domsnap.Key, step, fn string, arg string) (found domsnap.Key, center [2]float64, ok bool, err error)
	// AXRoleName is the node's accessible role and name now.
	AXRoleName(domsnap.Key) (role, name string, err error)

	// BringToFront makes the tab the browser's front one, with the focus
	// (keys reach a field only in a page that holds it).
	BringToFront() error

	Click(x, y float64, count int) error
	// Press presses and releases the left button count times at (x, y),
	// where the pointer already is (Hover).
	Press(x, y float64, count int) error
	Hover(x, y float64) error
	InsertText(text string) error
	PressChord(keys.Chord) error
	Wheel(x, y, dy float64) error
	WheelXY(x, y, dx, dy float64) error
	// Drag presses at (x0, y0), moves to (x1, y1) and releases; html5
	// says the page started an HTML5 drag, which the browser completed.
	Drag(x0, y0, x1, y1 float64) (html5 bool, err error)

	// Settle waits, at most max from since (the input; zero: now), until
	// what the input caused is over, and says how the wait went.
	Settle(max time.Duration, since time.Time) browser.Settled
	// Mark and Since bracket an action: the script errors the page raised
	// and the tabs it opened in between.
	Mark() int
	Since(mark int) (errors, opened []string)
	// Describe names tabs by target id.
	Describe(ids []string) ([]browser.TabInfo, error)

	// OpenDialog is the JavaScript dialog the page waits on, or nil.
	OpenDialog() *browser.Dialog
	AnswerDialog(accept bool, text string) error

	// InterceptFileChoosers makes file choosers events instead of native
	// dialogs; OpenedFileChooser is the last one opened, or nil.
	InterceptFileChoosers() error
	OpenedFileChooser() *browser.FileChooser
	ForgetFileChooser()
	AnswerFileChooser(files []string) error
	SetFiles(n domsnap.Key, files []string) error
}
