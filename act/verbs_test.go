package act

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestVerbTable: every verb has a name of its own, a description, its
// arguments described, and a function; lookup finds each by name and
// nothing else; the order is the command line's.
func TestVerbTable(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range Verbs() {
		if v.Name == "" || v.Desc == "" || len(v.Args) == 0 || v.Do == nil {
			t.Errorf("%q: incomplete: %+v", v.Name, v)
		}
		if seen[v.Name] {
			t.Errorf("%q: two verbs share the name", v.Name)
		}
		seen[v.Name] = true
		for i, a := range v.Args {
			if a.Name == "" || a.Desc == "" {
				t.Errorf("%s: argument %d undescribed: %+v", v.Name, i, a)
			}
			if a.Variadic && i != len(v.Args)-1 {
				t.Errorf("%s: variadic argument %s is not the last", v.Name, a.Name)
			}
		}
		for _, f := range v.Flags {
			if f.Name == "" || f.Desc == "" || !v.TakesFlag(f.Name) {
				t.Errorf("%s: flag undescribed: %+v", v.Name, f)
			}
		}
		if got, ok := Lookup(v.Name); !ok || got.Name != v.Name || got.Desc != v.Desc {
			t.Errorf("Lookup(%q) = %q, %v", v.Name, got.Name, ok)
		}
	}
	for _, name := range []string{"", "fly", "Click", "snapshot", "accept"} {
		if _, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) found a verb", name)
		}
	}
	want := "click, dblclick, hover, type, press, select, check, uncheck, scroll, scrollto, drag, fill, upload"
	if got := strings.Join(Names(), ", "); got != want {
		t.Errorf("verbs in the order %s, want %s", got, want)
	}
}

// TestVerbUsage: a verb's usage is its arguments as the command line
// takes them.
func TestVerbUsage(t *testing.T) {
	for name, want := range map[string]string{
		"click":  "click REF",
		"type":   "type REF TEXT [--clear] [--submit]",
		"press":  "press REF KEY",
		"select": "select REF OPTION",
		"scroll": "scroll [REF] [down|up|PX]",
		"drag":   "drag REF REF",
		"fill":   "fill REF=TEXT...",
		"upload": "upload REF FILE...",
	} {
		v, _ := Lookup(name)
		if got := v.Usage(); got != want {
			t.Errorf("%s: usage %q, want %q", name, got, want)
		}
	}
}

// TestVerbParse: command-line words become an Input as each verb's
// arguments say, and a wrong count, a bad scroll amount or a field that
// is not REF=TEXT is refused with the command line's words.
func TestVerbParse(t *testing.T) {
	const badAmount = `: want a ref, down, up or a number of px from -1000000 to 1000000`
	for _, tc := range []struct {
		verb   string
		args   []string
		want   Input
		errMsg string
	}{
		{verb: "click", args: []string{"e1"}, want: Input{Ref: "e1"}},
		{verb: "click", errMsg: "click: wrong number of arguments"},
		{verb: "click", args: []string{"e1", "e2"}, errMsg: "click: wrong number of arguments"},
		{verb: "dblclick", args: []string{"e1", "x"}, errMsg: "dblclick: wrong number of arguments"},
		{verb: "type", args: []string{"e3", "-2"}, want: Input{Ref: "e3", Text: "-2"}},
		{verb: "type", args: []string{"e3", ""}, want: Input{Ref: "e3"}},
		{verb: "type", args: []string{"e3"}, errMsg: "type: wrong number of arguments"},
		{verb: "type", args: []string{"e3", "-2", "x"}, errMsg: "type: wrong number of arguments"},
		{verb: "press", args: []string{"e1", "Control+A"}, want: Input{Ref: "e1", Key: "Control+A"}},
		{verb: "press", args: []string{"Enter"}, errMsg: "press: wrong number of arguments"},
		{verb: "select", args: []string{"e2", "Large"}, want: Input{Ref: "e2", Option: "Large"}},
		{verb: "check", args: []string{"e4"}, want: Input{Ref: "e4"}},
		{verb: "uncheck", args: []string{}, errMsg: "uncheck: wrong number of arguments"},
		{verb: "scroll", want: Input{}},
		{verb: "scroll", args: []string{"-600"}, want: Input{Amount: "-600"}},
		{verb: "scroll", args: []string{"e5", "up"}, want: Input{Ref: "e5", Amount: "up"}},
		{verb: "scroll", args: []string{"down", "e5"}, want: Input{Ref: "e5", Amount: "down"}},
		{verb: "scroll", args: []string{"1e6"}, want: Input{Amount: "1e6"}},
		{verb: "scroll", args: []string{"NaN"}, errMsg: `scroll "NaN"` + badAmount},
		{verb: "scroll", args: []string{"1000001"}, errMsg: `scroll "1000001"` + badAmount},
		{verb: "scroll", args: []string{"-Inf"}, errMsg: `scroll "-Inf"` + badAmount},
		{verb: "scroll", args: []string{"Down"}, errMsg: `scroll "Down"` + badAmount},
		{verb: "scroll", args: []string{""}, errMsg: `scroll ""` + badAmount},
		{verb: "scroll", args: []string{"e1", "up", "3"}, errMsg: "scroll: wrong number of arguments"},
		{verb: "scrollto", args: []string{"e9"}, want: Input{Ref: "e9"}},
		{verb: "drag", args: []string{"e1", "e2"}, want: Input{Ref: "e1", To: "e2"}},
		{verb: "drag", args: []string{"e1"}, errMsg: "drag: wrong number of arguments"},
		{verb: "fill", args: []string{"e1=Ada", "e2=a=b", "e3="}, want: Input{Fields: [][2]string{{"e1", "Ada"}, {"e2", "a=b"}, {"e3", ""}}}},
		{verb: "fill", errMsg: "fill: wrong number of arguments"},
		{verb: "fill", args: []string{"e1"}, errMsg: `fill takes REF=TEXT pairs, not "e1"`},
		{verb: "fill", args: []string{"e1=a", "name=b"}, errMsg: `fill takes REF=TEXT pairs, not "name=b"`},
		{verb: "upload", args: []string{"e1", "a.txt", "b.txt"}, want: Input{Ref: "e1", Files: []string{"a.txt", "b.txt"}}},
		{verb: "upload", args: []string{"a.txt"}, errMsg: "upload: wrong number of arguments"},
	} {
		v, ok := Lookup(tc.verb)
		if !ok {
			t.Fatalf("no verb %q", tc.verb)
		}
		in, err := v.Parse(tc.args)
		switch {
		case tc.errMsg != "":
			if err == nil || err.Error() != tc.errMsg {
				t.Errorf("%s %q: error %v, want %q", tc.verb, tc.args, err, tc.errMsg)
			}
		case err != nil:
			t.Errorf("%s %q: %v", tc.verb, tc.args, err)
		case !reflect.DeepEqual(in, tc.want):
			t.Errorf("%s %q: %+v, want %+v", tc.verb, tc.args, in, tc.want)
		}
	}
}

// TestVerbCheck: an Input from any front end is checked against its
// verb: a scroll amount in the Session's words, at least one file or
// field; a ref may be left to the verb (press and upload do without).
func TestVerbCheck(t *testing.T) {
	for _, tc := range []struct {
		verb   string
		in     Input
		errMsg string
	}{
		{verb: "scroll", in: Input{}},
		{verb: "scroll", in: Input{Ref: "e1", Amount: "-1000000"}},
		{verb: "scroll", in: Input{Amount: "2000000"}, errMsg: `scroll amount "2000000": want down, up or a number of px (at most 1000000)`},
		{verb: "scroll", in: Input{Amount: "sideways"}, errMsg: `scroll amount "sideways": want down, up or a number of px (at most 1000000)`},
		{verb: "upload", in: Input{Files: []string{"a.txt"}}},
		{verb: "upload", in: Input{Ref: "e1"}, errMsg: "upload: give at least one file"},
		{verb: "fill", in: Input{}, errMsg: "fill: give at least one REF=TEXT field"},
		{verb: "fill", in: Input{Fields: [][2]string{{"e1", "x"}}}},
		{verb: "press", in: Input{Key: "Enter"}},
		{verb: "click", in: Input{Ref: "e1"}},
	} {
		v, _ := Lookup(tc.verb)
		err := v.Check(tc.in)
		if tc.errMsg == "" && err != nil || tc.errMsg != "" && (err == nil || err.Error() != tc.errMsg) {
			t.Errorf("%s %+v: error %v, want %q", tc.verb, tc.in, err, tc.errMsg)
		}
	}
}

// TestRunChecksFirst: Run does the verb with its Input only when the
// Input passes the check.
func TestRunChecksFirst(t *testing.T) {
	var got []Input
	v := Verb{Name: "upload", Args: []Arg{{Name: "FILE", Kind: FilesArg, Variadic: true}},
		Do: func(_ *Session, in Input) error { got = append(got, in); return errors.New("done") }}
	if err := v.Run(nil, Input{}); err == nil || err.Error() != "upload: give at least one file" {
		t.Errorf("unchecked: %v", err)
	}
	in := Input{Files: []string{"a"}}
	if err := v.Run(nil, in); err == nil || err.Error() != "done" || len(got) != 1 || !reflect.DeepEqual(got[0], in) {
		t.Errorf("run: %v, did %+v", err, got)
	}
}
