package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/internal/testkit/ci"
	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/oracle"
	"github.com/axfuse/axfuse/paintorder"
)

// agreement captures the tab's page, gives every hit-testable element in the
// viewport a verdict, and asks the browser's elementFromPoint at each probe
// point whether the verdict holds.
func agreement(t *testing.T, tab *chrome.Tab) (agree, total int, misses []string) {
	t.Helper()
	c, err := tab.Capture()
	if err != nil {
		t.Fatal(err)
	}
	ix := paintorder.Build(c, layout.Compute(c))
	probes := ix.Probes()
	points := make([][2]float64, len(probes))
	for k, p := range probes {
		points[k] = p.Point
	}
	got, err := oracle.ElementsFromPoints(tab, points)
	if err != nil {
		t.Fatal(err)
	}
	byBackend := ix.BackendIndex()
	for k, p := range probes {
		total++
		if ix.Agrees(p, got[k], byBackend) {
			agree++
			continue
		}
		n := c.Documents[p.Doc].Nodes[p.Node]
		id, _ := n.Attr("id")
		cls, _ := n.Attr("class")
		other := "none"
		if j, ok := byBackend[got[k]]; ok {
			o := c.Documents[0].Nodes[j]
			oid, _ := o.Attr("id")
			ocls, _ := o.Attr("class")
			other = fmt.Sprintf("%s#%s.%s", o.Name, oid, ocls)
		}
		cover := ""
		if p.HasBy {
			cn := c.Documents[p.By.Doc].Nodes[p.By.Node]
			cid, _ := cn.Attr("id")
			cover = fmt.Sprintf(" (cover %s#%s)", cn.Name, cid)
		}
		misses = append(misses, fmt.Sprintf("%s#%s.%s occluded=%v%s at %v: browser hit %s", n.Name, id, cls, p.Occluded, cover, p.Point, other))
	}
	return agree, total, misses
}

// openPageTab opens url in a new tab of b, closed when the test ends; a
// page whose load event never comes but whose document is parsed is used
// as it is.
func openPageTab(t *testing.T, b *chrome.Browser, url string, wait time.Duration) *chrome.Tab {
	t.Helper()
	tab, err := b.NewTab()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tab.Close)
	if err := tab.Navigate(url, wait); err != nil && !errors.Is(err, browser.ErrStillLoading) {
		t.Fatal(err)
	}
	return tab
}

func openBrowser(t *testing.T) *chrome.Browser {
	t.Helper()
	needChromium(t)
	b, err := chrome.Open(t.Context(), chrome.Options{CallTimeout: 30 * time.Second, LoopbackOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// checkAgreement measures one page; it fails the test below minimum and
// returns the counts for pooling.
func checkAgreement(t *testing.T, b *chrome.Browser, url string, minimum float64) (agree, total int) {
	t.Helper()
	tab := openPageTab(t, b, url, 300*time.Millisecond)
	agree, total, misses := agreement(t, tab)
	ratio := 1.0
	if total > 0 {
		ratio = float64(agree) / float64(total)
	}
	t.Logf("elementFromPoint agreement %d/%d = %.2f%%", agree, total, 100*ratio)
	if ratio < minimum {
		if len(misses) > 15 {
			misses = misses[:15]
		}
		t.Errorf("agreement %.2f%% < %.0f%%; first misses:\n%s", 100*ratio, 100*minimum, strings.Join(misses, "\n"))
	} else if len(misses) > 0 && testing.Verbose() {
		t.Logf("misses:\n%s", strings.Join(misses, "\n"))
	}
	return agree, total
}

// TestOcclusionAgreesWithTheBrowser: on every test page and the demo page.
func TestOcclusionAgreesWithTheBrowser(t *testing.T) {
	b := openBrowser(t)
	for _, p := range testPages(t) {
		t.Run(p.path, func(t *testing.T) { checkAgreement(t, b, p.url, 0.99) })
	}
	demo, err := serveDemo()
	if err != nil {
		t.Fatal(err)
	}
	defer demo.Close()
	t.Run("demo", func(t *testing.T) { checkAgreement(t, b, demo.URL, 0.99) })
}

// corpusDir is ../shared/corpus relative to the project root.
func corpusDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "corpus")
	_, err := os.Stat(filepath.Join(dir, "pages.json"))
	ci.Need(t, "corpus at "+dir, err)
	return dir
}

// testPages serves testdata/pages on loopback and lists its pages.
func testPages(t *testing.T) []corpusPage {
	t.Helper()
	dir := filepath.Join("..", "..", "testdata", "pages")
	files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	var out []corpusPage
	for _, f := range files {
		out = append(out, corpusPage{filepath.Base(f), srv.URL + "/" + filepath.Base(f)})
	}
	return out
}

// corpusPage is one page of a corpus: its path there and its URL.
type corpusPage struct{ path, url string }

// corpusPages serves ../shared/corpus on loopback and lists its pages,
// for the tests that go through the whole corpus: those take minutes, so
// they are the long suite. make test leaves them out by name (-skip
// 'OnTheCorpus$'; TestLongTestsAreNamedSo keeps the names true) and make
// test-long runs them. Under -short they skip, but under CI they fail:
// CI never skips a test.
func corpusPages(t *testing.T) []corpusPage {
	t.Helper()
	if testing.Short() {
		ci.Need(t, "whole corpus under -short", errShort)
	}
	return servedCorpus(t)
}

// errShort: -short leaves out the tests of the whole corpus.
var errShort = errors.New("-short leaves out the whole corpus (make test-long runs it)")

// servedCorpus serves ../shared/corpus on loopback and lists its pages,
// for tests of a few of them (part of the short suite).
func servedCorpus(t *testing.T) []corpusPage {
	t.Helper()
	dir := corpusDir(t)
	var pages []struct{ Path string }
	raw, err := os.ReadFile(filepath.Join(dir, "pages.json"))
	if err != nil || json.Unmarshal(raw, &pages) != nil {
		t.Fatalf("reading pages.json: %v", err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	var out []corpusPage
	for _, p := range pages {
		out = append(out, corpusPage{p.Path, srv.URL + "/" + p.Path})
	}
	return out
}

// TestOcclusionAgreesOnTheCorpus: every page of ../shared/corpus.
func TestOcclusionAgreesOnTheCorpus(t *testing.T) {
	pages := corpusPages(t)
	b := openBrowser(t)
	// Every page must reach 99%, and the corpus as a whole too.
	agree, total := 0, 0
	for _, p := range pages {
		t.Run(p.path, func(t *testing.T) {
			a, n := checkAgreement(t, b, p.url, 0.99)
			agree, total = agree+a, total+n
		})
	}
	ratio := float64(agree) / float64(max(total, 1))
	t.Logf("corpus pooled agreement %d/%d = %.2f%%", agree, total, 100*ratio)
	if ratio < 0.99 {
		t.Errorf("pooled agreement %.2f%% < 99%%", 100*ratio)
	}
}
