package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/fuse"
)

// actVerbs are the `act` verbs and how many arguments each takes after it
// (-1: one or more).
var actVerbs = map[string][2]int{
	"click": {1, 1}, "dblclick": {1, 1}, "hover": {1, 1}, "type": {2, 2}, "press": {2, 2},
	"select": {2, 2}, "check": {1, 1}, "uncheck": {1, 1}, "scrollto": {1, 1},
	"scroll": {0, 2}, "drag": {2, 2}, "fill": {1, -1}, "upload": {2, -1},
}

// actArgs reads `act VERB ARGS...`.
func (cfg *config) actArgs(pos []string) error {
	if cfg.cdp == "" {
		return errors.New("needs --cdp ENDPOINT: the browser whose tab you snapshot")
	}
	if len(pos) == 0 {
		return errors.New("needs a verb: " + verbList())
	}
	n, ok := actVerbs[pos[0]]
	if !ok {
		return fmt.Errorf("%q is not a verb: verbs are %s", pos[0], verbList())
	}
	args := pos[1:]
	if len(args) < n[0] || n[1] >= 0 && len(args) > n[1] {
		return fmt.Errorf("%s: wrong number of arguments", pos[0])
	}
	if pos[0] == "scroll" {
		for _, a := range args {
			if refPattern.MatchString(a) || a == "down" || a == "up" {
				continue
			}
			if v, err := strconv.ParseFloat(a, 64); err != nil || !finite(v) || math.Abs(v) > 1e6 {
				return fmt.Errorf("scroll %q: want a ref, down, up or a number of px from -1000000 to 1000000", a)
			}
		}
	}
	cfg.verb, cfg.actArgv = pos[0], args
	return nil
}

func verbList() string {
	return "click, dblclick, hover, type, press, select, check, uncheck, scroll, scrollto, drag, fill, upload"
}

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

func perform(s *act.Session, cfg *config) error {
	a := cfg.actArgv
	switch cfg.verb {
	case "click":
		return s.Click(a[0], 1)
	case "dblclick":
		return s.Click(a[0], 2)
	case "hover":
		return s.Hover(a[0])
	case "type":
		return s.Type(a[0], a[1], cfg.clear, cfg.submit)
	case "press":
		return s.Press(a[0], a[1])
	case "select":
		return s.Select(a[0], a[1])
	case "check", "uncheck":
		return s.SetChecked(a[0], cfg.verb == "check")
	case "scrollto":
		return s.ScrollTo(a[0])
	case "scroll":
		ref, amount := "", "down"
		for _, x := range a {
			if refPattern.MatchString(x) {
				ref = x
			} else {
				amount = x
			}
		}
		return s.Scroll(ref, amount)
	case "drag":
		return s.Drag(a[0], a[1])
	case "upload":
		return s.Upload(a[0], a[1:])
	case "fill":
		var fields [][2]string
		for _, f := range a {
			ref, text, ok := strings.Cut(f, "=")
			if !ok || !refPattern.MatchString(ref) {
				return fmt.Errorf("fill takes REF=TEXT pairs, not %q", f)
			}
			fields = append(fields, [2]string{ref, text})
		}
		return s.Fill(fields)
	}
	return errors.New("unknown action " + cfg.verb)
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
