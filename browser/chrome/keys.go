package chrome

import (
	"context"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/axfuse/axfuse/internal/keys"
	"github.com/chromedp/cdproto/input"
)

// PressChord presses a key with modifiers held, as Playwright's
// keyboard.press does: a keyDown for each modifier in order (the mask
// growing with each), the key's keyDown and keyUp, then the modifiers'
// keyUps in reverse. The key's keyDown is "keyDown" with its text when it
// types (keys.Parse leaves no text under Control, Alt or Meta), else
// "rawKeyDown". Each event goes through input, so a JavaScript dialog the
// key opens ends the wait.
//
// Editing shortcuts need no CDP commands on Linux: Blink's non-Mac key
// map turns Control+A, C, X, V, Z and Shift+Control+Z into selectAll,
// copy, cut, paste, undo and redo from the key event itself (TestPressChord
// checks them on headless Chromium). Puppeteer and Playwright pass
// commands only to a macOS browser, whose Command shortcuts come from the
// system's key bindings rather than the page's key events.
func (t *Tab) PressChord(c keys.Chord) error {
	mask := 0
	for _, m := range c.Modifiers {
		mask |= m.ModifierBit()
		if err := t.dispatchKey(input.DispatchKeyEventTypeRawKeyDown, m, mask); err != nil {
			return err
		}
	}
	typ := input.DispatchKeyEventTypeRawKeyDown
	if c.Key.Text != "" {
		typ = input.DispatchKeyEventTypeKeyDown
	}
	if err := t.dispatchKey(typ, c.Key, mask|c.Key.ModifierBit()); err != nil {
		return err
	}
	if err := t.dispatchKey(input.DispatchKeyEventTypeKeyUp, c.Key, mask&^c.Key.ModifierBit()); err != nil {
		return err
	}
	for i := len(c.Modifiers) - 1; i >= 0; i-- {
		m := c.Modifiers[i]
		mask &^= m.ModifierBit()
		if err := t.dispatchKey(input.DispatchKeyEventTypeKeyUp, m, mask); err != nil {
			return err
		}
	}
	return nil
}

// dispatchKey sends one Input.dispatchKeyEvent for k under modifier mask.
func (t *Tab) dispatchKey(typ input.DispatchKeyEventType, k keys.Key, mask int) error {
	p := input.DispatchKeyEventParams{
		Type: typ, Modifiers: int64(mask), Key: k.Key, Code: k.Code,
		WindowsVirtualKeyCode: int64(k.KeyCode), NativeVirtualKeyCode: int64(k.KeyCode),
		Location: int64(k.Location),
	}
	if k.Location == 3 {
		p.IsKeypad = new(true)
	}
	if typ == input.DispatchKeyEventTypeKeyDown {
		p.Text, p.UnmodifiedText = k.Text, k.Text
	}
	return t.input("Input.dispatchKeyEvent", func(ctx context.Context) error {
		_, err := cdpcall.Do(ctx, input.DispatchKeyEvent, p)
		return err
	})
}
