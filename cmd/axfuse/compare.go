package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/oracle"
	"github.com/axfuse/axfuse/report"
	"github.com/axfuse/axfuse/truth"
	"github.com/schollz/progressbar/v3"
)

// This file holds the compare command: its declaration, its check and its
// runner, one page or a batch (peer.go runs compare --peer's observer).

// compareCommand measures the AX-only and the fused view against the ground truth.
func compareCommand() *command {
	return &command{name: "compare", args: "[flags] [URL]", run: compare, check: checkCompare,
		summary: "the AX-only view beside the fused view, measured against the browser's ground truth",
		detail: "The AX-only view beside the fused view of one capture (the demo page with no URL), a table of what differs, the targets one view has that the other lacks, " +
			"and both measured against the browser's ground truth: the elements in the viewport with a click listener or native activation, visible, whose centre the browser's hit test reaches " +
			"(recall of those targets, listener-only ones apart; refs a click cannot reach; tokens). With --batch, every page of a list; with --html, a report to look at.",
		example: "axfuse compare https://example.com\naxfuse compare --from page.capture.json --format json\naxfuse compare --batch urls.txt --parallel 2 --html report.html > pages.jsonl",
		flags:   flagsOf(pageFlags, []string{"format", "from", "offscreen", "margin", "batch", "parallel", "ordered", "resume", "html", "peer"})}
}

// checkCompare checks compare's flags: --batch against a single page's,
// and --peer.
func checkCompare(cfg *config) error {
	if cfg.batchFile != "" && (cfg.url != "" || cfg.from != "") {
		return errors.New("--batch reads its pages from FILE; it takes no URL or --from")
	}
	if cfg.formatSet && cfg.batchFile != "" {
		return errors.New("--batch writes JSON Lines (and --html a report); --format does not apply")
	}
	if (cfg.parallelSet || cfg.ordered || cfg.resume != "") && cfg.batchFile == "" {
		return errors.New("--parallel, --ordered and --resume apply to --batch")
	}
	if cfg.peer != "" {
		if cfg.cdp == "" {
			return errPeerNeedsCDP
		}
		if _, err := parsePeer(cfg.peer); err != nil {
			return err
		}
	}
	return nil
}

// compare shows the AX-only and the fused view of one capture, measured
// against its ground truth; with --batch, of every page of a list.
func compare(ctx context.Context, cfg *config, stdout io.Writer) error {
	if cfg.batchFile != "" {
		return compareBatch(ctx, cfg, stdout)
	}
	start := time.Now()
	var c *domsnap.Capture
	var shot []byte
	var peer *truth.Peer
	var err error
	if cfg.from != "" {
		c, err = domsnap.Load(cfg.from)
	} else {
		err = withTab(ctx, cfg, func(tab cliTab) error {
			if c, shot, err = captureWithHits(tab, cfg, cfg.html != ""); err == nil {
				peer = peerOn(ctx, cfg, tab)
			}
			return err
		})
	}
	if err != nil {
		return err
	}
	p := comparePage(c, cfg, peer)
	p.URL, p.MS, p.Screenshot = c.URL, msSince(start), shot
	if cfg.html != "" {
		if err := writeReport(cfg.html, []report.Page{p.Page}); err != nil {
			return err
		}
	}
	if cfg.format == "json" {
		return fuse.EncodeJSON(stdout, struct {
			*fuse.Comparison
			Truth *truth.Report `json:"truth"`
		}{&fuse.Comparison{AX: p.AX, Fused: p.Fused, Table: p.Table, OnlyFused: p.OnlyFused, OnlyAX: p.OnlyAX}, p.Truth}, true)
	}
	_, err = io.WriteString(stdout, p.Text+p.Truth.Text())
	return err
}

// comparedPage is a report.Page with what the single-page output adds.
type comparedPage struct {
	report.Page
	OnlyFused, OnlyAX []string
	Text              string
}

// comparePage runs both views on a capture and measures them, and the
// peer's snapshot of the same moment when there is one.
func comparePage(c *domsnap.Capture, cfg *config, peer *truth.Peer) comparedPage {
	cmp := fuse.Compare(c, cfg.fuseOptions())
	g := layout.Compute(c)
	r := truth.Compare(c, g, cmp)
	if peer != nil {
		truth.MeasurePeer(c, g, peer)
		r.Peer = peer
	}
	return comparedPage{
		Page:      report.Page{URL: c.URL, Title: cmp.Fused.Title, Table: cmp.Table, Truth: r, AX: cmp.AX, Fused: cmp.Fused},
		OnlyFused: cmp.OnlyFused, OnlyAX: cmp.OnlyAX, Text: cmp.Text(60),
	}
}

// peerOn runs compare --peer's observer on the tab, or returns nil.
func peerOn(ctx context.Context, cfg *config, tab cliTab) *truth.Peer {
	if cfg.peer == "" {
		return nil
	}
	spec, _ := parsePeer(cfg.peer) // checked with the flags
	return runPeer(ctx, spec, cfg.cdp, tab.TargetID(), 3*cfg.timeout)
}

// captureWithHits takes a full capture and the browser's hit tests at the
// points measuring its views needs (truth.PointsFor), kept in c.Hits, and
// with shot, the viewport's screenshot after them. The hit tests must
// show the moment the capture shows: a capture asked again right after
// them has to be the same one (the tab reuses a capture only when nothing
// changed since). When the page changed in between (an overlay fading
// after load), the new capture is measured and hit-tested in turn, up to
// maxTruthRounds times; the timings say how it went.
func captureWithHits(tab cliTab, cfg *config, shot bool) (*domsnap.Capture, []byte, error) {
	full := browser.CaptureOptions{Mode: domsnap.CaptureFull}
	c, err := tab.CaptureWith(full)
	if err != nil {
		return nil, nil, err
	}
	for round := 1; ; round++ {
		start := time.Now()
		points := truth.PointsFor(c, layout.Compute(c), fuse.Compare(c, cfg.fuseOptions()))
		hits, err := oracle.HitTests(tab, points)
		if err != nil {
			return nil, nil, err
		}
		moment, again, err := momentAfter(tab, c)
		if err != nil {
			return nil, nil, err
		}
		if moment != momentChanged || round == maxTruthRounds {
			c.Hits = hits
			c.Timings = append(c.Timings, domsnap.TimingSince(fmt.Sprintf("hit tests (%d points, round %d: %s)", len(points), round, moment), start))
			break
		}
		c = again
	}
	if !shot {
		return c, nil, nil
	}
	png, err := tab.CapturePNG(tab.Context())
	if err != nil {
		return nil, nil, err
	}
	return c, png, nil
}

// maxTruthRounds bounds the rounds of capture and hit tests on a page
// that keeps changing; the last round then stands.
const maxTruthRounds = 3

// A moment says whether the page changed between a capture and its hit
// tests, as a capture asked again right after them shows.
type moment string

const (
	momentSame    moment = "the page did not change meanwhile"
	momentChanged moment = "the page changed meanwhile"
	// momentUnknown: the tab keeps no capture of this page to compare with
	// (frames, a closed shadow root, a custom element): the round stands.
	momentUnknown moment = "whether the page changed is not known"
)

// momentAfter says whether the page changed since capture c, by asking
// the tab for the same capture again (and gives that capture). A page the
// tab keeps no capture of is not asked: a capture would be taken anew and
// tell nothing.
func momentAfter(tab cliTab, c *domsnap.Capture) (moment, *domsnap.Capture, error) {
	if keepsNone(c) {
		return momentUnknown, nil, nil
	}
	again, err := tab.CaptureWith(browser.CaptureOptions{Mode: domsnap.CaptureFull})
	if err != nil {
		return "", nil, err
	}
	return sameMoment(again), again, nil
}

// keepsNone: the capture's quiet check says the tab keeps no capture of
// this page (frames, a closed shadow root, a custom element).
func keepsNone(c *domsnap.Capture) bool { return c.Reuse == domsnap.ReuseNeverKept }

// sameMoment reads the quiet check of a capture asked again: reused, the
// page did not change; kept none to reuse, not known; else it changed.
func sameMoment(again *domsnap.Capture) moment {
	switch again.Reuse {
	case domsnap.Reused:
		return momentSame
	case domsnap.ReuseNeverKept, domsnap.ReuseNoneKept:
		return momentUnknown
	}
	return momentChanged
}

// compareBatch compares every page of the list with --parallel workers
// (tabs of one browser, or a browser session each on a farm or several
// --cdp): one JSON line a page as each finishes (errors too; in the
// list's order with --ordered), then a line holding the summary; progress
// and the summary in words on stderr; with --html, the report of all
// pages. --resume finishes an interrupted run.
func compareBatch(ctx context.Context, cfg *config, stdout io.Writer) error {
	r, err := newListRun[report.Page](cfg, cfg.batchFile, stdout)
	if err != nil {
		return err
	}
	defer r.closeOut()
	r.index = func(p report.Page) int { return p.Index }
	r.failure = func(p report.Page) string { return p.Error }
	r.retried = func(p report.Page, why string) report.Page { p.Retried = why; return p }
	bar := progressbar.NewOptions(len(r.pages), progressbar.OptionSetWriter(cfg.stderr),
		progressbar.OptionSetDescription("compare"), progressbar.OptionShowCount(),
		progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionSetPredictTime(true))
	_ = bar.Add(len(r.done))
	pool := newBrowsers(ctx, cfg)
	defer pool.close()
	pages := r.run(ctx, pool, func(b cliBrowser, i int) report.Page {
		defer bar.Add(1)
		p := compareOne(ctx, b, cfg, i, r.pages[i])
		if cfg.html == "" { // only the report needs the views and pictures (never in the line)
			p.AX, p.Fused, p.Screenshot = nil, nil, nil
		}
		return p
	})
	bar.Finish()
	fmt.Fprintln(cfg.stderr)
	if err := interrupted(ctx, len(pages), len(r.pages), cfg); err != nil {
		return err
	}
	done := make([]report.Page, len(r.pages))
	for _, p := range pages {
		done[p.Index] = p
	}
	sum := report.Summarize(done)
	if err := fuse.EncodeJSON(r.out, struct {
		Summary report.Summary `json:"summary"`
	}{sum}, false); err != nil {
		return err
	}
	fmt.Fprintf(cfg.stderr, "axfuse compare: %d pages, %d failed, median %.0f ms a page; %d targets: AX-only found %d, fused %d; median recall %.1f%% and %.1f%%; %d and %d tokens\n",
		sum.Pages, sum.Failures, sum.MedianMS, sum.Targets, sum.AXFound, sum.FusedFound, 100*sum.MedianAXRecall, 100*sum.MedianFusedRecall, sum.AXTokens, sum.FusedTokens)
	if cfg.html != "" {
		if err := writeReport(cfg.html, done); err != nil {
			return err
		}
	}
	if sum.Failures > 0 {
		return fmt.Errorf("%d of %d pages failed (their lines say why)", sum.Failures, sum.Pages)
	}
	return nil
}

// compareOne compares one page in a tab of its own; a panic in the
// pipeline becomes the page's error, so no page is lost.
func compareOne(ctx context.Context, b cliBrowser, cfg *config, i int, page string) (p report.Page) {
	p = report.Page{Index: i, URL: page}
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			p = report.Page{Index: i, URL: page, Error: fmt.Sprintf("internal error: %v", r)}
		}
		p.MS = msSince(start)
	}()
	tab, err := openPage(b, cfg, page)
	if err != nil {
		p.Error = err.Error()
		return p
	}
	defer tab.Close()
	c, shot, err := captureWithHits(tab, cfg, cfg.html != "")
	if err != nil {
		p.Error = err.Error()
		return p
	}
	p = comparePage(c, cfg, peerOn(ctx, cfg, tab)).Page
	p.Index, p.URL, p.Screenshot = i, page, shot
	return p
}

// writeReport writes the HTML report through temporary files, so a
// failed run leaves no half report. One page is one self-contained file;
// several are an index at path and a file a page in the folder beside it
// (report.html, report-pages/page-N.html), so the index of thousands of
// pages stays small and each page opens on its own.
func writeReport(path string, pages []report.Page) error {
	if len(pages) == 1 {
		return writeAtomically(path, func(w io.Writer) error { return report.WriteHTML(w, pages) })
	}
	dir := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)) + "-pages"
	tmp, err := os.MkdirTemp(filepath.Dir(path), ".axfuse-report-pages-*")
	if err != nil {
		return fmt.Errorf("--html: %w", err)
	}
	defer os.RemoveAll(tmp)
	open := func(i int) (io.WriteCloser, error) {
		return os.Create(filepath.Join(tmp, fmt.Sprintf("page-%d.html", i)))
	}
	err = writeAtomically(path+".part", func(w io.Writer) error { return report.WriteSplit(w, dir, filepath.Base(path), open, pages) })
	if err != nil {
		return err
	}
	defer os.Remove(path + ".part")
	final := filepath.Join(filepath.Dir(path), dir)
	if err := errors.Join(os.Chmod(tmp, 0o755), os.RemoveAll(final), os.Rename(tmp, final), os.Rename(path+".part", path)); err != nil {
		return fmt.Errorf("--html: %w", err)
	}
	return nil
}

// writeAtomically writes a file through a temporary one renamed over it.
func writeAtomically(path string, write func(w io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".axfuse-report-*")
	if err != nil {
		return fmt.Errorf("--html: %w", err)
	}
	defer os.Remove(f.Name())
	if err := errors.Join(write(f), f.Chmod(0o644), f.Close()); err != nil {
		return fmt.Errorf("--html: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("--html: %w", err)
	}
	return nil
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }
