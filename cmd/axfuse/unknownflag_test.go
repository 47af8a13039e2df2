package main

import (
	"errors"
	"flag"
	"io"
	"testing"
)

// TestUnknownFlagIsTyped: parseSet finds a flag the set does not define
// by the set, not by flag.Parse's message, and every other outcome is
// flag.Parse's own.
func TestUnknownFlagIsTyped(t *testing.T) {
	newSet := func() *flag.FlagSet {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.Int("n", 0, "")
		fs.Bool("v", false, "")
		fs.String("o", "", "")
		return fs
	}
	for _, c := range []struct {
		args    []string
		unknown string
	}{
		{[]string{"--bogus"}, "bogus"},
		{[]string{"-v", "-n", "3", "--o=x", "-q=1"}, "q"},
		{[]string{"-o", "--bogus"}, ""}, // --bogus is -o's value
		{[]string{"-v", "--bogus"}, "bogus"},
		{[]string{"-n", "three", "--bogus"}, ""}, // -n's value is wrong first
		{[]string{"page", "--bogus"}, ""},        // an argument ends the flags
		{[]string{"--", "--bogus"}, ""},
		{[]string{"-h"}, ""},
		{[]string{"---x"}, ""},
		{[]string{"-n"}, ""},
	} {
		err := parseSet(newSet(), c.args)
		var unknown *unknownFlagError
		if errors.As(err, &unknown) != (c.unknown != "") || (unknown != nil && unknown.name != c.unknown) {
			t.Errorf("%q: %v, want unknown flag %q", c.args, err, c.unknown)
		}
		if want := newSet().Parse(c.args); want != nil && (err == nil || err.Error() != want.Error()) {
			t.Errorf("%q: %v, flag.Parse says %v", c.args, err, want)
		}
		if want := newSet().Parse(c.args); want == nil && err != nil {
			t.Errorf("%q: %v, flag.Parse takes it", c.args, err)
		}
	}
}
