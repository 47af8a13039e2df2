package chrome

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestRedactEndpoint(t *testing.T) {
	for in, want := range map[string]string{
		"ws://127.0.0.1:3311/?token=s3cr3t":                  "ws://127.0.0.1:3311/?token=…",
		"wss://farm.example/chromium?apiKey=k&launch=%7B%7D": "wss://farm.example/chromium?apiKey=…&launch=…",
		"ws://user:pa55word@host:1/devtools/browser/x":       "ws://user:…@host:1/devtools/browser/x",
		"http://127.0.0.1:9222":                              "http://127.0.0.1:9222",
		"::nonsense":                                         "(an address that does not parse)",
	} {
		if got := RedactEndpoint(in); got != want {
			t.Errorf("RedactEndpoint(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseHeader(t *testing.T) {
	h := http.Header{}
	for _, ok := range []string{"Authorization: Bearer abc", "X-Api-Key:k", "X-Empty:"} {
		if err := ParseHeader(h, ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	if h.Get("Authorization") != "Bearer abc" || h.Get("X-Api-Key") != "k" {
		t.Errorf("headers %v", h)
	}
	// A bad header is refused without quoting it: it may hold a secret.
	for _, bad := range []string{"no colon s3cr3t", ": s3cr3t", "Two Words: s3cr3t", "X: s3cr3t\r\nInjected: b"} {
		err := ParseHeader(http.Header{}, bad)
		if err == nil {
			t.Errorf("%q: accepted", bad)
		} else if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%q: the error quotes the header: %v", bad, err)
		}
	}
}

// TestFarmRefusalsAreOneLineWithoutTheToken: a farm that refuses the
// websocket (bad credentials, no room) is one line that says which and
// what to change, and names the endpoint without its token or header
// credential, even when the farm's own answer quotes them.
func TestFarmRefusalsAreOneLineWithoutTheToken(t *testing.T) {
	const token, credential = "T0KEN-s3cr3t-123", "cr3d-456"
	for _, tc := range []struct {
		status int
		want   string
	}{
		{http.StatusUnauthorized, "check the token"},
		{http.StatusForbidden, "check the token"},
		{http.StatusTooManyRequests, "sessions and queue are full"},
		{http.StatusServiceUnavailable, "sessions and queue are full"},
		{http.StatusTeapot, "farm's or DevTools websocket address"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(tc.status)
			w.Write([]byte("refused " + r.URL.RawQuery + " " + r.Header.Get("Authorization")))
		}))
		endpoint := "ws://" + strings.TrimPrefix(srv.URL, "http://") + "/?token=" + token
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		b, err := Open(ctx, Options{Endpoint: endpoint, Headers: http.Header{"Authorization": {"Bearer " + credential}}, CallTimeout: 5 * time.Second})
		if err == nil {
			_, err = b.NewTab()
			b.Close()
		}
		cancel()
		srv.Close()
		switch msg := ""; {
		case err == nil:
			t.Errorf("%d: no error", tc.status)
		case !errors.Is(err, ErrFarmRefused):
			t.Errorf("%d: not a farm's refusal: %v", tc.status, err)
		default:
			msg = err.Error()
			if !strings.Contains(msg, tc.want) || !strings.Contains(msg, http.StatusText(tc.status)) {
				t.Errorf("%d: %q does not say %q and the status", tc.status, msg, tc.want)
			}
			if strings.Contains(msg, token) || strings.Contains(msg, credential) || strings.Contains(msg, "\n") {
				t.Errorf("%d: %q leaks a secret or spans lines", tc.status, msg)
			}
		}
	}
}

// TestScrubTakesSecretsOutOfAnyMessage: whatever a library says about the
// endpoint, its secrets do not reach the message, and errors.Is still
// sees through it.
func TestScrubTakesSecretsOutOfAnyMessage(t *testing.T) {
	secrets := secretsOf("wss://farm.example/?apiKey=a%2Bb%2Fc&x=1", http.Header{"X-Token": {"tok-789"}})
	base := errors.New("dial wss://farm.example/?apiKey=a%2Bb%2Fc failed; key a+b/c, header tok-789")
	err := scrub(base, secrets)
	if msg := err.Error(); strings.Contains(msg, "a+b/c") || strings.Contains(msg, "a%2Bb%2Fc") || strings.Contains(msg, "tok-789") {
		t.Errorf("scrubbed: %q", msg)
	}
	if !errors.Is(err, base) {
		t.Error("errors.Is lost the wrapped error")
	}
}
