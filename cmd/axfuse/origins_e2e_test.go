package main

// The origin policy at the network: with --blocked-origins (or
// --allowed-origins), every way a page on an allowed origin can reach a
// blocked one — frames at any depth, subresources, popups, links with
// target=_blank, redirects by HTTP and by script, form posts, <meta
// refresh>, fetch() — is stopped by the browser before the request leaves.
// The blocked server's own log is the judge: it must see no request at
// all, and no answer may hold a byte it would have served.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// blockedServer serves a secret on every path and counts the requests it
// got.
func blockedServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>SECRET-TITLE</title><h1>SECRET-BLOCKED-TEXT</h1>`)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// originCase is one way to reach the blocked origin: a page on the
// allowed one, and the action (a click on a button or link by its name,
// or none) that makes the request.
type originCase struct {
	name, page, click string
}

func originCases(blocked string) []originCase {
	b := blocked + "/secret?token=SECRET-QUERY"
	return []originCase{
		{name: "an iframe", page: `<iframe title="Ad" src="` + b + `"></iframe>`},
		{name: "an iframe in an iframe", page: `<iframe title="Outer" src="/inner"></iframe>`},
		{name: "an iframe from srcdoc", page: `<iframe title="Doc" srcdoc="<iframe src='` + b + `'></iframe>"></iframe>`},
		{name: "an image and a script", page: `<img alt="pic" src="` + b + `"><script src="` + b + `"></script>`},
		{name: "a stylesheet and a background", page: `<link rel=stylesheet href="` + b + `"><div style="background:url(` + b + `);width:10px;height:10px"></div>`},
		{name: "fetch from the page", page: `<script>fetch("` + b + `", {mode: "no-cors"}).catch(() => {})</script>`},
		{name: "window.open on a click", page: `<button onclick="window.open('` + b + `')">Open</button>`, click: `button "Open"`},
		{name: "a link with target=_blank", page: `<a href="` + b + `" target="_blank">Docs</a>`, click: `link "Docs"`},
		{name: "a link in the tab", page: `<a href="` + b + `">Next</a>`, click: `link "Next"`},
		{name: "a redirect by script on a click", page: `<button onclick="location.href='` + b + `'">Go</button>`, click: `button "Go"`},
		{name: "a redirect by HTTP from a link", page: `<a href="/redirect">Moved</a>`, click: `link "Moved"`},
		{name: "a form post", page: `<form method=post action="` + b + `"><input name=q value=1 aria-label="Q"><button>Send</button></form>`, click: `button "Send"`},
		{name: "a form into a new tab", page: `<form target=_blank action="` + b + `"><button>Post away</button></form>`, click: `button "Post away"`},
		{name: "a meta refresh", page: `<meta http-equiv="refresh" content="0;url=` + b + `"><p>Refreshing</p>`},
		{name: "a redirect by script at load", page: `<script>setTimeout(() => location.replace("` + b + `"), 50)</script><p>Soon</p>`},
	}
}

// TestOriginPolicyHoldsAtTheNetwork: each way to reach the blocked origin,
// through the MCP server with --blocked-origins, and a page that frames a
// third origin with --allowed-origins: the blocked servers see no
// request, no answer holds their text, title or URL query, and the
// allowed pages still load.
func TestOriginPolicyHoldsAtTheNetwork(t *testing.T) {
	blocked, hits := blockedServer(t)
	cases := originCases(blocked.URL)
	pages := map[string]string{}
	for i, c := range cases {
		pages[fmt.Sprintf("/%d", i)] = `<!doctype html><title>Allowed</title><h1>Allowed page ` + fmt.Sprint(i) + `</h1>` + c.page
	}
	pages["/inner"] = `<!doctype html><h2>Inner frame</h2><iframe title="Deep" src="` + blocked.URL + `/deep?token=SECRET-QUERY"></iframe>`
	allowed := serve(t, pages)
	allowed.Config.Handler = redirecting(allowed.Config.Handler, blocked.URL+"/moved?token=SECRET-QUERY")
	cs := mcpSession(t, "--blocked-origins", strings.TrimPrefix(blocked.URL, "http://"))
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := hits.Load()
			answers := []string{}
			text, res := callAny(t, cs, "browser_navigate", map[string]any{"url": fmt.Sprintf("%s/%d", allowed.URL, i)})
			answers = append(answers, text)
			// A page that leaves for the blocked origin as it loads (a meta
			// refresh, a script) is stopped, and the answer says so.
			leaves := res.IsError && strings.Contains(text, "does not allow")
			if !leaves && (res.IsError || !strings.Contains(text, fmt.Sprintf("Allowed page %d", i))) {
				t.Fatalf("the allowed page did not load:\n%s", text)
			}
			if c.click != "" {
				text, _ = callAny(t, cs, "browser_click", map[string]any{"ref": refOf(t, text, c.click)})
				answers = append(answers, text)
			}
			snap, _ := callAny(t, cs, "browser_snapshot", nil)
			tabs, _ := callAny(t, cs, "browser_tabs", map[string]any{"action": "list"})
			answers = append(answers, snap, tabs)
			all := strings.Join(answers, "\n")
			for _, secret := range []string{"SECRET-TITLE", "SECRET-BLOCKED-TEXT"} {
				if strings.Contains(all, secret) {
					t.Errorf("an answer holds %s:\n%s", secret, all)
				}
			}
			// The query may show only where the allowed page wrote it (a
			// link's /url line), never as where a tab or frame went.
			for _, l := range strings.Split(all, "\n") {
				if strings.Contains(l, "SECRET-QUERY") && !strings.Contains(l, "/url: ") {
					t.Errorf("an answer holds the blocked URL's query: %s", l)
				}
			}
			if n := hits.Load() - before; n != 0 {
				t.Errorf("the blocked server got %d requests", n)
			}
			if !strings.Contains(all, "origin policy") && !strings.Contains(all, "does not allow") {
				t.Errorf("no answer says what was stopped:\n%s", all)
			}
			// Back to a page of the allowed origin in the first tab for the
			// next case.
			callAny(t, cs, "browser_tabs", map[string]any{"action": "select", "index": 0})
		})
	}

	t.Run("allowed origins leave a third one out", func(t *testing.T) {
		third, thirdHits := blockedServer(t)
		page := serve(t, map[string]string{"/": `<!doctype html><title>Home</title><h1>Home page</h1><iframe title="Third" src="` + third.URL + `/x?token=SECRET-QUERY"></iframe><img alt="pixel" src="` + third.URL + `/p.gif">`})
		cs := mcpSession(t, "--allowed-origins", strings.TrimPrefix(page.URL, "http://"))
		text, _ := call(t, cs, "browser_navigate", map[string]any{"url": page.URL + "/"}, false)
		if !strings.Contains(text, "Home page") {
			t.Errorf("the allowed page did not load:\n%s", text)
		}
		if strings.Contains(text, "SECRET") || thirdHits.Load() != 0 {
			t.Errorf("the third origin was reached (%d requests):\n%s", thirdHits.Load(), text)
		}
	})
}

// redirecting answers /redirect with a 302 to target, the rest as next.
func redirecting(next http.Handler, target string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, target, http.StatusFound)
			return
		}
		next.ServeHTTP(w, r)
	})
}
