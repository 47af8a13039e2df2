package chrome

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
)

// Farms and their secrets. A --cdp address may carry a token in its query
// (Browserless's ?token=, hosted farms' ?apiKey=) or its user info, and
// --cdp-header a credential: none of it is ever printed. Errors name the
// endpoint by RedactEndpoint, and whatever the browser or a library says
// is scrubbed of every secret before it leaves the driver.

// RedactEndpoint is an endpoint as it may be printed: every query value
// and the password replaced by "…" (keys kept, so a user sees which
// parameters were given). An address that does not parse is not printed.
func RedactEndpoint(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(an address that does not parse)"
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "…")
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{"…"}
		}
		u.RawQuery = q.Encode()
	}
	u.Fragment = ""
	return strings.ReplaceAll(u.String(), "%E2%80%A6", "…")
}

// secretsOf lists what must never be printed of an endpoint and its
// headers: query values, the password, header values (of 4 bytes or
// more: shorter ones are words any message may hold).
func secretsOf(raw string, headers http.Header) []string {
	var out []string
	add := func(v string) {
		if len(v) >= 4 {
			out = append(out, v, url.QueryEscape(v))
		}
	}
	if u, err := url.Parse(raw); err == nil {
		for _, vs := range u.Query() {
			for _, v := range vs {
				add(v)
			}
		}
		if p, has := u.User.Password(); has {
			add(p)
		}
	}
	for _, vs := range headers {
		for _, v := range vs {
			add(v)
			if _, cred, ok := strings.Cut(v, " "); ok { // "Bearer TOKEN"
				add(cred)
			}
		}
	}
	return out
}

// scrubbed is an error whose message had secrets taken out; Is and As
// still see what it wraps.
type scrubbed struct {
	msg string
	err error
}

func (s scrubbed) Error() string { return s.msg }
func (s scrubbed) Unwrap() error { return s.err }

// ScrubSecrets takes the secrets of endpoints and headers (query values,
// passwords, header values) out of err's message: the CLI's last guard
// before it prints an error.
func ScrubSecrets(err error, endpoints []string, headers http.Header) error {
	var secrets []string
	for _, e := range endpoints {
		secrets = append(secrets, secretsOf(e, nil)...)
	}
	return scrub(err, append(secrets, secretsOf("", headers)...))
}

// scrub takes every secret out of err's message: its message is err's
// with each secret replaced, whether any was there or not.
func scrub(err error, secrets []string) error {
	if err == nil || len(secrets) == 0 {
		return err
	}
	msg := err.Error()
	for _, s := range secrets {
		msg = strings.ReplaceAll(msg, s, "…")
	}
	return scrubbed{msg, err}
}

// ErrFarmRefused marks a connection a browser farm refused: wrong
// credentials (401, 403) or no room (429, 503).
var ErrFarmRefused = errors.New("the browser endpoint refused the connection")

// attachError says why attaching to an endpoint failed, in one line: a
// farm's refusal by what to change.
func attachError(endpoint string, err error) error {
	where := RedactEndpoint(endpoint)
	code := cdpcall.RefusedStatus(err)
	if code == 0 {
		return fmt.Errorf("attaching to %s: %w", where, err)
	}
	status := fmt.Sprintf("%d %s", code, http.StatusText(code))
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Errorf("%w: %s answered %s: check the token in the --cdp address (or the --cdp-header credential) and that it is this farm's", ErrFarmRefused, where, status)
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return fmt.Errorf("%w: %s answered %s: the farm's sessions and queue are full; run fewer at once (--parallel, fewer MCP sessions), wait, or raise the farm's concurrency and queue limits", ErrFarmRefused, where, status)
	}
	return fmt.Errorf("%w: %s answered %s: is it a browser farm's or DevTools websocket address?", ErrFarmRefused, where, status)
}

// ParseHeader reads a --cdp-header value, "Name: value".
func ParseHeader(h http.Header, line string) error {
	name, value, ok := strings.Cut(line, ":")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") || strings.ContainsAny(value, "\r\n") {
		return fmt.Errorf("want a header as 'Name: value', not one of %d bytes", len(line))
	}
	h.Add(name, value)
	return nil
}
