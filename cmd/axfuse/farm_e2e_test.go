package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axfuse/axfuse/internal/testkit/ci"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The farm tests run against a real Browserless farm on loopback, started
// by the project's own script (scripts/browserless, which installs what it
// needs) once for the package's tests and stopped after them (TestMain).
// They are the long suite's (make test-long): their names end in
// ThroughAFarm, and TestLongTestsAreNamedSo keeps that true.

// farmSessions is what the farm is started with: the sessions it runs at
// once, and none queued, so a fifth is refused at once.
const farmSessions = 4

var farm struct {
	once    sync.Once
	url     string
	err     error
	started bool
}

// startFarm starts the package's farm on first use and gives its address
// (token included). Chromium missing, or a farm that cannot start, fails
// the test under CI and skips it elsewhere (ci.Need; the farm needs the
// npm registry on first use).
func startFarm(t *testing.T) string {
	t.Helper()
	needChromium(t)
	farm.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
		defer cancel()
		// A farm left by a run that was killed would refuse the start: the
		// tests own the farm's folder, so whatever runs there goes first.
		exec.CommandContext(ctx, "../../scripts/browserless", "stop").Run()
		cmd := exec.CommandContext(ctx, "../../scripts/browserless", "start", "--concurrent", fmt.Sprint(farmSessions), "--queued", "0")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		farm.started = true
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		switch last := lines[len(lines)-1]; {
		case err != nil:
			farm.err = fmt.Errorf("scripts/browserless start: %v\n%s", err, stderr.String())
		case !strings.HasPrefix(last, "ws://"):
			farm.err = fmt.Errorf("scripts/browserless start printed no websocket address last: %q", last)
		default:
			farm.url = last
		}
	})
	ci.Need(t, "Browserless farm (scripts/browserless start)", farm.err)
	return farm.url
}

// stopFarm stops the farm the tests started.
func stopFarm() {
	if farm.started {
		exec.Command("../../scripts/browserless", "stop").Run()
	}
}

// farmBrowsers counts the browser sessions the farm runs now, from its
// /sessions answer; -1 when it does not answer (it answers 500 for a
// moment while a session closes).
func farmBrowsers(farmURL string) int {
	u, err := url.Parse(farmURL)
	if err != nil {
		return -1
	}
	res, err := http.Get("http://" + u.Host + "/sessions?token=" + url.QueryEscape(u.Query().Get("token")))
	if err != nil {
		return -1
	}
	defer res.Body.Close()
	var sessions []struct {
		Type string `json:"type"`
	}
	if res.StatusCode != http.StatusOK || json.NewDecoder(res.Body).Decode(&sessions) != nil {
		return -1
	}
	n := 0
	for _, s := range sessions {
		if s.Type == "browser" {
			n++
		}
	}
	return n
}

// waitFarmBrowsers waits until the farm runs want browser sessions.
func waitFarmBrowsers(t *testing.T, farmURL string, want int) {
	t.Helper()
	n := -1
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if n = farmBrowsers(farmURL); n == want {
			return
		}
	}
	t.Fatalf("the farm runs %d browser sessions, want %d", n, want)
}

// farmCorpus lists the first n pages of the shared corpus, served on
// loopback, in a file.
func farmCorpus(t *testing.T, n int) (list string, urls []string) {
	t.Helper()
	pages := servedCorpus(t)
	if len(pages) < n {
		t.Fatalf("the corpus has %d pages, want %d", len(pages), n)
	}
	for _, p := range pages[:n] {
		urls = append(urls, p.url)
	}
	list = filepath.Join(t.TempDir(), "pages.txt")
	if err := os.WriteFile(list, []byte(strings.Join(urls, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return list, urls
}

// TestBatchAndCompareThroughAFarm: batch --parallel 4 and compare --batch
// over 20 corpus pages through the farm: every page has its line, the
// summary is the lines', and the farm ran a browser session per worker.
func TestBatchAndCompareThroughAFarm(t *testing.T) {
	f := startFarm(t)
	list, urls := farmCorpus(t, 20)
	waitFarmBrowsers(t, f, 0)
	var out, stderr strings.Builder
	peak := watchFarmPeak(f)
	err := run(context.Background(), []string{"batch", "--cdp", f, "--parallel", "4", "--timeout", "60s", list}, &out, &stderr)
	if got := peak(); got != 4 {
		t.Errorf("the farm ran at most %d browser sessions for 4 workers", got)
	}
	lines := map[int]batchLine{}
	failed := 0
	for _, raw := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var l batchLine
		if json.Unmarshal([]byte(raw), &l) != nil {
			t.Fatalf("a line that is not JSON: %.200s", raw)
		}
		lines[l.Index] = l
		if l.Error != "" {
			failed++
			t.Logf("%s: %s", l.URL, l.Error)
		}
	}
	if len(lines) != len(urls) {
		t.Fatalf("%d lines for %d pages (%v); stderr:\n%s", len(lines), len(urls), err, stderr.String())
	}
	if want := fmt.Sprintf("%d pages, %d failed", len(urls), failed); !strings.Contains(stderr.String(), want) {
		t.Errorf("the summary does not say %q:\n%s", want, lastLine(stderr.String()))
	}
	if failed > 2 {
		t.Errorf("%d of %d pages failed through the farm", failed, len(urls))
	}

	out.Reset()
	stderr.Reset()
	run(context.Background(), []string{"compare", "--cdp", f, "--batch", list, "--parallel", "4", "--timeout", "60s"}, &out, &stderr)
	pages, sum := compareLines(t, out.String())
	if len(pages) != len(urls) || sum.Pages != len(urls) {
		t.Fatalf("compare: %d lines, a summary of %d pages, for %d pages", len(pages), sum.Pages, len(urls))
	}
	targets, fused, failures := 0, 0, 0
	for _, p := range pages {
		if p.Error != "" {
			failures++
			continue
		}
		targets, fused = targets+p.Truth.Targets, fused+p.Truth.Fused.Found
	}
	if sum.Failures != failures || sum.Targets != targets || sum.FusedFound != fused {
		t.Errorf("the summary (%d failed, %d targets, fused found %d) is not the lines' (%d, %d, %d)", sum.Failures, sum.Targets, sum.FusedFound, failures, targets, fused)
	}
	waitFarmBrowsers(t, f, 0) // every session released
}

// watchFarmPeak polls the farm's browser sessions until the returned
// function is called, which gives the most seen at once.
func watchFarmPeak(farmURL string) func() int {
	stop := make(chan struct{})
	done := make(chan int)
	go func() {
		peak := 0
		for {
			select {
			case <-stop:
				done <- peak
				return
			case <-time.After(100 * time.Millisecond):
				peak = max(peak, farmBrowsers(farmURL))
			}
		}
	}()
	return func() int { close(stop); return <-done }
}

// farmSite sets and shows a cookie, and lists links to act on.
func farmSite(t *testing.T) string {
	t.Helper()
	site := serve(t, nil)
	site.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/set":
			who := r.URL.Query().Get("v")
			http.SetCookie(w, &http.Cookie{Name: "who", Value: who, Path: "/"})
			fmt.Fprintf(w, `<!doctype html><title>set %[1]s</title><h1>set %[1]s</h1><a href="/show">show %[1]s</a> <button onclick="document.title='clicked %[1]s'">press %[1]s</button>`, who)
		case "/show":
			fmt.Fprint(w, `<!doctype html><title>show</title><h1 id=h></h1><script>document.getElementById('h').textContent = 'cookie ' + (document.cookie || 'none')</script>`)
		default:
			http.NotFound(w, r)
		}
	})
	return site.URL
}

// tryCall runs a tool from any goroutine: its text, or why it failed.
func tryCall(cs *mcp.ClientSession, name string, args map[string]any) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "", err
	}
	text := toolText(res)
	if res.IsError {
		return text, fmt.Errorf("%s failed: %s", name, text)
	}
	return text, nil
}

// TestMCPSessionsThroughAFarm: four MCP sessions over HTTP at once through
// the farm, each in a farm browser of its own (the farm counts four),
// their calls overlapping: navigate, snapshot, click, a file written.
// None sees another's cookie, tabs, refs or files; a fifth connection to
// the full farm is refused in one line without its token; closing the
// sessions releases their browsers.
func TestMCPSessionsThroughAFarm(t *testing.T) {
	f := startFarm(t)
	site := farmSite(t)
	waitFarmBrowsers(t, f, 0)
	outDir := t.TempDir()
	endpoint := mcpHTTP(t, "--cdp", f, "--max-sessions", "8", "--output-dir", outDir)
	clients := make([]*mcp.ClientSession, farmSessions)
	for i := range clients {
		c, err := httpClient(t, endpoint)
		if err != nil {
			t.Fatal(err)
		}
		clients[i] = c
	}
	texts := make([]string, len(clients))
	var wg sync.WaitGroup
	for i, c := range clients {
		who := fmt.Sprint("S", i)
		wg.Go(func() {
			var err error
			steps := []func() error{
				func() error {
					texts[i], err = tryCall(c, "browser_navigate", map[string]any{"url": site + "/set?v=" + who})
					return err
				},
				func() error {
					ref := refIn(texts[i], `button "press `+who+`"`)
					if ref == "" {
						return fmt.Errorf("no ref for its button in:\n%s", texts[i])
					}
					_, err := tryCall(c, "browser_click", map[string]any{"ref": ref})
					return err
				},
				func() error {
					_, err := tryCall(c, "browser_snapshot", map[string]any{"filename": "page.yaml"})
					return err
				},
			}
			for _, step := range steps {
				if err := step(); err != nil {
					t.Errorf("session %s: %v", who, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := farmBrowsers(f); n != farmSessions {
		t.Errorf("the farm runs %d browser sessions for %d MCP sessions", n, farmSessions)
	}
	for i, c := range clients {
		who := fmt.Sprint("S", i)
		if text, err := tryCall(c, "browser_navigate", map[string]any{"url": site + "/show"}); err != nil || !strings.Contains(text, "cookie who="+who) || strings.Count(text, "who=") != 1 {
			t.Errorf("session %s sees cookies not its own (or lost its own): %v\n%s", who, err, text)
		}
		if text, _ := tryCall(c, "browser_tabs", map[string]any{"action": "list"}); strings.Count(strings.TrimSpace(text), "\n") != 0 {
			t.Errorf("session %s lists tabs that are not its own:\n%s", who, text)
		}
		other := texts[(i+1)%len(texts)]
		ref := refIn(other, fmt.Sprintf(`button "press S%d"`, (i+1)%len(texts)))
		if text, err := tryCall(c, "browser_click", map[string]any{"ref": ref}); ref == "" || err == nil {
			t.Errorf("session %s acted on another session's ref %s: %s", who, ref, text)
		}
	}
	written, _ := filepath.Glob(filepath.Join(outDir, "session-*", "page.yaml"))
	if len(written) != farmSessions {
		t.Errorf("%d sessions' files written apart, want %d: %v", len(written), farmSessions, written)
	}
	// The farm is full: another connection is refused at once, in one line.
	_, err := runCLI(t, "snapshot", "--cdp", f, site+"/show")
	if err == nil || !strings.Contains(err.Error(), "queue are full") || strings.Contains(err.Error(), tokenOf(f)) {
		t.Errorf("a snapshot through the full farm: %v", err)
	}
	for _, c := range clients {
		c.Close()
	}
	waitFarmBrowsers(t, f, 0)
}

func tokenOf(farmURL string) string {
	u, _ := url.Parse(farmURL)
	return u.Query().Get("token")
}

// TestAWrongTokenThroughAFarm: the farm refuses a wrong token; axfuse says
// so in one line, exits 1, and prints neither token anywhere.
func TestAWrongTokenThroughAFarm(t *testing.T) {
	f := startFarm(t)
	u, _ := url.Parse(f)
	q := u.Query()
	wrong := "wrong-" + q.Get("token")
	q.Set("token", wrong)
	u.RawQuery = q.Encode()
	bin := filepath.Join(t.TempDir(), "axfuse")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, args := range [][]string{
		{"snapshot", "--cdp", u.String(), "https://example.com"},
		{"batch", "--cdp", u.String(), "/dev/stdin"},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Stdin = strings.NewReader("http://127.0.0.1:1/\n")
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		all := stdout.String() + stderr.String()
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != 1 || !strings.Contains(all, "check the token") {
			t.Errorf("%s with a wrong token: exit %d:\n%s", args[0], code, all)
		}
		if strings.Contains(all, wrong) || strings.Contains(all, tokenOf(f)) {
			t.Errorf("%s printed a token:\n%s", args[0], all)
		}
		if args[0] == "snapshot" && strings.Count(strings.TrimSpace(stderr.String()), "\n") != 0 {
			t.Errorf("snapshot: more than one line:\n%s", stderr.String())
		}
	}
}
