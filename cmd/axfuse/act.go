package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/fuse"
)

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

// runAct acts on the attached browser's current tab, then prints the new
// snapshot. It never acts on another element than the one the agent saw.
func runAct(ctx context.Context, cfg *config, stdout io.Writer) error {
	b, err := chrome.Open(ctx, chrome.Options{Endpoint: cfg.cdp, CallTimeout: cfg.timeout, FrameDepth: cfg.frameDepth, Tab: cfg.tab})
	if err != nil {
		return err
	}
	defer b.Close()
	tab, err := b.CurrentTab()
	if err != nil {
		return err
	}
	defer tab.Close()
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

func writeObservation(w io.Writer, cfg *config, obs *fuse.Observation) error {
	if cfg.format == "json" {
		return obs.WriteJSON(w)
	}
	_, err := io.WriteString(w, obs.Snapshot)
	return err
}

// dialogText is a prompt's reply: --dialog TEXT other than accept/dismiss.
func (cfg *config) dialogText() string {
	if cfg.dialog == "accept" || cfg.dialog == "dismiss" {
		return ""
	}
	return cfg.dialog
}
