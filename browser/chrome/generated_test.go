package chrome

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
)

// TestGeneratedTextByEveryRoute: the viewport pass skips looking for
// generated text (::before, ::after) when no style sheet in reach names
// those pseudo elements. A page gives elements generated text by each
// route such a scan could miss — an imported sheet, a media rule, a
// nested rule, a shadow root's style and adopted sheet, the document's
// adopted sheet, a cross-origin sheet it cannot read, a rule inserted
// later, a selector edited through the CSSOM — and the viewport capture,
// whole and incremental, shows each text.
func TestGeneratedTextByEveryRoute(t *testing.T) {
	requireBrowser(t)
	base := servePages(t)
	root, _ := filepath.Abs("../../testdata/pages/generated")
	other := httptest.NewServer(http.FileServer(http.Dir(root))) // another port: another origin
	defer other.Close()
	tab := testTab(t, Options{CallTimeout: 20 * time.Second}, 2*time.Minute)
	o := browser.CaptureOptions{Mode: domsnap.CaptureViewport}
	expect := func(t *testing.T, step string, tokens ...string) {
		t.Helper()
		// The page renders the change, as it does while an action settles.
		if _, err := tab.Evaluate(`new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))`); err != nil {
			t.Fatal(err)
		}
		c, err := tab.CaptureWith(o)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		var texts []string
		for _, n := range c.Documents[0].Nodes {
			if n.PseudoType != "" && n.Layout != nil {
				texts = append(texts, n.Layout.Text)
			}
		}
		all := strings.Join(texts, " | ")
		for _, tok := range tokens {
			if !strings.Contains(all, tok) {
				t.Errorf("%s (%s): %s missing from the generated texts: %s", step, passStep(c), tok, all)
			}
		}
	}
	routes := []struct{ route, token, shown string }{
		{"imported", "gen01", ".imported::after"},
		{"media", "gen02", ".media::before"},
		{"nest", "gen03", ".nest::after"},
		{"shadowstyle", "gen04", ""},
		{"shadowadopted", "gen05", ""},
		{"adopted", "gen06", ".adopted::after"},
		{"xo", "gen07", ".xo::after"},
	}
	for _, r := range routes {
		if err := tab.Navigate(base+"/generated/generated.html?route="+r.route+"&xo="+other.URL+"/xo.css", 0); err != nil {
			t.Fatal(err)
		}
		if sel, pseudo, ok := strings.Cut(r.shown, "::"); ok {
			// The sheet has loaded (a link or an import loads on its own).
			waitFor(t, tab, fmt.Sprintf(`getComputedStyle(document.querySelector(%q), '::%s').content !== 'none'`, sel, pseudo))
		}
		expect(t, r.route, r.token)
		if _, err := tab.Evaluate(`document.querySelector('h1').textContent = 'Changed'`); err != nil {
			t.Fatal(err)
		}
		expect(t, r.route+", incremental", r.token)
	}

	if err := tab.Navigate(base+"/generated/plain.html", 0); err != nil {
		t.Fatal(err)
	}
	expect(t, "no rule names a pseudo element")
	if _, err := tab.Evaluate(`document.styleSheets[0].insertRule('.late::after { content: " gen08 from a rule inserted later" }', 0)`); err != nil {
		t.Fatal(err)
	}
	expect(t, "a rule inserted later", "gen08")
	if _, err := tab.Evaluate(`[...document.styleSheets[0].cssRules].find(r => r.selectorText === '.late2').selectorText = '.late2::after'`); err != nil {
		t.Fatal(err)
	}
	expect(t, "a selector edited through the CSSOM", "gen08", "gen09")
}

// waitFor polls a page expression until it is true.
func waitFor(t *testing.T, tab *Tab, expr string) {
	t.Helper()
	for range 100 {
		if v, err := tab.Evaluate(expr); err == nil && v == "true" {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("never true: %s", expr)
}
