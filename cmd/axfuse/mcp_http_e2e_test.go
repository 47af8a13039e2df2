package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpHTTP starts `axfuse mcp --port 0` and returns its endpoint.
func mcpHTTP(t *testing.T, args ...string) string {
	t.Helper()
	needChromium(t)
	cmd := exec.Command(os.Args[0], append([]string{"mcp", "--port", "0"}, args...)...)
	cmd.Env = append(os.Environ(), "AXFUSE_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := regexp.MustCompile(`at (http://\S+)`).FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case a := <-addr:
		return a
	case <-time.After(20 * time.Second):
		t.Fatal("axfuse mcp --port 0 printed no address")
		return ""
	}
}

func httpClient(t *testing.T, endpoint string) (*mcp.ClientSession, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "v0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}, nil)
}

// twoClients connects two client sessions to the server, closed when the
// test ends (a test may close one sooner).
func twoClients(t *testing.T, endpoint string) (a, b *mcp.ClientSession) {
	t.Helper()
	for _, c := range []**mcp.ClientSession{&a, &b} {
		cs, err := httpClient(t, endpoint)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		*c = cs
	}
	return a, b
}

// TestMCPOverHTTPIsolatesSessions: two clients at once over Streamable
// HTTP on one server: neither sees the other's cookies, storage, tabs or
// refs; the session cap holds, and a closed session frees its place.
func TestMCPOverHTTPIsolatesSessions(t *testing.T) {
	var links strings.Builder
	for i := range 20 {
		fmt.Fprintf(&links, `<a href="#%d">link %d</a> `, i, i)
	}
	site := serve(t, nil)
	site.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/set":
			http.SetCookie(w, &http.Cookie{Name: "who", Value: r.URL.Query().Get("v"), Path: "/"})
			fmt.Fprintf(w, `<!doctype html><title>set</title><script>localStorage.setItem('who', %q)</script><h1>set</h1>%s`, r.URL.Query().Get("v"), links.String())
		case "/show":
			fmt.Fprint(w, `<!doctype html><title>show</title><h1 id=h></h1><script>
document.getElementById('h').textContent = 'cookie ' + (document.cookie || 'none') + ' storage ' + (localStorage.getItem('who') || 'none')</script>`)
		default:
			http.NotFound(w, r)
		}
	})
	endpoint := mcpHTTP(t, "--max-sessions", "2")
	a, b := twoClients(t, endpoint)

	if text, _ := call(t, a, "browser_snapshot", map[string]any{"depth": -1}, true); !strings.Contains(text, "depth -1 is out of range") {
		t.Errorf("a bad argument over HTTP: %s", text)
	}
	setA, _ := call(t, a, "browser_navigate", map[string]any{"url": site.URL + "/set?v=A"}, false)
	if text, _ := call(t, a, "browser_navigate", map[string]any{"url": site.URL + "/show"}, false); !strings.Contains(text, "cookie who=A storage A") {
		t.Fatalf("client A does not see its own cookie and storage:\n%s", text)
	}
	if text, _ := call(t, b, "browser_navigate", map[string]any{"url": site.URL + "/show"}, false); !strings.Contains(text, "cookie none storage none") {
		t.Errorf("client B sees A's cookie or storage:\n%s", text)
	}
	call(t, a, "browser_tabs", map[string]any{"action": "new"}, false)
	if text, _ := call(t, b, "browser_tabs", map[string]any{"action": "list"}, false); strings.Count(text, "\n") != 1 {
		t.Errorf("client B lists tabs that are not its own:\n%s", text)
	}
	ref := refOf(t, setA, `link "link 15"`)
	if text, _ := call(t, b, "browser_click", map[string]any{"ref": ref}, true); !strings.Contains(text, "not found") {
		t.Errorf("client B acted on A's ref %s: %s", ref, text)
	}
	if c, err := httpClient(t, endpoint); err == nil {
		c.Close()
		t.Error("a third session passed the cap of 2")
	}
	a.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := httpClient(t, endpoint)
		if err == nil {
			if text, _ := call(t, c, "browser_navigate", map[string]any{"url": site.URL + "/show"}, false); !strings.Contains(text, "cookie none storage none") {
				t.Errorf("a new session inherits a closed one's cookies:\n%s", text)
			}
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("closing a session did not free its place: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestMCPSessionsDoNotWaitForEachOther: one session's call that waits on
// a page (a navigation the server holds) does not hold another session's
// calls: the second session navigates, snapshots and clicks while the
// first is still waiting, which is released only then. Were calls run
// one at a time across sessions, the second would never finish.
func TestMCPSessionsDoNotWaitForEachOther(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/held":
			select {
			case <-release:
			case <-time.After(60 * time.Second):
			}
			fmt.Fprint(w, `<!doctype html><title>held</title><h1>held page</h1>`)
		case "/quick":
			fmt.Fprint(w, `<!doctype html><title>quick</title><h1>quick page</h1><button onclick="document.title='pressed'">press</button>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer site.Close()
	a, b := twoClients(t, mcpHTTP(t))
	call(t, a, "browser_snapshot", nil, false) // both sessions' browsers up
	call(t, b, "browser_snapshot", nil, false)
	held := make(chan string, 1)
	go func() {
		text, _ := tryCall(a, "browser_navigate", map[string]any{"url": site.URL + "/held"})
		held <- text
	}()
	time.Sleep(300 * time.Millisecond) // A's call is in (its page is held)
	done := make(chan error, 1)
	go func() {
		text, err := tryCall(b, "browser_navigate", map[string]any{"url": site.URL + "/quick"})
		if err == nil {
			_, err = tryCall(b, "browser_click", map[string]any{"ref": refIn(text, `button "press"`)})
		}
		if err == nil {
			_, err = tryCall(b, "browser_snapshot", nil)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("session B, while A waits: %v", err)
		}
	case <-time.After(45 * time.Second):
		t.Fatal("session B's calls waited for session A's")
	}
	select {
	case text := <-held:
		t.Errorf("session A's held navigation ended before it was released: %.200s", text)
	default:
	}
	free()
	if text := <-held; !strings.Contains(text, "held page") {
		t.Errorf("session A after the release: %.300s", text)
	}
}
