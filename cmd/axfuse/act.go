package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/internal/keys"
)

// This file holds the act command: its declaration, its command line
// (flags, the verb and its arguments, taken verbatim) and its runner.

// actCommand acts on a ref of the attached tab.
func actCommand() *command {
	return &command{name: "act", args: "--cdp ENDPOINT [flags] VERB ARGS...", run: runAct,
		summary: "act on a ref of the attached tab, then print its new snapshot",
		detail:  "Act on refs of the attached browser's tab (refs from an earlier snapshot --cdp, open, back, ...), then print the new snapshot. A stale, changed, covered, disabled or wrong kind of target fails, and input that would land on another element is stopped: nothing is done. type, fill and select read the outcome back: a field that then holds something else fails, naming what it holds (--submit is not pressed). After the verb only a flag's exact name is a flag; the rest is taken verbatim (\"-2\" too); after -- nothing is a flag.\nVerbs: click REF | dblclick REF | hover REF | check REF | uncheck REF | type REF TEXT [--clear] [--submit] | press REF KEY (Playwright's names: " + keys.Examples + ", a character) | select REF OPTION | fill REF=TEXT... | scroll [REF] [down|up|PX] | scrollto REF | drag REF REF | upload REF FILE... (a file input, or what opens a file chooser).",
		example: "axfuse act --cdp http://127.0.0.1:9222 click e12\naxfuse act --cdp http://127.0.0.1:9222 type e4 \"-2\" --submit",
		flags:   []string{"cdp", "tab", "timeout", "frame-depth", "format", "mode", "offscreen", "margin", "scope", "depth", "max-tokens", "capture", "audit", "clear", "submit", "dialog", "settle"}}
}

// actArgs reads `act VERB ARGS...`: a verb of act's verb table and its
// arguments, checked as the table says (how many, a scroll amount, fill's
// REF=TEXT pairs).
func (cfg *config) actArgs(pos []string) error {
	if cfg.cdp == "" {
		return errors.New("needs --cdp ENDPOINT: the browser whose tab you snapshot")
	}
	if len(pos) == 0 {
		return errors.New("needs a verb: " + verbList())
	}
	v, ok := act.Lookup(pos[0])
	if !ok {
		return fmt.Errorf("%q is not a verb: verbs are %s", pos[0], verbList())
	}
	if _, err := v.Parse(pos[1:]); err != nil {
		return err
	}
	cfg.verb, cfg.actArgv = pos[0], pos[1:]
	return nil
}

// verbList names the verbs, in the table's order.
func verbList() string { return strings.Join(act.Names(), ", ") }

// parseActFlags reads act's command line: flags as usual up to the verb;
// after it an argument is a flag only when it is one's exact name
// (--submit, --dialog accept, --dialog=accept), and after "--" none is.
func parseActFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	if err := parseSet(fs, args); err != nil {
		return nil, err
	}
	var pos []string
	rest := fs.Args()
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" && len(pos) > 0 {
			return append(pos, rest[i+1:]...), nil
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if !strings.HasPrefix(a, "-") || f == nil || len(pos) == 0 {
			pos = append(pos, a)
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() && !hasValue {
			value = "true"
		} else if !hasValue {
			if i+1 >= len(rest) {
				return nil, fmt.Errorf("flag %s needs a value", a)
			}
			i++
			value = rest[i]
		}
		if err := fs.Set(name, value); err != nil {
			return nil, fmt.Errorf("%s: %v", a, err)
		}
	}
	return pos, nil
}

// runAct acts on the attached browser's current tab, then prints the new
// snapshot. It never acts on another element than the one the agent saw.
func runAct(ctx context.Context, cfg *config, stdout io.Writer) error {
	return withAttachedTab(ctx, cfg, func(_ cliBrowser, tab cliTab) error { return actOn(tab, cfg, stdout) })
}

// actOn does the verb on the tab and prints the new snapshot, with notes
// on what the action did beside its input.
func actOn(tab cliTab, cfg *config, stdout io.Writer) error {
	s, err := act.Open(tab, cfg.cdp, cfg.fuseOptions())
	if err != nil {
		return err
	}
	s.Capture = browser.CaptureOptions{Mode: cfg.capture}
	s.Settle = cfg.settle
	if err := perform(s, cfg); err != nil {
		if notes := doneNotes(s.LastDone()); len(notes) > 0 {
			return fmt.Errorf("%w (%s)", err, strings.Join(notes, "; "))
		}
		return err
	}
	// A process cannot leave a dialog for the next one (the page waits on
	// this connection), so it answers as --dialog says and reports it.
	note, err := s.AnswerOpenDialog(cfg.dialog != "dismiss", cfg.dialogText())
	if err != nil {
		return err
	}
	chooser := s.OpenedFileChooser(func(ref string) string {
		if ref == "" {
			ref = "REF"
		}
		return "act upload " + ref + " FILE"
	})
	obs, err := s.Snapshot()
	if err != nil {
		return err
	}
	obs.Stats.Timings = append(s.LastDone().Timings(), obs.Stats.Timings...)
	notes := append([]string{note, chooser}, doneNotes(s.LastDone())...)
	for i := len(notes) - 1; i >= 0; i-- {
		if notes[i] != "" {
			obs.Snapshot = fuse.YAML([]*fuse.Node{{Role: "note", Text: notes[i]}}) + obs.Snapshot
		}
	}
	return writeObservation(stdout, cfg, obs)
}

// doneNotes words what an action did beside its input, for the CLI.
func doneNotes(d act.Done) []string {
	notes := d.Notes
	for _, o := range d.Opened {
		notes = append(notes, fmt.Sprintf("opened tab %s: %s %s", o.ID, fuse.Quote(fuse.DisplayName(o.Title)), fuse.Quote(fuse.DisplayName(o.URL))))
	}
	return notes
}

// perform does the verb on the session: its arguments read into act's
// Input again (actArgs checked them), --clear and --submit for a verb that
// takes them (type).
func perform(s *act.Session, cfg *config) error {
	v, ok := act.Lookup(cfg.verb)
	if !ok {
		return errors.New("unknown action " + cfg.verb)
	}
	in, err := v.Parse(cfg.actArgv)
	if err != nil {
		return err
	}
	in.Clear = cfg.clear && v.TakesFlag("clear")
	in.Submit = cfg.submit && v.TakesFlag("submit")
	return v.Run(s, in)
}

// dialogText is a prompt's reply: --dialog TEXT other than accept/dismiss.
func (cfg *config) dialogText() string {
	if cfg.dialog == "accept" || cfg.dialog == "dismiss" {
		return ""
	}
	return cfg.dialog
}
