package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
)

// This file holds the bench command: its declaration and its runner.

// benchCommand times each stage of the observation of pages.
func benchCommand() *command {
	return &command{name: "bench", args: "[flags] [URL...]", run: bench,
		summary: "time each stage of the observation of pages",
		detail:  "Capture and fuse each page --runs times (the demo page with no URL) and print each stage's median: CDP calls, layout, fuse, serialize, the whole observation. A page that cannot be measured is reported and makes the exit status 1.",
		example: "axfuse bench --runs 10 https://example.com",
		flags:   flagsOf(pageFlags, viewFlags, []string{"format", "runs"})}
}

// benchResult is one page's per-stage medians over the runs.
type benchResult struct {
	URL    string      `json:"url"`
	Runs   int         `json:"runs"`
	Nodes  int         `json:"domNodes"`
	Tokens int         `json:"tokens"`
	Stages []stageTime `json:"stages"`
	Error  string      `json:"error,omitempty"`
}

type stageTime struct {
	Step     string  `json:"step"`
	MedianMS float64 `json:"medianMs"`
	MinMS    float64 `json:"minMs"`
	MaxMS    float64 `json:"maxMs"`
}

// bench loads each page once, then captures and fuses it --runs times and
// prints each stage's median: the CDP calls (concurrent ones overlap; the
// "capture" line is their wall time), layout, fuse (paint order, join,
// view, refs), serialize, and the whole observation.
func bench(ctx context.Context, cfg *config, stdout io.Writer) error {
	pages := cfg.urls
	if len(pages) == 0 {
		srv, err := serveDemo()
		if err != nil {
			return err
		}
		defer srv.Close()
		pages = []string{srv.URL}
	}
	var results []benchResult
	err := withBrowser(ctx, cfg, func(b cliBrowser) error {
		for _, page := range pages {
			results = append(results, benchPage(b, cfg, page))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if cfg.format == "json" {
		err = fuse.EncodeJSON(stdout, results, true)
	} else {
		err = writeBench(stdout, results)
	}
	if err != nil {
		return err
	}
	failed := 0
	for _, r := range results {
		if r.Error != "" {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d pages could not be measured (see the output)", failed, len(results))
	}
	return nil
}

func benchPage(b cliBrowser, cfg *config, page string) benchResult {
	r := benchResult{URL: page, Runs: cfg.runs}
	tab, err := openPage(b, cfg, page)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	defer tab.Close()
	samples := map[string][]float64{}
	var order []string
	add := func(step string, ms float64) {
		if _, ok := samples[step]; !ok {
			order = append(order, step)
		}
		samples[step] = append(samples[step], ms)
	}
	opts := cfg.fuseOptions()
	co := cfg.captureOptions()
	co.Fresh = true // every run a whole capture, not an incremental one
	for range cfg.runs {
		start := time.Now()
		c, err := tab.CaptureWith(co)
		if err != nil {
			r.Error = err.Error()
			return r
		}
		obs := fuse.Snapshot(c, opts)
		for _, t := range obs.Stats.Timings {
			add(stepName(t), t.MS)
		}
		add("observation (capture + pure stages)", float64(time.Since(start).Microseconds())/1000)
		r.Nodes, r.Tokens = obs.Stats.DOMNodes, obs.Stats.Tokens
	}
	for _, step := range order {
		xs := samples[step]
		sort.Float64s(xs)
		r.Stages = append(r.Stages, stageTime{Step: step, MedianMS: median(xs), MinMS: xs[0], MaxMS: xs[len(xs)-1]})
	}
	return r
}

// stepName is a step's name, marked when it failed: runs group by it.
func stepName(t domsnap.Timing) string {
	if t.Error != "" {
		return t.Step + " (failed)"
	}
	return t.Step
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func writeBench(w io.Writer, results []benchResult) error {
	for _, r := range results {
		fmt.Fprintf(w, "# %s\n", r.URL)
		if r.Error != "" {
			fmt.Fprintf(w, "error: %s\n\n", r.Error)
			continue
		}
		fmt.Fprintf(w, "%d runs, %d DOM nodes, %d tokens\n", r.Runs, r.Nodes, r.Tokens)
		tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "stage\tmedian ms\tmin\tmax\n")
		for _, s := range r.Stages {
			fmt.Fprintf(tw, "%s\t%9.1f\t%7.1f\t%7.1f\n", s.Step, s.MedianMS, s.MinMS, s.MaxMS)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}
