package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/browser"
)

func TestPolicyURLs(t *testing.T) {
	open := &Policy{}
	narrow := &Policy{AllowedOrigins: []string{"https://shop.test", "docs.test", "*.cdn.test", "http://localhost:8080"}, BlockedOrigins: []string{"https://shop.test:8443", "bad.cdn.test"}}
	for _, tc := range []struct {
		p    *Policy
		url  string
		want string // "" allowed, else a piece of the refusal
	}{
		{open, "https://example.com/a", ""},
		{open, "about:blank", ""},
		{open, "file:///etc/passwd", "file: URLs are refused"},
		{open, "FILE:///etc/passwd", "file: URLs are refused"},
		{&Policy{AllowFileURLs: true}, "file:///tmp/x.html", ""},
		{open, "javascript:alert(1)", "javascript: URLs are refused"},
		{open, "chrome://settings", "chrome: URLs are refused"},
		{open, "/relative", "absolute URL"},
		{open, "", "absolute URL"},
		{narrow, "https://shop.test/cart", ""},
		{narrow, "http://shop.test/cart", "not among"},
		{narrow, "https://shop.test:8443/", "blocked"},
		{narrow, "http://docs.test/x", ""},
		{narrow, "https://docs.test/x", ""},
		{narrow, "https://evil.docs.test/", "not among"},
		{narrow, "https://img.cdn.test/a.png", ""},
		{narrow, "https://cdn.test/", "not among"},
		{narrow, "https://bad.cdn.test/", "blocked"},
		{narrow, "http://localhost:8080/", ""},
		{narrow, "http://localhost:9090/", "not among"},
		{narrow, "https://shop.test.evil.com/", "not among"},
		{narrow, "https://shop.test@evil.com/", "not among"},
		{narrow, "data:text/html,hi", "only the allowed origins"},
	} {
		err := tc.p.CheckURL(tc.url)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: refused: %v", tc.url, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %v, want a refusal saying %q", tc.url, err, tc.want)
		}
	}
}

// TestOutputPathStaysInside: a written file lands below the output
// folder whatever name the agent gives: no "..", no absolute path
// elsewhere, no symbolic link leading out.
func TestOutputPathStaysInside(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "f"), filepath.Join(dir, "filelink")); err != nil {
		t.Fatal(err)
	}
	p := &Policy{OutputDir: dir}
	for name, ok := range map[string]bool{
		"snap.yaml": true, "sub/dir/snap.yaml": true, filepath.Join(dir, "abs.yaml"): true,
		"../escape.yaml": false, "/etc/passwd": false, "sub/../../escape": false, "link/x.yaml": false,
		"filelink": false, ".": false, "": false,
	} {
		got, err := p.outputPath(name)
		if ok != (err == nil) {
			t.Errorf("%q: %q, %v", name, got, err)
			continue
		}
		if ok {
			root, _ := filepath.EvalSymlinks(dir)
			if !strings.HasPrefix(got, root+string(filepath.Separator)) {
				t.Errorf("%q: %q is not below %s", name, got, root)
			}
		}
	}
}

func TestArticle(t *testing.T) {
	for w, want := range map[string]string{"alert": "An", "confirm": "A", "prompt": "A", "beforeunload": "A", "": "A"} {
		if got := article(w); got != want {
			t.Errorf("%q: %q, want %q", w, got, want)
		}
	}
}

// TestRequestsThePolicyAllows: the network gate's answer for each request.
func TestRequestsThePolicyAllows(t *testing.T) {
	blocking := Policy{BlockedOrigins: []string{"127.0.0.1:9001", "*.ads.example"}}
	allowing := Policy{AllowedOrigins: []string{"example.com", "http://127.0.0.1:9000"}}
	for _, c := range []struct {
		p    Policy
		url  string
		want bool
	}{
		{blocking, "http://127.0.0.1:9001/x?token=1", false},
		{blocking, "ws://127.0.0.1:9001/socket", false},
		{blocking, "https://cdn.ads.example/pixel.gif", false},
		{blocking, "http://127.0.0.1:9000/", true},
		{blocking, "data:text/html,hi", true},
		{blocking, "blob:http://127.0.0.1:9000/uuid", true},
		{allowing, "https://example.com/a", true},
		{allowing, "wss://example.com/live", true},
		{allowing, "http://127.0.0.1:9000/b", true},
		{allowing, "http://127.0.0.1:9001/b", false},
		{allowing, "https://evil.example/x", false},
		{allowing, "ftp://example.com/file", false},
		{allowing, "::not a url", false},
	} {
		if got := c.p.AllowsRequest(c.url); got != c.want {
			t.Errorf("%+v %q: %v, want %v", c.p, c.url, got, c.want)
		}
	}
	if (&Policy{}).NamesOrigins() || !blocking.NamesOrigins() || !allowing.NamesOrigins() {
		t.Error("NamesOrigins")
	}
}

func TestBlockedNoteNamesOriginsOnly(t *testing.T) {
	note := blockedNote([]browser.Blocked{{Origin: "http://a:1", Document: true}, {Origin: "http://a:1"}, {Origin: "https://b"}})
	want := "The browser stopped requests the server's origin policy does not allow: 2 to http://a:1 (1 of them pages or frames), 1 to https://b; nothing of them loaded."
	if note != want {
		t.Errorf("%q\nwant %q", note, want)
	}
	if blockedNote(nil) != "" {
		t.Error("a note with nothing stopped")
	}
	if got := browser.OriginOf("https://u:p@host:8443/path?q=secret#f"); got != "https://host:8443" {
		t.Errorf("OriginOf: %q", got)
	}
}
