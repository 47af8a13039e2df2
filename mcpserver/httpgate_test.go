package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// unseen holds what the HTTP gate must not let out raw: a zero-width
// space, a right-to-left override, a tag letter, an emoji's variation
// selector, DEL and a C1 control.
const unseen = "zw\u200b rlo\u202e tag\U000e0041 emoji\U0001f44d\ufe0f del\x7f c1\u0085"

// unseenEscaped is unseen as the gate writes it in a JSON string.
const unseenEscaped = `zw\u200b rlo\u202e tag\udb40\udc41 emoji` + "\U0001f44d" + `\ufe0f del\u007f c1\u0085`

var unseenRunes = []string{"\u200b", "\u202e", "\U000e0041", "\ufe0f", "\x7f", "\u0085"}

func answer(text string) string {
	return `{"jsonrpc":"2.0","id":1,"result":{"text":"` + text + `"}}`
}

func event(data string) string { return "event: message\nid: s_1\ndata: " + data + "\n\n" }

// bytewise splits s into one write per byte: every rune split.
func bytewise(s string) []string {
	var out []string
	for i := range len(s) {
		out = append(out, s[i:i+1])
	}
	return out
}

// TestHTTPGateEscapesWhatDrawsNothing: JSON and server-sent events the
// SDK writes come out with every character that draws nothing escaped,
// however the writes split their runes, and read the same.
func TestHTTPGateEscapesWhatDrawsNothing(t *testing.T) {
	raw, esc := answer(unseen), answer(unseenEscaped)
	at := func(s string) int { return strings.Index(raw, s) + 1 }
	cases := []struct {
		name   string
		writes []string
		flush  bool // flush between writes
		want   string
		sse    bool
	}{
		{"plain JSON", []string{raw}, false, esc, false},
		{"one event", []string{event(raw)}, false, event(esc), true},
		{"two events", []string{event(raw), event(raw)}, true, event(esc) + event(esc), true},
		{"zero-width space split", []string{raw[:at("\u200b")], raw[at("\u200b"):]}, false, esc, false},
		{"tag split across a flush", []string{raw[:at("\U000e0041")+2], raw[at("\U000e0041")+2:]}, true, esc, false},
		{"every rune split", bytewise(event(raw)), false, event(esc), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			g := &jsonGate{ResponseWriter: rec}
			for i, w := range c.writes {
				if n, err := g.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("wrote %d of %d: %v", n, len(w), err)
				}
				if c.flush && i < len(c.writes)-1 {
					g.Flush()
				}
			}
			g.close()
			got := rec.Body.String()
			if got != c.want {
				t.Fatalf("got  %q\nwant %q", got, c.want)
			}
			for _, r := range unseenRunes {
				if strings.Contains(got, r) {
					t.Errorf("%q went out raw", r)
				}
			}
			checkSameJSON(t, got, raw, c.sse)
		})
	}
}

// checkSameJSON: the body (or each of its events' data) is JSON that
// reads as raw does.
func checkSameJSON(t *testing.T, body, raw string, sse bool) {
	t.Helper()
	var values []string
	if !sse {
		values = []string{body}
	}
	for line := range strings.Lines(body) {
		if data, ok := strings.CutPrefix(line, "data: "); sse && ok {
			values = append(values, strings.TrimSuffix(data, "\n"))
		}
	}
	var want any
	json.Unmarshal([]byte(raw), &want)
	for _, v := range values {
		var got any
		if err := json.Unmarshal([]byte(v), &got); err != nil {
			t.Fatalf("not JSON: %q: %v", v, err)
		}
		if g, w := mustJSON(got), mustJSON(want); g != w {
			t.Fatalf("reads %s, want %s", g, w)
		}
	}
	if len(values) == 0 {
		t.Fatalf("no JSON in %q", body)
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestHTTPGateFlushPassesThrough: the SDK flushes each event through
// http.ResponseController, past issuing and the gate; a rune the answer
// is in the middle of waits for its rest, or for the answer's end.
func TestHTTPGateFlushPassesThrough(t *testing.T) {
	rec := httptest.NewRecorder()
	g := &jsonGate{ResponseWriter: rec}
	var w http.ResponseWriter = &issuing{ResponseWriter: g, cap: &sessionCap{}}
	io.WriteString(w, "data: a\xe2\x80")
	if err := http.NewResponseController(w).Flush(); err != nil || !rec.Flushed {
		t.Fatalf("flush: %v, flushed %v", err, rec.Flushed)
	}
	if got := rec.Body.String(); got != "data: a" {
		t.Fatalf("after a flush: %q, want the half rune held back", got)
	}
	g.close()
	if got := rec.Body.String(); got != "data: a\xe2\x80" {
		t.Fatalf("at the end: %q, want the half rune as it was", got)
	}
}

// TestHTTPGateDropsContentLength: a length counted before the escapes
// does not go out.
func TestHTTPGateDropsContentLength(t *testing.T) {
	rec := httptest.NewRecorder()
	g := &jsonGate{ResponseWriter: rec}
	body := answer(unseen)
	g.Header().Set("Content-Length", "77")
	g.WriteHeader(http.StatusOK)
	g.Write([]byte(body))
	if cl := rec.Result().Header.Get("Content-Length"); cl != "" {
		t.Fatalf("Content-Length %s went out for %d bytes", cl, rec.Body.Len())
	}
}

// TestHTTPGateOnTheWire: a tool's text holding characters that draw
// nothing crosses the SDK's Streamable HTTP transport, as events and as
// JSON, escaped on the wire and whole at the client. Without the gate
// the SDK writes them raw.
func TestHTTPGateOnTheWire(t *testing.T) {
	for _, c := range []struct {
		name       string
		json, gate bool
	}{{"events", false, true}, {"JSON", true, true}, {"ungated", false, false}} {
		t.Run(c.name, func(t *testing.T) {
			wire, text := callSay(t, c.json, c.gate)
			if text != unseen {
				t.Fatalf("the client read %q, want %q", text, unseen)
			}
			for _, r := range unseenRunes {
				if raw := bytes.Contains(wire, []byte(r)); raw != !c.gate {
					t.Errorf("%q raw on the wire: %v", r, raw)
				}
			}
			if sse := bytes.Contains(wire, []byte("\ndata: {")); sse == c.json {
				t.Errorf("server-sent events %v, want %v:\n%s", sse, !c.json, wire)
			}
			if c.gate && !bytes.Contains(wire, []byte(`tag\udb40\udc41`)) {
				t.Errorf("no escaped tag letter on the wire:\n%s", wire)
			}
		})
	}
}

// callSay serves a tool that says unseen, calls it over HTTP with the
// SDK's client and returns the bytes the server sent and the text read.
func callSay(t *testing.T, jsonResponse, gate bool) ([]byte, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "say"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: unseen}}}, nil, nil
	})
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{JSONResponse: jsonResponse})
	if gate {
		h = gateJSON(h)
	}
	hs := httptest.NewServer(h)
	defer hs.Close()
	rec := &recording{next: hs.Client().Transport}
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL,
		HTTPClient: &http.Client{Transport: rec}, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "say"})
	if err != nil || len(res.Content) != 1 {
		t.Fatalf("call: %v, %v", res, err)
	}
	text, _ := res.Content[0].(*mcp.TextContent)
	if text == nil {
		t.Fatalf("not text: %#v", res.Content[0])
	}
	return rec.bytes(), text.Text
}

// recording keeps every response body byte its client reads.
type recording struct {
	next http.RoundTripper
	mu   sync.Mutex
	buf  bytes.Buffer
}

func (r *recording) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err == nil {
		resp.Body = recordedBody{resp.Body, r}
	}
	return resp, err
}

func (r *recording) bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Clone(r.buf.Bytes())
}

type recordedBody struct {
	io.ReadCloser
	r *recording
}

func (b recordedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.r.mu.Lock()
	b.r.buf.Write(p[:n])
	b.r.mu.Unlock()
	return n, err
}

// TestHTTPGateInServeHTTP: ServeHTTP gates its answers (a launcher's
// error holding characters that draw nothing goes out escaped), and
// behind the gate issuing still reads the session id the SDK sets, so a
// second session past a cap of one is refused. The launcher fails: no
// browser starts.
func TestHTTPGateInServeHTTP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	url, done := serveHTTP(ctx, t, Options{Launch: func(context.Context) (Browser, error) {
		return nil, errors.New("no browser: " + unseen)
	}})
	rec := &recording{next: http.DefaultTransport}
	connect := func() (*mcp.ClientSession, error) {
		c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
		return c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true,
			MaxRetries: -1, HTTPClient: &http.Client{Transport: rec}}, nil)
	}
	first, err := connect()
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	res, err := first.CallTool(ctx, &mcp.CallToolParams{Name: "browser_snapshot", Arguments: map[string]any{}})
	if err != nil || !res.IsError {
		t.Fatalf("snapshot without a browser: %v, %v", res, err)
	}
	for _, r := range unseenRunes {
		if bytes.Contains(rec.bytes(), []byte(r)) {
			t.Errorf("%q raw on the wire", r)
		}
	}
	if second, err := connect(); err == nil {
		second.Close()
		t.Fatal("a second session past a cap of one was let in")
	} else if !strings.Contains(err.Error(), "Service Unavailable") {
		t.Fatalf("refused, but not by the cap: %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// serveHTTP starts ServeHTTP on a free loopback port with a cap of one
// session; done gets what it returns.
func serveHTTP(ctx context.Context, t *testing.T, o Options) (url string, done chan error) {
	t.Helper()
	ready := make(chan string, 1)
	done = make(chan error, 1)
	go func() {
		done <- New(o).ServeHTTP(ctx, HTTPOptions{Addr: "127.0.0.1:0", MaxSessions: 1,
			Ready: func(a string) { ready <- a }})
	}()
	select {
	case a := <-ready:
		return "http://" + a, done
	case err := <-done:
		t.Fatal(err)
	}
	return "", done
}
