package act

import (
	"fmt"
	"strings"
)

// The actions: each resolves its ref (see Resolve), acts with real input
// events, and waits for the page to settle.

// Click clicks a ref count times (2: a double click).
func (s *Session) Click(ref string, count int) error {
	t, err := s.Resolve(ref)
	if err != nil {
		return err
	}
	return s.settled(s.Tab.Click(float64(t.X), float64(t.Y), count))
}

// Hover moves the mouse over a ref.
func (s *Session) Hover(ref string) error {
	t, err := s.Resolve(ref)
	if err != nil {
		return err
	}
	return s.settled(s.Tab.Hover(float64(t.X), float64(t.Y)))
}

// Type clicks a field and types text; clear replaces what it held, submit
// presses Enter after.
func (s *Session) Type(ref, text string, clear, submit bool) error {
	t, err := s.Resolve(ref)
	if err != nil {
		return err
	}
	if err := s.Tab.Click(float64(t.X), float64(t.Y), 1); err != nil {
		return err
	}
	if clear {
		if err := s.Tab.SelectAll(); err != nil {
			return err
		}
	}
	if err := s.Tab.InsertText(text); err != nil {
		return err
	}
	if submit {
		if err := s.Tab.Keys("\r"); err != nil {
			return err
		}
	}
	return s.settle()
}

// Fill types into several fields in order (ref → text), replacing their
// content.
func (s *Session) Fill(fields [][2]string) error {
	for _, f := range fields {
		if err := s.Type(f[0], f[1], true, false); err != nil {
			return err
		}
	}
	return nil
}

// keyNames maps key names to what chromedp's KeyEvent sends.
var keyNames = map[string]string{"Enter": "\r", "Tab": "\t", "Backspace": "\b", "Escape": "\u001b", "Space": " "}

// Press focuses a ref (by clicking it) and presses a key: Enter, Tab,
// Escape, Backspace, Space, or literal text.
func (s *Session) Press(ref, key string) error {
	t, err := s.Resolve(ref)
	if err != nil {
		return err
	}
	if err := s.Tab.Click(float64(t.X), float64(t.Y), 1); err != nil {
		return err
	}
	return s.PressFocused(key)
}

// PressFocused presses a key on whatever has the focus.
func (s *Session) PressFocused(key string) error {
	k, ok := keyNames[key]
	if !ok {
		k = key
	}
	return s.settled(s.Tab.Keys(k))
}

// Select picks an option of a <select> by its label or value.
func (s *Session) Select(ref, option string) error {
	t, err := s.Resolve(ref)
	if err != nil {
		return err
	}
	if t.Located.Fingerprint.Tag != "select" {
		return fmt.Errorf("ref %s is %s, not a <select>; nothing was done", ref, describe(t.Located.Fingerprint))
	}
	return s.settled(s.Tab.SelectOption(node(t.Key), option))
}

// SetChecked checks or unchecks a checkbox, radio or switch by clicking it
// when its state differs.
func (s *Session) SetChecked(ref string, on bool) error {
	t, err := s.Resolve(ref)
	if err != nil {
		return err
	}
	checked, err := s.Tab.Checked(node(t.Key))
	if err != nil {
		return err
	}
	if checked == on {
		return nil
	}
	return s.settled(s.Tab.Click(float64(t.X), float64(t.Y), 1))
}

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
	return s.settled(s.Tab.ScrollIntoView(node(key)))
}

// Scroll scrolls the page (ref "") or a scroll container by screens: "down",
// "up" or a signed number of CSS px.
func (s *Session) Scroll(ref, amount string) error {
	x, y := 640.0, 360.0
	if ref != "" {
		t, err := s.Resolve(ref)
		if err != nil {
			return err
		}
		x, y = float64(t.X), float64(t.Y)
	}
	var dy float64
	switch strings.ToLower(amount) {
	case "down", "":
		dy = 600
	case "up":
		dy = -600
	default:
		if _, err := fmt.Sscanf(amount, "%g", &dy); err != nil {
			return fmt.Errorf("scroll amount %q: want down, up or a number of px", amount)
		}
	}
	return s.settled(s.Tab.Wheel(x, y, dy))
}

// Drag drags one ref onto another with real mouse events.
func (s *Session) Drag(from, to string) error {
	a, err := s.Resolve(from)
	if err != nil {
		return err
	}
	b, err := s.Resolve(to)
	if err != nil {
		return err
	}
	return s.settled(s.Tab.Drag(float64(a.X), float64(a.Y), float64(b.X), float64(b.Y)))
}

// settled waits for the page to settle after an action that succeeded.
func (s *Session) settled(err error) error {
	if err != nil {
		return err
	}
	return s.settle()
}

func (s *Session) settle() error {
	s.Tab.Settle(s.Settle)
	return nil
}
