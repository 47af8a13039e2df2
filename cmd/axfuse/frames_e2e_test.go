package main

// End-to-end tests of iframes (same-origin, cross-site in their own
// process, nested across sites, lazy) and closed shadow roots. The test
// server answers as 127.0.0.1 and as localhost: two sites, so Chromium's
// site isolation puts the inner frame in another renderer.

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// serveFrames serves testdata/pages/frames, writing the other site's
// address (localhost) for http://CROSS/ and this one's for http://TOP/.
func serveFrames(t *testing.T) string {
	t.Helper()
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/frames/hang" { // a frame that never loads
			select {
			case <-r.Context().Done():
			case <-done:
			}
			return
		}
		_, port, _ := strings.Cut(r.Host, ":")
		if r.URL.Path == "/frames/many.html" { // 12 cross-site frames
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			for i := range 12 {
				fmt.Fprintf(w, `<iframe title="Frame %d" src="http://localhost:%s/frames/deep.html" width=280 height=50></iframe>`, i, port)
			}
			return
		}
		name := filepath.Base(r.URL.Path)
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "pages", "frames", name))
		if err != nil || !strings.HasPrefix(r.URL.Path, "/frames/") {
			http.NotFound(w, r)
			return
		}
		page := strings.NewReplacer("http://CROSS/", "http://localhost:"+port+"/", "http://TOP/", "http://127.0.0.1:"+port+"/").Replace(string(b))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) })
	return srv.URL + "/frames/top.html"
}

func TestFramesAndShadowRootsInOneTree(t *testing.T) {
	needChromium(t)
	url := serveFrames(t)
	if os.Getenv("AXFUSE_RECORD") == "1" { // make record: the golden tests' capture
		mustCLI(t, "capture", url, "--wait", "500ms", "-o", filepath.Join("..", "..", "testdata", "captures", "frames.capture.json"))
	}
	checkFramesPage(t, snapshotJSON(t, url, "--offscreen", "keep", "--wait", "1500ms"))
	// Past the depth limit a frame is named, not followed.
	shallow := mustCLI(t, "snapshot", url, "--frame-depth", "1")
	if !strings.Contains(shallow, `  - iframe "Deep frame" [too deep to capture]`) || strings.Contains(shallow, "Deep button") || !strings.Contains(shallow, "Cross div") {
		t.Errorf("--frame-depth 1:\n%s", shallow)
	}
}

// TestAttachedSnapshotAcrossFrames observes the frames page in a browser
// axfuse did not launch: its iframe sessions ride on the tab's own socket
// (flattened), not on chromedp's browser connection, and must see the
// same tree.
func TestAttachedSnapshotAcrossFrames(t *testing.T) {
	endpoint, _ := attachedURL(t, serveFrames(t), `button "Deep button"`)
	// The page writes its measurements into its title as each frame
	// loads; the deep frame can show its button before it has measured.
	obs := snapshotJSON(t, "--cdp", endpoint, "--offscreen", "keep")
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && strings.Count(obs.Title, ":[") < 3; {
		time.Sleep(200 * time.Millisecond)
		obs = snapshotJSON(t, "--cdp", endpoint, "--offscreen", "keep")
	}
	checkFramesPage(t, obs)
	shallow := mustCLI(t, "snapshot", "--cdp", endpoint, "--frame-depth", "1")
	if !strings.Contains(shallow, `  - iframe "Deep frame" [too deep to capture]`) || strings.Contains(shallow, "Deep button") || !strings.Contains(shallow, "Cross div") {
		t.Errorf("--frame-depth 1:\n%s", shallow)
	}
}

// checkFramesPage checks a snapshot of the frames page against the boxes
// the page measured itself (in its title): every frame's elements, each
// with one ref and its frame's id, nested and lazy frames named.
func checkFramesPage(t *testing.T, obs *decodedObs) {
	t.Helper()
	var measured map[string][4]float64
	if err := json.Unmarshal([]byte(obs.Title), &measured); err != nil || len(measured) != 3 {
		t.Fatalf("the page did not measure its boxes (title %q): %v", obs.Title, err)
	}
	want := map[string]string{ // name → measured box key ("" when not measured)
		"Same button": "", "Same div": "", "Cross input": "input", "Cross div": "div", "Deep button": "deep", "Shadow div": "",
	}
	frames := map[string]string{}
	refs := map[string]bool{}
	for _, el := range obs.Elements {
		key, ok := want[el.Name]
		if !ok {
			continue
		}
		delete(want, el.Name)
		frames[el.Name] = el.Frame
		if refs[el.Ref] {
			t.Errorf("ref %s given twice", el.Ref)
		}
		refs[el.Ref] = true
		if key == "" {
			continue
		}
		if el.Box == nil {
			t.Errorf("%s has no box", el.Name)
			continue
		}
		for i, v := range measured[key] {
			if math.Abs(el.Box[i]-v) > 1 {
				t.Errorf("%s: box %v, the browser measured %v", el.Name, *el.Box, measured[key])
				break
			}
		}
	}
	if len(want) > 0 {
		t.Fatalf("no ref for %v in:\n%s", want, obs.Snapshot)
	}
	top := frames["Shadow div"]
	if frames["Same div"] == top || frames["Cross div"] == top || frames["Deep button"] == frames["Cross div"] {
		t.Errorf("elements of different frames share a frame id: %v", frames)
	}
	for _, line := range []string{`iframe "Cross-site frame":`, `  - iframe "Deep frame":`, `iframe "Lazy frame" [not loaded]`} {
		if !strings.Contains(obs.Snapshot, line) {
			t.Errorf("snapshot lacks %q:\n%s", line, obs.Snapshot)
		}
	}
}

// TestActInsideFrames clicks and types by ref inside the cross-site iframe,
// two frames deep, and in a closed shadow root, each from a new process.
func TestActInsideFrames(t *testing.T) {
	endpoint, snap := attachedURL(t, serveFrames(t), `button "Deep button"`)
	steps := []struct {
		args  []string
		ref   string // line whose ref the action takes
		after string // what the next snapshot shows
	}{
		{[]string{"click"}, `clickable "Cross div"`, `clickable "Cross clicked"`},
		{[]string{"click"}, `button "Deep button"`, `button "Deep clicked"`},
		{[]string{"click"}, `clickable "Shadow div"`, `clickable "Shadow clicked"`},
		{[]string{"click"}, `clickable "Same div"`, `clickable "Same clicked"`},
		{[]string{"type", "", "hello"}, `textbox "Cross input"`, `]: hello`},
	}
	for _, st := range steps {
		ref := refOf(t, snap, st.ref)
		args := append([]string{"act", "--cdp", endpoint}, st.args[0], ref)
		if len(st.args) > 2 {
			args = append(args, st.args[2:]...)
		}
		out, err := runProcess(t, args...)
		if err != nil || !strings.Contains(out, st.after) {
			t.Fatalf("%s on %s (%s): %v; want %q in:\n%s", st.args[0], ref, st.ref, err, st.after, out)
		}
		snap = out
	}
}

// TestFrameUnderABanner: occlusion crosses the process boundary; the
// cross-site frame's controls under a fixed banner get no ref.
func TestFrameUnderABanner(t *testing.T) {
	needChromium(t)
	url := strings.Replace(serveFrames(t), "top.html", "covered.html", 1)
	obs := snapshotJSON(t, url, "--wait", "500ms")
	if names := refNames(obs, "button"); len(obs.Elements) != 1 || len(names) != 1 || names[0] != "Accept" {
		t.Errorf("refs %v, want only the banner's Accept:\n%s", names, obs.Snapshot)
	}
	if !strings.Contains(obs.Snapshot, `covered by dialog "Cookies"`) {
		t.Errorf("no covered note:\n%s", obs.Snapshot)
	}
}

// TestManyFramesAndASlowOne: a dozen cross-site frames are all captured
// (a few at a time), and a frame that never loads is named, not dropped.
func TestManyFramesAndASlowOne(t *testing.T) {
	needChromium(t)
	base := strings.TrimSuffix(serveFrames(t), "top.html")
	obs := snapshotJSON(t, base+"many.html")
	seen := map[string]bool{}
	for _, el := range obs.Elements {
		if el.Name == "Deep button" {
			seen[el.Frame] = true
		}
	}
	if len(seen) != 12 {
		t.Errorf("%d of 12 frames' buttons got refs:\n%s", len(seen), obs.Snapshot)
	}
	out := mustCLI(t, "snapshot", "--timeout", "3s", base+"slow.html")
	if !strings.Contains(out, `iframe "Slow frame" [not loaded]`) || !strings.Contains(out, `button "Before the frame"`) {
		t.Errorf("a frame still loading:\n%s", out)
	}
}
