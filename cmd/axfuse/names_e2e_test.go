package main

// Names and paint: testdata/pages/names holds some seventy cases of
// names of things no one sees (images that paint nothing, labels of no
// size, an input button's clear value, CSS content's alt text, options
// never shown), paint the model does not read (thick decorations,
// background images and canvases in the text's colour, shadows in the
// background's colour, other documents over text) and readable text that
// was dropped (a custom list marker, painted generated content, inert
// content, text under a clear GIF or a see-through veil). Each case's
// token says what a person sees (okNNN printed, qzNNN never); where the
// pixels can judge, the page marks the element that decides, and
// TestNamesAndPaintLabelsAreThePixels holds each label to the browser's
// own screenshot, so a wrong label cannot hide a wrong view.

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

// namesPages serves the names page and the two pages it frames; its
// script loads those from localhost, another site than 127.0.0.1.
func namesPages(t *testing.T) (url string, shown, hidden []string) {
	t.Helper()
	pages := map[string]string{}
	for _, f := range []string{"index.html", "white.html", "clear.html", "modal.html", "modal-dark.html"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "pages", "names", f))
		if err != nil {
			t.Fatal(err)
		}
		pages["/"+f] = string(b)
	}
	pages["/"] = pages["/index.html"]
	src := pages["/index.html"]
	shown = unique(regexp.MustCompile(`ok4\d\d`).FindAllString(src, -1))
	shown = slices.DeleteFunc(shown, func(s string) bool { return s == "ok400" }) // the title
	hidden = unique(regexp.MustCompile(`qz4\d\d`).FindAllString(src, -1))
	return serve(t, pages).URL + "/", shown, hidden
}

// modalPages are two showModal() dialogs: through a see-through backdrop
// the page behind is read, with no refs; through an opaque one nothing.
var modalPages = []struct {
	page        string
	shown, refs []string
}{
	{page: "modal.html", shown: []string{"ok470", "ok471", "ok472", "ok473", "ok474"}, refs: []string{"ok474"}},
	{page: "modal-dark.html", shown: []string{"ok478", "ok479"}, refs: []string{"ok479"}},
}

// checkModalPage: one modal page's view.
func checkModalPage(t *testing.T, what, out string, shown, refs []string) {
	t.Helper()
	checkSight(t, what, out, shown)
	for _, line := range strings.Split(out, "\n") {
		tok := regexp.MustCompile(`ok4\d\d`).FindString(line)
		if tok != "" && strings.Contains(line, "[ref=") != slices.Contains(refs, tok) {
			t.Errorf("%s: %s behind a modal dialog has a ref, or one in it has none: %s", what, tok, line)
		}
	}
}

func unique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// TestNamesAndPaintThroughTheCLI: the YAML and the JSON view print every
// seen token and no unseen one; controls a person cannot act on (inert)
// have no ref.
func TestNamesAndPaintThroughTheCLI(t *testing.T) {
	needChromium(t)
	url, shown, hidden := namesPages(t)
	if len(shown)+len(hidden) < 75 {
		t.Fatalf("the page holds %d tokens, want at least 75", len(shown)+len(hidden))
	}
	endpoint := debugBrowser(t, needChromium(t), "about:blank")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	mustCLI(t, "open", "--cdp", endpoint, url)
	time.Sleep(300 * time.Millisecond) // the canvases and frames paint
	yaml := mustCLI(t, "snapshot", "--cdp", endpoint)
	checkSight(t, "YAML", yaml, shown)
	checkNoRefs(t, "YAML", yaml, "ok463", "ok464")

	obs := decode(t, mustCLI(t, "snapshot", "--cdp", endpoint, "--format", "json"))
	checkSight(t, "JSON snapshot", obs.Snapshot, shown)
	for _, el := range obs.Elements {
		if m := hiddenToken.FindString(el.Name); m != "" {
			t.Errorf("JSON element %s names hidden %s: %q", el.Ref, m, el.Name)
		}
	}
	if obs.Stats.Withheld < len(hidden)/2 {
		t.Errorf("only %d texts withheld for %d hidden tokens", obs.Stats.Withheld, len(hidden))
	}
	for _, m := range modalPages {
		mustCLI(t, "open", "--cdp", endpoint, strings.TrimSuffix(url, "/")+"/"+m.page)
		checkModalPage(t, m.page, mustCLI(t, "snapshot", "--cdp", endpoint), m.shown, m.refs)
	}
}

// TestNamesAndPaintThroughMCP: browser_navigate's and browser_snapshot's
// answers.
func TestNamesAndPaintThroughMCP(t *testing.T) {
	cs := mcpSession(t)
	url, shown, _ := namesPages(t)
	call(t, cs, "browser_navigate", map[string]any{"url": url}, false)
	time.Sleep(300 * time.Millisecond)
	text, _ := call(t, cs, "browser_snapshot", map[string]any{}, false)
	checkSight(t, "browser_snapshot", text, shown)
	checkNoRefs(t, "browser_snapshot", text, "ok463", "ok464")
	for _, m := range modalPages {
		text, _ := call(t, cs, "browser_navigate", map[string]any{"url": strings.TrimSuffix(url, "/") + "/" + m.page}, false)
		checkModalPage(t, m.page, text, m.shown, m.refs)
	}
}

// checkNoRefs: the lines holding these tokens carry no ref.
func checkNoRefs(t *testing.T, what, out string, tokens ...string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		for _, tok := range tokens {
			if strings.Contains(line, tok) && strings.Contains(line, "[ref=") {
				t.Errorf("%s: %s is inert, yet has a ref: %s", what, tok, line)
			}
		}
	}
}

// TestNamesAndPaintLabelsAreThePixels asks the browser's pixels about
// every element the page marks (data-probe): made clear, does its
// screenshot change? Each must say what its label says.
func TestNamesAndPaintLabelsAreThePixels(t *testing.T) {
	url, _, _ := namesPages(t)
	b := openBrowser(t)
	tab := openPageTab(t, b, url, 500*time.Millisecond)
	time.Sleep(300 * time.Millisecond)
	c, err := tab.CaptureWith(browser.CaptureOptions{Mode: domsnap.CaptureFull})
	if err != nil {
		t.Fatal(err)
	}
	g := layout.Compute(c)
	doc := &c.Documents[0]
	var probes []chrome.TextProbe
	var labels []string
	for i := range doc.Nodes {
		n := &doc.Nodes[i]
		label, ok := n.Attr("data-probe")
		if !ok {
			continue
		}
		box := layout.Intersect(g.ShownBox(0, i), g.ViewportBox(0))
		if box.W <= 0 || box.H <= 0 {
			t.Errorf("probe %d (%s) has no box in view", len(labels), n.Name)
			continue
		}
		probes = append(probes, chrome.TextProbe{FrameID: doc.FrameID, Backend: n.Backend, Parent: n.Backend,
			Boxes: []domsnap.Rect{{X: box.X, Y: box.Y, W: box.W, H: box.H}}})
		labels = append(labels, label+" "+n.Name+" "+textOf(doc, i))
	}
	if len(probes) < 45 {
		t.Fatalf("only %d probes on the page", len(probes))
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	verdicts, err := tab.TextPixels(ctx, probes)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range verdicts {
		if want := strings.Fields(labels[k])[0]; v.String() != want {
			t.Errorf("probe %q: the pixels say %s", labels[k], v)
		}
	}
}

// textOf is the first token in node i's subtree or attributes, to name a
// probe in a failure.
func textOf(doc *domsnap.Document, i int) string {
	tok := regexp.MustCompile(`(ok|qz)4\d\d`)
	for k := i; k < len(doc.Nodes) && k < i+8; k++ {
		n := &doc.Nodes[k]
		if m := tok.FindString(n.Value); m != "" {
			return m
		}
		for _, a := range []string{"alt", "value", "class"} {
			if v, ok := n.Attr(a); ok {
				if m := tok.FindString(v); m != "" {
					return m
				}
				if a == "class" && v != "" {
					return v
				}
			}
		}
	}
	return "?"
}
