package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/axfuse/axfuse/fuse"
	"github.com/schollz/progressbar/v3"
)

// This file holds the batch command: its declaration and its runner.

// batchCommand snapshots every page of a list.
func batchCommand() *command {
	return &command{name: "batch", args: "[flags] FILE", run: batch,
		summary: "snapshot every URL or path in FILE, several tabs at once",
		detail:  "Snapshot every URL or path in FILE (one a line) with --parallel tabs at once: one JSON object a page on stdout (errors too), a progress bar and a summary on stderr.",
		example: "axfuse batch --parallel 2 urls.txt > out.jsonl",
		flags:   flagsOf(pageFlags, viewFlags, []string{"parallel"})}
}

// batchLine is one page of a batch: its observation or its error, never
// neither.
type batchLine struct {
	Index       int               `json:"index"`
	URL         string            `json:"url"`
	MS          float64           `json:"ms"`
	Error       string            `json:"error,omitempty"`
	Observation *fuse.Observation `json:"observation,omitempty"`
}

// batchSummary is the batch's last word, on stderr.
type batchSummary struct {
	Pages    int     `json:"pages"`
	Failures int     `json:"failures"`
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

// batch snapshots every page of the list with --parallel tabs of one
// browser (launched, or a --cdp endpoint such as a browser farm) and
// writes one JSON line a page as each finishes.
func batch(ctx context.Context, cfg *config, stdout io.Writer) error {
	pages, err := readList(cfg.listFile)
	if err != nil {
		return err
	}
	bar := progressbar.NewOptions(len(pages), progressbar.OptionSetWriter(cfg.stderr),
		progressbar.OptionSetDescription("snapshots"), progressbar.OptionShowCount(),
		progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionSetPredictTime(true))
	var lines []batchLine
	err = withBrowser(ctx, cfg, func(b cliBrowser) error {
		lines = runBatch(ctx, b, cfg, pages, json.NewEncoder(stdout), bar)
		return nil
	})
	bar.Finish()
	fmt.Fprintln(cfg.stderr)
	if err != nil {
		return err
	}
	sum := summarize(lines)
	fmt.Fprintf(cfg.stderr, "axfuse batch: %d pages, %d failed, median %.0f ms, p95 %.0f ms, %d tokens in all\n",
		sum.Pages, sum.Failures, sum.MedianMS, sum.P95MS, sum.Tokens)
	if sum.Failures > 0 {
		return fmt.Errorf("%d of %d pages failed (their lines say why)", sum.Failures, sum.Pages)
	}
	return nil
}

// runBatch hands the pages to the workers; every page yields one line,
// written under a lock as it completes.
func runBatch(ctx context.Context, b cliBrowser, cfg *config, pages []string, enc *json.Encoder, bar *progressbar.ProgressBar) []batchLine {
	var lines []batchLine
	eachPage(ctx, cfg.parallel, len(pages), func(i int) batchLine { return batchPage(b, cfg, i, pages[i]) },
		func(i int, err error) batchLine {
			return batchLine{Index: i, URL: pages[i], Error: "not started: " + err.Error()}
		},
		func(line batchLine) {
			if err := enc.Encode(line); err != nil && line.Error == "" {
				line.Error = "writing the line: " + err.Error()
			}
			lines = append(lines, line)
			bar.Add(1)
		})
	return lines
}

// eachPage runs do for pages 0..n-1 on parallel workers and hands each
// result to emit, one at a time, as it completes; once ctx ends, the pages
// not yet started get notStarted's result instead.
func eachPage[L any](ctx context.Context, parallel, n int, do func(i int) L, notStarted func(i int, err error) L, emit func(L)) {
	jobs := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(max(parallel, 1), n) {
		wg.Go(func() {
			for i := range jobs {
				line := do(i)
				mu.Lock()
				emit(line)
				mu.Unlock()
			}
		})
	}
	for i := range n {
		if ctx.Err() != nil {
			line := notStarted(i, ctx.Err())
			mu.Lock()
			emit(line)
			mu.Unlock()
			continue
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
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
		if l.Error != "" {
			s.Failures++
			continue
		}
		ms = append(ms, l.MS)
		s.Tokens += l.Observation.Stats.Tokens
	}
	sort.Float64s(ms)
	s.MedianMS = median(ms)
	if len(ms) > 0 {
		s.P95MS = ms[min(len(ms)-1, int(float64(len(ms))*0.95))]
	}
	return s
}
