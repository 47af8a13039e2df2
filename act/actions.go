package act

import (
	"fmt"
	"math"
	"strings"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/internal/keys"
)

// The actions: each resolves its ref (see Resolve), arms the input-time
// guard on its element (see guarded), acts with real input events, and
// waits for the page to settle. What the page did beside the action
// (errors, tabs it opened, what a drag moved) is in Notes afterwards.

// Click clicks a ref count times (2: a double click). An <option> ref is
// chosen in its <select> instead: a closed list's options have no box.
func (s *Session) Click(ref string, count int) error {
	if _, seen, ok := s.Refs.Lookup(ref); ok && seen.Tag == "option" {
		return s.chooseOption(ref)
	}
	return s.action(func() error {
		_, _, err := s.guarded(ref, pressVerb, false, func(t Target, g browser.Guard) error {
			if g.Armed().Pointerless {
				// A click anywhere on it would press a part of the field
				// (a narrow number field's spin buttons): a person's click
				// means the focus, which it gets without a pointer.
				s.note(what(t) + " was focused without a pointer: a press anywhere on it would reach its spin buttons")
				return s.focusField(g)
			}
			return s.clickOn(t, g, count)
		})
		return err
	})
}

// Hover moves the mouse over a ref.
func (s *Session) Hover(ref string) error {
	return s.action(func() error {
		_, _, err := s.guarded(ref, hoverVerb, false, func(t Target, g browser.Guard) error {
			return s.hoverOn(t, g)
		})
		return err
	})
}

// Type types text into an editable field (a text input, a textarea, a
// contenteditable, the field of a combobox, or the field a label names):
// it clicks the field where the click reaches it and none of its parts (a
// number field's spin buttons; too narrow for that: it focuses it without
// a pointer), checks that the field took the focus, and inserts the text
// at its end; clear replaces what it held. The field must then hold what
// was meant, else an *OutcomeError names what it holds; submit presses
// Enter only after that check. Date, time, colour and range inputs take
// the text as their value.
func (s *Session) Type(ref, text string, clear, submit bool) error {
	return s.action(func() error { return s.typeInto(ref, text, clear, submit) })
}

func (s *Session) typeInto(ref, text string, clear, submit bool) error {
	t, _, err := s.guarded(ref, typeVerb, false, func(t Target, g browser.Guard) error {
		if g.Armed().ValueInput {
			return runRefusing(t, g, "set the value", setValueJS, text)
		}
		return s.typeKeys(t, g, text, clear, submit)
	})
	return s.saySoFar(t, err)
}

var (
	enter, _ = keys.Parse("Enter")
	end, _   = keys.Parse("End")
)

// runRefusing runs js on the guarded element; a string it returns says
// why the element refuses the action.
func runRefusing(t Target, g browser.Guard, step, js string, args ...any) error {
	var problem string
	if err := g.Run(step, js, &problem, args...); err != nil {
		return err
	}
	if problem != "" {
		return fmt.Errorf("%s: %s; nothing was done", what(t), problem)
	}
	return nil
}

// focused checks, under the guard, that the element (or the field it
// stands for) has the focus before keys go to it.
func (s *Session) focused(t Target, g browser.Guard, nothing string) error {
	v, err := g.Peek()
	if err != nil || v.Blocked != nil {
		return err // a stop is read by Finish
	}
	if !v.Focused {
		return fmt.Errorf("%s did not take the focus (%s has it); nothing was %s", what(t), v.Focus, nothing)
	}
	return nil
}

// caretJS selects the field's text (replace) or puts the caret at its end.
var caretJS = pageFunction("caret.js")

// setValueJS gives a date, time, colour or range input its value as a
// person's choice does (input and change fire); a value the input refuses
// is a problem, as Playwright's fill says.
const setValueJS = `function (v) {
  const f = this.localName === 'label' && this.control ? this.control : this;
  f.focus();
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  set.call(f, v);
  if (f.value !== v && !(f.type === 'range' || f.type === 'color')) return 'the ' + f.type + ' input does not take ' + JSON.stringify(v.slice(0, 40));
  f.dispatchEvent(new Event('input', { bubbles: true }));
  f.dispatchEvent(new Event('change', { bubbles: true }));
  return '';
}`

// Fill types into several fields in order (ref → text), replacing their
// content.
func (s *Session) Fill(fields [][2]string) error {
	return s.action(func() error {
		for _, f := range fields {
			if err := s.typeInto(f[0], f[1], true, false); err != nil {
				return err
			}
		}
		return nil
	})
}

// Press gives a ref the focus (as element.focus() does: a click would
// activate a button) and presses a key or chord in Playwright's names:
// Enter, Tab, Shift+Tab, Control+A, ArrowLeft, a single character.
func (s *Session) Press(ref, key string) error {
	chord, err := keys.Parse(key)
	if err != nil {
		return err
	}
	return s.action(func() error {
		_, _, err := s.guarded(ref, keyVerb, false, func(t Target, g browser.Guard) error {
			if err := s.focusField(g); err != nil {
				return err
			}
			if err := s.focused(t, g, "pressed"); err != nil {
				return err
			}
			return s.Tab.PressChord(chord)
		})
		return err
	})
}

// PressFocused presses a key or chord on whatever has the focus.
func (s *Session) PressFocused(key string) error {
	chord, err := keys.Parse(key)
	if err != nil {
		return err
	}
	return s.action(func() error { return s.Tab.PressChord(chord) })
}

// Select picks an option by its label or value: of a <select>, or of an
// ARIA listbox or combobox (clicked open first when closed), by clicking
// the option.
func (s *Session) Select(ref, option string) error {
	if _, seen, ok := s.Refs.Lookup(ref); ok && seen.Tag == "option" {
		return fmt.Errorf("ref %s is an option: click it, or select it by its label on its <select>", ref)
	}
	var kind string
	var t Target
	return s.actionThen(func() error {
		var err error
		t, _, err = s.guarded(ref, pickVerb, false, func(t Target, g browser.Guard) error {
			if err := g.Run("read what the element is", pickKindJS, &kind); err != nil || kind != "select" {
				return err
			}
			return runRefusing(t, g, "select an option", selectJS, option)
		})
		switch {
		case err != nil || kind == "select":
			return err
		case kind == "listbox", kind == "combobox":
			return s.pickARIA(t, kind, option)
		}
		return refusal(t, pickVerb, &browser.NotActionable{Problem: "not-pickable:" + kind})
	}, func() error {
		if kind != "select" {
			return nil
		}
		// The page's change handler had its say: the option must still
		// be chosen (decision 2026-12-07-a-verb-is-judged-by-its-outcome).
		var now string
		if err := s.Tab.RunOn(t.Key, "read the choice", selectedJS, &now, option); err != nil || now == "" {
			return err
		}
		return &OutcomeError{Ref: t.Ref, What: what(t), Verb: "selected " + fuse.Quote(cut(fuse.DisplayName(option), 80)) + " in", Got: now}
	})
}

// selectedJS says "" when an option matching want is selected in the
// <select>, else what is selected (quoted labels, or "no option").
const selectedJS = `function (want) {
  const sel = this.localName === 'label' && this.control ? this.control : this;
  const chosen = [...sel.selectedOptions];
  const is = (o) => o.label.trim() === want || o.value === want || o.label.trim().toLowerCase() === want.trim().toLowerCase();
  if (chosen.some(is)) return '';
  return chosen.length ? chosen.slice(0, 5).map((o) => JSON.stringify(o.label.trim().slice(0, 40))).join(', ') : 'no option';
}`

const pickKindJS = `function () {
  const f = this.localName === 'label' && this.control ? this.control : this;
  if (f.localName === 'select') return 'select';
  const r = f.getAttribute('role') || '';
  if (r === 'listbox' || r === 'combobox') return r;
  if (f.localName === 'input' && f.getAttribute('list')) return 'combobox';
  return 'a <' + f.localName + '>';
}`

// selectJS picks among the options a person can see in the list: an
// option hidden (the attribute, display:none, visibility:hidden, in a
// hidden group) is never chosen, even when its label is the one asked
// for (a hidden "Large" beside the shown one would take the choice).
var selectJS = pageFunction("select.js")

// pickARIA clicks the option of an ARIA listbox or combobox, opening a
// closed combobox first; the option gets the same guard as a ref.
func (s *Session) pickARIA(t Target, kind, option string) error {
	if kind == "combobox" {
		var open bool
		if err := s.Tab.RunOn(t.Key, "is the list open", `function () { return this.getAttribute('aria-expanded') === 'true'; }`, &open); err != nil {
			return err
		}
		if !open {
			if _, _, err := s.guarded(t.Ref, clickVerb, false, func(t Target, g browser.Guard) error {
				return s.clickOn(t, g, 1)
			}); err != nil {
				return err
			}
			s.settle()
		}
	}
	n, at, ok, err := s.Tab.ElementOn(t.Key, "find the option", findOptionJS, option)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s has no visible option %q; nothing was done", what(t), option)
	}
	off := t.Located.FrameOffset
	opt := Target{Ref: t.Ref + "'s option", Key: domsnap.Key{Frame: n.Frame, Backend: n.Backend},
		X: int64(math.Round(at[0] + off[0])), Y: int64(math.Round(at[1] + off[1]))}
	opt.Located.Fingerprint.Role, opt.Located.Fingerprint.Name = "option", option
	_, err = s.guardedAt(opt, clickVerb, false, func(t Target, _ browser.Guard) error {
		return s.Tab.Click(float64(t.X), float64(t.Y), 1)
	})
	return err
}

// findOptionJS finds a visible [role=option] by its label: inside the
// element, in what it controls or owns, then anywhere in its document.
var findOptionJS = pageFunction("findoption.js")

// chooseOption selects an <option> ref in its <select>.
func (s *Session) chooseOption(ref string) error {
	key, seen, _ := s.Refs.Lookup(ref)
	return s.action(func() error {
		_, tree, err := s.observe()
		if err != nil {
			return err
		}
		loc, err := locate(tree, ref, key, seen)
		if err != nil {
			return err
		}
		var msg string
		if err := s.Tab.RunOn(key, "choose the option", chooseOptionJS, &msg); err != nil {
			return err
		}
		if msg != "" {
			return fmt.Errorf("%s %s; nothing was done", what(Target{Ref: ref, Located: loc}), msg)
		}
		return nil
	})
}

var chooseOptionJS = pageFunction("chooseoption.js")

// SetChecked checks or unchecks a checkbox, radio or switch (or the one a
// label names) by clicking it when its state differs, and verifies the
// state after.
func (s *Session) SetChecked(ref string, on bool) error {
	already := false
	var t Target
	return s.actionThen(func() error {
		var err error
		t, _, err = s.guarded(ref, checkVerb, on, func(t Target, g browser.Guard) error {
			var state bool
			if err := g.Run("read the state", checkedJS, &state); err != nil {
				return err
			}
			if already = state == on; already {
				return nil
			}
			return s.clickOn(t, g, 1)
		})
		return err
	}, func() error {
		if already {
			return nil
		}
		var state bool
		if err := s.Tab.RunOn(t.Key, "read the state", checkedJS, &state); err != nil {
			return err
		}
		if state != on {
			return fmt.Errorf("%s was clicked but is still %s: the page kept its state", what(t), map[bool]string{true: "checked", false: "unchecked"}[!on])
		}
		return nil
	})
}

const checkedJS = `function () {
  const f = this.localName === 'label' && this.control ? this.control : this;
  return f.localName === 'input' ? f.checked : f.getAttribute('aria-checked') === 'true';
}`

// ScrollTo scrolls a ref's element into view.
func (s *Session) ScrollTo(ref string) error {
	key, _, ok := s.Refs.Lookup(ref)
	if !ok {
		return fmt.Errorf("Ref %s not found in the current page snapshot", ref)
	}
	// Observing first finds the session of the ref's frame.
	if _, _, err := s.observe(); err != nil {
		return err
	}
	return s.action(func() error { return s.Tab.ScrollIntoView(key) })
}

// Scroll scrolls the page (ref "") or a scroll container by screens: "down",
// "up" or a signed number of CSS px.
func (s *Session) Scroll(ref, amount string) error {
	var dy float64
	switch strings.ToLower(amount) {
	case "down", "":
		dy = 600
	case "up":
		dy = -600
	default:
		if _, err := fmt.Sscanf(amount, "%g", &dy); err != nil || math.IsNaN(dy) || math.IsInf(dy, 0) || math.Abs(dy) > 1e6 {
			return fmt.Errorf("scroll amount %q: want down, up or a number of px (at most 1000000)", amount)
		}
	}
	x, y := 640.0, 360.0
	if ref != "" {
		t, err := s.Resolve(ref)
		if err != nil {
			return err
		}
		x, y = float64(t.X), float64(t.Y)
	}
	return s.action(func() error { return s.Tab.Wheel(x, y, dy) })
}

// Drag drags one ref onto another: an HTML5 drag and drop when the first
// is draggable, else a mouse drag (a slider's handle). The press must
// reach the first and the drop the second; Notes say what moved.
func (s *Session) Drag(from, to string) error {
	return s.action(func() error {
		a, err := s.Resolve(from)
		if err != nil {
			return err
		}
		b, err := s.Resolve(to)
		if err != nil {
			return err
		}
		ga, err := s.Tab.Arm(s.spec(a, dragVerb, false))
		if err != nil {
			return refusal(a, dragVerb, err)
		}
		gb, err := s.Tab.Arm(s.spec(b, dropVerb, false))
		if err != nil {
			ga.Finish()
			return refusal(b, dropVerb, err)
		}
		html5, derr := s.Tab.Drag(float64(a.X), float64(a.Y), float64(b.X), float64(b.Y))
		va, _ := ga.Finish()
		vb, _ := gb.Finish()
		switch {
		case va.Blocked != nil:
			return &blockedError{t: a, v: dragVerb, b: va.Blocked}
		case vb.Blocked != nil:
			return &blockedError{t: b, v: dropVerb, b: vb.Blocked}
		case derr != nil:
			return derr
		}
		s.note(dragNote(a, b, html5, ga.Armed(), va))
		return nil
	})
}

// dragNote says what a drag moved: the dragged element's box and value
// before and after.
func dragNote(a, b Target, html5 bool, before browser.Armed, after browser.Verdict) string {
	kind := "mouse drag"
	if html5 {
		kind = "HTML5 drag and drop"
	}
	n := fmt.Sprintf("dragged %s onto ref %s (%s)", what(a), b.Ref, kind)
	var changed []string
	dx, dy := after.Box[0]-before.Box[0], after.Box[1]-before.Box[1]
	if math.Abs(dx) >= 1 || math.Abs(dy) >= 1 {
		changed = append(changed, fmt.Sprintf("it moved %+.0f,%+.0f px", dx, dy))
	}
	if after.Value != before.Value {
		changed = append(changed, fmt.Sprintf("its value went from %s to %s", fuse.Quote(fuse.DisplayName(before.Value)), fuse.Quote(fuse.DisplayName(after.Value))))
	}
	if len(changed) == 0 {
		return n + ": it neither moved nor changed its value"
	}
	return n + ": " + strings.Join(changed, ", ")
}

// ClickAt clicks at a viewport point with no ref: nothing checks what it
// reaches (the agent asked for the point, for a canvas or a chart; locate
// says what is there). The page's answer is recorded as for any action.
func (s *Session) ClickAt(x, y float64, count int) error {
	return s.action(func() error { return s.Tab.Click(x, y, count) })
}

// WheelAt turns the mouse wheel at a viewport point by (dx, dy) CSS px.
func (s *Session) WheelAt(x, y, dx, dy float64) error {
	return s.action(func() error { return s.Tab.WheelXY(x, y, dx, dy) })
}
