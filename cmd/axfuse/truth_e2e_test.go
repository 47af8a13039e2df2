package main

// End-to-end tests of the ground truth compare measures views against:
// real Chromium's hit tests on served pages whose answer is known
// (delegation, a covering banner, a pane that lets clicks through,
// shadow roots open and closed, frames in this process and in others).

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/truth"
)

// compareTruth runs compare --format json and returns its ground-truth
// report.
func compareTruth(t *testing.T, args ...string) *truth.Report {
	t.Helper()
	out := mustCLI(t, append([]string{"compare", "--format", "json"}, args...)...)
	var got struct {
		Truth *truth.Report `json:"truth"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Truth == nil {
		t.Fatalf("compare JSON has no truth (%v):\n%.2000s", err, out)
	}
	return got.Truth
}

// missedNames are the quoted words of a report's missed targets.
func missedNames(missed []string) []string {
	out := []string{}
	for _, m := range missed {
		_, rest, _ := strings.Cut(m, `"`)
		name, _, _ := strings.Cut(rest, `"`)
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// TestGroundTruthLive: on the truth page, the live hit tests give the
// answer the page was written for, and a capture recorded with --hits
// replays to the same report.
func TestGroundTruthLive(t *testing.T) {
	needChromium(t)
	url := servePage(t, "truth/index.html")
	live := compareTruth(t, url)
	if live.Targets != 13 || live.ListenerOnly != 2 || live.Covered != 1 || live.Delegating != 1 || live.Unjudged != 0 {
		t.Errorf("ground truth: %d targets (%d listener-only), %d covered, %d delegating, %d unjudged; want 13 (2), 1, 1, 0",
			live.Targets, live.ListenerOnly, live.Covered, live.Delegating, live.Unjudged)
	}
	if live.AX.Found != 11 || live.Fused.Found != 13 || live.AX.ListenerOnlyFound != 0 || live.Fused.ListenerOnlyFound != 2 {
		t.Errorf("found: AX-only %d (%d listener-only), fused %d (%d); want 11 (0), 13 (2)",
			live.AX.Found, live.AX.ListenerOnlyFound, live.Fused.Found, live.Fused.ListenerOnlyFound)
	}
	// The AX-only view offers the button under the banner; the fused view
	// leaves it out.
	if live.AX.Unreachable != 1 || live.Fused.Unreachable != 0 {
		t.Errorf("unreachable refs: AX-only %q, fused %q", live.AX.UnreachableRefs, live.Fused.UnreachableRefs)
	}
	if got := missedNames(live.MissedByAX); !reflect.DeepEqual(got, []string{"Closed shadow div", "Listener div"}) {
		t.Errorf("missed by AX-only: %q", live.MissedByAX)
	}
	if len(live.MissedByFused) != 0 {
		t.Errorf("missed by fused: %q", live.MissedByFused)
	}
	file := filepath.Join(t.TempDir(), "truth.capture.json")
	mustCLI(t, "capture", url, "--hits", "-o", file)
	if replayed := compareTruth(t, "--from", file); !reflect.DeepEqual(replayed, live) {
		t.Errorf("the recorded capture measures differently:\nlive     %+v\nreplayed %+v", live, replayed)
	}
	if _, err := runCLI(t, "capture", url, "--hits", "--capture", "viewport", "-o", file); err == nil || !strings.Contains(err.Error(), "--hits") {
		t.Errorf("--hits with a viewport capture: %v", err)
	}
}

// TestGroundTruthAcrossFrames: targets inside frames of other processes
// (a cross-site frame and a frame nested in it) are hit-tested in their
// own renderer and judged, none left unjudged.
func TestGroundTruthAcrossFrames(t *testing.T) {
	needChromium(t)
	r := compareTruth(t, serveFrames(t), "--wait", "1500ms")
	// Same button, Cross input and Deep button, and three listener divs:
	// one in the same-origin frame, one in the cross-site frame, one in a
	// closed shadow root.
	if r.Targets != 6 || r.ListenerOnly != 3 || r.Covered != 0 || r.Unjudged != 0 {
		t.Errorf("ground truth: %d targets (%d listener-only), %d covered, %d unjudged; want 6 (3), 0, 0",
			r.Targets, r.ListenerOnly, r.Covered, r.Unjudged)
	}
	if r.Fused.Found != 6 || r.AX.Found != 3 {
		t.Errorf("found: AX-only %d, fused %d; want 3, 6", r.AX.Found, r.Fused.Found)
	}
	if got := missedNames(r.MissedByAX); !reflect.DeepEqual(got, []string{"Cross div", "Same div", "Shadow div"}) {
		t.Errorf("missed by AX-only: %q", r.MissedByAX)
	}
}

// TestComparePeer: an outside observer measured on the same tab. The peer
// here is axfuse's own AX-only view run as a separate process through the
// adapter protocol (JSON with the refs' boxes): measured by boxes, it
// finds what the AX-only view finds by nodes. A peer that fails is the
// peer's error, not the page's.
func TestComparePeer(t *testing.T) {
	endpoint, _ := attachedURL(t, servePage(t, "truth/index.html"), `button "Native button"`)
	t.Setenv("AXFUSE_MAIN", "1") // the peer process: this test binary as axfuse
	peer := "ax=" + os.Args[0] + " snapshot --cdp {cdp} --tab {target} --mode ax --format json"
	r := compareTruth(t, "--cdp", endpoint, "--peer", peer)
	p := r.Peer
	if p == nil || p.Measure == nil {
		t.Fatalf("no peer measure: %+v", p)
	}
	if p.Name != "ax" || p.Measure.Found != r.AX.Found || p.Measure.Targets != r.Targets || p.Refs == 0 || len(p.Missed) != len(r.MissedByAX) {
		t.Errorf("peer %+v (%d refs), missed %q; the AX-only view found %d of %d, missed %q", p.Measure, p.Refs, p.Missed, r.AX.Found, r.Targets, r.MissedByAX)
	}
	failing := compareTruth(t, "--cdp", endpoint, "--peer", "broken="+os.Args[0]+" snapshot --no-such-flag")
	if failing.Peer == nil || failing.Peer.Error == "" || failing.Peer.Measure != nil || failing.Targets != r.Targets {
		t.Errorf("a failing peer: %+v; targets %d", failing.Peer, failing.Targets)
	}
	if _, err := runCLI(t, "compare", "--peer", peer, servePage(t, "truth/index.html")); err == nil || !strings.Contains(err.Error(), "--cdp") {
		t.Errorf("--peer without --cdp: %v", err)
	}
}

// TestClickBesideAListMarker: floated items whose outside list markers are
// drawn over the previous item's link (readability-qq's navigation). The
// page is big enough for a viewport capture, which holds no box for a
// marker: the model's point for each link lies under the next marker,
// where the browser's hit test finds the marker. act tries the other
// points of the link's part in view, and the click lands on the link; the
// ground truth judges the links' text centres covered, as the browser does.
func TestClickBesideAListMarker(t *testing.T) {
	url := servePage(t, "markers/index.html")
	endpoint, snap := attachedURL(t, url, `link "Two"`)
	out := mustCLI(t, "snapshot", "--cdp", endpoint, "--format", "json")
	if !strings.Contains(out, `"viewport pass`) {
		t.Fatalf("not a viewport capture, the case this tests:\n%s", out)
	}
	for _, link := range []string{"One", "Two"} {
		ref := refOf(t, snap, `link "`+link+`"`)
		got, err := runProcess(t, "act", "--cdp", endpoint, "click", ref)
		if want := "went #" + strings.ToLower(link); err != nil || !strings.Contains(got, want) {
			t.Errorf("click %s (link %q): %v, want %q in:\n%s", ref, link, err, want, got)
		}
	}
	if r := compareTruth(t, url); r.Covered != 2 || r.Targets != 1 {
		t.Errorf("ground truth: %d targets, %d covered; want the 2 links under a marker covered", r.Targets, r.Covered)
	}
}

// fadingOverlayPage covers its controls with a "Loading…" overlay that
// starts fading 200 ms after load (and lets clicks through from then);
// its 150 more buttons make measuring and hit-testing a capture take long
// enough for the fade to start in between.
const fadingOverlayPage = `<!doctype html><title>Fading</title>
<style>#ov { position: fixed; inset: 0; background: #fff; font: 40px sans-serif; transition: opacity .3s }
#ov.gone { opacity: 0; pointer-events: none } button { margin: 20px; font-size: 20px }</style>
<h1>Shop</h1><button>Add to cart</button><button>Buy now</button><a href="#more">More</a>
<div onclick="location.hash = 'tile'" style="width:120px;height:40px;background:#8ac">Tile</div>
<div id=ov>Loading…</div>
<script>for (let i = 0; i < 150; i++) { const b = document.createElement('button'); b.textContent = 'Item ' + i; document.body.insertBefore(b, document.getElementById('ov')); }
addEventListener('load', () => setTimeout(() => document.getElementById('ov').classList.add('gone'), 200))</script>`

// TestGroundTruthIsOfTheCapturesMoment: on a page whose overlay fades
// right after load, the hit tests compare measures with are of the
// moment of the capture they judge: whatever the moment (the overlay
// there, fading or gone), the fused view and the ground truth agree on
// what is covered, so no target it cannot see is counted as missed and
// no ref it gives is counted as unreachable.
func TestGroundTruthIsOfTheCapturesMoment(t *testing.T) {
	needChromium(t)
	url := serve(t, map[string]string{"/": fadingOverlayPage}).URL + "/"
	for _, wait := range []string{"0s", "60ms", "90ms", "110ms", "130ms", "150ms", "170ms", "190ms", "400ms"} {
		r := compareTruth(t, "--wait", wait, url)
		if r.Fused.Found != r.Targets || r.Fused.Unreachable != 0 {
			t.Errorf("--wait %s: the fused view found %d of %d targets, %d refs unreachable (%q): the ground truth is of another moment",
				wait, r.Fused.Found, r.Targets, r.Fused.Unreachable, r.MissedByFused)
		}
		t.Logf("--wait %s: %d targets, %d covered", wait, r.Targets, r.Covered)
	}
}
