package act

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/internal/roles"
)

// verb is what an action's input does to its element, for the guard and
// for refusals.
type verb struct {
	kind    browser.GuardKind
	noun    string // "the click": what would land elsewhere
	enabled bool   // a disabled element refuses it
	// mustReach: its input is trusted events the guard counts, so a
	// read verdict with none means the page took none.
	mustReach bool
}

var (
	clickVerb = verb{browser.GuardClick, "the click", true, false}
	pressVerb = verb{browser.GuardClick, "the click", true, true}
	hoverVerb = verb{browser.GuardHover, "the pointer", false, false}
	typeVerb  = verb{browser.GuardType, "the typing", true, false}
	keyVerb   = verb{browser.GuardKey, "the key", true, false}
	checkVerb = verb{browser.GuardCheck, "the click", true, false}
	pickVerb  = verb{browser.GuardKey, "the choice", true, false}
	dragVerb  = verb{browser.GuardDrag, "the drag", true, false}
	dropVerb  = verb{browser.GuardDrop, "the drop", false, false}
)

// input sends an action's events once its guard is armed.
type input func(t Target, g browser.Guard) error

// guarded resolves ref and acts on it under the input-time guard. When the
// guard stopped the input, it observes afresh and, if the ref still names
// the element the agent saw, tries once more; a second stop is the answer.
func (s *Session) guarded(ref string, v verb, want bool, send input) (Target, browser.Verdict, error) {
	var stopped error
	follow := false
	for attempt := 0; attempt < 2; attempt++ {
		var g browser.Guard
		t, err := s.resolveRef(ref, attempt > 0, s.armed(v, want, follow, &g))
		if err != nil {
			if stopped != nil && !isBrowserError(err) {
				return t, browser.Verdict{}, stopped
			}
			return t, browser.Verdict{}, err
		}
		t.follow = follow
		verdict, err := s.sendGuarded(t, g, v, send)
		var b *blockedError
		if !errors.As(err, &b) {
			return t, verdict, err
		}
		if stopped == nil {
			stopped = err
		}
		if !b.beforeAnyEffect() {
			// Something of the input reached the page (a release, a key,
			// text): sent again it would happen twice (text typed
			// twice). The stop is the answer.
			return t, verdict, err
		}
		follow = b.missed()
	}
	return Target{}, browser.Verdict{}, stopped
}

// armed is the last check of a guarded action: the browser's hit test,
// the arming of the guard (with its actionability checks) and, from a
// stored observation, the element's role and name now, all at once: each
// is a round trip or two, and none needs another's answer. The armed guard
// is put in *g; on any failure it is disarmed.
func (s *Session) armed(v verb, want, follow bool, g *browser.Guard) confirm {
	return func(t Target, tree *fuse.Tree, from *Observed) error {
		var hitErr, armErr, liveErr error
		var wg sync.WaitGroup
		wg.Go(func() {
			if t.Located.NoPointer && (v.kind == browser.GuardType || v.kind == browser.GuardKey) {
				return // no pointer goes to it: keys reach it through the focus
			}
			hitErr = s.hitCheck(t, tree, from)
			var miss *hitMiss
			if follow && errors.As(hitErr, &miss) {
				// The element flickers under the pointer: where the hit
				// test lands now is chance. The pointer follows it and
				// the guard judges the press.
				hitErr = nil
			}
		})
		if from != nil {
			wg.Go(func() { liveErr = s.liveFingerprint(from, t) })
		}
		spec := s.spec(t, v, want)
		spec.Follow = follow
		*g, armErr = s.Tab.Arm(spec)
		wg.Wait()
		err := firstOf(liveErr, hitErr, refusal(t, v, armErr))
		if err != nil && *g != nil {
			(*g).Finish()
			*g = nil
		}
		return err
	}
}

// firstOf is the first error that is not nil.
func firstOf(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// guardedAt arms the guard on a target that is not a ref (an option of an
// ARIA list), then sends the input.
func (s *Session) guardedAt(t Target, v verb, want bool, send input) (browser.Verdict, error) {
	g, err := s.Tab.Arm(s.spec(t, v, want))
	if err != nil {
		return browser.Verdict{}, refusal(t, v, err)
	}
	return s.sendGuarded(t, g, v, send)
}

// sendGuarded sends the input under an armed guard and reads its verdict.
func (s *Session) sendGuarded(t Target, g browser.Guard, v verb, send input) (browser.Verdict, error) {
	ierr := send(t, g)
	s.inputAt = time.Now()
	if s.Tab.OpenDialog() != nil {
		// The page waits on the dialog the input opened, and a read of the
		// guard would wait too: it is read once the dialog is answered
		// (and stands down by itself if it never is).
		s.pending = g
		return browser.Verdict{}, ierr
	}
	verdict, ferr := g.Finish()
	if verdict.Blocked != nil {
		return verdict, &blockedError{t: t, v: v, b: verdict.Blocked, was: g.Armed().Value, now: verdict.Value}
	}
	if ierr != nil {
		return verdict, ierr
	}
	if ferr != nil && !documentGone(ferr) {
		return verdict, ferr
	}
	if ferr == nil && verdict.Events == 0 && v.mustReach && !g.Armed().Pointerless {
		// The guard read its page and saw no event of the input: the
		// page took none (one restored from the back/forward cache of a
		// browser axfuse attached to can be so). Not a success.
		return verdict, fmt.Errorf("%s on %s reached no element: the page took no input events; nothing was done (observe and try again)", v.noun, what(t))
	}
	// A document gone under the guard was replaced by the input (a link,
	// a submit): the events reached the element, nothing is left to read.
	return verdict, nil
}

// spec is the guard for one target.
func (s *Session) spec(t Target, v verb, want bool) browser.GuardSpec {
	sp := browser.GuardSpec{Node: t.Key, Parents: s.parents(t.Key.Frame), Kind: v.kind, Enabled: v.enabled, Stable: true, Want: want}
	if t.Located.HasBox {
		b := t.Located.FrameBox
		sp.Seen = &b
	}
	return sp
}

// parents lists the frames above a frame, nearest first, from the last
// observation.
func (s *Session) parents(frame string) []string {
	o := s.last.Load()
	if o == nil {
		return nil
	}
	parent := map[string]string{}
	for _, f := range o.Capture.Frames {
		parent[f.FrameID] = f.ParentFrameID
	}
	var out []string
	for p := parent[frame]; p != "" && len(out) < 32; p = parent[p] {
		out = append(out, p)
	}
	return out
}

// documentGone reports an error of a call on an element whose document
// has been replaced (a context gone went with its document). A tab gone,
// a closed connection or a call that got no answer in time is not one.
func documentGone(err error) bool {
	return errors.Is(err, browser.ErrDocumentGone)
}

// isBrowserError: the browser or tab is gone, not the element.
func isBrowserError(err error) bool {
	return errors.Is(err, browser.ErrConnectionClosed) || errors.Is(err, browser.ErrTabGone)
}

// what names a target as the agent saw it: ref e4 button "Pay".
func what(t Target) string {
	return "ref " + t.Ref + " " + fuse.Key(&fuse.Node{Role: t.Located.Fingerprint.Role, Name: t.Located.Fingerprint.Name})
}

// blockedError is an action the guard stopped.
type blockedError struct {
	t Target
	v verb
	b *browser.Interception
	// was and now are the element's value when the guard armed and when
	// it stopped: what the part of the input that got through changed.
	was, now string
}

// safeName keeps what the guard reports of a hit element to name
// characters: the page chose its id and classes.
var safeName = regexp.MustCompile(`[^A-Za-z0-9_#.\- ]`)

// missed: the pointer's events reached another node, before the press or
// at it, while the element stayed what the agent saw (a hover that moves
// it from under the pointer does this). A retry follows it.
func (e *blockedError) missed() bool {
	if e.b.Changed != "" || e.b.Inserted || e.b.Above {
		return false
	}
	switch e.v.kind {
	case browser.GuardClick, browser.GuardCheck, browser.GuardType, browser.GuardHover:
		return strings.HasPrefix(e.b.Event, "pointer") || strings.HasPrefix(e.b.Event, "mouse")
	}
	return false
}

// beforeAnyEffect: the guard stopped the input before it did anything
// that sending it again would do twice: on the pointer's way to the
// press, or at the press taken on the wrong element (no page handler saw
// it), or at a key the page answered by moving the focus, cancelled
// before any text went in (the focus was given back). A stop at the text
// itself (input), at a release or after is final.
func (e *blockedError) beforeAnyEffect() bool {
	if e.b.Changed != "" {
		return true // judged before the press
	}
	switch e.b.Event {
	case "pointerover", "pointermove", "pointerdown", "mouseover", "mousemove", "mousedown":
		return !e.b.Focus
	case "keydown", "keypress", "beforeinput":
		return e.b.Focus
	}
	return false
}

func (e *blockedError) Error() string {
	b := e.b
	if b.Changed != "" {
		return fmt.Sprintf("%s changed as the pointer reached it (now %s); nothing was done", what(e.t), fuse.Quote(fuse.DisplayName(strings.Join(strings.Fields(b.Changed), " "))))
	}
	hit := safeName.ReplaceAllString(b.Hit, "")
	if b.Focus && b.Event == "input" {
		return fmt.Sprintf("%s: the page moved the focus to %s as the text went in; what followed was stopped and the focus given back", what(e.t), hit)
	}
	if b.Focus {
		return fmt.Sprintf("%s: the page moved the focus to %s as the %s arrived; the keys were stopped there and the focus given back", what(e.t), hit, b.Event)
	}
	if b.Inserted {
		hit += " (inserted after the check)"
	}
	if b.Above {
		hit += " over its frame"
	}
	done := "nothing was done"
	noun := e.v.noun
	switch b.Event {
	case "pointerup", "mouseup", "click", "dblclick", "auxclick":
		noun, done = "the release", "the press reached it, the rest was stopped"
	case "drop", "dragenter", "dragover":
		noun, done = "the drop", "the drag was stopped before the drop"
	case "beforeinput", "keydown", "keypress", "keyup", "input":
		noun, done = "the keys", "they were stopped there"
	}
	if e.v.kind == browser.GuardDrop && (b.Event == "pointerup" || b.Event == "mouseup") {
		noun, done = "the drop", "the drag was stopped before the release (the page saw its press and moves, not the release)"
	}
	return fmt.Sprintf("%s: %s would land on %s; %s%s", what(e.t), noun, hit, done, e.changed())
}

// changed says how the element's value changed before the stop ("" when
// it did not): the press that got through may have stepped it.
func (e *blockedError) changed() string {
	if e.was == e.now {
		return ""
	}
	return fmt.Sprintf(" (its value went from %s to %s)", fuse.Quote(fuse.DisplayName(e.was)), fuse.Quote(fuse.DisplayName(e.now)))
}

// refusal words why the guard would not arm.
func refusal(t Target, v verb, err error) error {
	var na *browser.NotActionable
	if !errors.As(err, &na) {
		return err
	}
	p, detail, _ := strings.Cut(na.Problem, ":")
	why := map[string]string{
		"detached":      "is no longer in the page",
		"hidden":        "is not visible",
		"disabled":      "is disabled",
		"readonly":      "is read-only",
		"moving":        "is still moving (its box changed between animation frames for a second)",
		"radio-uncheck": "is a radio button, which only checking another one unchecks",
		"not-editable":  "is " + detail + ", not a field to type into" + hint(detail),
		"not-checkable": "is " + detail + ", not a checkbox, radio or switch",
		"not-pickable":  "is " + detail + ", not a <select>, listbox or combobox",
	}[p]
	if why == "" {
		why = "cannot take " + v.noun + " (" + na.Problem + ")"
	}
	return fmt.Errorf("%s %s; nothing was done", what(t), why)
}

func hint(el string) string {
	switch {
	case strings.Contains(el, "select"):
		return " (select picks an option)"
	case strings.Contains(el, "checkbox"), strings.Contains(el, "radio"):
		return " (check and uncheck set it)"
	case strings.Contains(el, "button"), strings.Contains(el, "<a>"):
		return " (click it)"
	}
	return ""
}

// liveFingerprint checks, before acting from a stored observation, that
// the browser's accessibility tree still gives the element the role and
// name that observation recorded: a label swapped since then (a timer,
// another tab's change) would make the click mean something else.
func (s *Session) liveFingerprint(o *Observed, t Target) error {
	role, name, ok := axOf(o, t.Key)
	if !ok {
		return nil
	}
	nowRole, nowName, err := s.Tab.AXRoleName(t.Key)
	if err != nil {
		return err
	}
	if nowRole != role || fuse.DisplayName(nowName) != fuse.DisplayName(name) {
		return fmt.Errorf("%s changed since the snapshot (now %s %s); nothing was done", what(t), roles.Printed(nowRole), fuse.Quote(fuse.DisplayName(nowName)))
	}
	return nil
}

// axOf is the role and name an observation's accessibility tree gave an
// element.
func axOf(o *Observed, k domsnap.Key) (role, name string, ok bool) {
	for _, f := range o.Capture.Frames {
		if f.FrameID != k.Frame {
			continue
		}
		for i := range f.AXNodes {
			if a := &f.AXNodes[i]; a.Backend == k.Backend && !a.Ignored {
				return a.Role, a.Name, true
			}
		}
	}
	return "", "", false
}
