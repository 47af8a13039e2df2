// Package act acts on a page by ref, the way an agent does after reading a
// snapshot, and never on another element than the one the agent saw. It
// resolves the ref through the session's ref table, refuses a ref whose
// element is gone or no longer looks like what the agent saw, scrolls the
// element into view, takes its clickable point from paintorder, checks
// with the browser that a click there reaches it, and then sends real
// input events under an input-time guard (Page.Arm): an event of the
// action that would reach anything else — an overlay laid on the first
// mouse move, a label swapped on hover — is stopped before a page handler
// runs, and the action fails with a one-line answer that says why and
// that nothing was done. Each verb checks its own actionability (a
// disabled button, typing into a <select>, checking a button are refused)
// and is judged by its outcome on the control (fields.go): a press on a
// field avoids the parts the browser draws in it (a number field's spin
// buttons), type, fill, select and check read the result back, and an
// outcome the page made something else is an *OutcomeError that says
// what the control holds, never a success. A stop after part of the input
// reached the page says what that part did, and is not sent again.
//
// A Session keeps the tab's ref table in a file under the user's cache
// directory, so `axfuse snapshot --cdp` and `axfuse act --cdp` in separate
// processes share refs. The CLI and the MCP server act through it alike.
package act

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/internal/textcut"
)

// Session is one tab and its refs.
type Session struct {
	Tab     Page
	Refs    *index.Table
	Options fuse.Options // view options; Refs is set by the session
	// Capture says how much of the page each observation fetches (full,
	// viewport or auto; default full). A ref that a viewport observation
	// does not hold is looked for in a full one before it counts as gone.
	Capture browser.CaptureOptions
	// Settle bounds the wait after an action for what it caused.
	Settle time.Duration
	// Cache makes Resolve start from the last complete observation instead
	// of capturing again; the browser's hit test still checks the target,
	// and a failed check observes afresh and tries once more. For a
	// long-lived session (the MCP server), not for one-shot processes.
	Cache bool
	// UploadRoot, when set, is the folder uploads must come from (after
	// symbolic links are followed): an agent's server gives files from
	// there only.
	UploadRoot string
	path       string
	last       atomic.Pointer[Observed]
	// done is what the last action did beside its input.
	done Done
	// pending is a guard left armed by an action that opened a dialog.
	pending browser.Guard
	// inputAt is when the last input was sent: the wait for the page to
	// settle counts from there, so reading the guard costs no time of its
	// own.
	inputAt time.Time
}

// DefaultSettle bounds the wait after an action when the caller sets none.
const DefaultSettle = 3 * time.Second

// Done is what an action did beside its input: notes for its answer (what
// a drag moved, script errors the page raised meanwhile) and the tabs it
// opened.
type Done struct {
	Notes  []string
	Opened []browser.TabInfo
	// Settled is how the wait after the input went (the last one, for
	// an action that waits twice); zero when the action sent no input.
	Settled browser.Settled
}

// Timings are the wait's parts as stage timings, for an observation's
// stats: each part's time from the input until it was over, and the
// whole wait.
func (d Done) Timings() []domsnap.Timing {
	st := d.Settled
	if st.Waited == 0 {
		return nil
	}
	var out []domsnap.Timing
	for _, p := range st.Parts {
		out = append(out, domsnap.Timing{Step: fmt.Sprintf("settle: %s (%d)", p.Name, p.Count), MS: ms(p.Done)})
	}
	whole := "settle: the whole wait"
	if st.HitBound {
		whole += " (stopped at its bound)"
	}
	return append(out, domsnap.Timing{Step: whole, MS: ms(st.Waited)})
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// LastDone is what the last action did beside its input.
func (s *Session) LastDone() Done { return s.done }

func (s *Session) note(n string) { s.done.Notes = append(s.done.Notes, n) }

// action runs one action: its input, the wait for the page to settle, and
// the record of what the page did meanwhile.
func (s *Session) action(f func() error) error { return s.actionThen(f, nil) }

// actionThen is action with a check that runs once the page settled.
func (s *Session) actionThen(f, after func() error) error {
	s.done = Done{}
	s.inputAt = time.Time{}
	mark := s.Tab.Mark()
	err := f()
	if err == nil {
		s.settle()
		if after != nil {
			err = after()
		}
	}
	s.record(mark)
	return err
}

// cut shortens s to at most n bytes, on a rune boundary.
func cut(s string, n int) string { return textcut.Bytes(s, n) }

// most script errors one answer lists.
const mostErrors = 5

func (s *Session) record(mark int) {
	errs, opened := s.Tab.Since(mark)
	for i, e := range errs {
		if i == mostErrors {
			s.note(fmt.Sprintf("and %d more page errors", len(errs)-mostErrors))
			break
		}
		// Quoted and cut short: the page wrote it, and no person saw it.
		s.note("page error during the action: " + fuse.Quote(cut(fuse.DisplayName(e), 160)))
	}
	if len(opened) > 0 {
		if infos, err := s.Tab.Describe(opened); err == nil {
			s.done.Opened = infos
		}
	}
}

// Observed is one complete observation: the capture, its fused tree, and
// the document it was of. It is replaced whole, never changed.
type Observed struct {
	Capture  *domsnap.Capture
	Tree     *fuse.Tree
	Document string
}

// Last is the session's last complete observation (nil before the first).
func (s *Session) Last() *Observed { return s.last.Load() }

// Open starts or resumes the session of a tab reached through endpoint.
func Open(tab Page, endpoint string, opts fuse.Options) (*Session, error) {
	path, err := SessionPath(endpoint, tab.TargetID())
	if err != nil {
		return nil, err
	}
	if err := tab.InterceptFileChoosers(); err != nil {
		return nil, err
	}
	return &Session{Tab: tab, Refs: LoadTable(path), Options: opts, Settle: DefaultSettle, path: path}, nil
}

// DocumentID names the top-level document of a capture: a new one (a
// navigation) gets new refs.
func DocumentID(c *domsnap.Capture) string {
	if len(c.Frames) == 0 {
		return ""
	}
	return c.Frames[0].FrameID + "/" + c.Frames[0].LoaderID
}

func (s *Session) options() fuse.Options {
	o := s.Options
	o.Refs = s.Refs
	return o
}

// observe captures the tab and builds the fused tree with the session's
// refs; it becomes the session's last observation.
func (s *Session) observe() (*domsnap.Capture, *fuse.Tree, error) {
	o, err := s.Observe(s.options())
	if err != nil {
		return nil, nil, err
	}
	return o.Capture, o.Tree, nil
}

// Observe captures the tab and fuses it with these view options (the
// session's refs): a complete observation, stored as the session's last.
func (s *Session) Observe(opts fuse.Options) (*Observed, error) {
	return s.ObserveNotifying(opts, nil)
}

// ObserveNotifying is Observe calling onCanvas (when not nil) as soon as
// the capture finds a <canvas> (browser.CaptureOptions.OnCanvas), so that
// the caller can take the screenshot a canvas usually needs alongside it.
func (s *Session) ObserveNotifying(opts fuse.Options, onCanvas func()) (*Observed, error) {
	co := CaptureFor(s.Capture, opts)
	co.OnCanvas = onCanvas
	return s.observeWith(opts, co)
}

// CaptureFor is the capture a view needs: a view of the whole page (every
// off-screen node kept, a scope, the AX-only view) needs a full capture.
func CaptureFor(o browser.CaptureOptions, view fuse.Options) browser.CaptureOptions {
	if view.Offscreen == fuse.OffscreenKeep || view.Scope != "" || view.Mode == fuse.ModeAX {
		o.Mode = domsnap.CaptureFull
	}
	o.Margin = view.Margin
	return o
}

// ObserveAll is Observe with a full capture, for searches of the whole
// page (find, waiting for a text).
func (s *Session) ObserveAll(opts fuse.Options) (*Observed, error) {
	return s.observeWith(opts, browser.CaptureOptions{Mode: domsnap.CaptureFull})
}

func (s *Session) observeWith(opts fuse.Options, co browser.CaptureOptions) (*Observed, error) {
	c, err := s.Tab.CaptureWith(co)
	if err != nil {
		return nil, err
	}
	doc := DocumentID(c)
	s.Refs.Document(doc)
	opts.Refs = s.Refs
	o := &Observed{Capture: c, Tree: fuse.FromCapture(c, opts), Document: doc}
	s.last.Store(o)
	return o, nil
}

// Snapshot observes the tab, records the refs the agent now sees, and
// returns the observation.
func (s *Session) Snapshot() (*fuse.Observation, error) {
	if d := s.Tab.OpenDialog(); d != nil {
		// The page's script waits for the dialog; only the dialog is there
		// to act on.
		return DialogObservation(d), nil
	}
	c, err := s.Tab.CaptureWith(CaptureFor(s.Capture, s.Options))
	if err != nil {
		if d := s.Tab.OpenDialog(); d != nil && errors.Is(err, browser.ErrDialogOpen) {
			return DialogObservation(d), nil // it opened while the capture waited
		}
		return nil, err
	}
	s.Refs.Document(DocumentID(c))
	obs := fuse.Snapshot(c, s.options())
	return obs, s.Save()
}

// DialogObservation says which dialog is open and that the page waits.
func DialogObservation(d *browser.Dialog) *fuse.Observation {
	text := fmt.Sprintf("%s dialog open with %s; the page waits until it is answered", d.Type, fuse.Quote(fuse.DisplayName(d.Message)))
	yaml := fuse.YAML([]*fuse.Node{{Role: "note", Text: text}})
	return &fuse.Observation{Mode: fuse.ModeFused, Snapshot: yaml, Elements: []fuse.Element{}}
}

// AnswerOpenDialog answers a JavaScript dialog that an action opened
// (accept, with text for a prompt, or dismiss) and says what it did; ""
// when no dialog is open.
func (s *Session) AnswerOpenDialog(accept bool, text string) (string, error) {
	d := s.Tab.OpenDialog()
	if d == nil {
		return "", nil
	}
	if err := s.Tab.AnswerDialog(accept, text); err != nil {
		return "", fmt.Errorf("answering the %s dialog: %w", d.Type, err)
	}
	if g := s.pending; g != nil {
		s.pending = nil
		g.Finish()
	}
	did := "dismissed"
	if accept {
		did = "accepted"
		if text != "" {
			did += " with " + fuse.Quote(fuse.DisplayName(text))
		}
	}
	s.settle()
	return fmt.Sprintf("%s dialog %s was %s", d.Type, fuse.Quote(fuse.DisplayName(d.Message)), did), nil
}

// OpenedFileChooser says which file chooser an action opened, naming the
// input's ref ("" for an input with no ref) and what answers it (how is
// the caller's command, given the ref); "" when none did.
func (s *Session) OpenedFileChooser(how func(ref string) string) string {
	fc := s.Tab.OpenedFileChooser()
	if fc == nil {
		return ""
	}
	many := "a file"
	if fc.Mode == "selectMultiple" {
		many = "files"
	}
	for _, f := range s.frames() {
		if ref, ok := s.Refs.Known(domsnap.Key{Frame: f, Backend: fc.Backend}); ok {
			return fmt.Sprintf("file chooser opened for %s, give it %s with %s", ref, many, how(ref))
		}
	}
	return fmt.Sprintf("a file chooser opened for an input with no ref, give it %s with %s", many, how(""))
}

// frames lists the frame ids the session's refs belong to.
func (s *Session) frames() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range s.Refs.All() {
		if k, _, ok := s.Refs.Lookup(r); ok && !seen[k.Frame] {
			seen[k.Frame] = true
			out = append(out, k.Frame)
		}
	}
	return out
}

// settle waits, at most Settle, for what the action caused; a wait that
// ran to its bound says so in the answer, with what was still pending.
func (s *Session) settle() {
	st := s.Tab.Settle(s.Settle, s.inputAt)
	s.done.Settled = st
	if sum := st.Summary(); sum != "" {
		s.note(sum)
	}
}

// Upload gives files to a file input by ref, or (ref "") to the file
// chooser an earlier action opened. A ref that is not a file input is
// clicked, under the guard, and the chooser its click opens takes the
// files. Each file must exist, be a readable regular file and, with an
// UploadRoot, lie below it once symbolic links are followed.
func (s *Session) Upload(ref string, files []string) error {
	files, err := s.checkFiles(files)
	if err != nil {
		return err
	}
	return s.action(func() error {
		if ref == "" {
			if s.Tab.OpenedFileChooser() == nil {
				return errors.New("no file chooser is open: click what opens it, or give the file input's ref")
			}
			return s.Tab.AnswerFileChooser(files)
		}
		var isFile bool
		_, _, err := s.guarded(ref, clickVerb, false, func(t Target, g browser.Guard) error {
			if err := g.Run("read the input's type", `function () { const f = this.localName === 'label' && this.control ? this.control : this; return f.localName === 'input' && f.type === 'file'; }`, &isFile); err != nil || isFile {
				return err
			}
			s.Tab.ForgetFileChooser()
			return s.clickOn(t, g, 1)
		})
		if err != nil {
			return err
		}
		if isFile {
			key, _, _ := s.Refs.Lookup(ref)
			return s.Tab.SetFiles(key, files)
		}
		s.settle()
		if s.Tab.OpenedFileChooser() == nil {
			return fmt.Errorf("clicking ref %s opened no file chooser; nothing was uploaded", ref)
		}
		return s.Tab.AnswerFileChooser(files)
	})
}

// checkFiles makes each path absolute and checks it: there, readable, a
// regular file, within UploadRoot when one is set.
func (s *Session) checkFiles(files []string) ([]string, error) {
	if len(files) == 0 {
		return nil, errors.New("upload: give at least one file")
	}
	root := ""
	if s.UploadRoot != "" {
		r, err := filepath.EvalSymlinks(s.UploadRoot)
		if err != nil {
			return nil, fmt.Errorf("upload root: %w", err)
		}
		if root, err = filepath.Abs(r); err != nil {
			return nil, err
		}
	}
	out := make([]string, len(files))
	for i, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("upload: %s: no such file", f)
		}
		if root != "" {
			if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return nil, fmt.Errorf("upload: %s is outside the allowed folder %s", f, s.UploadRoot)
			}
		}
		st, err := os.Stat(real)
		if err != nil || !st.Mode().IsRegular() {
			return nil, fmt.Errorf("upload: %s is not a regular file", f)
		}
		fh, err := os.Open(real)
		if err != nil {
			return nil, fmt.Errorf("upload: %s cannot be read", f)
		}
		fh.Close()
		out[i] = real
	}
	return out, nil
}
