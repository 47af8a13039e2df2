package chrome

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestSelectPage(t *testing.T) {
	pages := []Page{
		{ID: "AAA1", URL: "http://shop.test/cart"},
		{ID: "BBB2", URL: "http://shop.test/item/7", InUse: true},
		{ID: "CCC3", URL: "http://docs.test/"},
	}
	for _, tc := range []struct {
		want, id, err string
	}{
		{"", "BBB2", ""},          // the tab in use
		{"aaa1", "AAA1", ""},      // an id, any case
		{"2", "CCC3", ""},         // an index
		{"docs", "CCC3", ""},      // a piece of one URL
		{"shop", "", "2 tabs"},    // ambiguous: named as such
		{"7", "", "0 to 2"},       // an index out of range, not a URL piece
		{"nowhere", "", "no tab"}, // nothing
		{"-1", "", "0 to 2"},
	} {
		p, err := selectPage(pages, tc.want)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("--tab %q: error %v, want one saying %q", tc.want, err, tc.err)
		case tc.err == "" && (err != nil || p.ID != tc.id):
			t.Errorf("--tab %q: got %q (%v), want %s", tc.want, p.ID, err, tc.id)
		}
	}
	if p, err := selectPage(pages[:1], ""); err != nil || p.ID != "AAA1" {
		t.Errorf("none in use: got %q %v, want the first", p.ID, err)
	}
	if _, err := selectPage(nil, ""); err == nil {
		t.Error("no pages: no error")
	}
}

// TestResolveEndpoint: every shape of --cdp address, and every odd answer
// of /json/version, gives a browser websocket or a one-line error.
func TestResolveEndpoint(t *testing.T) {
	answers := map[string]string{
		"/good/json/version":    `{"webSocketDebuggerUrl":"ws://127.0.0.1:1/devtools/browser/abc"}`,
		"/missing/json/version": `{"Browser":"x"}`,
		"/null/json/version":    `{"webSocketDebuggerUrl":null}`,
		"/number/json/version":  `{"webSocketDebuggerUrl":7}`,
		"/http/json/version":    `{"webSocketDebuggerUrl":"http://127.0.0.1:1/devtools/browser/abc"}`,
		"/page/json/version":    `{"webSocketDebuggerUrl":"ws://127.0.0.1:1/devtools/page/abc"}`,
		"/html/json/version":    `<html>not json</html>`,
		"/array/json/version":   `[1,2]`,
	}
	// Each server answers as its path prefix says (one server per shape,
	// since the address's path is not sent: /json/version is).
	for name, body := range answers {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/json/version" {
				http.NotFound(w, r)
				return
			}
			w.Write([]byte(body))
		}))
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ep, err := resolveEndpoint(ctx, srv.URL, nil)
		cancel()
		srv.Close()
		good := strings.HasPrefix(name, "/good/")
		if good != (err == nil) {
			t.Errorf("%s: endpoint %+v, error %v", name, ep, err)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: a multi-line error: %q", name, err)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(answers["/good/json/version"]))
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, tc := range []struct{ in, browser, page, err string }{
		{"ws://" + host + "/devtools/page/ABC123", "ws://127.0.0.1:1/devtools/browser/abc", "ABC123", ""},
		{"ws://" + host + "/devtools/browser/xyz", "ws://" + host + "/devtools/browser/xyz", "", ""},
		{"ws://" + host + "/", "ws://127.0.0.1:1/devtools/browser/abc", "", ""},
		{"ws://" + host + "/devtools/page/a%2Fb", "", "", "not a target id"},
		// A farm's connect URL is the browser's socket as it is.
		{"ws://" + host + "/other", "ws://" + host + "/other", "", ""},
		{"ws://" + host + "/?token=abc&launch=%7B%7D", "ws://" + host + "/?token=abc&launch=%7B%7D", "", ""},
		{"wss://farm.example?apiKey=k1", "wss://farm.example?apiKey=k1", "", ""},
		{"http://" + host + "x/", "", "", "port"},
		{"http://127.0.0.1:1", "", "", "no DevTools endpoint"},
		{"ftp://x", "", "", "want http"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ep, err := resolveEndpoint(ctx, tc.in, nil)
		cancel()
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: got %+v, %v; want an error saying %q", tc.in, ep, err, tc.err)
			}
			continue
		}
		if err != nil || ep.browser != tc.browser || ep.page != tc.page {
			t.Errorf("%s: got %+v, %v; want browser %s page %q", tc.in, ep, err, tc.browser, tc.page)
		}
	}
}

// FuzzResolveEndpoint: no address and no /json/version answer makes the
// discovery panic, hang or give a websocket that is not one.
func FuzzResolveEndpoint(f *testing.F) {
	f.Add("http://HOST", `{"webSocketDebuggerUrl":"ws://127.0.0.1:1/devtools/browser/abc"}`)
	f.Add("ws://HOST/devtools/page/x", `{"webSocketDebuggerUrl":null}`)
	f.Add("https://HOST/", `{}`)
	f.Add("ws://HOST/devtools/browser/", `[`)
	f.Fuzz(func(t *testing.T, addr, body string) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }))
		defer srv.Close()
		addr = strings.ReplaceAll(addr, "HOST", strings.TrimPrefix(srv.URL, "http://"))
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		ep, err := resolveEndpoint(ctx, addr, nil)
		if err != nil {
			return
		}
		if !strings.HasPrefix(ep.browser, "ws://") && !strings.HasPrefix(ep.browser, "wss://") || !ep.farm && !strings.Contains(ep.browser, "/devtools/browser/") {
			t.Fatalf("%q answered %q: browser websocket %q", addr, body, ep.browser)
		}
		if ep.page != "" && !targetID.MatchString(ep.page) {
			t.Fatalf("page %q", ep.page)
		}
	})
}

// FuzzSelectPage: any --tab against any tab list picks one of the tabs or
// says why not, without a panic.
func FuzzSelectPage(f *testing.F) {
	f.Add("1", "a b c", 1)
	f.Add("b", "a b c", -1)
	f.Add("", "", 0)
	f.Fuzz(func(t *testing.T, want, urls string, inUse int) {
		var pages []Page
		for i, u := range strings.Fields(urls) {
			pages = append(pages, Page{ID: strings.Repeat("A", i+1), URL: u, InUse: i == inUse})
		}
		p, err := selectPage(pages, want)
		if err != nil {
			return
		}
		for _, q := range pages {
			if q == p {
				return
			}
		}
		t.Fatalf("--tab %q picked %+v, not one of %+v", want, p, pages)
	})
}

// FuzzTargetList: any /json/list answer gives one well-formed page id or
// none, never a panic.
func FuzzTargetList(f *testing.F) {
	f.Add(`[{"id":"AB12","type":"page","url":"http://a/"}]`)
	f.Add(`[{"id":"a/b","type":"page"}]`)
	f.Add(`{"id":1}`)
	f.Add(`[{"id":"A","type":"page"},{"id":"B","type":"page"}]`)
	f.Fuzz(func(t *testing.T, body string) {
		if id := onlyPageIn(strings.NewReader(body)); id != "" && !targetID.MatchString(string(id)) {
			t.Fatalf("%q gave page id %q", body, id)
		}
	})
}
