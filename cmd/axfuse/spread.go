package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/axfuse/axfuse/fuse"
)

// This file holds what batch and compare --batch share to run a list of
// pages at scale: workers spread over browsers (tabs of one, or a
// browser session each on a farm or several --cdp), one retry of a page
// whose browser session was lost, lines written as pages finish or in
// input order, and resuming an interrupted run from its output file.

// pageJob is one page of a list run, as the list gives it.
type pageJob struct {
	Index int    `json:"index"`
	URL   string `json:"url"`
}

// listRun is a list's pages and where their lines go.
type listRun[L any] struct {
	cfg   *config
	pages []string
	// todo are the indexes of the pages still to run (all of them, or
	// those a resumed output file lacks); done the lines it had.
	todo []int
	done []L
	// out takes the lines; closeOut ends it (a resumed file's).
	out      io.Writer
	closeOut func() error
	// line reads a page's outcome: its index, its error ("" for none)
	// and, to say a page was tried again, a copy that says why.
	index   func(L) int
	failure func(L) string
	retried func(L, string) L
	// light, when set, is what of a written line is kept for the summary
	// (a 10,000-page run must not hold every observation).
	light func(L) L
}

// newListRun reads the list and, with --resume, the output file of an
// interrupted run: its pages are not run again and the lines of the
// others are appended to it.
func newListRun[L any](cfg *config, list string, stdout io.Writer) (*listRun[L], error) {
	pages, err := readList(list)
	if err != nil {
		return nil, err
	}
	if !cfg.parallelSet && len(cfg.cdpAll) > 1 {
		cfg.parallel = min(len(cfg.cdpAll), 64) // one worker an endpoint
	}
	r := &listRun[L]{cfg: cfg, pages: pages, out: stdout, closeOut: func() error { return nil }}
	written := map[int]bool{}
	if cfg.resume != "" {
		if r.done, written, err = readResumed[L](cfg.resume, pages); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(cfg.resume, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return nil, fmt.Errorf("--resume: %w", err)
		}
		r.out, r.closeOut = f, f.Close
	}
	for i := range pages {
		if !written[i] {
			r.todo = append(r.todo, i)
		}
	}
	return r, nil
}

// maxResumedLine bounds one line of a resumed file (an observation of a
// huge page is some megabytes).
const maxResumedLine = 256 << 20

// readResumed reads an interrupted run's output: every whole line of a
// page of this list (a line cut by the interruption is cut off the file,
// so that the next line starts clean). A line of another list is an
// error: the file is not this run's.
func readResumed[L any](path string, pages []string) (lines []L, written map[int]bool, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("--resume: %w", err)
	}
	if cut := bytes.LastIndexByte(data, '\n') + 1; cut < len(data) {
		if err := os.Truncate(path, int64(cut)); err != nil {
			return nil, nil, fmt.Errorf("--resume: cutting the unfinished last line: %w", err)
		}
		data = data[:cut]
	}
	written = map[int]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), maxResumedLine)
	for n := 1; sc.Scan(); n++ {
		var job pageJob
		if json.Unmarshal(sc.Bytes(), &job) != nil || job.URL == "" {
			continue // the summary line, or one not of a page
		}
		if job.Index < 0 || job.Index >= len(pages) || pages[job.Index] != job.URL {
			return nil, nil, fmt.Errorf("--resume %s: line %d is page %d of another list (%.80q): give the list that run was given", path, n, job.Index, job.URL)
		}
		if written[job.Index] {
			return nil, nil, fmt.Errorf("--resume %s: page %d has two lines (line %d): is it the output of one run?", path, job.Index, n)
		}
		var line L
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, nil, fmt.Errorf("--resume %s: line %d: %w", path, n, err)
		}
		written[job.Index] = true
		lines = append(lines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("--resume %s: %w", path, err)
	}
	return lines, written, nil
}

// run runs the pages still to run on --parallel workers, each in the
// browser pool gives it, and writes each page's line (see lineWriter).
// A page that failed because its browser session was lost is tried once
// more on a new one, and its line says so. Once ctx ends, pages not
// started and pages cut short write no line: --resume runs them.
func (r *listRun[L]) run(ctx context.Context, pool *browsers, do func(b cliBrowser, i int) L) []L {
	w := newLineWriter(r.out, r.cfg.ordered, r.todo, r.index)
	var mu sync.Mutex
	keep := func(ls []L) []L {
		if r.light != nil {
			for i := range ls {
				ls[i] = r.light(ls[i])
			}
		}
		return ls
	}
	lines := keep(append([]L(nil), r.done...))
	eachPage(ctx, r.cfg.parallel, r.todo, func(worker, i int) {
		line, ok := r.page(ctx, pool, worker, i, do)
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, keep(w.write(line))...)
	})
	lines = append(lines, keep(w.flush())...)
	return lines
}

// page runs one page, once more on a new browser session when its
// session was lost; ok is false when the run was interrupted under it.
func (r *listRun[L]) page(ctx context.Context, pool *browsers, worker, i int, do func(b cliBrowser, i int) L) (line L, ok bool) {
	b, err := pool.get(worker)
	if err != nil {
		return r.failed(i, err), ctx.Err() == nil
	}
	line = do(b, i)
	why := r.failure(line)
	if why == "" || ctx.Err() != nil || b.Alive() {
		return line, ctx.Err() == nil || why == ""
	}
	if b, err = pool.get(worker); err != nil {
		return r.retried(line, "the browser session was lost and could not be had again: "+err.Error()), ctx.Err() == nil
	}
	line = r.retried(do(b, i), "tried again on a new browser session: the first was lost ("+oneLine(why)+")")
	return line, ctx.Err() == nil || r.failure(line) == ""
}

// failed is a page's line for an error before it began.
func (r *listRun[L]) failed(i int, err error) L {
	var line L
	b, _ := json.Marshal(map[string]any{"index": i, "url": r.pages[i], "error": err.Error()})
	_ = json.Unmarshal(b, &line)
	return line
}

// eachPage runs do for the pages todo names on parallel workers (worker
// 0..parallel-1); once ctx ends, no page is started.
func eachPage(ctx context.Context, parallel int, todo []int, do func(worker, i int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for worker := range min(max(parallel, 1), len(todo)) {
		wg.Go(func() {
			for i := range jobs {
				do(worker, i)
			}
		})
	}
	for _, i := range todo {
		if ctx.Err() != nil {
			break
		}
		select {
		case jobs <- i:
		case <-ctx.Done():
		}
	}
	close(jobs)
	wg.Wait()
}

// lineWriter writes pages' lines, one JSON object a line: as they come,
// or, ordered, in the order of the pages (a line waits for those before
// it). write and flush give the lines written.
type lineWriter[L any] struct {
	out     io.Writer
	ordered bool
	order   []int // the pages' indexes in the order lines go out
	next    int   // ordered: the position in order written next
	waiting map[int]L
	index   func(L) int
}

func newLineWriter[L any](out io.Writer, ordered bool, order []int, index func(L) int) *lineWriter[L] {
	return &lineWriter[L]{out: out, ordered: ordered, order: order, waiting: map[int]L{}, index: index}
}

func (w *lineWriter[L]) write(line L) []L {
	if !w.ordered {
		w.encode(line)
		return []L{line}
	}
	w.waiting[w.index(line)] = line
	var out []L
	for w.next < len(w.order) {
		l, ok := w.waiting[w.order[w.next]]
		if !ok {
			break
		}
		delete(w.waiting, w.order[w.next])
		w.encode(l)
		out = append(out, l)
		w.next++
	}
	return out
}

// flush writes the lines still waiting (an interrupted ordered run's
// pages after a gap: done, so written, out of order).
func (w *lineWriter[L]) flush() []L {
	var out []L
	for _, i := range w.order[w.next:] {
		if l, ok := w.waiting[i]; ok {
			w.encode(l)
			out = append(out, l)
		}
	}
	w.waiting = map[int]L{}
	return out
}

func (w *lineWriter[L]) encode(line L) {
	_ = fuse.EncodeJSON(w.out, line, false) // a broken output ends the run's writes alike; the summary says how many
}

// browsers gives each worker the browser it runs pages in: one browser
// for all (launched, or attached: tabs of it), or, on farms and several
// --cdp, a browser session of its own per worker, its endpoint taken in
// turn. A browser that is no longer alive is opened anew on the next get.
type browsers struct {
	ctx       context.Context
	cfg       *config
	perWorker bool
	mu        sync.Mutex
	open      map[int]cliBrowser
}

func newBrowsers(ctx context.Context, cfg *config) *browsers {
	perWorker := len(cfg.cdpAll) > 1 || len(cfg.cdpAll) == 1 && isFarm(cfg.cdpAll[0])
	return &browsers{ctx: ctx, cfg: cfg, perWorker: perWorker, open: map[int]cliBrowser{}}
}

// get is the worker's browser, opened (or opened again) if need be.
func (p *browsers) get(worker int) (cliBrowser, error) {
	key := 0
	if p.perWorker {
		key = worker
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if b := p.open[key]; b != nil {
		if b.Alive() {
			return b, nil
		}
		b.Close()
		delete(p.open, key)
	}
	if err := p.ctx.Err(); err != nil {
		return nil, err
	}
	endpoint := ""
	if n := len(p.cfg.cdpAll); n > 0 {
		endpoint = p.cfg.cdpAll[key%n]
	}
	b, err := launchOrAttach(p.ctx, p.cfg.chromeOptionsAt(endpoint))
	if err != nil {
		return nil, err
	}
	p.open[key] = b
	return b, nil
}

// close closes every browser the pool opened.
func (p *browsers) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, b := range p.open {
		b.Close()
		delete(p.open, k)
	}
}

// interrupted says how an ended run stopped, for its last words.
func interrupted(ctx context.Context, written, pages int, cfg *config) error {
	if ctx.Err() == nil {
		return nil
	}
	again := "run it again with --resume FILE (the file its lines went to) to finish"
	if cfg.resume != "" {
		again = "run it again with --resume " + cfg.resume + " to finish"
	}
	return fmt.Errorf("%w: %d of %d pages written; %s", errStopped, written, pages, again)
}

var errStopped = errors.New("stopped")
