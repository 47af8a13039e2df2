package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/axfuse/axfuse/fuse"
	"github.com/schollz/progressbar/v3"
)

// This file holds the batch command: its declaration and its runner.

// batchCommand snapshots every page of a list.
func batchCommand() *command {
	return &command{name: "batch", args: "[flags] FILE", run: batch,
		summary: "snapshot every URL or path in FILE, several tabs at once",
		detail:  "Snapshot every URL or path in FILE (one a line) with --parallel workers at once: one JSON object a page on stdout as each finishes (errors too; in FILE's order with --ordered), a progress bar and a summary on stderr. The workers share one browser's tabs, or, when --cdp names a browser farm or is given more than once, each has a browser session of its own, the endpoints taken in turn. A page whose browser session was lost is tried once more on a new one (its line's retried field says why). A run that was stopped (Ctrl-C, SIGTERM) writes no line for the pages it did not finish: --resume FILE, given the file its lines went to, runs only the pages FILE lacks and appends their lines to it.",
		example: "axfuse batch --parallel 2 urls.txt > out.jsonl\naxfuse batch --resume out.jsonl urls.txt\naxfuse batch --cdp \"ws://127.0.0.1:3311/?token=$TOKEN\" --parallel 4 urls.txt > out.jsonl",
		flags:   flagsOf(pageFlags, viewFlags, []string{"parallel", "ordered", "resume"})}
}

// batchLine is one page of a batch: its observation or its error, never
// neither.
type batchLine struct {
	Index       int               `json:"index"`
	URL         string            `json:"url"`
	MS          float64           `json:"ms"`
	Error       string            `json:"error,omitempty"`
	Retried     string            `json:"retried,omitempty"` // why the page was tried again
	Observation *fuse.Observation `json:"observation,omitempty"`
	// tokens is the observation's, kept for the summary once the line is
	// written and its observation let go.
	tokens int
}

// light is a written line as the summary needs it: no observation.
func (l batchLine) light() batchLine {
	if l.Observation != nil {
		l.tokens, l.Observation = l.Observation.Stats.Tokens, nil
	}
	return l
}

// batchSummary is the batch's last word, on stderr.
type batchSummary struct {
	Pages    int     `json:"pages"`
	Failures int     `json:"failures"`
	Retried  int     `json:"retried"`
	MedianMS float64 `json:"medianMs"`
	P95MS    float64 `json:"p95Ms"`
	Tokens   int     `json:"tokens"` // all pages'
}

// readList reads one URL or path a line; blank lines and # comments are
// skipped.
func readList(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s lists no pages", path)
	}
	return out, nil
}

// batch snapshots every page of the list with --parallel workers (tabs of
// one browser, or a browser session each on a farm or several --cdp)
// and writes one JSON line a page as each finishes, or in the list's
// order with --ordered; --resume finishes an interrupted run.
func batch(ctx context.Context, cfg *config, stdout io.Writer) error {
	r, err := newListRun[batchLine](cfg, cfg.listFile, stdout)
	if err != nil {
		return err
	}
	defer r.closeOut()
	r.index = func(l batchLine) int { return l.Index }
	r.failure = func(l batchLine) string { return l.Error }
	r.retried = func(l batchLine, why string) batchLine { l.Retried = why; return l }
	r.light = batchLine.light
	bar := progressbar.NewOptions(len(r.pages), progressbar.OptionSetWriter(cfg.stderr),
		progressbar.OptionSetDescription("snapshots"), progressbar.OptionShowCount(),
		progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionSetPredictTime(true))
	_ = bar.Add(len(r.done))
	pool := newBrowsers(ctx, cfg)
	defer pool.close()
	lines := r.run(ctx, pool, func(b cliBrowser, i int) batchLine {
		defer bar.Add(1)
		return batchPage(b, cfg, i, r.pages[i])
	})
	bar.Finish()
	fmt.Fprintln(cfg.stderr)
	if err := interrupted(ctx, len(lines), len(r.pages), cfg); err != nil {
		return err
	}
	sum := summarize(lines)
	fmt.Fprintf(cfg.stderr, "axfuse batch: %d pages, %d failed, %d tried again, median %.0f ms, p95 %.0f ms, %d tokens in all\n",
		sum.Pages, sum.Failures, sum.Retried, sum.MedianMS, sum.P95MS, sum.Tokens)
	if sum.Failures > 0 {
		return fmt.Errorf("%d of %d pages failed (their lines say why)", sum.Failures, sum.Pages)
	}
	return nil
}

// batchPage snapshots one page in a tab of its own; a panic in the
// pipeline becomes the page's error, so no page is lost.
func batchPage(b cliBrowser, cfg *config, i int, page string) (line batchLine) {
	line = batchLine{Index: i, URL: page}
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			line.Error, line.Observation = fmt.Sprintf("internal error: %v", r), nil
		}
		line.MS = float64(time.Since(start).Microseconds()) / 1000
	}()
	tab, err := openPage(b, cfg, page)
	if err != nil {
		line.Error = err.Error()
		return line
	}
	defer tab.Close()
	c, err := tab.CaptureWith(cfg.captureOptions())
	if err != nil {
		line.Error = err.Error()
		return line
	}
	line.Observation = fuse.Snapshot(c, cfg.fuseOptions())
	return line
}

func summarize(lines []batchLine) batchSummary {
	s := batchSummary{Pages: len(lines)}
	var ms []float64
	for _, l := range lines {
		if l.Retried != "" {
			s.Retried++
		}
		if l.Error != "" {
			s.Failures++
			continue
		}
		ms = append(ms, l.MS)
		s.Tokens += l.light().tokens
	}
	sort.Float64s(ms)
	s.MedianMS = median(ms)
	if len(ms) > 0 {
		s.P95MS = ms[min(len(ms)-1, int(float64(len(ms))*0.95))]
	}
	return s
}
