package chrome

import (
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
)

// reusedCapture: the capture is the tab's last one, given again.
func reusedCapture(c *domsnap.Capture) bool { return c.Reuse == domsnap.Reused }

// TestCaptureReuseOnlyWhenNothingChanged: a capture is given again only
// while nothing changed. The page (quiet/quiet.html) swallows the events
// a watcher would see; each step changes it in a way that leaves no DOM
// mutation (a rule edited through the CSSOM, a value or a state set by
// script, a scroll, a listener, the focus, the URL, a shadow root's
// content, a transition) and must be captured
// anew; after each, the capture equals a whole one made at once.
func TestCaptureReuseOnlyWhenNothingChanged(t *testing.T) {
	requireBrowser(t)
	base := servePages(t)
	nothing := incStep{"nothing changed", func(*testing.T, *Tab) {}, reuse}
	steps := []incStep{
		nothing,
		evalStep("a rule edited through the CSSOM shows hidden text", `document.styleSheets[0].cssRules[0].style.display = 'block'`, walk),
		nothing,
		evalStep("script sets a field's value", `document.getElementById('name').value = 'Grace'`, walk),
		evalStep("script checks a box", `document.getElementById('agree').checked = true`, walk),
		evalStep("script picks an option", `document.getElementById('size').selectedIndex = 2`, walk),
		evalStep("script sets a textarea's value", `document.getElementById('notes').value = 'second'`, walk),
		evalStep("script scrolls a box", `document.getElementById('scroller').scrollTop = 100`, walk),
		nothing,
		evalStep("a span takes a click listener", `document.getElementById('plain').addEventListener('click', () => {})`, walk),
		evalStep("text in an open shadow root changes", `document.getElementById('card').shadowRoot.getElementById('in').textContent = 'Changed inside'`, walk),
		evalStep("script focuses the button", `document.getElementById('go').focus()`, walk),
		evalStep("the URL's fragment changes", `location.hash = '#anchor'`, walk),
		evalStep("history.pushState", `history.pushState({}, '', '?page=2')`, walk),
		evalStep("a rule edited through the CSSOM starts a transition", `document.styleSheets[0].cssRules[1].style.transform = 'translateX(100px)'`, walk),
		{"the transition ends", func(*testing.T, *Tab) { time.Sleep(500 * time.Millisecond) }, walk},
		nothing,
	}
	// A defined custom element's internals change its AX node with no
	// trace: such a page is captured each time.
	custom := []incStep{
		{"nothing changed", func(*testing.T, *Tab) {}, walk},
		evalStep("an element's internals take another label", `document.getElementById('internal').internals.ariaLabel = 'Internal second'`, walk),
	}
	for _, mode := range []domsnap.CaptureMode{domsnap.CaptureFull, domsnap.CaptureAuto} {
		for _, page := range []struct {
			name  string
			steps []incStep
		}{{"quiet", steps}, {"custom", custom}} {
			t.Run(page.name+"-"+string(mode), func(t *testing.T) {
				reuseSteps(t, base+"/quiet/"+page.name+".html", browser.CaptureOptions{Mode: mode}, page.steps)
			})
		}
	}
}

// reuseSteps opens url, captures it twice (the first capture sees the
// shadow roots, the second's watch walks them), then takes each step and
// checks whether the capture after it was reused, and that it equals a
// whole capture.
func reuseSteps(t *testing.T, url string, o browser.CaptureOptions, steps []incStep) {
	tab := testTab(t, Options{CallTimeout: 20 * time.Second}, 3*time.Minute)
	seams := seamed(tab)
	if err := tab.Navigate(url, 0); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := tab.CaptureWith(o); err != nil {
			t.Fatal(err)
		}
	}
	for _, st := range steps {
		st.do(t, tab)
		time.Sleep(50 * time.Millisecond)
		c, err := tab.CaptureWith(o)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := reusedCapture(c); got != (st.want == reuse) {
			t.Errorf("%s: reused %v, want %v (%s)", st.name, got, st.want == reuse, c.Timings[0].Step)
		}
		if !strings.Contains(st.name, "starts a transition") { // a box moving: no two captures agree
			sameCapture(t, st.name, c, captureWhole(t, seams, o))
		}
	}
}
