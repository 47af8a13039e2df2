package replay

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/internal/keys"
	"github.com/axfuse/axfuse/mcpserver"
)

var _ mcpserver.Tab = (*Recorder)(nil)

// Recorder is a live tab that writes down every call and its answer.
type Recorder struct {
	in     mcpserver.Tab
	mu     sync.Mutex
	calls  []Call
	guards int
	taken  int // calls TakeSent has looked at
}

// Record wraps a live tab.
func Record(in mcpserver.Tab) *Recorder { return &Recorder{in: in} }

// Live is the wrapped tab, for what a scenario does to the page beside
// the code under test (it is not recorded).
func (r *Recorder) Live() mcpserver.Tab { return r.in }

// Calls are the calls recorded so far.
func (r *Recorder) Calls() []Call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Call(nil), r.calls...)
}

// TakeSent lists the input sent since the last TakeSent, as Tab.Sent
// spells it.
func (r *Recorder) TakeSent() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, c := range r.calls[r.taken:] {
		if inputOps[c.Op] {
			out = append(out, c.Op+string(compact(c.Args)))
		}
	}
	r.taken = len(r.calls)
	return out
}

func (r *Recorder) log(op string, args []any, result any, err error) {
	c := Call{Op: op, Err: recordError(err)}
	if args != nil {
		c.Args, _ = json.Marshal(args)
	}
	if result != nil {
		c.Result, _ = json.Marshal(result)
	}
	r.mu.Lock()
	r.calls = append(r.calls, c)
	r.mu.Unlock()
}

func (r *Recorder) TargetID() string {
	id := r.in.TargetID()
	r.log("TargetID", nil, id, nil)
	return id
}

func (r *Recorder) CaptureWith(o browser.CaptureOptions) (*domsnap.Capture, error) {
	var canvas bool
	inner := o
	if o.OnCanvas != nil {
		inner.OnCanvas = func() { canvas = true; o.OnCanvas() }
	}
	c, err := r.in.CaptureWith(inner)
	r.log("CaptureWith", a(o.Mode, o.Margin), captured{c, canvas}, err)
	return c, err
}

func (r *Recorder) HitTest(x, y float64) (browser.Hit, error) {
	h, err := r.in.HitTest(x, y)
	r.log("HitTest", a(x, y), h, err)
	return h, err
}

func (r *Recorder) ScrollIntoView(n domsnap.Key) error {
	err := r.in.ScrollIntoView(n)
	r.log("ScrollIntoView", a(n), nil, err)
	return err
}

func (r *Recorder) Arm(spec browser.GuardSpec) (browser.Guard, error) {
	g, err := r.in.Arm(spec)
	if err != nil {
		r.log("Arm", a(spec), nil, err)
		return nil, err
	}
	r.mu.Lock()
	r.guards++
	id := r.guards
	r.mu.Unlock()
	r.log("Arm", a(spec), armed{id, g.Armed()}, nil)
	return &recGuard{r: r, id: id, in: g}, nil
}

func (r *Recorder) RunOn(n domsnap.Key, step, fn string, out any, args ...any) error {
	err := r.in.RunOn(n, step, fn, out, args...)
	r.log("RunOn", a(n, step, fn, args), out, err)
	return err
}

func (r *Recorder) ElementOn(n domsnap.Key, step, fn string, arg string) (domsnap.Key, [2]float64, bool, error) {
	found, center, ok, err := r.in.ElementOn(n, step, fn, arg)
	r.log("ElementOn", a(n, step, fn, arg), elementOn{found, center, ok}, err)
	return found, center, ok, err
}

func (r *Recorder) AXRoleName(n domsnap.Key) (string, string, error) {
	role, name, err := r.in.AXRoleName(n)
	r.log("AXRoleName", a(n), [2]string{role, name}, err)
	return role, name, err
}

func (r *Recorder) Click(x, y float64, count int) error {
	err := r.in.Click(x, y, count)
	r.log("Click", a(x, y, count), nil, err)
	return err
}

func (r *Recorder) Press(x, y float64, count int) error {
	err := r.in.Press(x, y, count)
	r.log("Press", a(x, y, count), nil, err)
	return err
}

func (r *Recorder) Hover(x, y float64) error {
	err := r.in.Hover(x, y)
	r.log("Hover", a(x, y), nil, err)
	return err
}

func (r *Recorder) InsertText(text string) error {
	err := r.in.InsertText(text)
	r.log("InsertText", a(text), nil, err)
	return err
}

func (r *Recorder) PressChord(c keys.Chord) error {
	err := r.in.PressChord(c)
	r.log("PressChord", a(c), nil, err)
	return err
}

func (r *Recorder) Wheel(x, y, dy float64) error {
	err := r.in.Wheel(x, y, dy)
	r.log("Wheel", a(x, y, dy), nil, err)
	return err
}

func (r *Recorder) WheelXY(x, y, dx, dy float64) error {
	err := r.in.WheelXY(x, y, dx, dy)
	r.log("WheelXY", a(x, y, dx, dy), nil, err)
	return err
}

func (r *Recorder) Drag(x0, y0, x1, y1 float64) (bool, error) {
	html5, err := r.in.Drag(x0, y0, x1, y1)
	r.log("Drag", a(x0, y0, x1, y1), html5, err)
	return html5, err
}

func (r *Recorder) Settle(max time.Duration, since time.Time) browser.Settled {
	return r.in.Settle(max, since)
}

func (r *Recorder) Mark() int {
	m := r.in.Mark()
	r.log("Mark", nil, m, nil)
	return m
}

func (r *Recorder) Since(mark int) (errors, opened []string) {
	errors, opened = r.in.Since(mark)
	r.log("Since", a(mark), since{errors, opened}, nil)
	return errors, opened
}

func (r *Recorder) Describe(ids []string) ([]browser.TabInfo, error) {
	infos, err := r.in.Describe(ids)
	r.log("Describe", a(ids), infos, err)
	return infos, err
}

func (r *Recorder) OpenDialog() *browser.Dialog {
	d := r.in.OpenDialog()
	r.log("OpenDialog", nil, d, nil)
	return d
}

func (r *Recorder) AnswerDialog(accept bool, text string) error {
	err := r.in.AnswerDialog(accept, text)
	r.log("AnswerDialog", a(accept, text), nil, err)
	return err
}

func (r *Recorder) InterceptFileChoosers() error {
	err := r.in.InterceptFileChoosers()
	r.log("InterceptFileChoosers", nil, nil, err)
	return err
}

func (r *Recorder) OpenedFileChooser() *browser.FileChooser {
	fc := r.in.OpenedFileChooser()
	r.log("OpenedFileChooser", nil, fc, nil)
	return fc
}

func (r *Recorder) ForgetFileChooser() { r.in.ForgetFileChooser() }

func (r *Recorder) AnswerFileChooser(files []string) error {
	err := r.in.AnswerFileChooser(files)
	r.log("AnswerFileChooser", a(files), nil, err)
	return err
}

func (r *Recorder) SetFiles(n domsnap.Key, files []string) error {
	err := r.in.SetFiles(n, files)
	r.log("SetFiles", a(n, files), nil, err)
	return err
}

func (r *Recorder) Context() context.Context { return r.in.Context() }

func (r *Recorder) CapturePNG(ctx context.Context) ([]byte, error) {
	png, err := r.in.CapturePNG(ctx)
	r.log("CapturePNG", nil, png, err)
	return png, err
}

func (r *Recorder) Load(url string, wait time.Duration) (browser.Response, error) {
	resp, err := r.in.Load(url, wait)
	r.log("Load", a(url, wait), resp, err)
	return resp, err
}

func (r *Recorder) Navigate(url string, wait time.Duration) error {
	err := r.in.Navigate(url, wait)
	r.log("Navigate", a(url, wait), nil, err)
	return err
}

func (r *Recorder) Back() error {
	err := r.in.Back()
	r.log("Back", nil, nil, err)
	return err
}

func (r *Recorder) Forward() error {
	err := r.in.Forward()
	r.log("Forward", nil, nil, err)
	return err
}

func (r *Recorder) Reload(wait time.Duration) error {
	err := r.in.Reload(wait)
	r.log("Reload", a(wait), nil, err)
	return err
}

func (r *Recorder) Location() (string, string, error) {
	url, title, err := r.in.Location()
	r.log("Location", nil, [2]string{url, title}, err)
	return url, title, err
}

func (r *Recorder) BringToFront() error {
	err := r.in.BringToFront()
	r.log("BringToFront", nil, nil, err)
	return err
}

func (r *Recorder) Close() { r.in.Close() }

func (r *Recorder) ConsoleMessages() []browser.ConsoleMessage {
	m := r.in.ConsoleMessages()
	r.log("ConsoleMessages", nil, m, nil)
	return m
}

func (r *Recorder) Requests() []browser.Request {
	q := r.in.Requests()
	r.log("Requests", nil, q, nil)
	return q
}

func (r *Recorder) Evaluate(expression string) (string, error) {
	out, err := r.in.Evaluate(expression)
	r.log("Evaluate", a(expression), out, err)
	return out, err
}

func (r *Recorder) Resize(width, height int) error {
	err := r.in.Resize(width, height)
	r.log("Resize", a(width, height), nil, err)
	return err
}

func (r *Recorder) PDF() ([]byte, error) {
	b, err := r.in.PDF()
	r.log("PDF", nil, b, err)
	return b, err
}

// recGuard records a live guard's calls.
type recGuard struct {
	r  *Recorder
	id int
	in browser.Guard
}

func (g *recGuard) Armed() browser.Armed { return g.in.Armed() }

func (g *recGuard) Run(step, fn string, out any, args ...any) error {
	err := g.in.Run(step, fn, out, args...)
	g.r.log("Guard.Run", a(g.id, step, fn, args), out, err)
	return err
}

func (g *recGuard) Peek() (browser.Verdict, error) {
	v, err := g.in.Peek()
	g.r.log("Guard.Peek", a(g.id), v, err)
	return v, err
}

func (g *recGuard) Finish() (browser.Verdict, error) {
	v, err := g.in.Finish()
	g.r.log("Guard.Finish", a(g.id), v, err)
	return v, err
}
