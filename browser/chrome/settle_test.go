package chrome

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
)

// settlePage is busy on its own — a clock ticking every 50 ms, a
// carousel moved every frame, a beacon every 200 ms, a long poll and a
// request to a host that never answers, both open since load — and has
// buttons whose effects come late: a fetch answered after 800 ms, a
// navigation after a 500 ms timer, a transition of 400 ms.
const settlePage = `<!doctype html><title>settle</title>
<p id=clock>0</p><div id=track style="position:relative">slide</div>
<button id=sync onclick="out.textContent='sync done'">sync</button>
<button id=fetch onclick="fetch('/slow?ms=800').then(r=>r.text()).then(t=>out.textContent=t)">fetch</button>
<button id=timernav onclick="setTimeout(()=>location.href='/next',500)">timer nav</button>
<button id=silent onclick="fetch('SILENT/again',{mode:'no-cors'}).catch(()=>{});out.textContent='asked silent'">silent</button>
<button id=fresh onclick="fetch('/hang',{cache:'no-store'}).catch(()=>{});out.textContent='asked fresh'">fresh</button>
<button id=anim onclick="box.classList.add('moved')">anim</button>
<div id=box style="width:20px;height:20px;background:red;transition:transform 400ms linear"></div>
<button id=colour onclick="swatch.classList.add('done')">colour</button>
<p id=swatch style="transition:color 900ms linear,background-color 900ms linear">swatch</p>
<style>.done{color:#bbb;background-color:#eee}</style>
<style>.moved{transform:translateX(200px)}</style>
<button id=slide onclick="slideDown()">slide</button>
<div id=panel style="height:0;overflow:hidden"><a href=#in>inside</a></div>
<button id=stagger onclick="[0,1,2,3].forEach(i=>setTimeout(()=>document.getElementById('it'+i).classList.add('in'),i*80))">stagger</button>
<p><span id=it0 class=it>a</span><span id=it1 class=it>b</span><span id=it2 class=it>c</span><span id=it3 class=it>d</span></p>
<style>.it{opacity:0;transition:opacity 300ms linear}.it.in{opacity:1}</style>
<button id=tick onclick="let w=0;const iv=setInterval(()=>{bar.style.width=(w+=10)+'px';if(w>=250){clearInterval(iv);bar.dataset.done='1'}},16)">tick</button>
<div id=bar style="height:4px;width:0;background:#888"></div>
<button id=forever onclick="(function spin(){spinner.style.width=(performance.now()%100)+'px';requestAnimationFrame(spin)})()">forever</button>
<div id=spinner style="height:4px;background:#888"></div>
<p id=out>-</p>
<script>
addEventListener('pointerdown', (e) => { window.lastPress = (e.target.id || e.target.localName) + '@' + e.clientX + ',' + e.clientY; }, true);
// slideDown eases the panel open over 500 ms, one frame at a time, as
// jQuery does: some 30 changes of one node's style.
function slideDown() {
  const start = performance.now();
  (function step(t) {
    const k = Math.min(1, (t - start) / 500);
    panel.style.height = Math.round(200 * k) + 'px';
    if (k < 1) requestAnimationFrame(step); else panel.dataset.done = '1';
  })(start);
}
let n = 0; setInterval(() => clock.textContent = ++n, 50);
let x = 0; (function move() { track.style.left = (x = (x + 1) % 100) + 'px'; requestAnimationFrame(move); })();
setInterval(() => navigator.sendBeacon('/beacon', 'x'), 200);
fetch('/longpoll', {cache: 'no-store'}).catch(() => {});
fetch('SILENT/first', {mode: 'no-cors'}).catch(() => {});
</script>`

// TestSettleOnWhatTheActionCaused clicks each button of settlePage in a
// real Chromium and checks that the wait held for the effect the click
// caused (it is on the page when Settle returns) and not for the page's
// background noise (the wait did not run to its bound).
func TestSettleOnWhatTheActionCaused(t *testing.T) {
	requireBrowser(t)
	hang := make(chan struct{})
	defer close(hang)
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(silent.Close) // after the browser (testTab's cleanups run first)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			time.Sleep(800 * time.Millisecond)
			w.Write([]byte("fetched late"))
		case "/longpoll", "/hang":
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		case "/beacon":
		case "/next":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<!doctype html><title>next</title><p id=out>next page</p>`))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(strings.ReplaceAll(settlePage, "SILENT", silent.URL)))
		}
	}))
	t.Cleanup(srv.Close)
	tab := testTab(t, Options{CallTimeout: 20 * time.Second}, 120*time.Second)

	click := func(t *testing.T, id string, bound time.Duration) browser.Settled {
		t.Helper()
		// In view, and painted there, before the press.
		evalIn[bool](t, tab, fmt.Sprintf(`(() => { document.getElementById(%q).scrollIntoView({block: 'center'}); return true; })()`, id))
		time.Sleep(100 * time.Millisecond)
		x := evalIn[[]float64](t, tab, fmt.Sprintf(`(() => { const r = document.getElementById(%q).getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`, id))
		tab.Mark()
		at := time.Now()
		if err := tab.Click(x[0], x[1], 1); err != nil {
			t.Fatal(err)
		}
		st := tab.Settle(bound, at)
		t.Logf("%s at %v (pressed %s): %+v", id, x, evalIn[string](t, tab, `String(window.lastPress)`), st)
		return st
	}
	load := func(t *testing.T) {
		t.Helper()
		if err := tab.Navigate(srv.URL, 0); err != nil {
			t.Fatal(err)
		}
		// A tab behind another runs no animation frames and throttles its
		// timers (as act brings the agent's tab to the front, so does this).
		if err := tab.BringToFront(); err != nil {
			t.Fatal(err)
		}
		// The silent host has kept its first request for over a second:
		// it is a host that does not answer. An agent observes before it
		// acts, which also starts the record of what changes on its own.
		if _, err := tab.CaptureWith(browser.CaptureOptions{Mode: domsnap.CaptureViewport}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1200 * time.Millisecond)
	}
	out := func(t *testing.T) string {
		t.Helper()
		return evalIn[string](t, tab, `document.getElementById('out').textContent`)
	}
	part := func(st browser.Settled, name string) (browser.SettlePart, bool) {
		for _, p := range st.Parts {
			if p.Name == name {
				return p, true
			}
		}
		return browser.SettlePart{}, false
	}
	load(t)

	t.Run("in-place change amid background noise", func(t *testing.T) {
		st := click(t, "sync", 3*time.Second)
		if st.HitBound {
			t.Fatalf("the page's own clock, carousel, beacons and polls held the wait to its bound: %+v", st)
		}
		if got := out(t); got != "sync done" {
			t.Errorf("out = %q", got)
		}
		if _, ok := part(st, browser.PartRequests); ok {
			t.Errorf("background requests counted as the action's: %+v", st.Parts)
		}
	})
	t.Run("a fetch answered after 800 ms", func(t *testing.T) {
		st := click(t, "fetch", 3*time.Second)
		if st.HitBound {
			t.Fatalf("hit the bound: %+v", st)
		}
		if got := out(t); got != "fetched late" {
			t.Errorf("the answer came before the fetch it caused: out = %q (%+v)", got, st)
		}
		if p, ok := part(st, browser.PartRequests); !ok || p.Count != 1 || p.Done < 800*time.Millisecond {
			t.Errorf("requests part = %+v, %v; want 1 request over at 800 ms or later", p, ok)
		}
	})
	t.Run("a request to a host that does not answer", func(t *testing.T) {
		st := click(t, "silent", 3*time.Second)
		if st.HitBound || st.IgnoredRequests < 1 {
			t.Fatalf("want the request to the silent host ignored, not waited for: %+v", st)
		}
	})
	t.Run("an animation the click started", func(t *testing.T) {
		st := click(t, "anim", 3*time.Second)
		if st.HitBound {
			t.Fatalf("hit the bound: %+v", st)
		}
		if n := evalIn[int](t, tab, `box.getAnimations().length`); n != 0 {
			t.Errorf("the transition is still running (%d) after the wait: %+v", n, st)
		}
	})
	t.Run("an animation of colours alone is not waited for", func(t *testing.T) {
		st := click(t, "colour", 3*time.Second)
		if st.HitBound {
			t.Fatalf("hit the bound: %+v", st)
		}
		if p, ok := part(st, browser.PartAnimations); ok {
			t.Errorf("the colour transition was waited for: %+v", p)
		}
		if got := evalIn[string](t, tab, `swatch.className`); got != "done" {
			t.Errorf("the click's class change is not on the page: %q", got)
		}
	})
	// Effects a script draws out over several frames or ticks: the
	// answer comes once they are over (expr reads the page then).
	for _, c := range []struct{ name, button, expr, want string }{
		{"a script-driven slide, one frame at a time", "slide", `panel.dataset.done + ' ' + panel.style.height`, "1 200px"},
		{"items faded in one after another", "stagger", `[0,1,2,3].map(i=>getComputedStyle(document.getElementById('it'+i)).opacity).join(' ')`, "1 1 1 1"},
		{"an interval the click set", "tick", `bar.dataset.done + ' ' + bar.style.width`, "1 250px"},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := click(t, c.button, 3*time.Second)
			if st.HitBound {
				t.Fatalf("hit the bound: %+v", st)
			}
			if got := evalIn[string](t, tab, c.expr); got != c.want {
				t.Errorf("the answer came before the effect was over: %q, want %q (%+v)", got, c.want, st)
			}
		})
	}
	t.Run("a frame loop the click starts for good holds the answer two seconds at most", func(t *testing.T) {
		st := click(t, "forever", 5*time.Second)
		if st.HitBound {
			t.Fatalf("a loop that never ends held the answer to its bound: %+v", st)
		}
		if st.Waited < 1500*time.Millisecond {
			t.Errorf("the loop's first changes were not waited for: %+v", st)
		}
	})
	t.Run("a request that never answers runs to the bound, and says so", func(t *testing.T) {
		st := click(t, "fresh", time.Second)
		if !st.HitBound || len(st.Pending) == 0 || !strings.Contains(strings.Join(st.Pending, " "), "/hang") {
			t.Fatalf("want the bound hit with the hanging request pending: %+v", st)
		}
		if !strings.Contains(st.Summary(), "still pending") {
			t.Errorf("summary = %q", st.Summary())
		}
	})
	t.Run("a navigation after a 500 ms timer", func(t *testing.T) {
		st := click(t, "timernav", 3*time.Second)
		if st.HitBound || !st.Navigated {
			t.Fatalf("want the navigation waited for: %+v", st)
		}
		if got := out(t); got != "next page" {
			t.Errorf("the answer came before the navigation: out = %q (%+v)", got, st)
		}
	})
}

// TestSecondProcessFindsTheTracker: a second client of the same tab (the
// next `axfuse act` process) uses the tracker the first installed and
// does not wrap the page's timers again.
func TestSecondProcessFindsTheTracker(t *testing.T) {
	requireBrowser(t)
	tab := pageTab(t, `<!doctype html><title>two</title><p>x</p>`, 60*time.Second)
	if _, err := tab.CaptureWith(browser.CaptureOptions{Mode: domsnap.CaptureFull}); err != nil {
		t.Fatal(err)
	}
	other, err := tab.browser.AttachTab(tab.TargetID())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.CaptureWith(browser.CaptureOptions{Mode: domsnap.CaptureFull}); err != nil {
		t.Fatal(err)
	}
	n := evalIn[int](t, tab, `Object.getOwnPropertyNames(window).filter((k) => k.startsWith('__axfuse_settle_')).length`)
	if n != 1 {
		t.Fatalf("%d trackers installed in one document; want 1", n)
	}
}
