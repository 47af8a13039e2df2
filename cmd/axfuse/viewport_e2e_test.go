package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
)

// bothCaptures captures the tab's page twice, full and viewport-first, and
// fuses each with a fresh ref table.
func bothCaptures(t *testing.T, tab *chrome.Tab) (full, view *fuse.Observation, vc *domsnap.Capture) {
	t.Helper()
	fc, err := tab.CaptureWith(browser.CaptureOptions{Mode: domsnap.CaptureFull})
	if err != nil {
		t.Fatal(err)
	}
	vc, err = tab.CaptureWith(browser.CaptureOptions{Mode: domsnap.CaptureViewport})
	if err != nil {
		t.Fatal(err)
	}
	if vc.Mode != domsnap.CaptureViewport {
		t.Fatalf("viewport capture came back as %q: %v", vc.Mode, vc.Timings)
	}
	return fuse.Snapshot(fc, fuse.Options{Audit: true}), fuse.Snapshot(vc, fuse.Options{Audit: true}), vc
}

// inView lists the elements whose box meets the viewport, one line each:
// ref, role, name, box to the pixel.
func inView(o *fuse.Observation) []string {
	var out []string
	for _, e := range o.Elements {
		if e.Box == nil {
			continue
		}
		b := e.Box
		if b[0]+b[2] <= 0 || b[1]+b[3] <= 0 || b[0] >= o.Viewport.Width || b[1] >= o.Viewport.Height {
			continue
		}
		out = append(out, fmt.Sprintf("%s %s %q [%.0f %.0f %.0f %.0f]", e.Ref, e.Role, e.Name,
			math.Round(b[0]), math.Round(b[1]), math.Round(b[2]), math.Round(b[3])))
	}
	return out
}

// viewportDiff compares what both paths put in the viewport; "" when they
// agree.
func viewportDiff(full, view *fuse.Observation) string {
	a, b := inView(full), inView(view)
	var diffs []string
	for k := 0; k < max(len(a), len(b)); k++ {
		var x, y string
		if k < len(a) {
			x = a[k]
		}
		if k < len(b) {
			y = b[k]
		}
		if x != y {
			diffs = append(diffs, fmt.Sprintf("full: %s\nview: %s", x, y))
		}
	}
	diffs = append(diffs, withheldDiff(full, view)...)
	if len(diffs) > 5 {
		diffs = append(diffs[:5], fmt.Sprintf("... %d more", len(diffs)-5))
	}
	return strings.Join(diffs, "\n")
}

// withheldInView lists what an observation withheld in the viewport, one
// line each: kind, reason, excerpt (not the box: a viewport capture puts
// generated content in its element's box).
func withheldInView(o *fuse.Observation) map[string]int {
	out := map[string]int{}
	for _, w := range o.Withheld {
		b := w.Box
		if b == nil || b[0]+b[2] <= 0 || b[1]+b[3] <= 0 || b[0] >= o.Viewport.Width || b[1] >= o.Viewport.Height {
			continue
		}
		out[fmt.Sprintf("%s %s %q", w.Kind, w.Reason, w.Excerpt)]++
	}
	return out
}

// withheldDiff compares what both paths withheld in the viewport.
func withheldDiff(full, view *fuse.Observation) []string {
	a, b := withheldInView(full), withheldInView(view)
	var diffs []string
	for k, n := range a {
		if b[k] != n {
			diffs = append(diffs, fmt.Sprintf("withheld %s: full %d, view %d", k, n, b[k]))
		}
	}
	for k, n := range b {
		if _, ok := a[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("withheld %s: full 0, view %d", k, n))
		}
	}
	slices.Sort(diffs)
	return diffs
}

func checkViewportAgrees(t *testing.T, b *chrome.Browser, url string, scrollY int) {
	t.Helper()
	tab := openPageTab(t, b, url, 300*time.Millisecond)
	if scrollY > 0 {
		if err := tab.Wheel(640, 360, float64(scrollY)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
	}
	full, view, _ := bothCaptures(t, tab)
	d := viewportDiff(full, view)
	if d != "" {
		// A page still changing (a script adding a button after load) is
		// caught once more after a pause, both captures again.
		time.Sleep(time.Second)
		full, view, _ = bothCaptures(t, tab)
		d = viewportDiff(full, view)
	}
	if d != "" {
		t.Errorf("the viewport capture's elements in view differ from the full capture's:\n%s", d)
	}
	if len(inView(full)) > 0 && len(inView(view)) == 0 {
		t.Errorf("the viewport capture has no elements in view")
	}
	// No Chrome-internal role name reaches any output (internal/roles).
	for _, o := range []*fuse.Observation{full, view} {
		if r := internalRoles(o.Snapshot); len(r) > 0 {
			t.Errorf("Chrome-internal roles printed: %v", r)
		}
		for _, e := range o.Elements {
			if e.Role != "" && e.Role[0] >= 'A' && e.Role[0] <= 'Z' {
				t.Errorf("element %s has Chrome's internal role %q", e.Ref, e.Role)
			}
		}
	}
}

// TestViewportCaptureAgreesOnTestPages: the repository's test pages and the
// demo page, at the top and scrolled.
func TestViewportCaptureAgreesOnTestPages(t *testing.T) {
	b := openBrowser(t)
	for _, p := range testPages(t) {
		t.Run(p.path, func(t *testing.T) { checkViewportAgrees(t, b, p.url, 0) })
		// Scrolled into the middle of long pages: runs above and below.
		if p.path == "big.html" || p.path == "shop.html" || p.path == "lists.html" || p.path == "sight-scroll.html" {
			t.Run(p.path+"/scrolled", func(t *testing.T) { checkViewportAgrees(t, b, p.url, 1500) })
		}
	}
}

// TestViewportCaptureAgreesOnTheCorpus: every page of ../shared/corpus.
func TestViewportCaptureAgreesOnTheCorpus(t *testing.T) {
	pages := corpusPages(t)
	b := openBrowser(t)
	for _, p := range pages {
		t.Run(p.path, func(t *testing.T) { checkViewportAgrees(t, b, p.url, 0) })
	}
}

// TestViewportPassIgnoresPagePatches: a page that patches the DOM methods
// the pass calls (in its own world) changes nothing: the pass runs in an
// isolated world.
func TestViewportPassIgnoresPagePatches(t *testing.T) {
	b := openBrowser(t)
	rows := strings.Repeat(`<tr><td><a href="/x">Item</a></td><td><button>Buy</button></td></tr>`, 400)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>patched</title><table>` + rows + `</table>
<script>
Element.prototype.getBoundingClientRect = () => ({x: 0, y: 0, width: 5, height: 5, top: 0, left: 0, right: 5, bottom: 5});
Document.prototype.elementsFromPoint = () => [];
JSON.stringify = () => '{"docs":[]}';
Array.prototype.push = function () { return 0; };
</script>`})
	tab := openPageTab(t, b, srv.URL+"/", 300*time.Millisecond)
	full, view, vc := bothCaptures(t, tab)
	if d := viewportDiff(full, view); d != "" {
		t.Errorf("patched page: viewport capture differs:\n%s", d)
	}
	if n := len(inView(view)); n < 20 {
		t.Errorf("only %d elements in view", n)
	}
	if len(vc.Documents[0].Elided) == 0 || !strings.Contains(view.Snapshot, "collapsed: below") {
		t.Errorf("no collapsed line for the rows below:\n%s", view.Snapshot)
	}
}

// TestAutoCaptureSwitchesBySize: auto takes the full page when it is small
// and the viewport when it is long, in elements or in text (a script's
// text does not count); the CLI says which in its timings. A page whose
// elements mostly meet the viewport takes the full capture too, and the
// pass says so before describing them (its early stop: "about").
func TestAutoCaptureSwitchesBySize(t *testing.T) {
	b := openBrowser(t)
	line := strings.Repeat("a line of a long plain-text document ", 2) + "\n"
	grid := `<div style="display:grid;grid-template-columns:repeat(30,40px)">` + strings.Repeat("<span>x</span>", 600) + `</div>`
	for _, tc := range []struct {
		rows     int
		text     string // below the table
		want     domsnap.CaptureMode
		wantStep string // a timing step that starts so
	}{
		{20, "", domsnap.CaptureFull, "full capture taken: "},
		{20, "<pre>" + strings.Repeat(line, 1000) + "</pre>", domsnap.CaptureViewport, "viewport pass ("}, // 75,000 characters
		{20, "<script>" + strings.Repeat("var x = 1;\n", 5000) + "</script>", domsnap.CaptureFull, "full capture taken: "},
		{1000, "", domsnap.CaptureViewport, "viewport pass ("},
		{0, grid, domsnap.CaptureFull, "full capture taken: about "},
	} {
		rows := strings.Repeat(`<tr><td><a href="/x">Item</a></td><td><button>Buy</button></td></tr>`, tc.rows)
		srv := serve(t, map[string]string{"/": `<!doctype html><title>rows</title><table>` + rows + `</table>` + tc.text})
		tab := openPageTab(t, b, srv.URL+"/", 100*time.Millisecond)
		c, err := tab.CaptureWith(browser.CaptureOptions{Mode: domsnap.CaptureAuto})
		tab.Close()
		if err != nil {
			t.Fatal(err)
		}
		if c.Mode != tc.want {
			t.Errorf("%d rows, %d characters below: auto took a %s capture, want %s", tc.rows, len(tc.text), c.Mode, tc.want)
		}
		if !slices.ContainsFunc(c.Timings, func(s domsnap.Timing) bool { return strings.HasPrefix(s.Step, tc.wantStep) }) {
			t.Errorf("%d rows, %d characters below: no timing step %q in %v", tc.rows, len(tc.text), tc.wantStep, c.Timings)
		}
	}
}

// TestAutoCaptureRemembersASmallDocument: a document found small is
// captured whole at once the next time (its canvas announced at once), until
// a capture shows it grew; a new document is asked its size again. Each
// capture is checked against the mode it should have taken.
func TestAutoCaptureRemembersASmallDocument(t *testing.T) {
	b := openBrowser(t)
	rows := func(n int) string {
		return strings.Repeat(`<tr><td><a href="/x">Item</a></td><td><button>Buy</button></td></tr>`, n)
	}
	srv := serve(t, map[string]string{
		"/":      `<!doctype html><title>small</title><canvas width=50 height=50></canvas><table id=t>` + rows(20) + `</table>`,
		"/other": `<!doctype html><title>other</title><table>` + rows(20) + `</table>`,
	})
	tab := openPageTab(t, b, srv.URL+"/", 100*time.Millisecond)
	step := func(what string, want domsnap.CaptureMode, wantStep string, wantCanvas bool) {
		t.Helper()
		canvas := false
		c, err := tab.CaptureWith(browser.CaptureOptions{Mode: domsnap.CaptureAuto, OnCanvas: func() { canvas = true }})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if c.Mode != want || canvas != wantCanvas {
			t.Errorf("%s: a %s capture, canvas announced %v; want %s, %v", what, c.Mode, canvas, want, wantCanvas)
		}
		if !slices.ContainsFunc(c.Timings, func(s domsnap.Timing) bool { return strings.HasPrefix(s.Step, wantStep) }) {
			t.Errorf("%s: no timing step %q in %v", what, wantStep, c.Timings)
		}
	}
	step("first look", domsnap.CaptureFull, "full capture taken: 107 elements, under 400", true)
	step("second look", domsnap.CaptureFull, "full capture taken: the document was small at its last capture", true)
	if _, err := tab.Evaluate(`document.getElementById('t').insertAdjacentHTML('beforeend', ` + strconv.Quote(rows(1000)) + `)`); err != nil {
		t.Fatal(err)
	}
	step("grown, still remembered small", domsnap.CaptureFull, "full capture taken: the document was small", true)
	step("grown, asked again", domsnap.CaptureViewport, "viewport pass (", true)
	if err := tab.Navigate(srv.URL+"/other", 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	step("a new document", domsnap.CaptureFull, "full capture taken: 106 elements, under 400", false)
	step("the new document again", domsnap.CaptureFull, "full capture taken: the document was small at its last capture", false)
}

// TestViewportCaptureAgreesInFrames: same-site, cross-site (out-of-process)
// and nested frames in view come out of both captures alike. A closed
// shadow root is out of the pass's reach (it runs as page script does):
// its one target is the known difference.
func TestViewportCaptureAgreesInFrames(t *testing.T) {
	b := openBrowser(t)
	tab := openPageTab(t, b, serveFrames(t), time.Second)
	full, view, _ := bothCaptures(t, tab)
	var closed []string
	kept := full.Elements[:0:0]
	for _, e := range full.Elements {
		if e.Name == "Shadow div" { // inside the page's closed shadow root
			closed = append(closed, e.Ref)
			continue
		}
		kept = append(kept, e)
	}
	if len(closed) != 1 {
		t.Fatalf("the full capture lost the closed shadow root's target: %v", full.Elements)
	}
	full.Elements = kept
	// Refs after the missing one shift by one in the viewport capture: compare
	// without refs.
	strip := func(ls []string) []string {
		for k, l := range ls {
			ls[k] = l[strings.Index(l, " ")+1:]
		}
		return ls
	}
	a, b2 := strings.Join(strip(inView(full)), "\n"), strings.Join(strip(inView(view)), "\n")
	if a != b2 || !strings.Contains(a, "Cross input") || !strings.Contains(a, "Deep button") {
		t.Errorf("frames differ between the captures:\nfull:\n%s\nviewport:\n%s", a, b2)
	}
}

// TestViewportCaptureSeesSameSiteFrames: a frame of another origin of the
// same site (another port) shares the tab's renderer, so it has no target
// of its own and the viewport pass cannot read it; in view, it sends the
// capture to the full one, which holds it.
func TestViewportCaptureSeesSameSiteFrames(t *testing.T) {
	b := openBrowser(t)
	inner := serve(t, map[string]string{"/inner": `<!doctype html><title>inner</title><button>Inner button</button>`})
	outer := serve(t, map[string]string{"/": `<!doctype html><title>outer</title><h1>Outer</h1>
<iframe title="Same site" src="` + inner.URL + `/inner" width=300 height=100></iframe>`})
	tab := openPageTab(t, b, outer.URL+"/", time.Second)
	for _, mode := range []domsnap.CaptureMode{domsnap.CaptureViewport, domsnap.CaptureAuto} {
		c, err := tab.CaptureWith(browser.CaptureOptions{Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		obs := fuse.Snapshot(c, fuse.Options{})
		if !strings.Contains(obs.Snapshot, `button "Inner button" [ref=`) {
			t.Errorf("%s capture lost the same-site frame's button (%v):\n%s", mode, c.Timings, obs.Snapshot)
		}
	}
}
