package act

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/internal/keys"
)

// The verb table. Every action an agent asks for by name is one Verb in
// verbs: its name, its arguments, what it does, and the Session method
// that does it. The command line (`axfuse act VERB ARGS...`), the MCP
// server's input tools and the replay harness's steps read their
// arguments into an Input and run the verb they name, so a verb is defined
// once: a new one is an entry here and its Session method.

// ArgKind is what an argument is, and so which field of Input holds it.
type ArgKind int

const (
	RefArg    ArgKind = iota // Input.Ref: the element acted on, a ref from the snapshot
	ToArg                    // Input.To: a second ref (the element a drag drops on)
	TextArg                  // Input.Text: text to type
	KeyArg                   // Input.Key: a key or chord in Playwright's names
	OptionArg                // Input.Option: an option's label or value
	AmountArg                // Input.Amount: down, up or signed CSS px
	FilesArg                 // Input.Files: a file's path
	FieldsArg                // Input.Fields: REF=TEXT, a field and the text it should hold
)

// Arg is one argument of a verb, in the order the command line takes it.
type Arg struct {
	Name     string // as usage prints it: REF, TEXT, KEY, REF=TEXT, down|up|PX
	Kind     ArgKind
	Optional bool   // may be left out
	Variadic bool   // the last argument, given one or more times
	Desc     string // one line
}

// Flag is a switch a verb takes beside its arguments (type's --clear).
type Flag struct{ Name, Desc string }

// Verb is one action on a page by ref: one entry of the table.
type Verb struct {
	Name  string // the command line's verb, and the replay harness's step
	Desc  string // what it does, one line
	Args  []Arg
	Flags []Flag
	// Do does it: the Session method, given the Input's fields. It does not
	// check the Input; Run does.
	Do func(s *Session, in Input) error
}

// Input is a verb's arguments, whichever front end read them.
type Input struct {
	Ref    string      // the element acted on
	To     string      // drag: the element dropped on
	Text   string      // type: the text
	Key    string      // press: a key or chord
	Option string      // select: the option's label or value
	Amount string      // scroll: down, up or signed CSS px ("" is down)
	Files  []string    // upload: the files' paths
	Fields [][2]string // fill: each field's ref and text, in order
	Clear  bool        // type: replace what the field holds
	Submit bool        // type: press Enter after
}

// refArg is a verb's REF argument: the element it acts on.
func refArg(desc string) Arg { return Arg{Name: "REF", Kind: RefArg, Desc: desc} }

// verbs is the table, in the order the command line lists the verbs.
var verbs = []Verb{
	{Name: "click", Desc: "click an element (an <option>: choose it in its <select>)",
		Args: []Arg{refArg("the element to click")},
		Do:   func(s *Session, in Input) error { return s.Click(in.Ref, 1) }},
	{Name: "dblclick", Desc: "double-click an element",
		Args: []Arg{refArg("the element to double-click")},
		Do:   func(s *Session, in Input) error { return s.Click(in.Ref, 2) }},
	{Name: "hover", Desc: "move the mouse over an element",
		Args: []Arg{refArg("the element to hover")},
		Do:   func(s *Session, in Input) error { return s.Hover(in.Ref) }},
	{Name: "type", Desc: "click an editable field, check it has the focus, and type text at its end",
		Args:  []Arg{refArg("the field"), {Name: "TEXT", Kind: TextArg, Desc: "the text to type"}},
		Flags: []Flag{{"clear", "replace what the field holds"}, {"submit", "press Enter after"}},
		Do:    func(s *Session, in Input) error { return s.Type(in.Ref, in.Text, in.Clear, in.Submit) }},
	{Name: "press", Desc: "focus an element and press a key or chord",
		Args: []Arg{refArg("the element to focus first (an Input without one presses on the focused element)"),
			{Name: "KEY", Kind: KeyArg, Desc: keys.ArgHelp}},
		Do: press},
	{Name: "select", Desc: "pick an option of a <select>, listbox or combobox",
		Args: []Arg{refArg("the <select>, listbox or combobox"), {Name: "OPTION", Kind: OptionArg, Desc: "the option's label or value"}},
		Do:   func(s *Session, in Input) error { return s.Select(in.Ref, in.Option) }},
	{Name: "check", Desc: "check a checkbox, radio or switch (nothing when it is checked)",
		Args: []Arg{refArg("the checkbox, radio or switch")},
		Do:   func(s *Session, in Input) error { return s.SetChecked(in.Ref, true) }},
	{Name: "uncheck", Desc: "uncheck a checkbox or switch (nothing when it is unchecked)",
		Args: []Arg{refArg("the checkbox or switch")},
		Do:   func(s *Session, in Input) error { return s.SetChecked(in.Ref, false) }},
	{Name: "scroll", Desc: "scroll the page, or a scroll container, a screen down or up, or by CSS px",
		Args: []Arg{{Name: "REF", Kind: RefArg, Optional: true, Desc: "a scroll container (default: the page)"},
			{Name: "down|up|PX", Kind: AmountArg, Optional: true, Desc: "down (default), up, or signed CSS pixels"}},
		Do: func(s *Session, in Input) error { return s.Scroll(in.Ref, in.Amount) }},
	{Name: "scrollto", Desc: "scroll an element into view",
		Args: []Arg{refArg("the element to bring into view")},
		Do:   func(s *Session, in Input) error { return s.ScrollTo(in.Ref) }},
	{Name: "drag", Desc: "drag one element onto another: HTML5 drag and drop, else a mouse drag",
		Args: []Arg{refArg("the element to drag"), {Name: "REF", Kind: ToArg, Desc: "the element to drop on"}},
		Do:   func(s *Session, in Input) error { return s.Drag(in.Ref, in.To) }},
	{Name: "fill", Desc: "type into several fields in order, replacing their text",
		Args: []Arg{{Name: "REF=TEXT", Kind: FieldsArg, Variadic: true, Desc: "a field's ref and the text it should hold"}},
		Do:   func(s *Session, in Input) error { return s.Fill(in.Fields) }},
	{Name: "upload", Desc: "give files to a file input, or to the file chooser an element's click opens",
		Args: []Arg{refArg("a file input, or what opens a file chooser (an Input without one gives the files to the chooser an earlier action opened)"),
			{Name: "FILE", Kind: FilesArg, Variadic: true, Desc: "a file to give"}},
		Do: func(s *Session, in Input) error { return s.Upload(in.Ref, in.Files) }},
}

// press presses on the element by ref, or with no ref (the MCP tool's
// default) on the focused one.
func press(s *Session, in Input) error {
	if in.Ref == "" {
		return s.PressFocused(in.Key)
	}
	return s.Press(in.Ref, in.Key)
}

// Verbs are the verbs, in the table's order.
func Verbs() []Verb { return append([]Verb(nil), verbs...) }

// Names are the verbs' names, in the table's order.
func Names() []string {
	names := make([]string, len(verbs))
	for i, v := range verbs {
		names[i] = v.Name
	}
	return names
}

// Lookup finds a verb by name.
func Lookup(name string) (Verb, bool) {
	for _, v := range verbs {
		if v.Name == name {
			return v, true
		}
	}
	return Verb{}, false
}

// Run checks the Input against the verb's arguments and does the verb.
func (v Verb) Run(s *Session, in Input) error {
	if err := v.Check(in); err != nil {
		return err
	}
	return v.Do(s, in)
}

// Usage is the verb as the command line takes it: "scroll [REF]
// [down|up|PX]", "type REF TEXT [--clear] [--submit]".
func (v Verb) Usage() string {
	parts := []string{v.Name}
	for _, a := range v.Args {
		p := a.Name
		if a.Variadic {
			p += "..."
		}
		if a.Optional {
			p = "[" + p + "]"
		}
		parts = append(parts, p)
	}
	for _, f := range v.Flags {
		parts = append(parts, "[--"+f.Name+"]")
	}
	return strings.Join(parts, " ")
}

// TakesFlag says whether the verb takes the flag --name.
func (v Verb) TakesFlag(name string) bool {
	for _, f := range v.Flags {
		if f.Name == name {
			return true
		}
	}
	return false
}

// Check checks an Input against the verb's arguments: the number of
// files or fields a verb that takes them is given, and a scroll amount
// (down, up or a number of px from -1000000 to 1000000; "" is down). A
// missing ref is left to the verb's Session method, which refuses an
// unknown ref (press and upload without one act on the focus and on an
// open file chooser).
func (v Verb) Check(in Input) error {
	for _, a := range v.Args {
		switch {
		case a.Kind == AmountArg && in.Amount != "" && !amountOK(in.Amount):
			return fmt.Errorf("%s amount %q: want down, up or a number of px (at most 1000000)", v.Name, in.Amount)
		case a.Kind == FilesArg && !a.Optional && len(in.Files) == 0:
			return fmt.Errorf("%s: give at least one file", v.Name)
		case a.Kind == FieldsArg && !a.Optional && len(in.Fields) == 0:
			return fmt.Errorf("%s: give at least one REF=TEXT field", v.Name)
		}
	}
	return nil
}

// Parse reads a verb's arguments as the command line gives them, one
// word each, into an Input, and checks it: how many there are, a scroll
// amount, fill's REF=TEXT pairs. Clear and Submit are the caller's.
func (v Verb) Parse(args []string) (Input, error) {
	if lo, hi := v.arity(); len(args) < lo || hi >= 0 && len(args) > hi {
		return Input{}, fmt.Errorf("%s: wrong number of arguments", v.Name)
	}
	var in Input
	for i, a := range args {
		if err := v.Set(&in, v.argAt(i, a), a); err != nil {
			return Input{}, err
		}
	}
	return in, v.Check(in)
}

// arity is how many arguments the verb takes: lo to hi, hi -1 for no
// limit.
func (v Verb) arity() (lo, hi int) {
	for _, a := range v.Args {
		if !a.Optional {
			lo++
		}
		switch {
		case a.Variadic:
			hi = -1
		case hi >= 0:
			hi++
		}
	}
	return lo, hi
}

// argAt is the argument the i-th word a is: by its place, a variadic last
// argument taking the rest. Where arguments may be left out (scroll's
// [REF] [down|up|PX]) it is by its shape instead: a ref is the ref
// argument, any other word the other one (a later word of one kind
// replaces an earlier).
func (v Verb) argAt(i int, a string) Arg {
	optional := false
	for _, arg := range v.Args {
		optional = optional || arg.Optional
	}
	if optional {
		isRef := refShape.MatchString(a)
		for _, arg := range v.Args {
			if (arg.Kind == RefArg || arg.Kind == ToArg) == isRef {
				return arg
			}
		}
	}
	return v.Args[min(i, len(v.Args)-1)]
}

// refShape is what a ref looks like on the command line: index's grammar.
var refShape = regexp.MustCompile(index.RefPattern)

// Set puts one word of argument a into in: a variadic argument's word is
// added to what it holds. It checks a scroll amount and a REF=TEXT field.
func (v Verb) Set(in *Input, a Arg, word string) error {
	switch a.Kind {
	case RefArg:
		in.Ref = word
	case ToArg:
		in.To = word
	case TextArg:
		in.Text = word
	case KeyArg:
		in.Key = word
	case OptionArg:
		in.Option = word
	case AmountArg:
		if !amountOK(word) {
			return fmt.Errorf("%s %q: want a ref, down, up or a number of px from -1000000 to 1000000", v.Name, word)
		}
		in.Amount = word
	case FilesArg:
		in.Files = append(in.Files, word)
	case FieldsArg:
		ref, text, ok := strings.Cut(word, "=")
		if !ok || !refShape.MatchString(ref) {
			return fmt.Errorf("%s takes REF=TEXT pairs, not %q", v.Name, word)
		}
		in.Fields = append(in.Fields, [2]string{ref, text})
	}
	return nil
}

// amountOK says whether a is a scroll amount: down, up, or a number of
// CSS px from -1000000 to 1000000.
func amountOK(a string) bool {
	if a == "down" || a == "up" {
		return true
	}
	f, err := strconv.ParseFloat(a, 64)
	return err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) && math.Abs(f) <= 1e6
}
