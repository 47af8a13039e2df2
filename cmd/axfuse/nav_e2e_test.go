package main

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
)

// TestNavigationVerbs: open, back, forward and reload drive the attached
// tab, and the refs each prints are the ones act uses.
func TestNavigationVerbs(t *testing.T) {
	var loads atomic.Int64
	srv := serve(t, map[string]string{
		"/a": `<!doctype html><title>A</title><h1>Page A</h1>`,
		"/b": `<!doctype html><title>B</title><h1>Page B</h1><a href="/c">To C</a>`,
		"/c": `<!doctype html><title>C</title><h1>Page C</h1>`,
	})
	counted := serve(t, nil)
	counted.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r) // the favicon
			return
		}
		fmt.Fprintf(w, `<!doctype html><title>D</title><h1>Load %d</h1>`, loads.Add(1))
	})
	endpoint, _ := attachedURL(t, srv.URL+"/a", `heading "Page A"`)
	out := mustCLI(t, "open", "--cdp", endpoint, srv.URL+"/b")
	if !strings.Contains(out, `heading "Page B"`) {
		t.Fatalf("open: no page B:\n%s", out)
	}
	ref := refOf(t, out, `link "To C"`)
	if out = mustCLI(t, "act", "--cdp", endpoint, "click", ref); !strings.Contains(out, `heading "Page C"`) {
		t.Fatalf("act click %s (a ref open printed) did not reach C:\n%s", ref, out)
	}
	if out = mustCLI(t, "back", "--cdp", endpoint); !strings.Contains(out, `heading "Page B"`) {
		t.Errorf("back: not B:\n%s", out)
	}
	if out = mustCLI(t, "forward", "--cdp", endpoint); !strings.Contains(out, `heading "Page C"`) {
		t.Errorf("forward: not C:\n%s", out)
	}
	if _, err := runCLI(t, "forward", "--cdp", endpoint); err == nil || !strings.Contains(err.Error(), "no later page") {
		t.Errorf("forward at the end of history: %v", err)
	}
	mustCLI(t, "open", "--cdp", endpoint, counted.URL+"/")
	if out = mustCLI(t, "reload", "--cdp", endpoint); !strings.Contains(out, `heading "Load 2"`) {
		t.Errorf("reload: the page did not load again:\n%s", out)
	}
}

// TestTabSelection: tabs lists the tabs; --tab picks one by index, id or a
// piece of its URL; a page websocket endpoint is that tab; close closes one;
// an ambiguous or unknown --tab is an error, never another tab.
func TestTabSelection(t *testing.T) {
	srv := serve(t, map[string]string{
		"/one": `<!doctype html><title>One</title><h1>First tab</h1>`,
		"/two": `<!doctype html><title>Two</title><h1>Second tab</h1>`,
	})
	endpoint, _ := attachedURL(t, srv.URL+"/one", `heading "First tab"`)
	req, _ := http.NewRequest(http.MethodPut, endpoint+"/json/new?"+srv.URL+"/two", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	waitForPage(t, endpoint, "Two")
	list := mustCLI(t, "tabs", "--cdp", endpoint)
	lines := regexp.MustCompile(`(?m)^- tab (\d+)[^:]*: id ([0-9A-F]+), "(\w+)"`).FindAllStringSubmatch(list, -1)
	if len(lines) != 2 {
		t.Fatalf("tabs lists %d tabs, want 2:\n%s", len(lines), list)
	}
	ids := map[string]string{}
	for _, l := range lines {
		ids[l[3]] = l[2]
		out := mustCLI(t, "snapshot", "--cdp", endpoint, "--tab", l[1])
		if want := map[string]string{"One": "First tab", "Two": "Second tab"}[l[3]]; !strings.Contains(out, want) {
			t.Errorf("--tab %s (%s): snapshot lacks %q:\n%s", l[1], l[3], want, out)
		}
	}
	if out := mustCLI(t, "snapshot", "--cdp", endpoint, "--tab", "/two"); !strings.Contains(out, "Second tab") {
		t.Errorf("--tab /two: %s", out)
	}
	if out := mustCLI(t, "snapshot", "--cdp", endpoint, "--tab", strings.ToLower(ids["One"])); !strings.Contains(out, "First tab") {
		t.Errorf("--tab by id: %s", out)
	}
	pageWS := strings.Replace(endpoint, "http://", "ws://", 1) + "/devtools/page/" + ids["Two"]
	if out := mustCLI(t, "snapshot", "--cdp", pageWS); !strings.Contains(out, "Second tab") {
		t.Errorf("page websocket endpoint: not its tab:\n%s", out)
	}
	if out := mustCLI(t, "open", "--cdp", pageWS, srv.URL+"/one"); !strings.Contains(out, "First tab") {
		t.Errorf("open on a page websocket: %s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"snapshot", "--cdp", endpoint, "--tab", "127.0.0.1"}, "2 tabs' URLs hold it"},
		{[]string{"snapshot", "--cdp", endpoint, "--tab", "nowhere"}, "no tab has that id"},
		{[]string{"snapshot", "--cdp", endpoint, "--tab", "5"}, "0 to 1"},
		{[]string{"snapshot", "--cdp", strings.Replace(endpoint, "http://", "ws://", 1) + "/devtools/page/FFFF0000"}, "FFFF0000"},
	} {
		if _, err := runCLI(t, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one saying %q", tc.args, err, tc.want)
		}
	}
	if out := mustCLI(t, "close", "--cdp", endpoint, "--tab", ids["Two"]); !strings.Contains(out, "closed tab "+ids["Two"]) {
		t.Errorf("close: %s", out)
	}
	if list = mustCLI(t, "tabs", "--cdp", endpoint); strings.Count(list, "- tab ") != 1 || strings.Contains(list, ids["Two"]) {
		t.Errorf("after close, tabs:\n%s", list)
	}
}
