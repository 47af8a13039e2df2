package fuse

// A pass is one step of the view: it takes the lines the passes before it
// left and gives the next ones, never changing a node it was given (it
// copies what it changes: Node.with). when says whether it runs under
// these options.
type pass struct {
	name string
	when func(Options) bool
	run  func(v *view, roots []*Node) []*Node
}

// viewPasses are the view's passes, in the order they run on the full
// tree; each lives in its file pass_NAME.go.
var viewPasses = []pass{
	// scope: one subtree (Options.Scope), or a note that none matches.
	{"scope", func(o Options) bool { return o.Scope != "" }, (*view).scoped},
	// modal: an open modal dialog is all a person can reach.
	{"modal", func(o Options) bool { return o.Scope == "" && o.Mode == ModeFused }, (*view).modal},
	// uncovered: covered nodes out, with notes counting them.
	{"uncovered", fused, (*view).uncovered},
	// notes: what was withheld as unseen, invisible or left unchecked,
	// and how many characters that draw nothing were removed.
	{"notes", func(Options) bool { return true }, (*view).countNotes},
	// offscreen: off-screen subtrees collapsed to counted lines, or dropped.
	{"offscreen", func(o Options) bool { return o.Mode == ModeFused && o.Offscreen != OffscreenKeep && o.Scope == "" }, (*view).offscreen},
	// depth: no line deeper than Options.Depth.
	{"depth", func(o Options) bool { return o.Depth > 0 }, (*view).depth},
	// budget: cut to Options.MaxTokens, whole lines, with counted notes.
	{"budget", func(o Options) bool { return o.MaxTokens > 0 }, (*view).budgeted},
}

func fused(o Options) bool { return o.Mode == ModeFused }
