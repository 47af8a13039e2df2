package main

import (
	"reflect"
	"strings"
	"testing"
)

// TestActArgumentsAreVerbatim: after act's verb, only a flag's exact name
// is a flag; text that starts with a dash is the action's text.
func TestActArgumentsAreVerbatim(t *testing.T) {
	for _, tc := range []struct {
		args           []string
		verb           string
		argv           []string
		submit, clear  bool
		dialog, errSub string
	}{
		{args: []string{"--cdp", "ws://x", "type", "e3", "-2"}, verb: "type", argv: []string{"e3", "-2"}},
		{args: []string{"--cdp", "ws://x", "type", "e3", "--", "--"}, verb: "type", argv: []string{"e3", "--"}},
		{args: []string{"--cdp", "ws://x", "type", "e3", "-- -x"}, verb: "type", argv: []string{"e3", "-- -x"}},
		{args: []string{"--cdp", "ws://x", "type", "e3", "hi", "--submit", "--clear"}, verb: "type", argv: []string{"e3", "hi"}, submit: true, clear: true},
		{args: []string{"--cdp", "ws://x", "type", "e3", "--", "--submit"}, verb: "type", argv: []string{"e3", "--submit"}},
		{args: []string{"--cdp", "ws://x", "type", "e3", "--no-such-flag"}, verb: "type", argv: []string{"e3", "--no-such-flag"}},
		{args: []string{"--cdp", "ws://x", "click", "e1", "--dialog", "accept"}, verb: "click", argv: []string{"e1"}, dialog: "accept"},
		{args: []string{"--cdp", "ws://x", "click", "e1", "--dialog=say -1"}, verb: "click", argv: []string{"e1"}, dialog: "say -1"},
		{args: []string{"--cdp", "ws://x", "press", "e1", "Control+A"}, verb: "press", argv: []string{"e1", "Control+A"}},
		{args: []string{"--cdp", "ws://x", "scroll", "-600"}, verb: "scroll", argv: []string{"-600"}},
		{args: []string{"--cdp", "ws://x", "click", "e1", "--dialog"}, errSub: "needs a value"},
		{args: []string{"--cdp", "ws://x", "type", "e3", "-2", "x"}, errSub: "wrong number of arguments"},
	} {
		cfg, err := parseFlags(commands["act"], tc.args)
		if tc.errSub != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errSub) {
				t.Errorf("%q: error %v, want %q", tc.args, err, tc.errSub)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if tc.dialog == "" {
			tc.dialog = "dismiss"
		}
		if cfg.verb != tc.verb || !reflect.DeepEqual(cfg.actArgv, tc.argv) || cfg.submit != tc.submit || cfg.clear != tc.clear || cfg.dialog != tc.dialog {
			t.Errorf("%q: verb %q args %q submit %v clear %v dialog %q", tc.args, cfg.verb, cfg.actArgv, cfg.submit, cfg.clear, cfg.dialog)
		}
	}
}
