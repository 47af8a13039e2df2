package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
)

// The journey tests do what an agent does, not one call: open a page,
// read it, scroll, and act on a ref from before the scroll. Whether the
// click landed is not taken from axfuse's answer but from the browser's
// own record: listeners on the page's window (capture phase, added in
// axfuse's isolated world, which sees the page's real events) note the
// target of every press and click.

// recorderJS arms the record on the element about to be clicked: the
// input's events only (trusted ones: a page's own element.click() calls
// are not the agent's), inside when the element is on the event's path
// (through shadow roots). Clicks are prevented: a followed link would
// take the record with it.
const recorderJS = `function () {
  const el = this, rec = { events: [] };
  const inside = (e) => e.composedPath().includes(el);
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
    window.addEventListener(type, (e) => {
      if (!e.isTrusted) return;
      rec.events.push({ type, inside: inside(e), what: (e.composedPath()[0] || {}).nodeName || '' });
      if (type === 'click') e.preventDefault();
    }, true);
  }
  window.__axfuseJourney = rec;
}`

const readRecordJS = `function () { return (window.__axfuseJourney || { events: null }).events; }`

// landed is one recorded pointer event.
type landed struct {
	Type   string `json:"type"`
	Inside bool   `json:"inside"`
	What   string `json:"what"`
}

// topTarget picks the first link or button a person sees near the top of
// the first observation, else the first element with a ref there.
func topTarget(obs *fuse.Observation) (fuse.Element, bool) {
	var other *fuse.Element
	for i, e := range obs.Elements {
		if e.Box == nil {
			continue
		}
		b := *e.Box
		if b[2] < 4 || b[3] < 4 || b[1] < 0 || b[1] >= 300 {
			continue
		}
		if e.Role == "link" || e.Role == "button" {
			return e, true
		}
		if other == nil {
			other = &obs.Elements[i]
		}
	}
	if other != nil {
		return *other, true
	}
	return fuse.Element{}, false
}

var wouldReachAt = regexp.MustCompile(`at \((-?\d+),(-?\d+)\) would reach`)

// reachesJS: does the browser's hit test at (x, y) of the element's frame
// reach the element (it or a node inside it, through its shadow root)?
const reachesJS = `function (x, y) {
  const root = this.getRootNode();
  const h = (root.elementFromPoint ? root : document).elementFromPoint(x, y);
  return !!h && (h === this || this.contains(h));
}`

const boxJS = `function () { const r = this.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }`

func reachesAt(t *testing.T, tab *chrome.Tab, key domsnap.Key, x, y float64) bool {
	t.Helper()
	var ok bool
	if err := tab.RunOn(key, "hit test", reachesJS, &ok, x, y); err != nil {
		t.Fatalf("hit test at (%g,%g): %v", x, y, err)
	}
	return ok
}

// judgeClick holds a click's answer to the browser's record: a success
// must have landed on the ref's element and nowhere else; a refusal must
// be true — the browser's hit test at the point it names reaches another
// element, and an element called covered is reached at none of nine
// points of its box. It returns whether the click succeeded.
func judgeClick(t *testing.T, tab *chrome.Tab, e fuse.Element, clickErr error, events []landed) bool {
	t.Helper()
	key := domsnap.Key{Frame: e.Frame, Backend: e.BackendNodeID}
	if clickErr == nil {
		clicked := false
		for _, ev := range events {
			if !ev.Inside {
				t.Errorf("clicking %s %s %q said it succeeded, but its %s reached %s", e.Ref, e.Role, e.Name, ev.Type, ev.What)
			}
			clicked = clicked || (ev.Type == "click" && ev.Inside)
		}
		if !clicked {
			t.Errorf("clicking %s %s %q said it succeeded, but the page saw no click on it (record %v)", e.Ref, e.Role, e.Name, events)
		}
		return true
	}
	if isBrowserFault(clickErr) {
		t.Fatalf("click: %v", clickErr)
	}
	msg := clickErr.Error()
	if m := wouldReachAt.FindStringSubmatch(msg); m != nil {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		if reachesAt(t, tab, key, float64(x), float64(y)) {
			t.Errorf("refusal %q is false: the browser's hit test at (%d,%d) reaches the ref's element", msg, x, y)
		}
	} else if strings.Contains(msg, " is covered by ") {
		var b [4]float64
		if err := tab.RunOn(key, "box", boxJS, &b); err != nil {
			t.Fatalf("reading the box: %v", err)
		}
		for _, fx := range []float64{0.2, 0.5, 0.8} {
			for _, fy := range []float64{0.2, 0.5, 0.8} {
				x, y := b[0]+fx*b[2], b[1]+fy*b[3]
				if reachesAt(t, tab, key, x, y) {
					t.Errorf("refusal %q is false: the browser's hit test at (%g,%g) reaches the ref's element", msg, x, y)
					return false
				}
			}
		}
	}
	return false
}

// isBrowserFault: an error of the browser connection, not a refusal.
func isBrowserFault(err error) bool {
	s := err.Error()
	return strings.Contains(s, "context canceled") || strings.Contains(s, "no answer within")
}

// journeySession opens url in a new tab with an act session on it, as
// the CLI's defaults capture (auto) with a short settle.
func journeySession(t *testing.T, b *chrome.Browser, url string) (*chrome.Tab, *act.Session) {
	t.Helper()
	tab := openPageTab(t, b, url, 300*time.Millisecond)
	s, err := act.Open(tab, "journey", fuse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Capture = browser.CaptureOptions{Mode: domsnap.CaptureAuto}
	s.Settle = 500 * time.Millisecond
	return tab, s
}

// scrollThenClick opens url, reads it, scrolls down 1,500 px, clicks the
// top link or button seen before the scroll and judges where the click
// landed. It reports whether the page had a target and the click landed.
func scrollThenClick(t *testing.T, b *chrome.Browser, url string) (tried, ok bool) {
	t.Helper()
	tab, s := journeySession(t, b, url)
	obs, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	target, found := topTarget(obs)
	if !found {
		t.Logf("no link or button at the top")
		return false, false
	}
	key := domsnap.Key{Frame: target.Frame, Backend: target.BackendNodeID}
	if err := tab.RunOn(key, "arm the record", recorderJS, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Scroll("", "1500"); err != nil {
		t.Fatalf("scroll: %v", err)
	}
	clickErr := s.Click(target.Ref, 1)
	var events []landed
	if err := tab.RunOn(key, "read the record", readRecordJS, &events); err != nil || events == nil {
		t.Fatalf("reading the record (%s %q): %v; the click answered %v", target.Role, target.Name, err, clickErr)
	}
	ok = judgeClick(t, tab, target, clickErr, events)
	if !ok {
		t.Logf("%s %s %q refused: %v", target.Ref, target.Role, target.Name, clickErr)
	}
	return true, ok
}

// clickAndJudge arms the record on an element, clicks its ref and judges
// the answer; judged is false when the record could not be read (the
// click took the page to another document).
func clickAndJudge(t *testing.T, tab *chrome.Tab, s *act.Session, e fuse.Element) (judged, ok bool) {
	t.Helper()
	key := domsnap.Key{Frame: e.Frame, Backend: e.BackendNodeID}
	if err := tab.RunOn(key, "arm the record", recorderJS, nil); err != nil {
		t.Fatal(err)
	}
	clickErr := s.Click(e.Ref, 1)
	var events []landed
	if err := tab.RunOn(key, "read the record", readRecordJS, &events); err != nil || events == nil {
		t.Logf("%s %s %q: the record is gone (%v); click answered %v", e.Ref, e.Role, e.Name, err, clickErr)
		return false, false
	}
	return true, judgeClick(t, tab, e, clickErr, events)
}

// wholeInView: the element's box lies wholly in the 1280×720 viewport.
func wholeInView(e fuse.Element) bool {
	if e.Box == nil {
		return false
	}
	b := *e.Box
	return b[2] >= 4 && b[3] >= 4 && b[0] >= 0 && b[1] >= 0 && b[0]+b[2] <= 1280 && b[1]+b[3] <= 720
}

// clickAround clicks up to n elements in view of a fresh observation,
// spread over its list, judging each: every success landed, every
// refusal true.
func clickAround(t *testing.T, tab *chrome.Tab, s *act.Session, n int) (tried, refused int) {
	t.Helper()
	obs, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	var pool []fuse.Element
	for _, e := range obs.Elements {
		if wholeInView(e) {
			pool = append(pool, e)
		}
	}
	step := max(1, len(pool)/n)
	for i := 0; i < len(pool) && tried < n; i += step {
		judged, ok := clickAndJudge(t, tab, s, pool[i])
		if !judged {
			break
		}
		tried++
		if !ok {
			refused++
		}
	}
	return tried, refused
}

// TestJourneyScrollThenClickOnTheCorpus: on every corpus page, scroll
// down and click a link or button from the top of the first observation.
// Every click that said it succeeded must have landed on its element by
// the page's own record, and every refusal must be true by the browser's
// hit test.
func TestJourneyScrollThenClickOnTheCorpus(t *testing.T) {
	pages := corpusPages(t)
	b := openBrowser(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	tried, landedOK := 0, 0
	for _, p := range pages {
		t.Run(p.path, func(t *testing.T) {
			tr, ok := scrollThenClick(t, b, p.url)
			if tr {
				tried++
			}
			if ok {
				landedOK++
			}
		})
	}
	// A refusal may be true (an echarts canvas drawn over the title once
	// the page scrolled back); judgeClick has failed any that was not.
	t.Logf("%d pages had a top target; %d clicks landed, the other refusals were true", tried, landedOK)
}

// TestEveryClickAnswerIsTrueOnTheCorpus: on every corpus page, click
// elements spread over the first observation, one after another as the
// page changes under them; each success must have landed on its element
// by the page's own record, each refusal must be true by the browser's
// hit test.
func TestEveryClickAnswerIsTrueOnTheCorpus(t *testing.T) {
	pages := corpusPages(t)
	b := openBrowser(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	clicks, refused := 0, 0
	for _, p := range pages {
		t.Run(p.path, func(t *testing.T) {
			tab, s := journeySession(t, b, p.url)
			n, r := clickAround(t, tab, s, 5)
			clicks, refused = clicks+n, refused+r
		})
	}
	t.Logf("%d clicks judged, %d refused (each refusal checked true)", clicks, refused)
}

// TestJourneyScrollThenClick: the long page of the regression (a link at
// the top of a 900-element page clicked after scrolling 1,500 px was
// refused as reaching itself).
func TestJourneyScrollThenClick(t *testing.T) {
	b := openBrowser(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	tried, ok := scrollThenClick(t, b, servePage(t, "traps/longnav.html"))
	if !tried || !ok {
		t.Fatalf("tried %v, landed %v", tried, ok)
	}
}

// TestJourneyScrollThenClickThroughCLIAndMCP: the regression's journey as
// an agent runs it, through the CLI's attached session and the MCP
// server: open the long page, scroll 1,500 px down, click the top link
// seen before the scroll. The page's own record (its URL's fragment, set
// only by following that link) says where the click landed.
func TestJourneyScrollThenClickThroughCLIAndMCP(t *testing.T) {
	url := servePage(t, "traps/longnav.html")
	t.Run("CLI", func(t *testing.T) {
		endpoint, first := attachedURL(t, url, `link "next"`)
		next := refOf(t, first, `link "next"`)
		mustCLI(t, "act", "--cdp", endpoint, "scroll", "1500")
		out, err := runCLI(t, "act", "--cdp", endpoint, "click", next)
		if err != nil || strings.Contains(out, "nothing was done") {
			t.Fatalf("click %s after the scroll: %v\n%s", next, err, out)
		}
		obs := decode(t, mustCLI(t, "snapshot", "--cdp", endpoint, "--format", "json"))
		if !strings.HasSuffix(obs.URL, "#next-page") {
			t.Errorf("the click did not follow the link: the page is at %s", obs.URL)
		}
	})
	t.Run("MCP", func(t *testing.T) {
		cs := mcpSession(t, "--caps", "evaluate")
		text, _ := call(t, cs, "browser_navigate", map[string]any{"url": url}, false)
		next := refOf(t, text, `link "next"`)
		call(t, cs, "browser_scroll", map[string]any{"amount": "1500"}, false)
		text, res := call(t, cs, "browser_click", map[string]any{"ref": next}, false)
		if res.IsError || strings.Contains(text, "nothing was done") {
			t.Fatalf("click %s after the scroll:\n%s", next, text)
		}
		text, _ = call(t, cs, "browser_evaluate", map[string]any{"function": "() => location.hash"}, false)
		if !strings.Contains(text, "#next-page") {
			t.Errorf("the click did not follow the link: location.hash is\n%s", text)
		}
	})
}

// journeySite is a search form whose answer page lists items with Like
// buttons and re-renders the list from scratch (new nodes, same labels)
// on "Re-render", as a framework without keys does.
func journeySite(t *testing.T) string {
	t.Helper()
	return serve(t, map[string]string{
		"/": `<!doctype html><title>Search</title><h1>Search</h1>
<form action="/result"><input name="q" aria-label="Query"> <button>Search</button></form>`,
		"/result": `<!doctype html><title>Results</title><h1 id="h">Results</h1>
<button id="again">Re-render</button><ul id="list"></ul><ol id="log" aria-label="Log"></ol>
<script>
  const q = new URLSearchParams(location.search).get('q') || '';
  document.getElementById('h').textContent = 'Results for ' + q;
  function log(s) { const li = document.createElement('li'); li.textContent = s; document.getElementById('log').append(li); }
  let round = 0;
  function render() {
    round++;
    const ul = document.getElementById('list');
    ul.replaceChildren();
    for (const n of [1, 2, 3]) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.textContent = 'Like ' + n;
      const r = round;
      b.addEventListener('click', () => log('liked ' + n + ' of round ' + r));
      li.append('Item ' + n + ' ', b);
      ul.append(li);
    }
  }
  render();
  document.getElementById('again').addEventListener('click', render);
</script>`,
	}).URL + "/"
}

// TestJourneyFormNavigationReRender: an agent's journey through the CLI's
// attached session and the MCP server: type a query and submit it; act
// right after the navigation, on a ref from the answer that navigated;
// have the page re-render the list, and act on a ref seen before the
// re-render (refused, nothing clicked) and on one from the answer after
// it (clicked). The page's log says what was clicked.
func TestJourneyFormNavigationReRender(t *testing.T) {
	url := journeySite(t)
	const logJS = `document.getElementById('log').innerText`
	t.Run("CLI", func(t *testing.T) {
		endpoint, first := attachedURL(t, url, `button "Search"`)
		mustCLI(t, "act", "--cdp", endpoint, "type", refOf(t, first, `textbox "Query"`), "kittens")
		after := mustCLI(t, "act", "--cdp", endpoint, "click", refOf(t, first, `button "Search"`))
		if !strings.Contains(after, "Results for kittens") {
			t.Fatalf("the submit's answer does not show the result page:\n%s", after)
		}
		after = mustCLI(t, "act", "--cdp", endpoint, "click", refOf(t, after, `button "Like 2"`))
		if log := pageEval(t, endpoint, logJS); log != "liked 2 of round 1" {
			t.Fatalf("the click right after the navigation: log %q\n%s", log, after)
		}
		stale := refOf(t, after, `button "Like 3"`)
		rerendered := mustCLI(t, "act", "--cdp", endpoint, "click", refOf(t, after, `button "Re-render"`))
		if _, err := runCLI(t, "act", "--cdp", endpoint, "click", stale); err == nil {
			t.Errorf("a ref whose element the page replaced was clicked")
		}
		mustCLI(t, "act", "--cdp", endpoint, "click", refOf(t, rerendered, `button "Like 3"`))
		if log := pageEval(t, endpoint, logJS); log != "liked 2 of round 1\nliked 3 of round 2" {
			t.Errorf("after the re-render: log %q", log)
		}
	})
	t.Run("MCP", func(t *testing.T) {
		cs := mcpSession(t, "--caps", "evaluate")
		first, _ := call(t, cs, "browser_navigate", map[string]any{"url": url}, false)
		after, _ := call(t, cs, "browser_type", map[string]any{"ref": refOf(t, first, `textbox "Query"`), "text": "kittens", "submit": true}, false)
		if !strings.Contains(after, "Results for kittens") {
			t.Fatalf("the submit's answer does not show the result page:\n%s", after)
		}
		// (Later answers say what changed: the refs of the result page are
		// the ones its first answer gave.)
		stale, again := refOf(t, after, `button "Like 3"`), refOf(t, after, `button "Re-render"`)
		liked, _ := call(t, cs, "browser_click", map[string]any{"ref": refOf(t, after, `button "Like 2"`)}, false)
		evalLog := func() string {
			text, _ := call(t, cs, "browser_evaluate", map[string]any{"function": "() => " + logJS}, false)
			return text
		}
		if log := evalLog(); !strings.Contains(log, "liked 2 of round 1") {
			t.Fatalf("the click right after the navigation: log %q\n%s", log, liked)
		}
		call(t, cs, "browser_click", map[string]any{"ref": again}, false)
		refused, _ := call(t, cs, "browser_click", map[string]any{"ref": stale}, true)
		t.Logf("the stale ref's answer:\n%s", refused)
		fresh, _ := call(t, cs, "browser_snapshot", map[string]any{}, false)
		call(t, cs, "browser_click", map[string]any{"ref": refOf(t, fresh, `button "Like 3"`)}, false)
		if log := evalLog(); strings.Contains(log, "liked 3 of round 1") || !strings.Contains(log, "liked 3 of round 2") {
			t.Errorf("after the re-render: log %q", log)
		}
	})
}

// TestJourneyClickAfterBack: follow a link, come back, and act on the
// page again. A browser that keeps the page in its back/forward cache
// restores it with the guard of the click that left it still armed; the
// click after `back` must reach its element all the same (it reached
// nothing, and was reported done). Through the CLI's attached session
// (a browser with that cache, as a user's is) and the MCP server.
func TestJourneyClickAfterBack(t *testing.T) {
	url := serve(t, map[string]string{
		"/": `<!doctype html><title>Home</title><h1>Home</h1><p><a href="/b">To B</a></p>
<button id="go">Count</button><ol id="log" aria-label="Log"></ol>
<script>let n = 0; document.getElementById('go').addEventListener('click', () => {
  const li = document.createElement('li'); li.textContent = 'counted ' + (++n); document.getElementById('log').append(li); });</script>`,
		"/b": `<!doctype html><title>B</title><h1>Page B</h1>`,
	}).URL + "/"
	t.Run("CLI", func(t *testing.T) {
		endpoint, first := attachedURL(t, url, `button "Count"`)
		if out := mustCLI(t, "act", "--cdp", endpoint, "click", refOf(t, first, `link "To B"`)); !strings.Contains(out, "Page B") {
			t.Fatalf("the link was not followed:\n%s", out)
		}
		back := mustCLI(t, "back", "--cdp", endpoint)
		out, err := runCLI(t, "act", "--cdp", endpoint, "click", refOf(t, back, `button "Count"`))
		if err != nil || !strings.Contains(out, "counted 1") {
			t.Errorf("the click after back: %v\n%s", err, out)
		}
	})
	t.Run("MCP", func(t *testing.T) {
		cs := mcpSession(t)
		first, _ := call(t, cs, "browser_navigate", map[string]any{"url": url}, false)
		call(t, cs, "browser_click", map[string]any{"ref": refOf(t, first, `link "To B"`)}, false)
		back, _ := call(t, cs, "browser_navigate_back", map[string]any{}, false)
		out, _ := call(t, cs, "browser_click", map[string]any{"ref": refOf(t, back, `button "Count"`)}, false)
		if !strings.Contains(out, "counted 1") {
			t.Errorf("the click after back:\n%s", out)
		}
	})
}
