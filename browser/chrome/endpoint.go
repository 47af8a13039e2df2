package chrome

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/axfuse/axfuse/internal/textcut"
)

// An endpoint is a --cdp address resolved: the browser's own websocket,
// and the page when the address named one (ws://host/devtools/page/ID).
type endpoint struct {
	browser string
	page    string
	path    string // a launched browser's executable (Open's bookkeeping)
	// farm: the address is a browser farm's connect URL (see farmAddress).
	farm bool
}

// targetID is the shape of a DevTools target id (hex in Chrome; letters,
// digits, '-' and '_' in other implementations).
var targetID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

// resolveEndpoint turns an http(s) address, a browser websocket, a page
// websocket or a farm's connect URL into the browser's websocket, asking
// /json/version when the address does not name it. Whatever the address answers, the result is a
// well-formed websocket URL or an error (chromedp's own discovery panics
// on an answer without webSocketDebuggerUrl).
func resolveEndpoint(ctx context.Context, raw string, headers http.Header) (endpoint, error) {
	if err := checkEndpoint(raw); err != nil {
		return endpoint{}, err
	}
	u, _ := url.Parse(raw)
	var ep endpoint
	if u.Scheme == "ws" || u.Scheme == "wss" {
		switch path := strings.TrimSuffix(u.Path, "/"); {
		case strings.HasPrefix(path, "/devtools/browser/"):
			ep.browser = raw
			return ep, nil
		case strings.HasPrefix(path, "/devtools/page/"):
			ep.page = strings.TrimPrefix(path, "/devtools/page/")
			if !targetID.MatchString(ep.page) {
				return endpoint{}, fmt.Errorf("--cdp %s: %q is not a target id", RedactEndpoint(raw), cut(ep.page, 80))
			}
		case path != "" || u.RawQuery != "":
			// A farm's connect URL (farmAddress): the socket is the
			// browser's, as it is, query and all.
			ep.browser, ep.farm = raw, true
			return ep, nil
		}
	}
	ws, err := browserSocket(ctx, u, headers)
	if err != nil {
		return endpoint{}, err
	}
	ep.browser = ws
	return ep, nil
}

// A farm's connect URL is a websocket address that names no DevTools
// target: a path of its own or a query (Browserless's
// ws://host:3000/?token=…, /chromium?token=…&launch=…; hosted farms'
// wss://host?apiKey=…). Connecting to it launches or lends a browser for
// as long as the socket stays open, and the socket speaks the browser's
// own protocol; there is no /json/version to ask and no page socket to
// dial apart.

// IsFarmAddress says an endpoint is a farm's connect URL (see above).
func IsFarmAddress(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") {
		return false
	}
	path := strings.TrimSuffix(u.Path, "/")
	return !strings.HasPrefix(path, "/devtools/") && (path != "" || u.RawQuery != "")
}

// maxVersionAnswer bounds the /json/version answer read.
const maxVersionAnswer = 1 << 20

// browserSocket asks the browser behind u for its websocket address.
func browserSocket(ctx context.Context, u *url.URL, headers http.Header) (string, error) {
	scheme := "http"
	if u.Scheme == "https" || u.Scheme == "wss" {
		scheme = "https"
	}
	host, err := hostForDevTools(ctx, u.Host)
	if err != nil {
		return "", fmt.Errorf("--cdp %s: %w", RedactEndpoint(u.String()), err)
	}
	where := scheme + "://" + host + "/json/version"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, where, nil)
	if err != nil {
		return "", fmt.Errorf("--cdp %s: %w", RedactEndpoint(u.String()), err)
	}
	for name, vs := range headers {
		req.Header[name] = vs
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("no DevTools endpoint answers at %s: %w", where, unwrapURLError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s answered %s: is it a Chrome DevTools endpoint (chromium --remote-debugging-port)?", where, resp.Status)
	}
	var version struct {
		WebSocketDebuggerURL any `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxVersionAnswer)).Decode(&version); err != nil {
		return "", fmt.Errorf("%s did not answer DevTools JSON: is it a Chrome DevTools endpoint?", where)
	}
	ws, _ := version.WebSocketDebuggerURL.(string)
	wu, err := url.Parse(ws)
	if ws == "" || err != nil || (wu.Scheme != "ws" && wu.Scheme != "wss") || wu.Host == "" || !strings.HasPrefix(wu.Path, "/devtools/browser/") {
		return "", fmt.Errorf("%s gave no browser websocket (webSocketDebuggerUrl %q): is it a Chrome DevTools endpoint?", where, cut(ws, 80))
	}
	return ws, nil
}

// hostForDevTools gives host:port with the host as an IP address or
// localhost: Chrome refuses other Host headers (a DNS rebinding guard).
func hostForDevTools(ctx context.Context, hostport string) (string, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return "", fmt.Errorf("want host:port, not %q", hostport)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
		return "", fmt.Errorf("port %q is not a port", port)
	}
	if host == "localhost" || net.ParseIP(host) != nil {
		return hostport, nil
	}
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil || len(addrs) == 0 {
		return "", fmt.Errorf("cannot resolve %q", host)
	}
	return net.JoinHostPort(addrs[0].IP.String(), port), nil
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// cut shortens s to at most n bytes, on a rune boundary.
func cut(s string, n int) string { return textcut.Bytes(s, n) }

// A Page is one page tab of a browser, as `axfuse tabs` lists it.
type Page struct {
	ID, URL, Title string
	// InUse: a client is attached to it (the tab an agent works in).
	InUse bool
}

// SelectPage is selectPage for the CLI's close command.
func SelectPage(pages []Page, want string) (Page, error) { return selectPage(pages, want) }

// selectPage picks the page want names among pages: a target id, an
// index into pages, or a piece of a URL that only one page's URL holds.
// With want empty it is the page in use, else the first.
func selectPage(pages []Page, want string) (Page, error) {
	if len(pages) == 0 {
		return Page{}, errors.New("the browser has no page tab")
	}
	if want == "" {
		for _, p := range pages {
			if p.InUse {
				return p, nil
			}
		}
		return pages[0], nil
	}
	for _, p := range pages {
		if strings.EqualFold(p.ID, want) {
			return p, nil
		}
	}
	if k, err := strconv.Atoi(want); err == nil {
		if k < 0 || k >= len(pages) {
			return Page{}, fmt.Errorf("--tab %d: the browser has %d page tabs (0 to %d)", k, len(pages), len(pages)-1)
		}
		return pages[k], nil
	}
	var found []Page
	for _, p := range pages {
		if strings.Contains(p.URL, want) {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return Page{}, fmt.Errorf("--tab %q: no tab has that id or a URL holding it (axfuse tabs lists them)", cut(want, 80))
	}
	return Page{}, fmt.Errorf("--tab %q: %d tabs' URLs hold it (axfuse tabs lists them; give an id or index)", cut(want, 80), len(found))
}
