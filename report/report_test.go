package report

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/internal/testkit/golden"
	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/truth"
)

// measured is a page with the given figures, as compare would give it.
func measured(url string, ms float64, targets, axFound, fusedFound, axTokens, fusedTokens int) Page {
	m := func(found, tokens int) truth.Measure {
		return truth.Measure{Targets: targets, Found: found, Recall: share(found, targets), RefsInView: found, Precision: 1, Tokens: tokens}
	}
	return Page{URL: url, MS: ms, Truth: &truth.Report{Targets: targets, AX: m(axFound, axTokens), Fused: m(fusedFound, fusedTokens)}}
}

func share(n, of int) float64 {
	if of == 0 {
		return 1
	}
	return float64(n) / float64(of)
}

// TestSummarize: totals over the pages that were measured, medians of
// recall over pages with a target, failures counted apart, and the worst
// pages of each measure, worst first.
func TestSummarize(t *testing.T) {
	pages := []Page{
		measured("a", 100, 10, 5, 10, 200, 100),
		measured("b", 300, 4, 4, 3, 100, 100),
		measured("c", 200, 0, 0, 0, 50, 100), // nothing to find: left out of recall
		{URL: "d", MS: 20000, Error: "navigate: no answer"},
		measured("e", 400, 2, 0, 2, 100, 50),
	}
	s := Summarize(pages)
	want := Summary{Pages: 5, Failures: 1, MedianMS: 250, TotalMS: 1000, Targets: 16, AXFound: 9, FusedFound: 15,
		AXTokens: 450, FusedTokens: 350,
		MedianAXRecall: 0.5, MedianFusedRecall: 1, MedianAXPrecision: 1, MedianFusedPrecision: 1, MedianTokenRatio: 0.75}
	got := s
	got.Worst = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("summary\n got %+v\nwant %+v", got, want)
	}
	worst := map[string][]string{}
	for _, w := range s.Worst {
		for _, f := range w.Pages {
			worst[w.Measure] = append(worst[w.Measure], f.URL)
		}
	}
	for measure, urls := range map[string][]string{
		"fused recall":                {"b", "a", "e"},
		"AX-only recall":              {"e", "a", "b"},
		"token ratio (fused/AX-only)": {"c", "b", "a"},
		"time (ms)":                   {"e", "b", "c"},
	} {
		if !reflect.DeepEqual(worst[measure], urls) {
			t.Errorf("worst %s: %q, want %q", measure, worst[measure], urls)
		}
	}
	if s := Summarize(nil); s.Pages != 0 || s.MedianMS != 0 || s.Worst == nil {
		t.Errorf("no pages: %+v", s)
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{4, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}, {[]float64{math.NaN(), 1}, 1}} {
		if got := Median(tc.in); got != tc.want {
			t.Errorf("Median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// truthPage is the recorded ground-truth page, compared as the CLI does.
func truthPage(t *testing.T) Page {
	t.Helper()
	c, err := domsnap.Load("../testdata/captures/truth-hits.capture.json")
	if err != nil {
		t.Fatal(err)
	}
	cmp := fuse.Compare(c, fuse.Options{})
	return Page{URL: c.URL, Title: cmp.Fused.Title, MS: 123.4, Table: cmp.Table,
		Truth: truth.Compare(c, layout.Compute(c), cmp), AX: cmp.AX, Fused: cmp.Fused}
}

// TestWriteHTML: the report of a recorded page against its golden file
// (no screenshot: the marks on a blank viewport), with an outline for
// every missed target.
func TestWriteHTML(t *testing.T) {
	p := truthPage(t)
	var buf bytes.Buffer
	if err := WriteHTML(&buf, []Page{p, {Index: 1, URL: "http://dead.test/", MS: 20000, Error: "navigate: no answer"}}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	golden.Check(t, filepath.Join("testdata", "truth.report.html"), buf.Bytes())
	if n, want := strings.Count(out, `<rect class="missed"`), len(p.Truth.MissedByAX)+len(p.Truth.MissedByFused); n != want || want == 0 {
		t.Errorf("%d missed outlines, want %d", n, want)
	}
	for _, fetched := range []string{`src="http`, `href="http`, `url(http`, `@import`} {
		if strings.Contains(out, fetched) {
			t.Errorf("the report fetches something: %s", fetched)
		}
	}
}

// TestWriteHTMLEscapes: a page's strings (its URL, title, YAML, the
// words of a missed target) cannot write markup into the report.
func TestWriteHTMLEscapes(t *testing.T) {
	p := truthPage(t)
	const evil = `"><script>alert(1)</script><img src=x onerror=alert(2)>`
	p.URL, p.Title = "http://x.test/"+evil, evil
	p.AX.Snapshot += evil
	p.Truth.MissedByAX[0] = evil
	p.Fused.Elements[0].Ref = evil
	var buf bytes.Buffer
	if err := WriteHTML(&buf, []Page{p}); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); strings.Contains(out, "<script>alert") || strings.Contains(out, "<img src=x") || strings.Count(out, "<script>") != 1 {
		t.Error("a page's string wrote markup into the report")
	}
}

// TestWriteHTMLScreenshot: a PNG screenshot goes in as an inline JPEG; a
// screenshot that does not decode is said, not fatal; hostile boxes are
// left out.
func TestWriteHTMLScreenshot(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 64, 36))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.Set(3, 3, color.RGBA{255, 0, 0, 255})
	var pngBuf bytes.Buffer
	if err := png.Encode(&pngBuf, img); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, shot, want string
	}{
		{"png", pngBuf.String(), `src="data:image/jpeg;base64,`},
		{"garbage", "not a png", "the screenshot does not decode"},
	} {
		p := truthPage(t)
		p.Screenshot = []byte(tc.shot)
		p.Fused.Elements[0].Box = &[4]float64{math.NaN(), 0, 10, 10}
		var buf bytes.Buffer
		if err := WriteHTML(&buf, []Page{p}); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if out := buf.String(); !strings.Contains(out, tc.want) || strings.Contains(out, "NaN") {
			t.Errorf("%s: want %q in the report, and no NaN", tc.name, tc.want)
		}
	}
}

// TestWriteHTMLPeer: a peer's pane (its refs' boxes, the targets it
// misses outlined), its columns and summary line; a failed peer's error.
func TestWriteHTMLPeer(t *testing.T) {
	c, err := domsnap.Load("../testdata/captures/truth-hits.capture.json")
	if err != nil {
		t.Fatal(err)
	}
	measuredPeer := truthPage(t)
	peer := &truth.Peer{Name: "pw", Snapshot: "- button \"Native button\" [ref=e1]\n"}
	for _, e := range measuredPeer.AX.Elements[:3] {
		peer.Boxes = append(peer.Boxes, truth.BoxRef{Ref: e.Ref, Box: layout.Box{X: e.Box[0], Y: e.Box[1], W: e.Box[2], H: e.Box[3]}})
	}
	truth.MeasurePeer(c, layout.Compute(c), peer)
	measuredPeer.Truth.Peer = peer
	failedPeer := truthPage(t)
	failedPeer.Index = 1
	failedPeer.Truth.Peer = &truth.Peer{Name: "pw", Error: "exit status 1: <b>no browser</b>"}
	var buf bytes.Buffer
	if err := WriteHTML(&buf, []Page{measuredPeer, failedPeer}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, `data-view="peer"`); n != 1 {
		t.Errorf("%d peer panes, want 1", n)
	}
	missed := len(measuredPeer.Truth.MissedByAX) + len(measuredPeer.Truth.MissedByFused) + len(peer.Missed) + len(failedPeer.Truth.MissedByAX) + len(failedPeer.Truth.MissedByFused)
	if n := strings.Count(out, `<rect class="missed"`); n != missed || len(peer.Missed) == 0 {
		t.Errorf("%d missed outlines, want %d (the peer's %d)", n, missed, len(peer.Missed))
	}
	for _, want := range []string{`<th data-type="n">pw recall</th>`, `data-field="peer.recall"`, "The peer pw failed: exit status 1: &lt;b&gt;no browser&lt;/b&gt;", "pw: found, median recall, tokens (1 pages)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if s := Summarize([]Page{measuredPeer, failedPeer}); s.PeerPages != 1 || s.PeerFound != peer.Measure.Found || s.PeerTargets != measuredPeer.Truth.Targets {
		t.Errorf("summary: %d peer pages, %d found of %d", s.PeerPages, s.PeerFound, s.PeerTargets)
	}
}

// nopCloser is a buffer that closes.
type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

// TestWriteSplit: a split report's index holds the summary, the plots and
// the table, every row linking to its page's file, and no picture or
// view; each page's file holds its section, its screenshot inline, and a
// link back; nothing is fetched, and a page's strings write no markup.
func TestWriteSplit(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 64, 36))
	var pngBuf bytes.Buffer
	if err := png.Encode(&pngBuf, img); err != nil {
		t.Fatal(err)
	}
	const evil = `"><script>alert(1)</script>`
	var pages []Page
	for i := range 3 {
		p := truthPage(t)
		p.Index, p.URL, p.Screenshot = i, fmt.Sprintf("http://x.test/%d%s", i, evil), pngBuf.Bytes()
		pages = append(pages, p)
	}
	pages = append(pages, Page{Index: 3, URL: "http://dead.test/", Error: "navigate: no answer"})
	files := map[int]*bytes.Buffer{}
	var index bytes.Buffer
	err := WriteSplit(&index, "report-pages", "report.html", func(i int) (io.WriteCloser, error) {
		files[i] = &bytes.Buffer{}
		return nopCloser{files[i]}, nil
	}, pages)
	if err != nil {
		t.Fatal(err)
	}
	out := index.String()
	if strings.Contains(out, "data:image") || strings.Contains(out, "<section") || strings.Contains(out, "<script>alert") || !strings.Contains(out, `class="plot"`) {
		t.Error("the index holds a picture or a section, escapes nothing, or lacks its plots")
	}
	for i := range pages {
		if !strings.Contains(out, fmt.Sprintf(`href="report-pages/page-%d.html"`, i)) {
			t.Errorf("the index does not link page %d", i)
		}
		f := files[i].String()
		if !strings.Contains(f, fmt.Sprintf(`id="page-%d"`, i)) || !strings.Contains(f, `href="../report.html"`) || strings.Contains(f, "<script>alert") {
			t.Errorf("page %d's file lacks its section or its way back, or escapes nothing", i)
		}
		if i < 3 && !strings.Contains(f, `src="data:image/jpeg;base64,`) {
			t.Errorf("page %d's file lacks its screenshot", i)
		}
		for _, fetched := range []string{`src="http`, `href="http`, `url(http`, `@import`} {
			if strings.Contains(f+out, fetched) {
				t.Errorf("the report fetches something: %s", fetched)
			}
		}
	}
}
