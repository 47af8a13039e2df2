// Package keys names keyboard keys and chords the way Playwright's
// keyboard.press accepts them ("Enter", "Shift+Tab", "Control+A", "F5",
// "KeyA", "Digit1", a single character such as "a", "#" or "é") and turns
// them into what a browser's key events carry: the DOM key and code, the
// Windows virtual key code, the text typed and the modifier bits. It is
// pure (no browser); browser/chrome dispatches the result over CDP.
//
// Names follow Playwright's US keyboard layout and are case-sensitive:
// physical key codes (KeyA, Digit1, Numpad1, ShiftLeft, ...), the key
// values Shift, Control, Alt and Meta (the left-hand keys), Enter's "\r"
// and "\n", and single characters. A chord is modifiers and one key joined
// by '+' ("Control+Shift+Z"); "+" alone and a final "++" ("Control++") name
// the plus key.
package keys

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Key is one key as the browser's key events describe it.
type Key struct {
	Key  string // DOM KeyboardEvent.key ("a", "A", "Enter", "Shift", " ")
	Code string // DOM KeyboardEvent.code ("KeyA", "Enter", "ShiftLeft"); "" for a character no US key types
	// Text is what the key types when no Control, Alt or Meta is held
	// ("\r" for Enter); "" for keys that type nothing (Tab, ArrowLeft, F5).
	Text string
	// KeyCode is the Windows virtual key code (KeyboardEvent.keyCode),
	// sent as both windowsVirtualKeyCode and nativeVirtualKeyCode.
	KeyCode int
	// Location is KeyboardEvent.location: 1 left and 2 right modifier,
	// 3 numeric keypad, 0 otherwise.
	Location int
}

// CDP modifier bits (Input.dispatchKeyEvent's modifiers).
const (
	Alt     = 1
	Control = 2
	Meta    = 4
	Shift   = 8
)

// ModifierBit is the CDP modifier bit the key sets while held (Alt,
// Control, Meta or Shift), or 0 for a key that is not a modifier.
func (k Key) ModifierBit() int {
	switch k.Key {
	case "Alt":
		return Alt
	case "Control":
		return Control
	case "Meta":
		return Meta
	case "Shift":
		return Shift
	}
	return 0
}

// Chord is a key pressed while modifiers are held, in order.
type Chord struct {
	Modifiers []Key
	Key       Key
}

// ModifierMask is the CDP bitmask of the chord's held modifiers (Alt=1,
// Control=2, Meta=4, Shift=8). A modifier pressed as the chord's own key
// ("Shift" alone) is not in it.
func (c Chord) ModifierMask() int {
	m := 0
	for _, k := range c.Modifiers {
		m |= k.ModifierBit()
	}
	return m
}

// hint ends every parse error: what a key may be, and where it is told.
// It names the families of names Parse takes (F keys, KeyA, Digit1), not
// Examples, the help texts' examples of names to press.
const hint = `use a key name (Enter, Tab, ArrowLeft, F1..F12, KeyA, Digit1, ...), a single character, or a chord such as Control+A (docs/guide.md, "Keys")`

// Parse reads a key or chord as Playwright's keyboard.press takes it.
//
// Shift changes the key's character as on a US keyboard: "Shift+KeyA" and
// "Shift+a" press key "A" typing "A", "Shift+Digit3" types "#". A character
// names its own key and adds no modifier: "A" is key "A" (code KeyA) typing
// "A" with no Shift held. With Control, Alt or Meta held the key types
// nothing (Text is ""), as shortcuts do, and a letter is its key whichever
// case names it: "Control+A" and "Control+a" both press key "a" (code
// KeyA), as a real keyboard does without Shift; Playwright would send key
// "A" for the first, which pages checking e.key == "a" miss.
//
// ControlOrMeta is Control: axfuse drives Chromium on Linux and Windows,
// where editing shortcuts use Control (Playwright picks Meta on macOS).
// Only Shift, Control, Alt, Meta, ControlOrMeta and their Left/Right keys
// may be held before the final key.
func Parse(s string) (Chord, error) {
	if s == "" {
		return Chord{}, errors.New("empty key: " + hint)
	}
	tokens := split(s)
	last := tokens[len(tokens)-1]
	if last == "" {
		return Chord{}, fmt.Errorf("missing key after %q: %s", s, hint)
	}
	var c Chord
	mask := 0
	for _, name := range tokens[:len(tokens)-1] {
		d, ok := lookup(name)
		if !ok {
			return Chord{}, fmt.Errorf("unknown key %q: %s", name, hint)
		}
		if d.plain.ModifierBit() == 0 {
			return Chord{}, fmt.Errorf("%q in %q is not a modifier (Shift, Control, Alt, Meta, ControlOrMeta): %s", name, s, hint)
		}
		c.Modifiers = append(c.Modifiers, d.plain)
		mask |= d.plain.ModifierBit()
	}
	d, ok := lookup(last)
	if !ok {
		return Chord{}, fmt.Errorf("unknown key %q: %s", last, hint)
	}
	c.Key = d.plain
	if mask&Shift != 0 && d.shifted.Key != "" {
		c.Key = d.shifted
	}
	if mask&(Control|Alt|Meta) != 0 {
		if mask&Shift == 0 && strings.HasPrefix(c.Key.Code, "Key") {
			c.Key = layout[c.Key.Code].plain // "Control+A" is the A key: key "a"
		}
		c.Key.Text = ""
	}
	return c, nil
}

// split cuts at each '+' that ends a non-empty name, as Playwright does:
// "Control++" is ["Control", "+"], "+" is ["+"], "Shift+" is ["Shift", ""].
func split(s string) []string {
	var tokens []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '+' && i > start {
			tokens = append(tokens, s[start:i])
			start = i + 1
		}
	}
	return append(tokens, s[start:])
}

// def is a name's key, and the key with Shift held where that differs.
type def struct{ plain, shifted Key }

// lookup finds a name in the layout, else takes a single printable
// character as a key of its own (no code, it types itself; Shift types
// its upper case).
func lookup(name string) (def, bool) {
	if d, ok := layout[name]; ok {
		return d, true
	}
	r, size := utf8.DecodeRuneInString(name)
	if size != len(name) || r == utf8.RuneError || !unicode.IsPrint(r) {
		return def{}, false
	}
	d := def{plain: Key{Key: name, Text: name}}
	if up := string(unicode.ToUpper(r)); up != name {
		d.shifted = Key{Key: up, Text: up}
	}
	return d, true
}

// row is one physical key of the US layout: its code, key value, Windows
// key code and location, and its key value and key code with Shift held
// where those differ.
type row struct {
	code, key string
	keyCode   int
	loc       int
	shift     string
	shiftCode int
}

// rows is Playwright's US layout (packages/playwright-core/src/server/
// usKeyboardLayout.ts) plus F13..F24. Modifiers carry the key code
// Chrome expects without location (16, 17, 18), as Playwright sends.
// Numpad digits are as with NumLock off unless Shift is held, as there.
var rows = func() []row {
	r := []row{
		{code: "Escape", key: "Escape", keyCode: 27},
		{code: "Backquote", key: "`", keyCode: 192, shift: "~"},
		{code: "Minus", key: "-", keyCode: 189, shift: "_"},
		{code: "Equal", key: "=", keyCode: 187, shift: "+"},
		{code: "Backslash", key: `\`, keyCode: 220, shift: "|"},
		{code: "Backspace", key: "Backspace", keyCode: 8},
		{code: "Tab", key: "Tab", keyCode: 9},
		{code: "BracketLeft", key: "[", keyCode: 219, shift: "{"},
		{code: "BracketRight", key: "]", keyCode: 221, shift: "}"},
		{code: "CapsLock", key: "CapsLock", keyCode: 20},
		{code: "Semicolon", key: ";", keyCode: 186, shift: ":"},
		{code: "Quote", key: "'", keyCode: 222, shift: `"`},
		{code: "Enter", key: "Enter", keyCode: 13},
		{code: "Comma", key: ",", keyCode: 188, shift: "<"},
		{code: "Period", key: ".", keyCode: 190, shift: ">"},
		{code: "Slash", key: "/", keyCode: 191, shift: "?"},
		{code: "Space", key: " ", keyCode: 32},
		{code: "ShiftLeft", key: "Shift", keyCode: 16, loc: 1},
		{code: "ShiftRight", key: "Shift", keyCode: 16, loc: 2},
		{code: "ControlLeft", key: "Control", keyCode: 17, loc: 1},
		{code: "ControlRight", key: "Control", keyCode: 17, loc: 2},
		{code: "AltLeft", key: "Alt", keyCode: 18, loc: 1},
		{code: "AltRight", key: "Alt", keyCode: 18, loc: 2},
		{code: "MetaLeft", key: "Meta", keyCode: 91, loc: 1},
		{code: "MetaRight", key: "Meta", keyCode: 92, loc: 2},
		{code: "AltGraph", key: "AltGraph", keyCode: 225},
		{code: "ContextMenu", key: "ContextMenu", keyCode: 93},
		{code: "PrintScreen", key: "PrintScreen", keyCode: 44},
		{code: "ScrollLock", key: "ScrollLock", keyCode: 145},
		{code: "Pause", key: "Pause", keyCode: 19},
		{code: "PageUp", key: "PageUp", keyCode: 33},
		{code: "PageDown", key: "PageDown", keyCode: 34},
		{code: "Insert", key: "Insert", keyCode: 45},
		{code: "Delete", key: "Delete", keyCode: 46},
		{code: "Home", key: "Home", keyCode: 36},
		{code: "End", key: "End", keyCode: 35},
		{code: "ArrowLeft", key: "ArrowLeft", keyCode: 37},
		{code: "ArrowUp", key: "ArrowUp", keyCode: 38},
		{code: "ArrowRight", key: "ArrowRight", keyCode: 39},
		{code: "ArrowDown", key: "ArrowDown", keyCode: 40},
		{code: "AudioVolumeMute", key: "AudioVolumeMute", keyCode: 173},
		{code: "AudioVolumeDown", key: "AudioVolumeDown", keyCode: 174},
		{code: "AudioVolumeUp", key: "AudioVolumeUp", keyCode: 175},
		{code: "MediaTrackNext", key: "MediaTrackNext", keyCode: 176},
		{code: "MediaTrackPrevious", key: "MediaTrackPrevious", keyCode: 177},
		{code: "MediaPlayPause", key: "MediaPlayPause", keyCode: 179},
		{code: "NumLock", key: "NumLock", keyCode: 144},
		{code: "NumpadDivide", key: "/", keyCode: 111, loc: 3},
		{code: "NumpadMultiply", key: "*", keyCode: 106, loc: 3},
		{code: "NumpadSubtract", key: "-", keyCode: 109, loc: 3},
		{code: "NumpadAdd", key: "+", keyCode: 107, loc: 3},
		// Playwright's key here is "\u0000"; NumLock-off Delete types no NUL.
		{code: "NumpadDecimal", key: "Delete", keyCode: 46, loc: 3, shift: ".", shiftCode: 110},
		{code: "NumpadEnter", key: "Enter", keyCode: 13, loc: 3},
	}
	for n := 1; n <= 24; n++ {
		f := "F" + strconv.Itoa(n)
		r = append(r, row{code: f, key: f, keyCode: 111 + n})
	}
	for d := range 10 {
		r = append(r, row{code: "Digit" + strconv.Itoa(d), key: strconv.Itoa(d), keyCode: 48 + d, shift: ")!@#$%^&*("[d : d+1]})
	}
	for c := 'A'; c <= 'Z'; c++ {
		r = append(r, row{code: "Key" + string(c), key: string(c + 'a' - 'A'), keyCode: int(c), shift: string(c)})
	}
	// NumLock-off meaning and key code of Numpad0..Numpad9.
	nav := [10]struct {
		key  string
		code int
	}{{"Insert", 45}, {"End", 35}, {"ArrowDown", 40}, {"PageDown", 34}, {"ArrowLeft", 37}, {"Clear", 12}, {"ArrowRight", 39}, {"Home", 36}, {"ArrowUp", 38}, {"PageUp", 33}}
	for d, n := range nav {
		r = append(r, row{code: "Numpad" + strconv.Itoa(d), key: n.key, keyCode: n.code, loc: 3, shift: strconv.Itoa(d), shiftCode: 96 + d})
	}
	return r
}()

// aliases are further names of a key (its plain meaning, never shifted).
var aliases = map[string]string{
	"Shift": "ShiftLeft", "Control": "ControlLeft", "Alt": "AltLeft", "Meta": "MetaLeft",
	"ControlOrMeta": "ControlLeft", "\r": "Enter", "\n": "Enter",
}

// layout maps every name Parse knows to its key: codes (with their
// shifted meaning), aliases, and the characters the main keys type (a
// key's plain character keeps its shifted meaning, "a" with Shift is "A";
// a shifted character is itself, "A" and "#" need no Shift).
var layout = func() map[string]def {
	m := map[string]def{}
	text := func(key string) string {
		if key == "Enter" {
			return "\r"
		}
		if utf8.RuneCountInString(key) == 1 {
			return key
		}
		return ""
	}
	for _, r := range rows {
		d := def{plain: Key{Key: r.key, Code: r.code, Text: text(r.key), KeyCode: r.keyCode, Location: r.loc}}
		if r.shift != "" {
			d.shifted = d.plain
			d.shifted.Key, d.shifted.Text = r.shift, r.shift
			if r.shiftCode != 0 {
				d.shifted.KeyCode = r.shiftCode
			}
		}
		m[r.code] = d
		if r.loc != 0 || utf8.RuneCountInString(r.key) != 1 {
			continue // characters come from the main keys, not the keypad
		}
		m[r.key] = d
		if r.shift != "" {
			m[r.shift] = def{plain: d.shifted}
		}
	}
	for alias, code := range aliases {
		m[alias] = def{plain: m[code].plain}
	}
	return m
}()
