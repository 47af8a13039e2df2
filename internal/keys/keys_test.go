package keys

import (
	"reflect"
	"strings"
	"testing"
)

func TestKeyParse(t *testing.T) {
	var (
		shift   = Key{Key: "Shift", Code: "ShiftLeft", KeyCode: 16, Location: 1}
		control = Key{Key: "Control", Code: "ControlLeft", KeyCode: 17, Location: 1}
		alt     = Key{Key: "Alt", Code: "AltLeft", KeyCode: 18, Location: 1}
		meta    = Key{Key: "Meta", Code: "MetaLeft", KeyCode: 91, Location: 1}
	)
	for _, tc := range []struct {
		in   string
		mods []Key
		key  Key
		mask int
	}{
		{"Enter", nil, Key{Key: "Enter", Code: "Enter", Text: "\r", KeyCode: 13}, 0},
		{"\n", nil, Key{Key: "Enter", Code: "Enter", Text: "\r", KeyCode: 13}, 0},
		{"NumpadEnter", nil, Key{Key: "Enter", Code: "NumpadEnter", Text: "\r", KeyCode: 13, Location: 3}, 0},
		{"Tab", nil, Key{Key: "Tab", Code: "Tab", KeyCode: 9}, 0},
		{"Escape", nil, Key{Key: "Escape", Code: "Escape", KeyCode: 27}, 0},
		{"Backspace", nil, Key{Key: "Backspace", Code: "Backspace", KeyCode: 8}, 0},
		{"Delete", nil, Key{Key: "Delete", Code: "Delete", KeyCode: 46}, 0},
		{"ArrowLeft", nil, Key{Key: "ArrowLeft", Code: "ArrowLeft", KeyCode: 37}, 0},
		{"ArrowDown", nil, Key{Key: "ArrowDown", Code: "ArrowDown", KeyCode: 40}, 0},
		{"Home", nil, Key{Key: "Home", Code: "Home", KeyCode: 36}, 0},
		{"End", nil, Key{Key: "End", Code: "End", KeyCode: 35}, 0},
		{"PageUp", nil, Key{Key: "PageUp", Code: "PageUp", KeyCode: 33}, 0},
		{"PageDown", nil, Key{Key: "PageDown", Code: "PageDown", KeyCode: 34}, 0},
		{"Insert", nil, Key{Key: "Insert", Code: "Insert", KeyCode: 45}, 0},
		{"F1", nil, Key{Key: "F1", Code: "F1", KeyCode: 112}, 0},
		{"F5", nil, Key{Key: "F5", Code: "F5", KeyCode: 116}, 0},
		{"F12", nil, Key{Key: "F12", Code: "F12", KeyCode: 123}, 0},
		{"Space", nil, Key{Key: " ", Code: "Space", Text: " ", KeyCode: 32}, 0},
		{" ", nil, Key{Key: " ", Code: "Space", Text: " ", KeyCode: 32}, 0},
		{"KeyA", nil, Key{Key: "a", Code: "KeyA", Text: "a", KeyCode: 65}, 0},
		{"KeyZ", nil, Key{Key: "z", Code: "KeyZ", Text: "z", KeyCode: 90}, 0},
		{"Digit1", nil, Key{Key: "1", Code: "Digit1", Text: "1", KeyCode: 49}, 0},
		{"Digit0", nil, Key{Key: "0", Code: "Digit0", Text: "0", KeyCode: 48}, 0},
		{"Slash", nil, Key{Key: "/", Code: "Slash", Text: "/", KeyCode: 191}, 0},
		{"Quote", nil, Key{Key: "'", Code: "Quote", Text: "'", KeyCode: 222}, 0},
		{"Numpad1", nil, Key{Key: "End", Code: "Numpad1", KeyCode: 35, Location: 3}, 0},
		{"NumpadAdd", nil, Key{Key: "+", Code: "NumpadAdd", Text: "+", KeyCode: 107, Location: 3}, 0},
		{"ShiftRight", nil, Key{Key: "Shift", Code: "ShiftRight", KeyCode: 16, Location: 2}, 0},
		{"ControlRight", nil, Key{Key: "Control", Code: "ControlRight", KeyCode: 17, Location: 2}, 0},
		{"MetaRight", nil, Key{Key: "Meta", Code: "MetaRight", KeyCode: 92, Location: 2}, 0},
		{"Shift", nil, shift, 0},

		// Single characters name the key that types them, with no Shift.
		{"a", nil, Key{Key: "a", Code: "KeyA", Text: "a", KeyCode: 65}, 0},
		{"A", nil, Key{Key: "A", Code: "KeyA", Text: "A", KeyCode: 65}, 0},
		{"#", nil, Key{Key: "#", Code: "Digit3", Text: "#", KeyCode: 51}, 0},
		{"(", nil, Key{Key: "(", Code: "Digit9", Text: "(", KeyCode: 57}, 0},
		{"~", nil, Key{Key: "~", Code: "Backquote", Text: "~", KeyCode: 192}, 0},
		{`\`, nil, Key{Key: `\`, Code: "Backslash", Text: `\`, KeyCode: 220}, 0},
		{"+", nil, Key{Key: "+", Code: "Equal", Text: "+", KeyCode: 187}, 0},
		{"*", nil, Key{Key: "*", Code: "Digit8", Text: "*", KeyCode: 56}, 0},
		{"é", nil, Key{Key: "é", Text: "é"}, 0},
		{"€", nil, Key{Key: "€", Text: "€"}, 0},

		// Shift changes the character; Control, Alt and Meta type nothing.
		{"Shift+a", []Key{shift}, Key{Key: "A", Code: "KeyA", Text: "A", KeyCode: 65}, Shift},
		{"Shift+KeyA", []Key{shift}, Key{Key: "A", Code: "KeyA", Text: "A", KeyCode: 65}, Shift},
		{"Shift+A", []Key{shift}, Key{Key: "A", Code: "KeyA", Text: "A", KeyCode: 65}, Shift},
		{"Shift+Digit3", []Key{shift}, Key{Key: "#", Code: "Digit3", Text: "#", KeyCode: 51}, Shift},
		{"Shift+1", []Key{shift}, Key{Key: "!", Code: "Digit1", Text: "!", KeyCode: 49}, Shift},
		{"Shift+é", []Key{shift}, Key{Key: "É", Text: "É"}, Shift},
		{"Shift+Numpad1", []Key{shift}, Key{Key: "1", Code: "Numpad1", Text: "1", KeyCode: 97, Location: 3}, Shift},
		{"Shift+Tab", []Key{shift}, Key{Key: "Tab", Code: "Tab", KeyCode: 9}, Shift},
		{"Control+A", []Key{control}, Key{Key: "a", Code: "KeyA", KeyCode: 65}, Control},
		{"Alt+Q", []Key{alt}, Key{Key: "q", Code: "KeyQ", KeyCode: 81}, Alt},
		{"Control+#", []Key{control}, Key{Key: "#", Code: "Digit3", KeyCode: 51}, Control},
		{"Control+a", []Key{control}, Key{Key: "a", Code: "KeyA", KeyCode: 65}, Control},
		{"ControlOrMeta+a", []Key{control}, Key{Key: "a", Code: "KeyA", KeyCode: 65}, Control},
		{"Meta+ArrowLeft", []Key{meta}, Key{Key: "ArrowLeft", Code: "ArrowLeft", KeyCode: 37}, Meta},
		{"Alt+Enter", []Key{alt}, Key{Key: "Enter", Code: "Enter", KeyCode: 13}, Alt},
		{"Control+Shift+z", []Key{control, shift}, Key{Key: "Z", Code: "KeyZ", KeyCode: 90}, Control | Shift},
		{"Shift+Control+Alt+Meta+F5", []Key{shift, control, alt, meta}, Key{Key: "F5", Code: "F5", KeyCode: 116}, Alt | Control | Meta | Shift},
		{"ShiftRight+a", []Key{{Key: "Shift", Code: "ShiftRight", KeyCode: 16, Location: 2}}, Key{Key: "A", Code: "KeyA", Text: "A", KeyCode: 65}, Shift},
		{"Control+Shift", []Key{control}, shift, Control},

		// '+' is a key of its own where it cannot separate.
		{"Control++", []Key{control}, Key{Key: "+", Code: "Equal", KeyCode: 187}, Control},
		{"Shift++", []Key{shift}, Key{Key: "+", Code: "Equal", Text: "+", KeyCode: 187}, Shift},
	} {
		c, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(c.Modifiers, tc.mods) || c.Key != tc.key {
			t.Errorf("Parse(%q) = %+v, want modifiers %+v key %+v", tc.in, c, tc.mods, tc.key)
		}
		if m := c.ModifierMask(); m != tc.mask {
			t.Errorf("Parse(%q).ModifierMask() = %d, want %d", tc.in, m, tc.mask)
		}
	}
}

func TestKeyParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		"NoSuchKey":         `unknown key "NoSuchKey": use a key name (Enter, Tab, ArrowLeft, F1..F12, KeyA, Digit1, ...), a single character, or a chord such as Control+A (docs/guide.md, "Keys")`,
		"Control+NoSuchKey": `unknown key "NoSuchKey": `,
		"Ctrl+a":            `unknown key "Ctrl": `,
		"enter":             `unknown key "enter": `, // names are case-sensitive
		"shift+a":           `unknown key "shift": `,
		"ab":                `unknown key "ab": `,
		"\t":                `unknown key "\t": `,
		"":                  `empty key: use a key name`,
		"Shift+":            `missing key after "Shift+": `,
		"++":                `missing key after "++": `,
		"Control+Shift+":    `missing key after "Control+Shift+": `,
		"a+b":               `"a" in "a+b" is not a modifier`,
		"Control+Tab+a":     `"Tab" in "Control+Tab+a" is not a modifier`,
	} {
		_, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", in)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, want) || strings.Contains(msg, "\n") || !strings.HasSuffix(msg, `(docs/guide.md, "Keys")`) {
			t.Errorf("Parse(%q) error %q, want one line beginning %q and ending with the README pointer", in, msg, want)
		}
	}
}

// TestKeyLayoutRegular checks the loop-made parts of the table whole.
func TestKeyLayoutRegular(t *testing.T) {
	for c := 'a'; c <= 'z'; c++ {
		up := string(c - 'a' + 'A')
		for _, name := range []string{"Key" + up, string(c)} {
			k, err := Parse(name)
			if err != nil || k.Key != (Key{Key: string(c), Code: "Key" + up, Text: string(c), KeyCode: int(c - 'a' + 'A')}) {
				t.Errorf("Parse(%q) = %+v, %v", name, k.Key, err)
			}
		}
	}
	for d := 0; d <= 9; d++ {
		s := string(rune('0' + d))
		k, err := Parse("Digit" + s)
		if err != nil || k.Key != (Key{Key: s, Code: "Digit" + s, Text: s, KeyCode: 48 + d}) {
			t.Errorf("Digit%s = %+v, %v", s, k.Key, err)
		}
		k, err = Parse("Shift+Numpad" + s)
		if err != nil || k.Key.Key != s || k.Key.KeyCode != 96+d || k.Key.Location != 3 {
			t.Errorf("Shift+Numpad%s = %+v, %v", s, k.Key, err)
		}
	}
	for n, code := range map[string]int{"F1": 112, "F9": 120, "F10": 121, "F11": 122, "F12": 123, "F24": 135} {
		k, err := Parse(n)
		if err != nil || k.Key != (Key{Key: n, Code: n, KeyCode: code}) {
			t.Errorf("%s = %+v, %v", n, k.Key, err)
		}
	}
	for _, name := range []string{"F0", "F25", "Digit10", "KeyAA", "Numpad10"} {
		if _, err := Parse(name); err == nil {
			t.Errorf("Parse(%q) succeeded", name)
		}
	}
}
