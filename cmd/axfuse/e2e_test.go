package main

// End-to-end tests: the real CLI code path against real headless Chromium
// and pages served from loopback. Under CI=true a missing Chromium fails.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/internal/testkit/ci"
	"github.com/axfuse/axfuse/screenshot"
	"go.yaml.in/yaml/v3"
)

func needChromium(t *testing.T) string {
	t.Helper()
	p, err := chrome.FindBrowser("")
	ci.Need(t, "Chromium (install Debian's chromium)", err)
	return p
}

func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var out, errOut bytes.Buffer
	err := run(ctx, args, &out, &errOut)
	return out.String(), err
}

func mustCLI(t *testing.T, args ...string) string {
	t.Helper()
	out, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("axfuse %s: %v", strings.Join(args, " "), err)
	}
	return out
}

func serve(t *testing.T, pages map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func servePage(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "pages", file))
	if err != nil {
		t.Fatal(err)
	}
	return serve(t, map[string]string{"/": string(b)}).URL + "/"
}

func decode(t *testing.T, out string) *fuse.Observation {
	t.Helper()
	var obs fuse.Observation
	if err := json.Unmarshal([]byte(out), &obs); err != nil {
		t.Fatalf("JSON output does not decode: %v\n%s", err, out)
	}
	return &obs
}

func TestDemoPage(t *testing.T) {
	needChromium(t)
	out := mustCLI(t, "snapshot")
	if n := strings.Count(out, `clickable "Add to cart" [ref=`); n != 3 {
		t.Errorf("%d role-less Add to cart targets, want 3:\n%s", n, out)
	}
	for _, want := range []string{`navigation "Main"`, `- /url: /tents`, `button "Accept all" [ref=`,
		`note: 2 elements covered by region "Cookie consent" (7 more of it off-screen)`, `- 'contentinfo [collapsed: below, 20 links]'`} {
		if !strings.Contains(out, want) {
			t.Errorf("demo snapshot lacks %q:\n%s", want, out)
		}
	}
	// The form sits under the cookie banner and below the fold: no refs.
	for _, hidden := range []string{"SECRET-42", "restock", `"Subscribe"`, `"Email"`} {
		if strings.Contains(out, hidden) {
			t.Errorf("hidden or covered %q printed", hidden)
		}
	}
}

// The page measures its own listener div and writes the box into its title.
const listenerPage = `<!doctype html><html><head><title>t</title></head><body style="margin:30px">
<p>Intro</p><div id=a style="width:150px;padding:5px">Add to cart</div>
<script>
const a = document.getElementById('a');
a.addEventListener('click', () => {});
const r = a.getBoundingClientRect();
document.title = JSON.stringify([r.x, r.y, r.width, r.height]);
</script></body></html>`

// TestDemoPageStatesWhenScoped: --scope reaches the covered form, and its
// states print.
func TestDemoPageStatesWhenScoped(t *testing.T) {
	needChromium(t)
	out := mustCLI(t, "snapshot", "--scope", "form")
	for _, want := range []string{`textbox "Email" [required]`, `checkbox "Weekly trail tips" [checked]`, `button "Unsubscribe" [disabled]`, `/value: Pacific Northwest`} {
		if !strings.Contains(out, want) {
			t.Errorf("scoped form lacks %q:\n%s", want, out)
		}
	}
}

func TestListenerDivInJSONNotInAXMode(t *testing.T) {
	needChromium(t)
	url := serve(t, map[string]string{"/": listenerPage}).URL + "/"
	obs := decode(t, mustCLI(t, "snapshot", "--format", "json", url))
	var want [4]float64
	if err := json.Unmarshal([]byte(obs.Title), &want); err != nil {
		t.Fatalf("title %q: %v", obs.Title, err)
	}
	var found *fuse.Element
	for i, el := range obs.Elements {
		if el.Tag == "div" && el.Name == "Add to cart" {
			found = &obs.Elements[i]
		}
	}
	if found == nil {
		t.Fatalf("listener div not among elements: %+v\n%s", obs.Elements, obs.Snapshot)
	}
	if !contains(found.Reasons, "listener:click") {
		t.Errorf("reasons %v lack listener:click", found.Reasons)
	}
	for i := range want {
		if found.Box == nil || math.Abs(found.Box[i]-want[i]) > 1 {
			t.Fatalf("box %v, the browser measured %v", found.Box, want)
		}
	}
	if !strings.Contains(obs.Snapshot, `- clickable "Add to cart" [ref=`+found.Ref+`]`) {
		t.Errorf("YAML lacks the clickable line:\n%s", obs.Snapshot)
	}
	ax := decode(t, mustCLI(t, "snapshot", "--format", "json", "--mode", "ax", url))
	for _, el := range ax.Elements {
		if el.Tag == "div" {
			t.Errorf("AX-only view lists the listener div: %+v", el)
		}
	}
	if ax.Mode != "ax" || obs.Mode != "fused" {
		t.Errorf("modes %q, %q", obs.Mode, ax.Mode)
	}
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

// TestHiddenTextNeverPrinted: what no one can see is never printed, a panel
// at opacity 0 that takes no clicks included; an invisible file input over
// its label still takes clicks, so it stays, and a visible button under
// aria-hidden is printed as such.
func TestHiddenTextNeverPrinted(t *testing.T) {
	needChromium(t)
	out := mustCLI(t, "snapshot", servePage(t, "hidden.html"))
	for _, s := range []string{"NONE-TEXT", "HIDDEN-TEXT", "ATTR-TEXT", "ARIA-TEXT", "TEMPLATE-TEXT", "NOSCRIPT", "None button", "Hidden button", "Attr link", "Listener hidden",
		"OPACITY-TEXT", "TINY-TEXT", "ZERO-TEXT", "CLIPPED-TEXT", "COLLAPSED-TEXT", "SAME-COLOUR-TEXT", "DARK-SAME-TEXT",
		"GHOST-HEADING", "Ghost button", "Ghost link"} {
		if strings.Contains(out, s) {
			t.Errorf("hidden %q printed:\n%s", s, out)
		}
	}
	for _, s := range []string{"Visible heading", "Revealed child", "Screen reader note", "Light on dark", "Sized", "Alone SR text", "- note: 7 texts withheld as unseen (",
		"- note: 3 elements withheld (at opacity 0 or near it", `button "Upload a file" [ref=`, `button "Aria button" [aria-hidden] [ref=`} {
		if !strings.Contains(out, s) {
			t.Errorf("%q missing:\n%s", s, out)
		}
	}
	if strings.Count(out, "texts withheld") != 1 || strings.Count(out, "elements withheld") != 1 {
		t.Errorf("a withheld note is not said once:\n%s", out)
	}
}

var refRe = regexp.MustCompile(`\[ref=(e\d+)\]$`)

func TestHostileNamesParse(t *testing.T) {
	needChromium(t)
	obs := decode(t, mustCLI(t, "snapshot", "--format", "json", servePage(t, "hostile.html")))
	var doc []any
	if err := yaml.Unmarshal([]byte(obs.Snapshot), &doc); err != nil {
		t.Fatalf("YAML does not parse: %v\n%s", err, obs.Snapshot)
	}
	refs := map[string]string{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case string:
			if m := refRe.FindStringSubmatch(x); m != nil {
				refs[m[1]] = x
			}
		case map[string]any:
			for k, e := range x {
				walk(k)
				if l, ok := e.([]any); ok {
					walk(l)
				}
			}
		}
	}
	walk(doc)
	if len(refs) != len(obs.Elements) || len(refs) < 30 {
		t.Fatalf("%d refs in the YAML, %d elements", len(refs), len(obs.Elements))
	}
	for _, el := range obs.Elements {
		key := refs[el.Ref]
		_, rest, _ := strings.Cut(key, " ")
		var name string
		if el.Name != "" {
			if err := json.NewDecoder(strings.NewReader(rest)).Decode(&name); err != nil {
				t.Fatalf("%s: %q: %v", el.Ref, key, err)
			}
		}
		if name != el.Name {
			t.Errorf("%s: name reads back as %q, want %q", el.Ref, name, el.Name)
		}
	}
}

func TestCaptureReplaysToTheSameSnapshot(t *testing.T) {
	needChromium(t)
	url := servePage(t, "forms.html")
	file := filepath.Join(t.TempDir(), "forms.capture.json")
	mustCLI(t, "capture", url, "-o", file)
	replay := mustCLI(t, "snapshot", "--from", file)
	live := mustCLI(t, "snapshot", url)
	if replay != live {
		t.Errorf("replayed snapshot differs from the live one:\n%s\n---\n%s", replay, live)
	}
}

// TestAttachWithoutNavigating starts a browser showing a page whose content
// changes on every load, attaches twice, and sees the same content.
func TestAttachWithoutNavigating(t *testing.T) {
	browser := needChromium(t)
	url := serve(t, map[string]string{"/": `<!doctype html><title>attach</title><h1 id=h></h1>
<script>document.getElementById('h').textContent = 'load ' + Math.random().toString(36).slice(2)</script>`}).URL + "/"
	endpoint := debugBrowser(t, browser, url)
	var first string
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		first = mustCLI(t, "snapshot", "--cdp", endpoint)
		if strings.Contains(first, `heading "load `) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !strings.Contains(first, `heading "load `) {
		t.Fatalf("attached snapshot does not show the page:\n%s", first)
	}
	second := mustCLI(t, "snapshot", "--cdp", endpoint)
	if first != second {
		t.Errorf("the page changed between attached snapshots (was it navigated?):\n%s\n---\n%s", first, second)
	}
}

// TestAttachedSnapshotTakesTheTabInUse: with one tab the snapshot takes it
// (read from /json/list, the browser's websocket never dialled); with two,
// the one another client is attached to, as act would, though a newer tab
// comes first in /json/list.
func TestAttachedSnapshotTakesTheTabInUse(t *testing.T) {
	browser := needChromium(t)
	srv := serve(t, map[string]string{
		"/a": `<!doctype html><title>A</title><h1>Tab A</h1>`,
		"/b": `<!doctype html><title>B</title><h1>Tab B</h1>`,
	})
	endpoint := debugBrowser(t, browser, srv.URL+"/b")
	waitForPage(t, endpoint, "B")
	if out := mustCLI(t, "snapshot", "--cdp", endpoint); !strings.Contains(out, `heading "Tab B"`) {
		t.Fatalf("one tab: the snapshot does not show it:\n%s", out)
	}
	_, done := attachedTab(t, t.Context(), endpoint) // another client, in use: it must win
	defer done()
	req, err := http.NewRequest(http.MethodPut, endpoint+"/json/new?"+srv.URL+"/a", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	waitForPage(t, endpoint, "A")
	for range 3 {
		if out := mustCLI(t, "snapshot", "--cdp", endpoint); !strings.Contains(out, `heading "Tab B"`) {
			t.Fatalf("two tabs: the snapshot does not show the one in use:\n%s", out)
		}
	}
}

// debugBrowser starts a browser showing url with a remote-debugging port,
// as a user or a browser farm would, and returns its endpoint.
func debugBrowser(t *testing.T, browser, url string) string {
	t.Helper()
	return startDebugBrowser(t, browser, url, func(func(), int) {})
}

// startDebugBrowser starts Chromium with a debugging port on url, hands
// kill (of its whole process group) and the group's id to keep, and
// returns the endpoint.
func startDebugBrowser(t *testing.T, browser, url string, keep func(kill func(), pgid int)) string {
	t.Helper()
	// Not t.TempDir: the browser's helper processes may still write there
	// while the test ends.
	dir, err := os.MkdirTemp("", "axfuse-attach-")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--headless", "--remote-debugging-port=0", "--user-data-dir=" + dir, "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-gpu",
		"--window-size=1280,720", url}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	cmd := exec.Command(browser, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill := func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) } // the whole process group
	keep(kill, cmd.Process.Pid)
	t.Cleanup(func() {
		kill()
		cmd.Wait()
		os.RemoveAll(dir)
	})
	return "http://127.0.0.1:" + waitPort(t, filepath.Join(dir, "DevToolsActivePort"))
}

func waitPort(t *testing.T, file string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(file); err == nil {
			if port, _, ok := strings.Cut(string(b), "\n"); ok && port != "" {
				return port
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("browser wrote no %s", file)
	return ""
}

func TestClearErrors(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.NotFoundHandler())
	dead := srv.URL
	srv.Close()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"snapshot", dead + "/"}, "ERR_CONNECTION_REFUSED"},
		{[]string{"snapshot", "--browser", "/nonexistent/chromium", "http://127.0.0.1:1/"}, "/nonexistent/chromium"},
		{[]string{"snapshot", "--cdp", dead}, "no DevTools endpoint answers"},
		{[]string{"snapshot", "--format", "xml"}, "--format"},
		{[]string{"snapshot", "--viewport", "big"}, "--viewport"},
		{[]string{"snapshot", "--from", "/nonexistent.json"}, "nonexistent"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"bench", "--runs", "1", dead + "/"}, "1 of 1 pages could not be measured"},
		{[]string{"locate", "5000", "5000"}, "(5000,5000) lies outside the 1280×720 viewport"},
	}
	for _, c := range cases {
		_, err := runCLI(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("axfuse %v: error %v, want one mentioning %q", c.args, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("axfuse %v: error spans lines: %q", c.args, err)
		}
	}
}

func TestScreenshotFlagAnnotates(t *testing.T) {
	needChromium(t)
	url := serve(t, map[string]string{"/": listenerPage}).URL + "/"
	path := filepath.Join(t.TempDir(), "shot.png")
	obs := decode(t, mustCLI(t, "snapshot", "--format", "json", "--screenshot", path, url))
	if obs.Screenshot == nil || obs.Screenshot.Path != path {
		t.Fatalf("screenshot field %+v", obs.Screenshot)
	}
	img := readPNG(t, path)
	if img.Bounds().Dx() != 1280 || img.Bounds().Dy() != 720 {
		t.Errorf("screenshot is %v, want the 1280x720 viewport", img.Bounds())
	}
	for _, el := range obs.Elements {
		if el.Tag != "div" {
			continue
		}
		checkOutline(t, img, *el.Box, 1, screenshot.KindListener, "the listener div")
		return
	}
	t.Fatal("no listener div element")
}

// readPNG decodes a PNG file or fails the test.
func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s is not a PNG: %v", path, err)
	}
	return img
}

// checkOutline expects the outline colour of kind on the left edge of box
// (CSS px), half-way down, in an image at scale device pixels per px.
func checkOutline(t *testing.T, img image.Image, box [4]float64, scale float64, kind, what string) {
	t.Helper()
	// The outline is one CSS px wide on the box's edge, which may fall
	// between device pixels: the column on either side of it may hold it.
	want := screenshot.Colour(kind)
	x0, y := int(box[0]*scale), int((box[1]+box[3]/2)*scale)
	var got [][3]uint32
	for x := x0 - 1; x <= x0+1; x++ {
		r, g, b, _ := img.At(x, y).RGBA()
		if uint8(r>>8) == want.R && uint8(g>>8) == want.G && uint8(b>>8) == want.B {
			return
		}
		got = append(got, [3]uint32{r >> 8, g >> 8, b >> 8})
	}
	t.Errorf("no %s outline at %s's left edge (scale %g): got %v", kind, what, scale, got)
}

// A page whose load event waits on a host that never answers is observed
// once its document is parsed, instead of failing the snapshot.
func TestPageThatNeverFinishesLoading(t *testing.T) {
	needChromium(t)
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang.png" {
			select {
			case <-r.Context().Done():
			case <-done:
			}
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<button>Still here</button><img src="/hang.png" alt="slow">`)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) })
	out := mustCLI(t, "snapshot", "--timeout", "3s", srv.URL+"/")
	if !strings.Contains(out, `button "Still here"`) {
		t.Errorf("snapshot of a page still loading lacks its button:\n%s", out)
	}
}

// attachedTab attaches to the current tab of the browser at endpoint, as
// a client that stays (chromedp's session); done detaches and lets the
// browser go.
func attachedTab(t *testing.T, ctx context.Context, endpoint string) (tab *chrome.Tab, done func()) {
	t.Helper()
	b, err := chrome.Open(ctx, chrome.Options{Endpoint: endpoint, CallTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	tab, err = b.CurrentTab()
	if err != nil {
		b.Close()
		t.Fatal(err)
	}
	return tab, func() { tab.Close(); b.Close() }
}
