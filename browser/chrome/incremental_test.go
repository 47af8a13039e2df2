package chrome

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/capture"
	"github.com/axfuse/axfuse/browser/chrome/internal/testseam"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/internal/testkit/ci"
)

// An incremental step: what changes the page, and whether the capture
// after it reuses the memo (reuse), walks everything (walk) or may do
// either (its path depends on the steps before).
type incStep struct {
	name string
	do   func(t *testing.T, tab *Tab)
	want int
}

const (
	walk = iota
	reuse
	either
)

// evalStep changes the page by script.
func evalStep(name, js string, want int) incStep {
	return incStep{name, func(t *testing.T, tab *Tab) {
		t.Helper()
		if _, err := tab.Evaluate(js); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}, want}
}

// inputStep clicks or hovers the centre of the element sel names, as a
// person would (trusted input: hover, focus and the page's handlers).
func inputStep(name, sel string, hover bool, want int) incStep {
	return incStep{name, func(t *testing.T, tab *Tab) {
		t.Helper()
		out, err := tab.Evaluate(fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return JSON.stringify([r.x + r.width / 2, r.y + r.height / 2]); })()`, sel))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var xy [2]float64
		if err := json.Unmarshal([]byte(strings.Trim(out, `"`)), &xy); err != nil {
			if err := json.Unmarshal([]byte(out), &xy); err != nil {
				t.Fatalf("%s: point %q: %v", name, out, err)
			}
		}
		if hover {
			err = tab.Hover(xy[0], xy[1])
		} else {
			err = tab.Click(xy[0], xy[1], 1)
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}, want}
}

// seamed gives tab a capture engine whose steps the test reaches
// (package testseam), in place of its own: call it before the tab's
// first capture.
func seamed(tab *Tab) *testseam.Seams {
	s := &testseam.Seams{}
	o := tab.browser.engineOptions()
	o.Seams = s
	tab.eng = capture.New(enginePage{tab}, o)
	return s
}

// captureWhole captures as if the tab had no memo (a whole walk, every
// node asked), under a memo name of its own so that the tab's memo and its
// record of changes stay as they were.
func captureWhole(t *testing.T, seams *testseam.Seams, o browser.CaptureOptions) *domsnap.Capture {
	t.Helper()
	c, err := seams.CaptureAfresh(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// incremental: the capture reused the tab's memo, or the whole last
// capture (nothing changed).
func incremental(c *domsnap.Capture) bool {
	for _, tm := range c.Timings {
		if strings.Contains(tm.Step, "capture (viewport, incremental)") || strings.HasPrefix(tm.Step, "capture (reused") {
			return true
		}
	}
	return false
}

// sameCapture compares two captures but for their timings and the ids of
// AX children neither fetched (Chrome numbers a text's inline boxes anew
// at each layout), and shows where they differ when they do.
func sameCapture(t *testing.T, step string, inc, whole *domsnap.Capture) {
	t.Helper()
	ja, jb := comparable(inc), comparable(whole)
	if ja == jb {
		return
	}
	at := 0
	for at < len(ja) && at < len(jb) && ja[at] == jb[at] {
		at++
	}
	from := max(at-1200, 0)
	t.Errorf("%s: the incremental capture differs from a whole one\nincremental: …%s…\nwhole:       …%s…\nfused views, lines of one only:\n%s",
		step, ja[from:min(at+200, len(ja))], jb[from:min(at+200, len(jb))], lineDiff(fusedYAML(t, inc), fusedYAML(t, whole)))
}

func comparable(c *domsnap.Capture) string {
	cp := *c
	cp.Timings = nil
	cp.Frames = append([]domsnap.Frame(nil), c.Frames...)
	for f := range cp.Frames {
		have := map[string]bool{}
		for _, a := range cp.Frames[f].AXNodes {
			have[a.ID] = true
		}
		nodes := append([]domsnap.AXNode(nil), cp.Frames[f].AXNodes...)
		for i := range nodes {
			var kids []string
			for _, k := range nodes[i].Children {
				if have[k] {
					kids = append(kids, k)
				}
			}
			nodes[i].Children = kids
		}
		cp.Frames[f].AXNodes = nodes
	}
	j, _ := json.Marshal(cp)
	return string(j)
}

// lineDiff lists the lines only one of a (-) and b (+) holds.
func lineDiff(a, b string) string {
	count := map[string]int{}
	for _, l := range strings.Split(b, "\n") {
		count[l]++
	}
	var out []string
	for _, l := range strings.Split(a, "\n") {
		if count[l] > 0 {
			count[l]--
			continue
		}
		out = append(out, "- "+l)
	}
	for _, l := range strings.Split(b, "\n") {
		if count[l] > 0 {
			count[l]--
			out = append(out, "+ "+l)
		}
	}
	if len(out) > 30 {
		out = append(out[:30], "…")
	}
	return strings.Join(out, "\n")
}

func fusedYAML(t *testing.T, c *domsnap.Capture) string {
	t.Helper()
	tree := fuse.FromCapture(c, fuse.Options{})
	var sb strings.Builder
	if err := tree.Write(&sb); err != nil {
		return "(write: " + err.Error() + ")"
	}
	return sb.String()
}

// servePages serves testdata/pages on loopback.
func servePages(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../../testdata/pages")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(root); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(root)))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestIncrementalCaptureEqualsWhole: after each change — a person's click
// and hover, script edits in and out of view, listeners added, a modal, a
// scroll — the incremental capture equals a whole capture made at the same
// moment, and the steps that may reuse the memo did.
func TestIncrementalCaptureEqualsWhole(t *testing.T) {
	requireBrowser(t)
	base := servePages(t)
	cases := []struct {
		page  string
		mode  domsnap.CaptureMode
		steps []incStep
	}{
		// Auto mode, as the MCP server captures: its share rule must count
		// the elements of subtrees the pass did not walk again.
		{"incremental/table.html", domsnap.CaptureAuto, []incStep{
			inputStep("a person clicks row 2's Refund", "button[data-row='2']", false, reuse),
			{"nothing changed", func(*testing.T, *Tab) {}, reuse},
		}},
		// A cross-site frame in view is captured anew each time; the top
		// document's memo stands.
		{"incremental/oopif.html", domsnap.CaptureViewport, []incStep{
			{"nothing changed", func(*testing.T, *Tab) {}, reuse},
			evalStep("an item in view changes", `document.querySelectorAll('#list li')[2].firstChild.textContent = 'Order changed '`, reuse),
			inputStep("a person clicks an item's button", "#list li:nth-child(4) button", false, reuse),
		}},
		{"incremental/table.html", domsnap.CaptureViewport, []incStep{
			{"nothing changed", func(*testing.T, *Tab) {}, reuse},
			inputStep("a person clicks row 3's Refund", "button[data-row='3']", false, reuse),
			inputStep("and row 5's", "button[data-row='5']", false, reuse),
			evalStep("a row far below changes", `document.querySelectorAll('tbody tr')[4000].cells[1].textContent = 'Order changed'`, reuse),
			evalStep("a row far below gains a button", `document.querySelectorAll('tbody tr')[4001].cells[1].append(document.createElement('button'))`, reuse),
			evalStep("a row is inserted on top", `(() => { const tb = document.querySelector('tbody'); const tr = tb.rows[0].cloneNode(true); tr.cells[1].textContent = 'New order'; tb.prepend(tr); })()`, reuse),
			evalStep("a row in view is removed", `document.querySelectorAll('tbody tr')[2].remove()`, reuse),
			// The pass lists a long list of children again only after a
			// childList record names its parent.
			evalStep("a row far below moves to the top", `(() => { const tb = document.querySelector('tbody'); tb.insertBefore(tb.rows[4500], tb.rows[1]); })()`, reuse),
			evalStep("a row is appended far below", `(() => { const tb = document.querySelector('tbody'); tb.append(tb.rows[0].cloneNode(true)); })()`, reuse),
			evalStep("a row in view is hidden from AX", `document.querySelectorAll('tbody tr')[4].setAttribute('aria-hidden', 'true')`, reuse),
			evalStep("a cell in view takes a click listener", `document.querySelectorAll('tbody tr')[6].cells[1].addEventListener('click', () => {})`, reuse),
			evalStep("a cell in view takes onmousedown", `document.querySelectorAll('tbody tr')[7].cells[0].onmousedown = () => {}`, reuse),
			evalStep("more listeners come and go than settle.js keeps", `(() => { const f = () => {}; const tds = [...document.querySelectorAll('td')].slice(0, 700);
				for (const td of tds) td.addEventListener('pointerdown', f); for (const td of tds.slice(1)) td.removeEventListener('pointerdown', f); })()`, reuse),
			evalStep("the rows below get taller", `for (const tr of [...document.querySelectorAll('tbody tr')].slice(30)) tr.style.height = '40px'`, reuse),
			evalStep("a style sheet gains a rule", `document.styleSheets[0].insertRule('td{padding:6px 10px}', 0)`, walk),
			evalStep("the page scrolls", `scrollTo(0, 900)`, walk),
			evalStep("after the scroll, nothing changed", ``, reuse),
			inputStep("a person clicks a row after the scroll", "button[data-row='40']", false, reuse),
		}},
		{"incremental/controls.html", domsnap.CaptureViewport, []incStep{
			inputStep("a person hovers the menu", "#m1 > a", true, reuse),
			inputStep("and leaves it", "#title", true, reuse),
			inputStep("a person clicks the hidden checkbox's label", "label.hidden-box", false, reuse),
			inputStep("a person focuses the button", "#fancy", false, reuse),
			evalStep("script sets a field's value", `document.getElementById('name').value = 'Grace'`, reuse),
			evalStep("script picks an option", `document.getElementById('size').selectedIndex = 2`, reuse),
			evalStep("a label's text changes", `document.getElementById('lbl').textContent = 'Loudness'`, reuse),
			evalStep("a span takes a listener", `document.getElementById('clicky').addEventListener('click', () => {})`, reuse),
			evalStep("a span takes a listener for one click", `document.getElementById('once').addEventListener('click', () => {}, {once: true})`, reuse),
			inputStep("a person clicks it, and the listener goes", "#once", false, reuse),
			evalStep("a control of a form that shadows parentNode changes", `document.querySelector('#clob input').setAttribute('value', 'z')`, reuse),
			evalStep("such a form is added", `document.body.append(Object.assign(document.createElement('form'), {innerHTML: '<input name="parentNode"><input name="querySelector">'}))`, reuse),
			evalStep("a constructed style sheet is adopted", `window.sheet = new CSSStyleSheet(); document.adoptedStyleSheets = [window.sheet]`, walk),
			evalStep("and edited", `window.sheet.replaceSync('#f300 { display: none }')`, walk),
			evalStep("details open", `document.getElementById('more').open = true`, walk),
			evalStep("a filler far below is hidden", `document.getElementById('f500').style.display = 'none'`, reuse),
			evalStep("a tall box pushes the list of fillers out of view", `(() => { const d = document.createElement('div'); d.id = 'tall'; d.style.height = '3000px'; document.getElementById('long').before(d); })()`, reuse),
			evalStep("and goes", `document.getElementById('tall').remove()`, reuse),
			evalStep("a rule edited through the CSSOM shows a hidden box", `document.styleSheets[1].cssRules[1].style.display = 'block'`, reuse),
			// A box of at least 128×128 px inside a subtree outside the
			// viewport (whose root stays there) that a change no signal
			// follows brings into view is found by the pass's hit-test grid.
			evalStep("a rule edited through the CSSOM moves a block far below into view",
				`Object.assign(document.styleSheets[1].cssRules[0].style, {position: 'fixed', top: '120px', left: '200px', width: '400px', height: '150px', background: 'white'})`, walk),
			evalStep("a modal opens", `document.getElementById('dlg').showModal()`, walk),
			evalStep("it closes", `document.getElementById('dlg').close()`, walk),
			evalStep("a filler far below takes a shadow root", `document.getElementById('f550').attachShadow({mode: 'open'}).innerHTML = '<h2>In a shadow root</h2><button>Shadow button</button>'`, walk),
			evalStep("after it, nothing changed", ``, reuse),
			// A listener belongs to the world whose function it calls: one
			// made in a same-origin frame's realm and added to a node of the
			// top document is the page's all the same.
			evalStep("a frame far below is added", `document.body.append(Object.assign(document.createElement('iframe'), {id: 'realm'}))`, either),
			evalStep("a label takes a listener made in the frame's realm",
				`document.getElementById('lbl').addEventListener('click', new (document.getElementById('realm').contentWindow.Function)(''))`, reuse),
		}},
		// A hostile page: a form's controls and named images and forms
		// shadow the DOM's own properties (form.nodeType is an input,
		// document.elementFromPoint an image), in the pass's world too.
		{"incremental/clobber.html", domsnap.CaptureViewport, []incStep{
			{"nothing changed", func(*testing.T, *Tab) {}, reuse},
			evalStep("a control of the clobbering form in view changes", `document.querySelector('#clob input[name=nodeType]').setAttribute('value', 'changed')`, reuse),
			evalStep("another clobbering form is added at the end", `(() => { const f = document.getElementById('clob').cloneNode(true); f.removeAttribute('id'); document.body.append(f); })()`, reuse),
		}},
	}
	for _, tc := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(tc.page), ".html")+"-"+string(tc.mode), func(t *testing.T) {
			tab := testTab(t, Options{CallTimeout: 20 * time.Second}, 3*time.Minute)
			seams := seamed(tab)
			if err := tab.Navigate(base+"/"+tc.page, 0); err != nil {
				t.Fatal(err)
			}
			o := browser.CaptureOptions{Mode: tc.mode}
			if _, err := tab.CaptureWith(o); err != nil { // the first: a whole walk that leaves a memo
				t.Fatal(err)
			}
			// machine: the last capture walked whole for a reason of the
			// machine, and may have kept no memo for this one.
			machine := false
			for _, st := range tc.steps {
				st.do(t, tab)
				time.Sleep(50 * time.Millisecond) // the page's own handlers and layout
				c, err := tab.CaptureWith(o)
				if err != nil {
					t.Fatalf("%s: %v", st.name, err)
				}
				if strings.Contains(tc.page, "oopif") && len(c.Documents) < 2 {
					t.Errorf("%s: the cross-site frame is not in the capture (%d documents)", st.name, len(c.Documents))
				}
				wasMachine := machine
				machine = false
				if got := incremental(c); st.want != either && got != (st.want == reuse) {
					switch {
					case envWalk(passStep(c)):
						// A call that failed or ran out of time on a loaded
						// machine makes the tab walk everything, rightly.
						t.Logf("%s: whole walk for a reason of the machine: %s", st.name, passStep(c))
						machine = true
					case wasMachine && !got:
						// That walk kept no memo (settle.js's counts unknown):
						// this capture walks whole too.
						t.Logf("%s: whole walk after the machine's: %s", st.name, passStep(c))
					default:
						t.Errorf("%s: incremental %v, want %v (%s)", st.name, got, st.want == reuse, passStep(c))
					}
				}
				sameCapture(t, st.name, c, captureWhole(t, seams, o))
			}
		})
	}
}

// envWalk: a whole walk the machine caused (a settle.js call or a
// listener query that failed), not the page.
func envWalk(step string) bool {
	return strings.Contains(step, "settle.js's counts unknown") || strings.Contains(step, "listener queries failed") ||
		strings.Contains(step, "the last capture failed")
}

func passStep(c *domsnap.Capture) string {
	for _, tm := range c.Timings {
		if strings.HasPrefix(tm.Step, "viewport pass (") {
			return tm.Step
		}
	}
	return "no viewport pass"
}

// BenchmarkIncrementalCapture: a viewport capture of the 5,000-row table
// after one row changed, incremental against a whole walk of the same
// page, side by side (go test -bench IncrementalCapture -run ^$).
func BenchmarkIncrementalCapture(b *testing.B) {
	requireBrowser(b)
	srv := httptest.NewServer(http.FileServer(http.Dir("../../testdata/pages")))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	br, err := Open(ctx, Options{CallTimeout: 20 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	tab, err := br.NewTab()
	if err != nil {
		b.Fatal(err)
	}
	defer tab.Close()
	seams := seamed(tab)
	if err := tab.Navigate(srv.URL+"/incremental/table.html", 0); err != nil {
		b.Fatal(err)
	}
	o := browser.CaptureOptions{Mode: domsnap.CaptureViewport}
	row := 0
	change := func() {
		row++
		js := fmt.Sprintf(`(() => { const tr = document.querySelector('tbody').rows[%d]; const s = tr.cells[2];
			s.textContent = s.textContent === 'paid' ? 'refunded' : 'paid'; tr.className = s.textContent;
			// The page renders the change, as it does while an action settles.
			return new Promise(r => requestAnimationFrame(() => setTimeout(r, 0))); })()`, row%20)
		if _, err := tab.Evaluate(js); err != nil {
			b.Fatal(err)
		}
	}
	for _, kind := range []string{"whole", "incremental"} {
		b.Run(kind, func(b *testing.B) {
			last, err := tab.CaptureWith(o)
			if err != nil {
				b.Fatal(err)
			}
			var took []float64
			steps := map[string][]float64{} // each step's times, for its median
			var order []string
			for b.Loop() {
				b.StopTimer()
				change()
				if kind == "whole" {
					seams.ForgetMemo()
				}
				b.StartTimer()
				start := time.Now()
				c, err := tab.CaptureWith(o)
				took = append(took, float64(time.Since(start).Microseconds())/1000)
				if err != nil {
					b.Fatal(err)
				}
				if incremental(c) != (kind == "incremental") {
					b.Fatalf("%s: %s", kind, passStep(c))
				}
				last = c
				for _, tm := range c.Timings {
					step, _, _ := strings.Cut(tm.Step, " (")
					if _, ok := steps[step]; !ok {
						order = append(order, step)
					}
					steps[step] = append(steps[step], tm.MS)
				}
			}
			b.ReportMetric(median(took), "median-ms")
			b.Logf("last: %s", passStep(last))
			for _, step := range order {
				b.Logf("%8.1f ms  median of %s", median(steps[step]), step)
			}
		})
	}
}

// TestIncrementalCaptureOnTheCorpus: on the shared corpus's real pages,
// after a person hovers the first link or button in view and after
// nothing at all, the incremental capture equals a whole one made right
// after it. A page that changes on its own (two whole captures in a row
// differ) cannot be compared that way and is only counted.
func TestIncrementalCaptureOnTheCorpus(t *testing.T) {
	if testing.Short() {
		// Under CI a skip is a failure: make test leaves this test out by
		// name (-skip 'OnTheCorpus$'), make test-long runs it.
		ci.Need(t, "whole corpus under -short", errors.New("-short leaves out the whole corpus"))
	}
	requireBrowser(t)
	dir := filepath.Join("..", "..", "..", "shared", "corpus")
	raw, err := os.ReadFile(filepath.Join(dir, "pages.json"))
	var pages []struct{ Path string }
	if err == nil {
		err = json.Unmarshal(raw, &pages)
	}
	ci.Need(t, "corpus at "+dir, err)
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	tab := testTab(t, Options{CallTimeout: 20 * time.Second}, 15*time.Minute)
	seams := seamed(tab)
	o := browser.CaptureOptions{Mode: domsnap.CaptureViewport}
	compared, moving, incrementals, unloaded := 0, 0, 0, 0
	for _, p := range pages {
		t.Run(p.Path, func(t *testing.T) {
			if err := tab.Navigate(srv.URL+"/"+p.Path, 0); err != nil {
				// A page that waits on hosts it cannot reach is counted, not
				// skipped: the test runs the same with or without CI.
				unloaded++
				t.Logf("not compared, it did not load: %v", err)
				return
			}
			time.Sleep(300 * time.Millisecond)
			if _, err := tab.CaptureWith(o); err != nil {
				t.Fatal(err)
			}
			if comparable(captureWhole(t, seams, o)) != comparable(captureWhole(t, seams, o)) {
				moving++
				t.Logf("changes on its own")
				return
			}
			compared++
			steps := []incStep{{"nothing changed", func(*testing.T, *Tab) {}, either}}
			if out, err := tab.Evaluate(`(() => { for (const e of document.querySelectorAll('a[href], button')) {
				const r = e.getBoundingClientRect();
				if (r.width > 4 && r.height > 4 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth) { e.setAttribute('data-axfuse-hover', ''); return true; } }
				return false; })()`); err == nil && out == "true" {
				steps = append(steps, inputStep("a person hovers the first link or button in view", "[data-axfuse-hover]", true, either))
			}
			for _, st := range steps {
				st.do(t, tab)
				if _, err := tab.Evaluate(`new Promise(r => { const end = performance.now() + 1000; const look = () =>
					document.getAnimations().some(a => a.playState === 'running') && performance.now() < end ? setTimeout(look, 50) : setTimeout(r, 100); look(); })`); err != nil {
					t.Fatal(err)
				}
				// Whole captures on either side: a page that changed around
				// the incremental one is not compared.
				before := comparable(captureWhole(t, seams, o))
				c, err := tab.CaptureWith(o)
				if err != nil {
					t.Fatalf("%s: %v", st.name, err)
				}
				after := captureWhole(t, seams, o)
				if comparable(after) != before {
					t.Logf("%s: the page changed on its own meanwhile", st.name)
					continue
				}
				if strings.Contains(passStep(c)+passStep(after), "probes cut short") {
					// Paint order from hit-test probes bounded in time (a
					// busy machine) differs from one pass to the next.
					t.Logf("%s: hit-test probes cut short", st.name)
					continue
				}
				if incremental(c) {
					incrementals++
				}
				sameCapture(t, st.name, c, after)
			}
		})
	}
	t.Logf("%d pages compared (%d incremental captures), %d change on their own, %d did not load", compared, incrementals, moving, unloaded)
	if compared == 0 {
		t.Error("no page of the corpus could be compared")
	}
}

// median of xs (which it sorts).
func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// TestChangeBetweenQuietCheckAndPass: the AX nodes of what changed are
// asked alongside the pass, as the quiet check named them. A page that
// changes them again once they were answered, before the pass runs, must
// not get the answers of the earlier state into the capture: it equals a
// whole capture made after it. With no change between, the capture asks
// no AX node after the pass.
func TestChangeBetweenQuietCheckAndPass(t *testing.T) {
	requireBrowser(t)
	base := servePages(t)
	tab := testTab(t, Options{CallTimeout: 20 * time.Second}, 2*time.Minute)
	seams := seamed(tab)
	if err := tab.Navigate(base+"/incremental/table.html", 0); err != nil {
		t.Fatal(err)
	}
	o := browser.CaptureOptions{Mode: domsnap.CaptureViewport}
	if _, err := tab.CaptureWith(o); err != nil {
		t.Fatal(err)
	}
	change := func(js string) {
		t.Helper()
		if _, err := tab.Evaluate(`(() => { ` + js + `; return new Promise(r => requestAnimationFrame(() => setTimeout(r, 0))); })()`); err != nil {
			t.Fatal(err)
		}
	}
	const cell = `document.querySelector('tbody').rows[2].cells[2]`
	axAsked := func(c *domsnap.Capture) string {
		for _, tm := range c.Timings {
			if strings.HasPrefix(tm.Step, "AX of kept nodes") {
				return tm.Step
			}
		}
		return ""
	}
	for _, tc := range []struct {
		name, between string
		askedAfter    bool
	}{
		{"nothing between", "", false},
		{"the cell's text changes again", cell + `.firstChild.data = 'late refund'`, true},
		{"the row's class changes again", cell + `.parentNode.className = 'late'`, true},
		{"a row is inserted above", `document.querySelector('tbody').prepend(document.querySelector('tbody').rows[9].cloneNode(true))`, true},
	} {
		change(cell + `.textContent = ` + cell + `.textContent === 'paid' ? 'refunded' : 'paid'`)
		ran := false
		seams.BeforePass = func() {
			ran = true
			if tc.between != "" {
				change(tc.between)
			}
		}
		c, err := tab.CaptureWith(o)
		seams.BeforePass, seams.AfterPass = nil, nil
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !ran || !incremental(c) {
			t.Fatalf("%s: not an incremental capture with the hook run (%v): %s", tc.name, ran, passStep(c))
		}
		step := axAsked(c)
		if after := !strings.HasPrefix(step, "AX of kept nodes (0 queries"); after != tc.askedAfter {
			t.Errorf("%s: AX nodes asked after the pass %v, want %v (%s)", tc.name, after, tc.askedAfter, step)
		}
		sameCapture(t, tc.name, c, captureWhole(t, seams, o))
	}
}

// TestNavigationAfterAnIncrementalPass: the page navigates between an
// incremental pass and the calls that follow it (AX, listeners). The
// capture either is of the new document alone or fails with a clear
// error; it never gives the old one. (AX queries on the old document's
// nodes still answer after the navigation, the page being kept in the
// back/forward cache: only the final frame tree check catches it.)
func TestNavigationAfterAnIncrementalPass(t *testing.T) {
	requireBrowser(t)
	base := servePages(t)
	tab := testTab(t, Options{CallTimeout: 20 * time.Second}, 2*time.Minute)
	seams := seamed(tab)
	o := browser.CaptureOptions{Mode: domsnap.CaptureViewport}
	for _, next := range []string{"/incremental/controls.html", "/generated/plain.html"} {
		if err := tab.Navigate(base+"/incremental/table.html", 0); err != nil {
			t.Fatal(err)
		}
		if _, err := tab.CaptureWith(o); err != nil {
			t.Fatal(err)
		}
		if _, err := tab.Evaluate(`(() => { const s = document.querySelector('tbody').rows[1].cells[2]; s.textContent = 'changed';
			return new Promise(r => requestAnimationFrame(() => setTimeout(r, 0))); })()`); err != nil {
			t.Fatal(err)
		}
		fired := false
		seams.AfterPass = func() {
			if fired {
				return
			}
			fired = true
			if _, err := tab.Evaluate(fmt.Sprintf(`location.href = %q`, base+next)); err != nil {
				t.Errorf("navigate: %v", err)
			}
			// Until the new document commits.
			for range 200 {
				if v, err := tab.Evaluate(`location.pathname`); err == nil && strings.Contains(v, next) {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
			t.Errorf("the page never reached %s", next)
		}
		c, err := tab.CaptureWith(o)
		seams.BeforePass, seams.AfterPass = nil, nil
		if !fired {
			t.Fatalf("%s: the pass never ran", next)
		}
		if err != nil {
			if !strings.Contains(err.Error(), "navigated") {
				t.Errorf("%s: %v, want a capture of the new document or a clear error", next, err)
			}
			continue
		}
		if u := c.Documents[0].URL; !strings.HasSuffix(u, next) {
			t.Errorf("%s: the capture is of %s", next, u)
		}
		for _, n := range c.Documents[0].Nodes {
			if n.Name == "TR" || n.Name == "TD" {
				t.Errorf("%s: the capture holds the table's %s nodes (%s)", next, n.Name, passStep(c))
				break
			}
		}
	}
}

// TestOwnListenersAreNotThePages: the listeners axfuse's own scripts add
// in their isolated world (the quiet check's watch, an action's guard) are
// never the page's. DOMDebugger.getEventListeners with pierce reports the
// listeners of every world; a page with no listeners must show none, in a
// first capture, an incremental one, a whole one, and after an action.
func TestOwnListenersAreNotThePages(t *testing.T) {
	requireBrowser(t)
	base := servePages(t)
	tab := testTab(t, Options{CallTimeout: 20 * time.Second}, 2*time.Minute)
	seams := seamed(tab)
	if err := tab.Navigate(base+"/incremental/controls.html", 0); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []domsnap.CaptureMode{domsnap.CaptureViewport, domsnap.CaptureFull} {
		o := browser.CaptureOptions{Mode: mode}
		captures := map[string]func() *domsnap.Capture{
			"a capture": func() *domsnap.Capture {
				c, err := tab.CaptureWith(o)
				if err != nil {
					t.Fatal(err)
				}
				return c
			},
			"a whole capture": func() *domsnap.Capture { return captureWhole(t, seams, o) },
		}
		for _, step := range []string{"a capture", "a capture", "a whole capture", "a capture", "a whole capture"} {
			noListeners(t, string(mode)+": "+step, captures[step]())
		}
		if err := tab.Hover(20, 20); err != nil {
			t.Fatal(err)
		}
		noListeners(t, string(mode)+": after a hover", captures["a capture"]())
		noListeners(t, string(mode)+": a whole capture after a hover", captures["a whole capture"]())
	}
}

// noListeners fails when a node of c has a listener (controls.html adds
// none).
func noListeners(t *testing.T, step string, c *domsnap.Capture) {
	t.Helper()
	for _, d := range c.Documents {
		for _, n := range d.Nodes {
			if len(n.Listeners) > 0 {
				t.Errorf("%s: %s has listeners %v, the page added none (%s)", step, n.Name, n.Listeners, passStep(c))
			}
		}
	}
}
