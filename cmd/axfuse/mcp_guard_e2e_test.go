package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPKeepsToItsPolicy: as an attacker's page would steer an agent,
// the server refuses file: URLs, blocked origins (also when an allowed
// page redirects there), and files written outside its output folder.
func TestMCPKeepsToItsPolicy(t *testing.T) {
	blocked := serve(t, map[string]string{"/": `<!doctype html><title>Blocked</title><h1>SECRET-BLOCKED</h1>`})
	var srvURL string
	allowed := serve(t, map[string]string{"/": `<!doctype html><title>Fine</title><h1>Allowed page</h1>`})
	allowed.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, srvURL, http.StatusFound)
			return
		}
		w.Write([]byte(`<!doctype html><title>Fine</title><h1>Allowed page</h1>`))
	})
	srvURL = blocked.URL + "/"
	out := t.TempDir()
	cs := mcpSession(t, "--output-dir", out, "--blocked-origins", strings.TrimPrefix(blocked.URL, "http://"))
	if text, _ := call(t, cs, "browser_click", map[string]any{"ref": nil}, true); !strings.Contains(text, "ref must be a string, not null") {
		t.Errorf("ref null over stdio: %s", text)
	}
	if text, _ := call(t, cs, "browser_navigate", map[string]any{"url": "file:///etc/passwd"}, true); !strings.Contains(text, "file: URLs are refused") || strings.Contains(text, "root:") {
		t.Errorf("file:///etc/passwd: %s", text)
	}
	if text, _ := call(t, cs, "browser_navigate", map[string]any{"url": blocked.URL + "/"}, true); !strings.Contains(text, "blocked") || strings.Contains(text, "SECRET-BLOCKED") {
		t.Errorf("a blocked origin: %s", text)
	}
	if text, _ := call(t, cs, "browser_navigate", map[string]any{"url": allowed.URL + "/redirect"}, true); !strings.Contains(text, "does not allow") || strings.Contains(text, "SECRET-BLOCKED") {
		t.Errorf("a redirect to a blocked origin: %s", text)
	}
	if text, _ := call(t, cs, "browser_snapshot", nil, false); strings.Contains(text, "SECRET-BLOCKED") {
		t.Errorf("the blocked page shows after the redirect: %s", text)
	}
	call(t, cs, "browser_navigate", map[string]any{"url": allowed.URL + "/"}, false)
	evil := filepath.Join(t.TempDir(), "evil.yaml")
	for _, name := range []string{evil, "../evil.yaml", "/etc/axfuse-evil"} {
		if text, _ := call(t, cs, "browser_snapshot", map[string]any{"filename": name}, true); !strings.Contains(text, "output folder") {
			t.Errorf("filename %q: %s", name, text)
		}
	}
	if _, err := os.Stat(evil); err == nil {
		t.Errorf("%s was written", evil)
	}
	text, _ := call(t, cs, "browser_snapshot", map[string]any{"filename": "page.yaml"}, false)
	if b, err := os.ReadFile(filepath.Join(out, "page.yaml")); err != nil || !strings.Contains(string(b), "Allowed page") || !strings.Contains(text, out) {
		t.Errorf("page.yaml under the output folder: %v %q; answer %s", err, b, text)
	}
}

// TestMCPRestartsADeadBrowser: the launched browser is killed; the server
// goes on, starts a new one, and the answer says the old tabs are gone.
func TestMCPRestartsADeadBrowser(t *testing.T) {
	url := serve(t, map[string]string{"/": `<!doctype html><title>One</title><h1>Before the crash</h1>`}).URL + "/"
	cs, cmd := mcpServer(t)
	call(t, cs, "browser_navigate", map[string]any{"url": url}, false)
	if n := killChildren(cmd.Process.Pid); n == 0 {
		t.Fatal("the server has no browser process to kill")
	}
	var text string
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		res, err := callMaybe(cs, "browser_navigate", map[string]any{"url": url})
		if err != nil {
			t.Fatalf("the server is gone after its browser died: %v", err)
		}
		if text = res; strings.Contains(text, "Before the crash") {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if !strings.Contains(text, "a new one was started") || !strings.Contains(text, "Before the crash") {
		t.Errorf("after the browser died: %s", text)
	}
	if text, _ := call(t, cs, "browser_snapshot", nil, false); strings.Contains(text, "a new one was started") {
		t.Errorf("the notice repeats: %s", text)
	}
}

// callMaybe runs a tool and returns its text, tool errors included; err
// is a protocol failure (the server gone).
func callMaybe(cs *mcp.ClientSession, name string, args map[string]any) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "", err
	}
	return toolText(res), nil
}

// killChildren SIGKILLs the processes whose parent is pid (read from
// /proc: the launched browser of the server) and says how many.
func killChildren(pid int) int {
	entries, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after ")".
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			if syscall.Kill(child, syscall.SIGKILL) == nil {
				n++
			}
		}
	}
	return n
}

// TestMCPNavigationAnswers: a navigation says the document's HTTP status
// (a 404 reads like any page otherwise); forward and reload exist.
func TestMCPNavigationAnswers(t *testing.T) {
	srv := serve(t, map[string]string{
		"/a": `<!doctype html><title>A</title><h1>Page A</h1>`,
		"/b": `<!doctype html><title>B</title><h1>Page B</h1>`,
	})
	cs := mcpSession(t)
	if text, _ := call(t, cs, "browser_navigate", map[string]any{"url": srv.URL + "/missing"}, false); !strings.Contains(text, "HTTP status: 404 Not Found (the page is an error page)") {
		t.Errorf("a 404: %s", text)
	}
	if text, _ := call(t, cs, "browser_navigate", map[string]any{"url": srv.URL + "/a"}, false); !strings.Contains(text, "HTTP status: 200 OK") {
		t.Errorf("a 200: %s", text)
	}
	call(t, cs, "browser_navigate", map[string]any{"url": srv.URL + "/b"}, false)
	if text, _ := call(t, cs, "browser_navigate_back", nil, false); !strings.Contains(text, "Page A") {
		t.Errorf("back: %s", text)
	}
	if text, _ := call(t, cs, "browser_navigate_forward", nil, false); !strings.Contains(text, "Page B") {
		t.Errorf("forward: %s", text)
	}
	if text, _ := call(t, cs, "browser_reload", nil, false); !strings.Contains(text, "Page B") {
		t.Errorf("reload: %s", text)
	}
}

// TestMCPPageRecords: the console, the network log, resize and close; the
// opt-in tools exist only when asked for, and work.
func TestMCPPageRecords(t *testing.T) {
	page := `<!doctype html><title>rec</title><h1>Records</h1>
<canvas id=c width=200 height=100 style="display:block"></canvas>
<script>
console.log('hello from the page');
console.warn('careful');
fetch('/missing.json').catch(() => {});
setTimeout(() => { throw new Error('boom later') }, 0);
document.getElementById('c').addEventListener('click', e => { document.title = 'clicked ' + Math.round(e.offsetX) });
addEventListener('resize', () => { document.querySelector('h1').textContent = 'width ' + innerWidth });
</script>`
	url := serve(t, map[string]string{"/": page}).URL + "/"
	plain := mcpSession(t)
	tools, err := plain.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if tl.Name == "browser_evaluate" || tl.Name == "browser_mouse_click_xy" || tl.Name == "browser_pdf_save" {
			t.Errorf("%s is offered without its capability", tl.Name)
		}
	}
	out := t.TempDir()
	cs := mcpSession(t, "--caps", "evaluate,vision,pdf", "--output-dir", out)
	call(t, cs, "browser_navigate", map[string]any{"url": url}, false)
	time.Sleep(300 * time.Millisecond)
	text, _ := call(t, cs, "browser_console_messages", nil, false)
	for _, want := range []string{`log: "hello from the page"`, `warning: "careful"`, "exception:", "boom later"} {
		if !strings.Contains(text, want) {
			t.Errorf("console lacks %q:\n%s", want, text)
		}
	}
	if text, _ = call(t, cs, "browser_console_messages", map[string]any{"onlyErrors": true}, false); strings.Contains(text, "hello from the page") {
		t.Errorf("onlyErrors lists a log:\n%s", text)
	}
	if text, _ = call(t, cs, "browser_network_requests", map[string]any{"onlyFailed": true}, false); !strings.Contains(text, `/missing.json" [404]`) || strings.Contains(text, `[200]`) {
		t.Errorf("failed requests:\n%s", text)
	}
	if text, _ = call(t, cs, "browser_resize", map[string]any{"width": 800, "height": 600}, false); !strings.Contains(text, "The viewport is 800×600") {
		t.Errorf("resize:\n%s", text)
	}
	// The page's resize handler may run after the answer looked: wait for
	// it (a tool error, failing the call, if it never comes).
	call(t, cs, "browser_wait_for", map[string]any{"text": "width 800", "time": 10}, false)
	if text, _ = call(t, cs, "browser_evaluate", map[string]any{"function": "() => document.title + ' ' + (1 + 2)"}, false); !strings.Contains(text, `"rec 3"`) {
		t.Errorf("evaluate:\n%s", text)
	}
	if text, _ = call(t, cs, "browser_evaluate", map[string]any{"function": "() => { throw new Error('nope') }"}, true); !strings.Contains(text, "nope") {
		t.Errorf("evaluate that throws:\n%s", text)
	}
	call(t, cs, "browser_mouse_click_xy", map[string]any{"x": 58, "y": 120}, false)
	if text, _ = call(t, cs, "browser_evaluate", map[string]any{"function": "() => document.title"}, false); !strings.Contains(text, "clicked 50") {
		t.Errorf("a click at (58,120) did not reach the canvas at x 50: %s", text)
	}
	if text, _ = call(t, cs, "browser_pdf_save", map[string]any{"filename": "p.pdf"}, false); !strings.Contains(text, filepath.Join(out, "p.pdf")) {
		t.Errorf("pdf: %s", text)
	}
	if b, err := os.ReadFile(filepath.Join(out, "p.pdf")); err != nil || !strings.HasPrefix(string(b), "%PDF") {
		t.Errorf("p.pdf is no PDF: %v", err)
	}
	call(t, cs, "browser_tabs", map[string]any{"action": "new"}, false)
	if text, _ = call(t, cs, "browser_close", nil, false); strings.Count(text, "\n") != 1 {
		t.Errorf("after closing one of two tabs:\n%s", text)
	}
}

// TestMCPAttachedBrowserGone: an attached browser that dies is not
// restarted behind the user's back: the call fails saying to start it again.
func TestMCPAttachedBrowserGone(t *testing.T) {
	browser := needChromium(t)
	url := serve(t, map[string]string{"/": `<!doctype html><title>One</title><h1>Attached page</h1>`}).URL + "/"
	endpoint, kill := debugBrowserProcess(t, browser, url)
	waitForPage(t, endpoint, "One")
	cs := mcpSession(t, "--cdp", endpoint)
	if text, _ := call(t, cs, "browser_snapshot", nil, false); !strings.Contains(text, "Attached page") {
		t.Fatalf("attached: %s", text)
	}
	kill()
	var text string
	for range 20 {
		res, err := callMaybe(cs, "browser_snapshot", nil)
		if err != nil {
			t.Fatalf("the server is gone after the attached browser died: %v", err)
		}
		if text = res; strings.Contains(text, "start it again") {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if !strings.Contains(text, "start it again") || strings.Contains(text, "a new one was started") {
		t.Errorf("after the attached browser died: %s", text)
	}
}
