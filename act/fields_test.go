package act

import (
	"errors"
	"fmt"
	"testing"

	"github.com/axfuse/axfuse/browser"
)

func TestTypedOutcome(t *testing.T) {
	input := func(typ, v string) field { return field{Value: v, Type: typ} }
	cases := []struct {
		name          string
		before, after field
		text          string
		replace       bool
		want          string
	}{
		{"appended", input("text", "ab"), input("text", "ab3"), "3", false, ""},
		{"replaced", input("text", "ab"), input("text", "5"), "5", true, ""},
		{"typed twice", input("text", ""), input("text", "hellohello"), "hello", false, `"hellohello"`},
		{"stepped by a spin button", input("number", "1"), input("number", "23"), "3", false, `"23"`},
		{"typed in the middle", input("email", "a@b.c"), input("email", "a@3b.c"), "3", false, `"a@3b.c"`},
		{"cut by maxlength", input("text", ""), input("text", "hel"), "hello", false, `"hel"`},
		{"upper-cased by the page", input("text", ""), input("text", "HELLO"), "hello", false, `"HELLO"`},
		{"a one-line input drops line breaks", input("text", ""), input("text", "ab"), "a\nb", false, ""},
		{"an e-mail field trims", input("email", ""), input("email", "a@b"), " a@b ", true, ""},
		{"a textarea keeps line breaks", field{Value: "a\nb"}, field{Value: "a\nb!"}, "!", false, ""},
		{"a textarea's CRLF is LF", field{}, field{Value: "a\nb"}, "a\r\nb", true, ""},
		{"a contenteditable holds the text somewhere", field{Editable: true, Value: "x"}, field{Editable: true, Value: "x\nhello"}, "hello", false, ""},
		{"a contenteditable replaced holds only the text", field{Editable: true, Value: "x"}, field{Editable: true, Value: "x hello"}, "hello", true, `"x hello"`},
		{"a password's value is never printed", field{Type: "password", Secret: true}, field{Type: "password", Secret: true, Value: "secretsecret"}, "secret", false, "12 characters"},
		{"a number field refuses letters", input("number", ""), input("number", ""), "abc", true, `""`},
	}
	for _, c := range cases {
		if got := typedOutcome(c.before, c.after, c.text, c.replace); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestOnlyWhatReachedNothingIsSentAgain: the guard's one retry is for
// stops before anything of the input reached the page.
func TestOnlyWhatReachedNothingIsSentAgain(t *testing.T) {
	cases := []struct {
		stop  browser.Interception
		again bool
	}{
		{browser.Interception{Event: "pointermove", Hit: "div#cover"}, true},
		{browser.Interception{Event: "pointerdown", Hit: "div#cover"}, true},
		{browser.Interception{Event: "mousedown", Hit: "div#cover"}, true},
		{browser.Interception{Event: "pointerdown", Changed: "Delete account"}, true},
		{browser.Interception{Event: "beforeinput", Hit: "input#other", Focus: true}, true},
		{browser.Interception{Event: "keydown", Hit: "button#delete", Focus: true}, true},
		{browser.Interception{Event: "input", Hit: "the page", Focus: true}, false},
		{browser.Interception{Event: "pointerup", Hit: "another frame or window"}, false},
		{browser.Interception{Event: "click", Hit: "a#ad"}, false},
		{browser.Interception{Event: "keyup", Hit: "input#other"}, false},
		{browser.Interception{Event: "drop", Hit: "div#trash"}, false},
	}
	for _, c := range cases {
		b := &blockedError{b: &c.stop}
		if got := b.beforeAnyEffect(); got != c.again {
			t.Errorf("%+v: sent again %v, want %v", c.stop, got, c.again)
		}
	}
}

func TestOutcomeErrorSaysWhatHappened(t *testing.T) {
	e := &OutcomeError{Ref: "e1", What: `ref e1 textbox "Query"`, Verb: `typed "hello" into`, Got: `"hellohello"`, Left: "it was not submitted"}
	want := `typed "hello" into ref e1 textbox "Query", but it now holds "hellohello"; it was not submitted`
	if e.Error() != want {
		t.Errorf("%q, want %q", e.Error(), want)
	}
}

func TestUnreachableIsTheHitTestsMiss(t *testing.T) {
	miss := &hitMiss{ref: "e2", what: "div", x: 1, y: 2, noPointer: true}
	if !Unreachable(miss) || !Unreachable(fmt.Errorf("click: %w", miss)) {
		t.Error("a hit test's miss is not unreachable")
	}
	if Unreachable(nil) || Unreachable(errors.New("would reach div")) {
		t.Error("another error read as unreachable")
	}
}
