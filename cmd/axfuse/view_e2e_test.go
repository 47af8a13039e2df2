package main

// End-to-end tests of what the snapshot shows: covered, off-screen,
// clipped and modal-scoped content, against pages whose own script measures
// what a person can reach (elementFromPoint over each element) and writes it
// into the title.

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"testing"
)

func groundTruth(t *testing.T, obs *decodedObs) []string {
	t.Helper()
	var want []string
	if err := json.Unmarshal([]byte(obs.Title), &want); err != nil {
		t.Fatalf("page title %q: %v", obs.Title, err)
	}
	sort.Strings(want)
	return want
}

type decodedObs = struct {
	URL      string
	Title    string
	Viewport struct{ Width, Height, ScrollX, ScrollY float64 }
	Snapshot string
	Elements []struct {
		Ref, Role, Name, Tag, Frame string
		Box                         *[4]float64
		Reasons                     []string
	}
	Stats struct {
		Tokens, Refs, Occluded, Offscreen, Clipped int
	}
}

func snapshotJSON(t *testing.T, args ...string) *decodedObs {
	t.Helper()
	out := mustCLI(t, append([]string{"snapshot", "--format", "json"}, args...)...)
	var obs decodedObs
	if err := json.Unmarshal([]byte(out), &obs); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return &obs
}

func refNames(obs *decodedObs, role string) []string {
	var out []string
	for _, el := range obs.Elements {
		if el.Role == role {
			out = append(out, el.Name)
		}
	}
	sort.Strings(out)
	return out
}

func inViewport(obs *decodedObs, box *[4]float64) bool {
	return box != nil && box[0]+box[2] > 0 && box[1]+box[3] > 0 && box[0] < obs.Viewport.Width && box[1] < obs.Viewport.Height
}

// TestBannerPage: nothing under the cookie banner and nothing below the fold
// has a ref; everything in view and uncovered does.
func TestBannerPage(t *testing.T) {
	needChromium(t)
	obs := snapshotJSON(t, servePage(t, "banner.html"))
	want := groundTruth(t, obs)
	got := refNames(obs, "button")
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("buttons with refs %v, the browser can click %v\n%s", got, want, obs.Snapshot)
	}
	for _, el := range obs.Elements {
		if !inViewport(obs, el.Box) {
			t.Errorf("%s %q has a ref but lies outside the viewport: %v", el.Ref, el.Name, el.Box)
		}
	}
	if !strings.Contains(obs.Snapshot, `covered by dialog "Cookie banner"`) || obs.Stats.Occluded == 0 {
		t.Errorf("no note naming the banner, or no occluded count (%d):\n%s", obs.Stats.Occluded, obs.Snapshot)
	}
}

func TestFixedHeaderOverScrolledContent(t *testing.T) {
	for _, page := range []string{"fixedheader.html", "sticky.html"} {
		t.Run(page, func(t *testing.T) { checkHeaderPage(t, page) })
	}
}

func checkHeaderPage(t *testing.T, page string) {
	needChromium(t)
	obs := snapshotJSON(t, servePage(t, page))
	if obs.Viewport.ScrollY < 900 {
		t.Fatalf("scrollY %v: the page did not scroll", obs.Viewport.ScrollY)
	}
	want := groundTruth(t, obs)
	var got []string
	for _, n := range refNames(obs, "link") {
		if strings.HasPrefix(n, "Item ") {
			got = append(got, n)
		}
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("item links with refs %v, reachable %v\n%s", got, want, obs.Snapshot)
	}
	for _, s := range []string{`link "Home" [ref=`, `[collapsed: above, `, `[collapsed: below, `} {
		if !strings.Contains(obs.Snapshot, s) {
			t.Errorf("snapshot lacks %q:\n%s", s, obs.Snapshot)
		}
	}
}

func TestModalDialogScopesTheSnapshot(t *testing.T) {
	needChromium(t)
	for page, dialog := range map[string]string{"modal.html": `dialog "Delete your account?"`, "ariamodal.html": `dialog "Subscribe"`} {
		obs := snapshotJSON(t, servePage(t, page))
		lines := strings.Split(strings.TrimSpace(obs.Snapshot), "\n")
		// The text a person reads behind a showModal() dialog follows the
		// note, with no refs (the page behind is inert).
		at := 1
		for at < len(lines)-1 && strings.HasPrefix(lines[at], "- text: ") {
			at++
		}
		if !strings.HasPrefix(lines[0], "- note: modal dialog open, the page ") || !strings.HasPrefix(lines[at], "- "+dialog) {
			t.Errorf("%s: snapshot does not open with the modal note and the dialog:\n%s", page, obs.Snapshot)
		}
		if page == "modal.html" && !strings.Contains(obs.Snapshot, "- text: Other settings here.") {
			t.Errorf("%s: the text behind the see-through backdrop is not printed:\n%s", page, obs.Snapshot)
		}
		for _, el := range obs.Elements {
			if el.Name == "Delete account" || el.Name == "Share" || el.Name == "Home" || el.Name == "Read more" {
				t.Errorf("%s: %q behind the modal has ref %s", page, el.Name, el.Ref)
			}
		}
		if len(obs.Elements) < 3 {
			t.Errorf("%s: dialog controls missing: %+v", page, obs.Elements)
		}
	}
}

func TestCarouselSlidesClipped(t *testing.T) {
	needChromium(t)
	obs := snapshotJSON(t, servePage(t, "carousel.html"))
	links := refNames(obs, "link")
	if strings.Join(links, "|") != "Book fjords" {
		t.Errorf("links with refs %v, want only the visible slide's", links)
	}
	if !strings.Contains(obs.Snapshot, "clipped out of view") || obs.Stats.Clipped == 0 {
		t.Errorf("no clipped note:\n%s", obs.Snapshot)
	}
}

func TestScrolledPageCollapsesAbove(t *testing.T) {
	needChromium(t)
	url := servePage(t, "scrolled.html")
	obs := snapshotJSON(t, url)
	if obs.Viewport.ScrollY == 0 {
		t.Fatal("not scrolled")
	}
	if !strings.Contains(obs.Snapshot, `'navigation "Top" [collapsed: above, 2 links]'`) ||
		!regexp.MustCompile(`'heading "Day 0" \[level=2\] \[collapsed: above, 1 link, 1 paragraph\]'`).MatchString(obs.Snapshot) {
		t.Errorf("above-the-fold content not collapsed with names kept:\n%s", obs.Snapshot)
	}
	for _, el := range obs.Elements {
		if !inViewport(obs, el.Box) {
			t.Errorf("%s %q outside the viewport: %v", el.Ref, el.Name, el.Box)
		}
	}
	// The collapsed footer link stays findable, with where it is.
	found := mustCLI(t, "find", "--role", "link", "--name", "contact", url)
	if !strings.Contains(found, `match: link "Contact"`) || !strings.Contains(found, "where: off-screen below") || !strings.Contains(found, "path: contentinfo") {
		t.Errorf("find did not report the footer link:\n%s", found)
	}
	keep := snapshotJSON(t, "--offscreen", "keep", url)
	if strings.Contains(keep.Snapshot, "collapsed") || len(keep.Elements) <= len(obs.Elements) {
		t.Errorf("--offscreen keep still collapses (%d refs vs %d)", len(keep.Elements), len(obs.Elements))
	}
	drop := snapshotJSON(t, "--offscreen", "drop", url)
	if strings.Contains(drop.Snapshot, "collapsed") || strings.Contains(drop.Snapshot, `"Top"`) {
		t.Errorf("--offscreen drop left off-screen lines:\n%s", drop.Snapshot)
	}
}

func TestIframeOffsetBoxes(t *testing.T) {
	needChromium(t)
	obs := snapshotJSON(t, servePage(t, "iframe.html"))
	var want [4]float64
	if err := json.Unmarshal([]byte(obs.Title), &want); err != nil {
		t.Fatalf("title %q", obs.Title)
	}
	for _, el := range obs.Elements {
		if el.Name != "Pay inside" {
			continue
		}
		for i := range want {
			if math.Abs(el.Box[i]-want[i]) > 1 {
				t.Fatalf("box %v, the browser measured %v", *el.Box, want)
			}
		}
		return
	}
	t.Fatalf("no element for the button inside the iframe:\n%s", obs.Snapshot)
}

// TestLargeTable: a 5,000-row table prints the rows in view and one line
// for the rest, at under 5% of the AX-only view's tokens.
func TestLargeTable(t *testing.T) {
	needChromium(t)
	page := `<!doctype html><title>Orders</title><table aria-label="Orders"><thead><tr><th>#</th><th>Item</th><th>Action</th></tr></thead><tbody id=b></tbody></table>
<script>const b = document.getElementById('b'); let h = '';
for (let i = 0; i < 5000; i++) h += '<tr><td>' + i + '</td><td>Order ' + i + '</td><td><button>Refund ' + i + '</button> <button>Ship ' + i + '</button></td></tr>';
b.innerHTML = h;</script>`
	url := serve(t, map[string]string{"/": page}).URL + "/"
	fused := snapshotJSON(t, url)
	if !strings.Contains(fused.Snapshot, `- table "Orders":`) || !regexp.MustCompile(`row \[collapsed: below, 49\d\d rows, `).MatchString(fused.Snapshot) {
		t.Errorf("table not named or rows not counted:\n%s", fused.Snapshot)
	}
	ax := snapshotJSON(t, "--mode", "ax", "--offscreen", "keep", url)
	ratio := float64(fused.Stats.Tokens) / float64(ax.Stats.Tokens)
	t.Logf("5,000 rows: fused %d tokens, AX-only %d tokens (%.2f%%)", fused.Stats.Tokens, ax.Stats.Tokens, 100*ratio)
	if ratio > 0.05 {
		t.Errorf("fused view is %.1f%% of the AX-only view's tokens, want at most 5%%", 100*ratio)
	}
	_ = fmt.Sprint()
}
