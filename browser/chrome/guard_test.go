package chrome

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/chromedp"
)

// followPage has a button and, beside it, another element; each logs the
// pointer events that reach it.
const followPage = `<!doctype html><title>follow</title>
<style>#b, #o { position: fixed; top: 10px; width: 100px; height: 40px } #b { left: 10px } #o { left: 200px; background: #eee }</style>
<button id=b>Go</button><div id=o>Other</div>
<script>
window.log = [];
for (const id of ['b', 'o']) for (const ty of ['pointerover', 'mouseover', 'pointerdown', 'mousedown', 'click'])
  document.getElementById(id).addEventListener(ty, () => log.push(id + ' ' + ty));
</script>`

// TestFollowingGuardStillJudgesThePress: a guard armed to follow lets the
// pointer pass over other nodes before the press, and the page never sees
// those moves; the press itself must still reach the element. Without
// Follow, a move over another node stops the action.
func TestFollowingGuardStillJudgesThePress(t *testing.T) {
	requireBrowser(t)
	tab := pageTab(t, followPage, 60*time.Second)
	hit, err := tab.HitTest(60, 30)
	if err != nil {
		t.Fatal(err)
	}
	button := domsnap.Key{Frame: hit.Target, Backend: hit.Backend}
	for _, c := range []struct {
		name        string
		follow      bool
		over, press [2]float64
		blocked     string // the stopped event, "" for none
		want, never []string
	}{
		{"a move over another node stops a guard that does not follow", false, [2]float64{250, 30}, [2]float64{60, 30},
			"pointerover", nil, []string{"b click", "o pointerover", "o mouseover"}},
		{"a guard that follows stops the move silently and lets the press through", true, [2]float64{250, 30}, [2]float64{60, 30},
			"", []string{"b pointerdown", "b click"}, []string{"o pointerover", "o mouseover"}},
		{"a guard that follows still stops a press elsewhere", true, [2]float64{60, 30}, [2]float64{250, 30},
			"pointerdown", nil, []string{"o pointerdown", "o mousedown", "o click", "b click"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := tab.Hover(600, 300); err != nil {
				t.Fatal(err)
			}
			evalIn[chromedp.Void](t, tab, `log.length = 0`)
			g, err := tab.Arm(browser.GuardSpec{Node: button, Kind: browser.GuardClick, Enabled: true, Follow: c.follow})
			if err != nil {
				t.Fatal(err)
			}
			if err := tab.Hover(c.over[0], c.over[1]); err != nil {
				t.Fatal(err)
			}
			if err := tab.Click(c.press[0], c.press[1], 1); err != nil {
				t.Fatal(err)
			}
			v, err := g.Finish()
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.blocked == "" && v.Blocked != nil:
				t.Errorf("stopped at %+v", *v.Blocked)
			case c.blocked != "" && (v.Blocked == nil || v.Blocked.Event != c.blocked):
				t.Errorf("stopped at %+v, want at %s", v.Blocked, c.blocked)
			}
			log := evalIn[[]string](t, tab, `log`)
			for _, w := range c.want {
				if !slices.Contains(log, w) {
					t.Errorf("the page did not log %q: %s", w, strings.Join(log, ", "))
				}
			}
			for _, n := range c.never {
				if slices.Contains(log, n) {
					t.Errorf("the page logged %q: %s", n, strings.Join(log, ", "))
				}
			}
		})
	}
}
