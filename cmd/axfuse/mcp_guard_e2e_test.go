package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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
	var sb strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			sb.WriteString(tc.Text)
		}
	}
	return sb.String(), nil
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
