package main

// End-to-end tests of compare's HTML report and --batch: reports written
// from real pages and opened in real headless Chromium, figures checked
// against the JSON the same run printed.

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/report"
	"github.com/axfuse/axfuse/truth"
	"github.com/chromedp/chromedp"
)

// reportFacts is what a report shows, read in the browser.
type reportFacts struct {
	Images []struct {
		Complete bool `json:"complete"`
		Width    int  `json:"width"`
	} `json:"images"`
	Fetched int `json:"fetched"` // resources the page fetched
	Pages   []struct {
		Index int `json:"index"`
		Views []struct {
			Key      string `json:"key"`
			Listed   []int  `json:"listed"`
			Outlined []int  `json:"outlined"`
		} `json:"views"`
	} `json:"pages"`
	Rows   []reportRow `json:"rows"`
	Sorted []float64   `json:"sorted"` // the fused tokens column after a click on its header
	// Links are the rows' links to their pages' files (a split report's
	// index), by row index.
	Links map[int]string `json:"links"`
}

type reportRow struct {
	Index  int                `json:"index"`
	Fields map[string]float64 `json:"fields"`
}

const readReport = `(async () => {
  const images = [...document.images];
  await Promise.all(images.map(i => i.decode().catch(() => {})));
  const rows = () => [...document.querySelectorAll('#pages tbody tr')].map(tr => ({index: +tr.dataset.index,
    fields: Object.fromEntries([...tr.querySelectorAll('td[data-field]')].map(td => [td.dataset.field, parseFloat(td.dataset.v)]))}));
  const facts = {
    images: images.map(i => ({complete: i.complete, width: i.naturalWidth})),
    fetched: performance.getEntriesByType('resource').length,
    pages: [...document.querySelectorAll('section.page')].map(s => ({index: +s.dataset.index,
      views: [...s.querySelectorAll('figure.view')].map(f => ({key: f.dataset.view,
        listed: [...f.querySelectorAll('ol.missed-list li')].map(li => +li.dataset.target),
        // drawn: a box of some size with a red stroke
        outlined: [...f.querySelectorAll('rect.missed')].filter(r => { const b = r.getBBox(), cs = getComputedStyle(r);
          return b.width > 0 && b.height > 0 && cs.stroke === 'rgb(238, 0, 0)' && parseFloat(cs.strokeWidth) >= 2; }).map(r => +r.dataset.target)}))})),
    rows: rows(),
    links: Object.fromEntries([...document.querySelectorAll('#pages tbody tr')].map(tr => [tr.dataset.index, tr.querySelector('a')])
      .filter(([, a]) => a && !a.getAttribute('href').startsWith('#')).map(([i, a]) => [i, a.href])),
  };
  const th = [...document.querySelectorAll('#pages th')].find(th => th.textContent === 'fused tokens');
  if (th) th.click();
  facts.sorted = rows().map(r => r.fields['fused.tokens'] ?? -1);
  return facts;
})()`

// openReport loads a report file in headless Chromium and reads it; a
// split report's index is read with every page's file its rows link to,
// each of which must hold that page's section.
func openReport(t *testing.T, path string) reportFacts {
	t.Helper()
	b := openBrowser(t)
	facts := readReportAt(t, b, "file://"+path)
	for i, link := range facts.Links {
		page := readReportAt(t, b, link)
		if len(page.Pages) != 1 || page.Pages[0].Index != i {
			t.Errorf("row %d links %s, which holds no section of page %d", i, link, i)
		}
		facts.Images = append(facts.Images, page.Images...)
		facts.Pages = append(facts.Pages, page.Pages...)
		facts.Fetched += page.Fetched
	}
	return facts
}

func readReportAt(t *testing.T, b *chrome.Browser, url string) reportFacts {
	t.Helper()
	tab := openPageTab(t, b, url, 0)
	defer tab.Close()
	ctx, cancel := context.WithTimeout(tab.Context(), 60*time.Second)
	defer cancel()
	facts, err := chromedp.Run(ctx, chromedp.Evaluate[reportFacts](readReport, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("reading the report %s: %v", url, err)
	}
	return facts
}

// checkReport: every image decodes, nothing is fetched, every listed
// missed target has a red outline (and no outline is unlisted), and the
// table's figures are the JSON's.
func checkReport(t *testing.T, facts reportFacts, want map[int]*truth.Report, ms map[int]float64) {
	t.Helper()
	if len(facts.Images) == 0 {
		t.Error("no screenshots in the report")
	}
	for i, img := range facts.Images {
		if !img.Complete || img.Width == 0 {
			t.Errorf("image %d does not decode", i)
		}
	}
	if facts.Fetched != 0 {
		t.Errorf("the report fetched %d resources", facts.Fetched)
	}
	if len(facts.Pages) != len(want) || len(facts.Rows) != len(want) {
		t.Fatalf("%d sections and %d rows for %d pages", len(facts.Pages), len(facts.Rows), len(want))
	}
	for _, p := range facts.Pages {
		r := want[p.Index]
		if r == nil {
			continue
		}
		missed := map[string]int{"ax": len(r.MissedByAX), "fused": len(r.MissedByFused)}
		if len(p.Views) != 2 {
			t.Errorf("page %d: %d views", p.Index, len(p.Views))
		}
		for _, v := range p.Views {
			sort.Ints(v.Listed)
			sort.Ints(v.Outlined)
			if len(v.Listed) != missed[v.Key] || !equalInts(v.Listed, v.Outlined) {
				t.Errorf("page %d, %s view: listed %v, outlined %v, the JSON misses %d", p.Index, v.Key, v.Listed, v.Outlined, missed[v.Key])
			}
		}
	}
	for _, row := range facts.Rows {
		r := want[row.Index]
		if r == nil {
			if _, ok := row.Fields["targets"]; ok {
				t.Errorf("row %d: figures for a failed page", row.Index)
			}
			continue
		}
		for field, v := range map[string]float64{"targets": float64(r.Targets), "listenerOnly": float64(r.ListenerOnly),
			"ax.recall": r.AX.Recall, "fused.recall": r.Fused.Recall, "ax.precision": r.AX.Precision, "fused.precision": r.Fused.Precision,
			"ax.tokens": float64(r.AX.Tokens), "fused.tokens": float64(r.Fused.Tokens), "ms": ms[row.Index]} {
			if got, ok := row.Fields[field]; !ok || math.Abs(got-v) > 1e-9 {
				t.Errorf("row %d: %s %v, the JSON's %v", row.Index, field, got, v)
			}
		}
	}
	if !sort.Float64sAreSorted(facts.Sorted) {
		t.Errorf("a click on the fused tokens header did not sort: %v", facts.Sorted)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestCompareHTMLOnTheDemoPage: compare --html on the embedded demo page.
func TestCompareHTMLOnTheDemoPage(t *testing.T) {
	needChromium(t)
	path := filepath.Join(t.TempDir(), "report.html")
	out := mustCLI(t, "compare", "--format", "json", "--html", path)
	var got struct {
		Truth *truth.Report `json:"truth"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Truth == nil {
		t.Fatalf("compare JSON: %v", err)
	}
	// The demo's role-less "Add to cart" divs and its chart canvas: the
	// AX-only view misses them.
	if len(got.Truth.MissedByAX) == 0 || len(got.Truth.MissedByFused) != 0 {
		t.Errorf("missed by AX-only %q, by fused %q", got.Truth.MissedByAX, got.Truth.MissedByFused)
	}
	facts := openReport(t, path)
	if len(facts.Rows) == 1 { // the single page's time is not in its JSON
		if ms, ok := facts.Rows[0].Fields["ms"]; ok {
			checkReport(t, facts, map[int]*truth.Report{0: got.Truth}, map[int]float64{0: ms})
			return
		}
	}
	t.Fatalf("rows %+v", facts.Rows)
}

// compareLines reads compare --batch's JSON Lines: the pages, and the
// summary line last.
func compareLines(t *testing.T, out string) ([]report.Page, *report.Summary) {
	t.Helper()
	var pages []report.Page
	var sum *report.Summary
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		if sum != nil {
			t.Fatalf("a line after the summary: %.200s", sc.Text())
		}
		var line struct {
			report.Page
			Summary *report.Summary `json:"summary"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("not a JSON line: %v: %.200s", err, sc.Text())
		}
		if line.Summary != nil {
			sum = line.Summary
			continue
		}
		pages = append(pages, line.Page)
	}
	if sum == nil {
		t.Fatal("no summary line")
	}
	return pages, sum
}

// TestCompareBatchHTML: compare --batch --html on three shared-corpus
// pages (a shop, an app, a dashboard with charts) and a dead address.
func TestCompareBatchHTML(t *testing.T) {
	pages := servedCorpus(t)
	var list []string
	for _, p := range pages {
		switch p.path {
		case "A/sb-shop-homepage/dist/index.html", "B/todomvc-jquery/examples/jquery/dist/index.html", "C/sb-admin-2/index.html":
			list = append(list, p.url)
		}
	}
	dead := httptest.NewServer(nil)
	list = append(list, dead.URL+"/")
	dead.Close()
	dir := t.TempDir()
	file, path := filepath.Join(dir, "pages.txt"), filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, []byte(strings.Join(list, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI(t, "compare", "--batch", file, "--parallel", "2", "--html", path)
	if err == nil || !strings.Contains(err.Error(), "1 of 4 pages failed") {
		t.Errorf("error %v, want 1 of 4 pages failed", err)
	}
	lines, _ := compareLines(t, out)
	want, ms := map[int]*truth.Report{}, map[int]float64{}
	for _, l := range lines {
		if (l.Error != "") != (l.URL == list[3]) {
			t.Errorf("page %d (%s): error %q", l.Index, l.URL, l.Error)
		}
		want[l.Index], ms[l.Index] = l.Truth, l.MS
	}
	if len(want) != 4 {
		t.Fatalf("%d pages in the lines, want 4", len(want))
	}
	checkReport(t, openReport(t, path), want, ms)
}

// TestCompareBatchOnTheCorpus: compare --batch over the whole shared corpus:
// every page has its line, and the summary's figures are those computed
// here from the lines.
func TestCompareBatchOnTheCorpus(t *testing.T) {
	pages := corpusPages(t)
	var list []string
	for _, p := range pages {
		list = append(list, p.url)
	}
	file := filepath.Join(t.TempDir(), "corpus.txt")
	if err := os.WriteFile(file, []byte(strings.Join(list, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	// A generous deadline a call: the readability pages wait on hosts that
	// cannot be reached (bbc-1 takes 15 s alone), two at a time.
	html := filepath.Join(t.TempDir(), "corpus.html")
	out, _ := runCLIWithin(t, 30*time.Minute, "compare", "--batch", file, "--parallel", "2", "--timeout", "60s", "--html", html)
	lines, sum := compareLines(t, out)
	// The report of many pages is an index that stays small and a file a
	// page, each link opening its page.
	if st, err := os.Stat(html); err != nil {
		t.Errorf("the report's index: %v", err)
	} else if st.Size() > 2<<20 {
		t.Errorf("the report's index is %d bytes, more than 2 MB", st.Size())
	} else {
		t.Logf("the report's index: %d bytes for %d pages", st.Size(), len(list))
	}
	if facts := openReport(t, html); len(facts.Links) != len(list) {
		t.Errorf("the index links %d pages' files, not %d", len(facts.Links), len(list))
	}
	seen := map[string]bool{}
	var ok []report.Page
	for _, l := range lines {
		seen[l.URL] = true
		if l.Error == "" {
			ok = append(ok, l)
		} else {
			t.Logf("%s: %s", l.URL, l.Error)
		}
	}
	for _, u := range list {
		if !seen[u] {
			t.Errorf("no line for %s", u)
		}
	}
	if len(lines) != len(list) || sum.Pages != len(list) || sum.Failures != len(list)-len(ok) {
		t.Errorf("%d lines, summary of %d pages with %d failures, for %d pages (%d measured)", len(lines), sum.Pages, sum.Failures, len(list), len(ok))
	}
	// A corpus page that fails is a regression to look at, not noise.
	if len(ok) < len(list)-2 {
		t.Errorf("only %d of %d pages measured", len(ok), len(list))
	}
	var targets, axFound, fusedFound, axTokens, fusedTokens int
	var ms, axRecall, fusedRecall []float64
	for _, l := range ok {
		r := l.Truth
		targets, axFound, fusedFound = targets+r.Targets, axFound+r.AX.Found, fusedFound+r.Fused.Found
		axTokens, fusedTokens = axTokens+r.AX.Tokens, fusedTokens+r.Fused.Tokens
		ms = append(ms, l.MS)
		if r.Targets > 0 {
			axRecall, fusedRecall = append(axRecall, float64(r.AX.Found)/float64(r.Targets)), append(fusedRecall, float64(r.Fused.Found)/float64(r.Targets))
		}
	}
	for name, pair := range map[string][2]float64{
		"targets": {float64(sum.Targets), float64(targets)}, "AX-only found": {float64(sum.AXFound), float64(axFound)},
		"fused found": {float64(sum.FusedFound), float64(fusedFound)}, "AX-only tokens": {float64(sum.AXTokens), float64(axTokens)},
		"fused tokens": {float64(sum.FusedTokens), float64(fusedTokens)}, "median ms": {sum.MedianMS, sortedMedian(ms)},
		"median AX-only recall": {sum.MedianAXRecall, sortedMedian(axRecall)}, "median fused recall": {sum.MedianFusedRecall, sortedMedian(fusedRecall)},
	} {
		if math.Abs(pair[0]-pair[1]) > 1e-9 {
			t.Errorf("summary %s %v, computed from the lines %v", name, pair[0], pair[1])
		}
	}
	// What the fused view is for: it finds at least what the AX-only view
	// finds, and every listener-only target the AX-only view cannot.
	if fusedFound < axFound || sum.FusedListenFound < sum.ListenerOnly*9/10 {
		t.Errorf("fused found %d (listener-only %d of %d), AX-only %d", fusedFound, sum.FusedListenFound, sum.ListenerOnly, axFound)
	}
	t.Logf("corpus: %d pages, median %.0f ms a page; %d targets (%d listener-only): AX-only %d, fused %d; tokens %d and %d",
		len(lines), sum.MedianMS, targets, sum.ListenerOnly, axFound, fusedFound, axTokens, fusedTokens)
}

// sortedMedian is the median of v (sorted here).
func sortedMedian(v []float64) float64 {
	sort.Float64s(v)
	return median(v)
}

// runCLIWithin runs the CLI with a longer deadline than runCLI's.
func runCLIWithin(t *testing.T, d time.Duration, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var out, errOut strings.Builder
	err := run(ctx, args, &out, &errOut)
	return out.String(), err
}
