package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/internal/keys"
	"github.com/axfuse/axfuse/mcpserver"
)

var _ mcpserver.Tab = (*Tab)(nil)

// inputOps are the calls that reach the page as input: what Sent lists.
var inputOps = map[string]bool{
	"Click": true, "Hover": true, "Press": true, "InsertText": true, "PressChord": true, "Wheel": true,
	"WheelXY": true, "Drag": true, "SetFiles": true, "AnswerFileChooser": true, "AnswerDialog": true,
}

// Tab plays one recorded tab back.
type Tab struct {
	mu       sync.Mutex
	queue    map[string][]Call
	played   map[string]int
	problems []string
	sent     []string
	ctx      context.Context
	cancel   context.CancelFunc
}

// NewTab plays these calls back.
func NewTab(calls []Call) *Tab {
	p := &Tab{queue: map[string][]Call{}, played: map[string]int{}}
	for _, c := range calls {
		p.queue[c.Op] = append(p.queue[c.Op], c)
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	return p
}

// ErrOffScript is what a call the recording does not hold fails with.
var ErrOffScript = errors.New("the recording does not hold this call (re-record with make record-sessions if the change is meant)")

// Problems are the calls that were off the recording: none, when the code
// under test asked the browser exactly what it asked while recording.
func (p *Tab) Problems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.problems...)
}

// Sent lists the input that reached the page (op and arguments), in order.
func (p *Tab) Sent() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.sent...)
}

// TakeSent is Sent, emptied.
func (p *Tab) TakeSent() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.sent
	p.sent = nil
	return s
}

// Played counts the calls of op answered so far.
func (p *Tab) Played(op string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.played[op]
}

// play answers op with its next recorded answer, decoded into out.
func (p *Tab) play(op string, args []any, out any) error {
	got, err := json.Marshal(args)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if inputOps[op] {
		p.sent = append(p.sent, op+string(got))
	}
	q, i := p.queue[op], p.played[op]
	if i >= len(q) {
		p.problems = append(p.problems, fmt.Sprintf("%s%s: the recording has %d such calls", op, got, len(q)))
		return fmt.Errorf("replay: %s%s: %w", op, got, ErrOffScript)
	}
	c := q[i]
	p.played[op]++
	if !bytes.Equal(compact(c.Args), got) {
		p.problems = append(p.problems, fmt.Sprintf("%s%s: recorded as %s%s", op, got, op, compact(c.Args)))
		return fmt.Errorf("replay: %s%s, recorded as %s: %w", op, got, compact(c.Args), ErrOffScript)
	}
	if out != nil && len(c.Result) > 0 {
		if err := json.Unmarshal(c.Result, out); err != nil {
			return fmt.Errorf("replay: %s: %w", op, err)
		}
	}
	return c.Err.err()
}

func compact(raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return []byte("null")
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// a lists call arguments.
func a(args ...any) []any { return args }

// captured is a capture's answer: the capture, and whether the capture
// told OnCanvas of a canvas in view.
type captured struct {
	Capture *domsnap.Capture `json:"capture"`
	Canvas  bool             `json:"canvas"`
}

func (p *Tab) TargetID() (id string) { p.play("TargetID", nil, &id); return id }

func (p *Tab) CaptureWith(o browser.CaptureOptions) (*domsnap.Capture, error) {
	var r captured
	err := p.play("CaptureWith", a(o.Mode, o.Margin), &r)
	if r.Canvas && o.OnCanvas != nil {
		o.OnCanvas()
	}
	if err == nil && r.Capture == nil {
		err = errors.New("replay: the recorded capture is empty")
	}
	return r.Capture, err
}

func (p *Tab) HitTest(x, y float64) (h browser.Hit, err error) {
	err = p.play("HitTest", a(x, y), &h)
	return h, err
}

func (p *Tab) ScrollIntoView(n domsnap.Key) error { return p.play("ScrollIntoView", a(n), nil) }

// armed is Arm's answer: the guard's number in the recording and the
// element's state.
type armed struct {
	ID    int           `json:"id"`
	Armed browser.Armed `json:"armed"`
}

func (p *Tab) Arm(spec browser.GuardSpec) (browser.Guard, error) {
	var r armed
	if err := p.play("Arm", a(spec), &r); err != nil {
		return nil, err
	}
	return &guard{p: p, id: r.ID, armed: r.Armed}, nil
}

func (p *Tab) RunOn(n domsnap.Key, step, fn string, out any, args ...any) error {
	return p.play("RunOn", a(n, step, fn, args), out)
}

// elementOn is ElementOn's answer.
type elementOn struct {
	Found  domsnap.Key `json:"found"`
	Center [2]float64  `json:"center"`
	OK     bool        `json:"ok"`
}

func (p *Tab) ElementOn(n domsnap.Key, step, fn string, arg string) (domsnap.Key, [2]float64, bool, error) {
	var r elementOn
	err := p.play("ElementOn", a(n, step, fn, arg), &r)
	return r.Found, r.Center, r.OK, err
}

func (p *Tab) AXRoleName(n domsnap.Key) (string, string, error) {
	var r [2]string
	err := p.play("AXRoleName", a(n), &r)
	return r[0], r[1], err
}

func (p *Tab) Click(x, y float64, count int) error { return p.play("Click", a(x, y, count), nil) }
func (p *Tab) Hover(x, y float64) error            { return p.play("Hover", a(x, y), nil) }
func (p *Tab) Press(x, y float64, count int) error { return p.play("Press", a(x, y, count), nil) }
func (p *Tab) InsertText(text string) error        { return p.play("InsertText", a(text), nil) }
func (p *Tab) PressChord(c keys.Chord) error       { return p.play("PressChord", a(c), nil) }
func (p *Tab) Wheel(x, y, dy float64) error        { return p.play("Wheel", a(x, y, dy), nil) }
func (p *Tab) WheelXY(x, y, dx, dy float64) error  { return p.play("WheelXY", a(x, y, dx, dy), nil) }

func (p *Tab) Drag(x0, y0, x1, y1 float64) (html5 bool, err error) {
	err = p.play("Drag", a(x0, y0, x1, y1), &html5)
	return html5, err
}

// Settle does not wait: the recording already holds the page as it was
// once it settled. How long the wait took is not recorded (it differs
// from run to run), so the answer is a wait of no time.
func (p *Tab) Settle(max time.Duration, _ time.Time) browser.Settled {
	return browser.Settled{Bound: max}
}

func (p *Tab) Mark() (m int) { p.play("Mark", nil, &m); return m }

// since is Since's answer.
type since struct {
	Errors []string `json:"errors"`
	Opened []string `json:"opened"`
}

func (p *Tab) Since(mark int) (errors, opened []string) {
	var r since
	p.play("Since", a(mark), &r)
	return r.Errors, r.Opened
}

func (p *Tab) Describe(ids []string) (infos []browser.TabInfo, err error) {
	err = p.play("Describe", a(ids), &infos)
	return infos, err
}

func (p *Tab) OpenDialog() (d *browser.Dialog) { p.play("OpenDialog", nil, &d); return d }

func (p *Tab) AnswerDialog(accept bool, text string) error {
	return p.play("AnswerDialog", a(accept, text), nil)
}

func (p *Tab) InterceptFileChoosers() error { return p.play("InterceptFileChoosers", nil, nil) }

func (p *Tab) OpenedFileChooser() (fc *browser.FileChooser) {
	p.play("OpenedFileChooser", nil, &fc)
	return fc
}

// ForgetFileChooser changes nothing the recording does not already hold:
// the next OpenedFileChooser answers as it did.
func (p *Tab) ForgetFileChooser() {}

func (p *Tab) AnswerFileChooser(files []string) error {
	return p.play("AnswerFileChooser", a(files), nil)
}

func (p *Tab) SetFiles(n domsnap.Key, files []string) error {
	return p.play("SetFiles", a(n, files), nil)
}

// Context ends when the tab is closed.
func (p *Tab) Context() context.Context { return p.ctx }

func (p *Tab) CapturePNG(context.Context) (png []byte, err error) {
	err = p.play("CapturePNG", nil, &png)
	return png, err
}

func (p *Tab) Load(url string, wait time.Duration) (r browser.Response, err error) {
	err = p.play("Load", a(url, wait), &r)
	return r, err
}

func (p *Tab) Navigate(url string, wait time.Duration) error {
	return p.play("Navigate", a(url, wait), nil)
}

func (p *Tab) Back() error                     { return p.play("Back", nil, nil) }
func (p *Tab) Forward() error                  { return p.play("Forward", nil, nil) }
func (p *Tab) Reload(wait time.Duration) error { return p.play("Reload", a(wait), nil) }

func (p *Tab) Location() (string, string, error) {
	var r [2]string
	err := p.play("Location", nil, &r)
	return r[0], r[1], err
}

func (p *Tab) BringToFront() error { return p.play("BringToFront", nil, nil) }

// Close ends the tab's context.
func (p *Tab) Close() { p.cancel() }

func (p *Tab) ConsoleMessages() (m []browser.ConsoleMessage) {
	p.play("ConsoleMessages", nil, &m)
	return m
}

func (p *Tab) Requests() (r []browser.Request) { p.play("Requests", nil, &r); return r }

func (p *Tab) Evaluate(expression string) (out string, err error) {
	err = p.play("Evaluate", a(expression), &out)
	return out, err
}

func (p *Tab) Resize(width, height int) error { return p.play("Resize", a(width, height), nil) }

func (p *Tab) PDF() (b []byte, err error) { err = p.play("PDF", nil, &b); return b, err }

// guard plays back a guard the recording armed.
type guard struct {
	p     *Tab
	id    int
	armed browser.Armed
}

func (g *guard) Armed() browser.Armed { return g.armed }

func (g *guard) Run(step, fn string, out any, args ...any) error {
	return g.p.play("Guard.Run", a(g.id, step, fn, args), out)
}

func (g *guard) Peek() (v browser.Verdict, err error) {
	err = g.p.play("Guard.Peek", a(g.id), &v)
	return v, err
}

func (g *guard) Finish() (v browser.Verdict, err error) {
	err = g.p.play("Guard.Finish", a(g.id), &v)
	return v, err
}
