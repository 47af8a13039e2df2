package act

import (
	"errors"
	"fmt"
	"strings"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/fuse"
)

// Fields: how type and fill put the caret in a field, and how they judge
// what the keys did (decision 2026-12-07-a-verb-is-judged-by-its-outcome).
// The events reaching the field are not enough: a spin button under the
// pointer steps the value, a page that takes the focus away mid-typing
// has the text typed twice. The field's value afterwards is the answer.

// field is a field's content as the guard's world reads it.
type field struct {
	// Value: an input's or textarea's value, a contenteditable's text.
	Value string `json:"value"`
	// Editable: a contenteditable (its text is judged loosely: the page
	// lays it out in elements of its own).
	Editable bool `json:"editable"`
	Secret   bool `json:"secret"` // a password field: its value is never printed
	// Keyed: an input without the selection API (number, email): its
	// caret goes to the end by key.
	Keyed bool `json:"keyed"`
	// Type is the input's type ("" for a textarea or contenteditable).
	Type string `json:"type"`
	// Focus: the document holds the focus (a tab nobody clicked in yet
	// does not, and keys sent to it reach no field).
	Focus bool `json:"focus"`
}

// fieldJS reads the field the guarded element stands for, one animation
// frame after it is called: an input handler that rewrites the value
// from a frame callback or a timer of 0 has run by then.
var fieldJS = pageFunction("field.js")

// focusJS gives the field the focus as element.focus() does, with no
// pointer, and says whether its document holds the focus.
const focusJS = `function () {
  const f = this.localName === 'label' && this.control ? this.control : this;
  f.focus({ preventScroll: true });
  return f.ownerDocument.hasFocus();
}`

// focusField focuses the guarded field without a pointer. A tab that
// never had the focus (the first action of a session) gets it first, as
// a person's first click in a window gives it: keys sent to a page
// without the focus reach no field.
func (s *Session) focusField(g browser.Guard) error {
	var has bool
	if err := g.Run("focus the field", focusJS, &has); err != nil {
		return err
	}
	if has {
		return nil
	}
	if err := s.Tab.BringToFront(); err != nil {
		return err
	}
	return g.Run("focus the field", focusJS, &has)
}

// caretIn puts the caret in the field: a click where it reaches the field
// and none of the parts the browser draws in it (Armed.Aim), or, where
// those parts leave no room or the field takes no pointer events, the
// focus without a pointer.
func (s *Session) caretIn(t Target, g browser.Guard) error {
	if g.Armed().Pointerless || t.Located.NoPointer {
		return s.focusField(g)
	}
	return s.clickOn(t, g, 1)
}

// typedOutcome says what is wrong with a field after typing text into it
// ("" when the field holds what the verb meant): exactly the text after a
// replace (fill, type --clear), the text added at its end otherwise.
func typedOutcome(before, after field, text string, replace bool) string {
	want := text
	if !replace {
		want = before.Value + text
	}
	got := after.Value
	switch {
	case after.Editable:
		// The page's own markup shapes a contenteditable's text: the
		// text must be there (and be all of it after a replace).
		norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
		if strings.Contains(norm(got), norm(text)) && (!replace || norm(got) == norm(text)) {
			return ""
		}
	case after.Type != "":
		// A one-line input drops line breaks as the browser's own
		// sanitizing does.
		want = strings.NewReplacer("\r\n", "", "\r", "", "\n", "").Replace(want)
		if got == want || (after.Type == "email" || after.Type == "url") && got == strings.TrimSpace(want) {
			return ""
		}
	default:
		if strings.ReplaceAll(got, "\r\n", "\n") == strings.ReplaceAll(want, "\r\n", "\n") {
			return ""
		}
	}
	return describeValue(after, got)
}

// describeValue says what a field holds, never a password's characters.
func describeValue(f field, v string) string {
	if f.Secret {
		return fmt.Sprintf("%d characters", len([]rune(v)))
	}
	return fuse.Quote(cut(fuse.DisplayName(v), 120))
}

// OutcomeError is an action whose input reached its element, but whose
// outcome is not what the verb names: the page or the control made it
// something else. What happened is said; nothing more was done.
type OutcomeError struct {
	Ref  string
	What string // the target as the agent saw it
	Verb string // "typed \"abc\" into"
	Got  string // what the element holds now
	Left string // what was left undone ("" or "it was not submitted")
}

func (e *OutcomeError) Error() string {
	s := fmt.Sprintf("%s %s, but it now holds %s", e.Verb, e.What, e.Got)
	if e.Left != "" {
		s += "; " + e.Left
	}
	return s
}

// typeKeys sends text into the focused field, the caret placed first,
// and checks the outcome before a submit.
func (s *Session) typeKeys(t Target, g browser.Guard, text string, clear, submit bool) error {
	var before field
	if err := g.Run("read the field", fieldJS, &before, false); err != nil {
		return err
	}
	if err := s.caretIn(t, g); err != nil {
		return err
	}
	if err := s.focused(t, g, "typed"); err != nil {
		return err
	}
	if err := g.Run("place the caret", caretJS, nil, clear); err != nil {
		return err
	}
	if before.Keyed && !clear {
		// A number or e-mail field has no selection API: its caret goes
		// to the end by key, as a person's End does.
		if err := s.Tab.PressChord(end); err != nil {
			return err
		}
	}
	if err := s.Tab.InsertText(text); err != nil {
		return err
	}
	var after field
	if err := g.Run("read the field", fieldJS, &after, true); err != nil {
		return err
	}
	if v, err := g.Peek(); err != nil || v.Blocked != nil {
		return err // a stop is read by Finish
	}
	if got := typedOutcome(before, after, text, clear); got != "" {
		e := &OutcomeError{Ref: t.Ref, What: what(t), Verb: "typed " + typedWhat(before, text) + " into", Got: got}
		if submit {
			e.Left = "it was not submitted"
		}
		return e
	}
	if submit {
		return s.Tab.PressChord(enter)
	}
	return nil
}

func typedWhat(f field, text string) string {
	if f.Secret {
		return fmt.Sprintf("%d characters", len([]rune(text)))
	}
	return fuse.Quote(cut(fuse.DisplayName(text), 80))
}

// saySoFar adds, to a stop that came once keys had reached the field (the
// page moved the focus as the text went in), what the field holds now:
// the text may be in already, and the answer must not say nothing was.
func (s *Session) saySoFar(t Target, err error) error {
	var b *blockedError
	if !errors.As(err, &b) || b.beforeAnyEffect() || t.Ref == "" {
		return err
	}
	var f field
	if s.Tab.RunOn(t.Key, "read the field", fieldJS, &f, false) != nil {
		return err
	}
	return fmt.Errorf("%w; the field now holds %s", err, describeValue(f, f.Value))
}
