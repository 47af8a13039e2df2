package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestCommandLines runs axfuse as a process on command lines a new user
// types: help and version exit 0 on stdout; a usage error is one line on
// stderr naming the command's help, exit 2; no flag is silently ignored;
// no number is taken outside its range.
func TestCommandLines(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		rc     int
		stdout string // a piece of stdout (rc 0)
		stderr string // a piece of the one stderr line (rc != 0)
	}{
		{[]string{"--help"}, 0, "Run 'axfuse COMMAND --help'", ""},
		{[]string{"help", "act"}, 0, "Usage: axfuse act", ""},
		{[]string{"snapshot", "--help"}, 0, "--cdp ENDPOINT", ""},
		{[]string{"snapshot", "-h"}, 0, "Example:", ""},
		{[]string{"tabs", "--help"}, 0, "Usage: axfuse tabs", ""},
		{[]string{"--version"}, 0, "axfuse ", ""},
		{[]string{}, 2, "", "missing command (run 'axfuse --help')"},
		{[]string{"nosuch"}, 2, "", `unknown command "nosuch"`},
		{[]string{"snapshot", "-o", "x"}, 2, "", "snapshot: does not take -o (run 'axfuse snapshot --help')"},
		{[]string{"locate", "--from", "x", "1", "1"}, 2, "", "locate: does not take --from"},
		{[]string{"bench", "--from", "x"}, 2, "", "bench: does not take --from"},
		{[]string{"snapshot", "--bogus"}, 2, "", "unknown flag --bogus"},
		{[]string{"snapshot", "--cdp", "http://127.0.0.1:1", "--viewport", "800x600"}, 2, "", "--viewport applies to a launched browser"},
		{[]string{"snapshot", "--cdp", "http://127.0.0.1:1", "--scale", "2"}, 2, "", "--scale applies to a launched browser"},
		{[]string{"snapshot", "--tab", "1"}, 2, "", "--tab picks a tab of an attached browser"},
		{[]string{"snapshot", "--margin", "NaN"}, 2, "", "--margin NaN: want 0 to 100000"},
		{[]string{"snapshot", "--margin", "1e9"}, 2, "", "--margin 1e+09: want 0 to 100000"},
		{[]string{"snapshot", "--scale", "NaN"}, 2, "", "--scale NaN: want a device pixel ratio from 0.5 to 4"},
		{[]string{"snapshot", "--depth", "-1"}, 2, "", "--depth -1: want 0 (all levels) to 512"},
		{[]string{"snapshot", "--max-tokens", "5"}, 2, "", "--max-tokens 5: want 0 (no limit) or 200"},
		{[]string{"snapshot", "--timeout", "0s"}, 2, "", "--timeout 0s: want a duration from 1ms to 10m0s"},
		{[]string{"snapshot", "--format", "xml"}, 2, "", `--format "xml": want yaml, json`},
		{[]string{"snapshot", "--from", "x.json", "--wait", "1s"}, 2, "", "--from replays a capture: --wait does not apply"},
		{[]string{"mcp", "--caps", "pdf,shell"}, 2, "", `--caps "shell": want a list of evaluate, vision, pdf`},
		{[]string{"snapshot", "--audit"}, 2, "", "--audit quotes withheld texts in the JSON answer's withheld list; give --format json too"},
		{[]string{"locate", "NaN", "NaN"}, 2, "", `X Y "NaN" "NaN": want a viewport point`},
		{[]string{"locate", "1"}, 2, "", "want X Y [URL]"},
		{[]string{"act", "--cdp", "http://127.0.0.1:1", "scroll", "NaN"}, 2, "", `scroll "NaN": want a ref, down, up or a number`},
		{[]string{"act", "--cdp", "http://127.0.0.1:1", "fly", "e1"}, 2, "", `"fly" is not a verb`},
		{[]string{"act", "click", "e1"}, 2, "", "act: needs --cdp ENDPOINT"},
		{[]string{"open", "https://example.com"}, 2, "", "open: needs --cdp ENDPOINT"},
		{[]string{"open", "--cdp", "http://127.0.0.1:1"}, 2, "", "open: want one URL"},
		{[]string{"back", "--cdp", "http://127.0.0.1:1", "x"}, 2, "", "back: takes no arguments"},
		{[]string{"close", "--cdp", "http://127.0.0.1:1"}, 2, "", "name the tab to close with --tab"},
		{[]string{"find", "--from", "x.json"}, 2, "", "find: needs --role, --name or --text"},
		{[]string{"batch"}, 2, "", "batch: want FILE"},
		{[]string{"snapshot", "--cdp", "http://127.0.0.1:1"}, 1, "", "no DevTools endpoint answers at http://127.0.0.1:1/json/version"},
		{[]string{"snapshot", "--browser", "/bin/false"}, 1, "", "the browser /bin/false did not start"},
	} {
		cmd := exec.Command(os.Args[0], tc.args...)
		cmd.Env = append(os.Environ(), "AXFUSE_MAIN=1")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		rc := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			rc = exit.ExitCode()
		}
		if rc != tc.rc {
			t.Errorf("axfuse %q: exit %d, want %d\nstdout: %s\nstderr: %s", tc.args, rc, tc.rc, out.String(), errOut.String())
			continue
		}
		if tc.rc == 0 {
			if !strings.Contains(out.String(), tc.stdout) || errOut.Len() > 0 {
				t.Errorf("axfuse %q: stdout lacks %q (stderr %q):\n%s", tc.args, tc.stdout, errOut.String(), out.String())
			}
			continue
		}
		if lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n"); len(lines) != 1 || !strings.Contains(lines[0], tc.stderr) || out.Len() > 0 {
			t.Errorf("axfuse %q: stderr %q, want one line holding %q (stdout %q)", tc.args, errOut.String(), tc.stderr, out.String())
		}
	}
}

// TestOddEndpointsDoNotPanic: an address whose /json/version lacks the
// browser's websocket (chromedp's own discovery panicked on it) is a
// one-line error from every command that attaches.
func TestOddEndpointsDoNotPanic(t *testing.T) {
	for _, body := range []string{`{"Browser":"HeadlessChrome"}`, `{"webSocketDebuggerUrl":null}`, `[]`, `<html>`} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }))
		for _, args := range [][]string{
			{"snapshot", "--cdp", srv.URL},
			{"act", "--cdp", srv.URL, "click", "e1"},
			{"find", "--cdp", srv.URL, "--role", "button"},
			{"tabs", "--cdp", srv.URL},
			{"open", "--cdp", srv.URL, "https://example.com"},
		} {
			var out, errOut bytes.Buffer
			err := run(context.Background(), args, &out, &errOut)
			if err == nil || strings.Contains(oneLine(err.Error()), "\n") || !strings.Contains(err.Error(), "Chrome DevTools endpoint") {
				t.Errorf("%q against %s: error %v", args, body, err)
			}
		}
		srv.Close()
	}
}

// TestEveryCommandHasHelp: each command's flags exist and have help, and
// its help prints.
func TestEveryCommandHasHelp(t *testing.T) {
	for name, c := range commands {
		if c.name != name || c.summary == "" || c.detail == "" || c.example == "" {
			t.Errorf("%s: incomplete: %+v", name, c)
		}
		for _, f := range c.flags {
			if _, ok := flagHelp[f]; !ok {
				t.Errorf("%s: flag --%s has no help", name, f)
			}
		}
		var sb strings.Builder
		writeHelp(&sb, c)
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s: binding its flags panics: %v", name, r)
			}
		}()
		parseFlags(c, nil)
	}
}

// TestEveryFlagBinds: each flag with help has a binder and each binder
// help (one table each, kept together).
func TestEveryFlagBinds(t *testing.T) {
	for name := range flagHelp {
		if binders[name] == nil {
			t.Errorf("--%s has help but no binder", name)
		}
	}
	for name := range binders {
		if _, ok := flagHelp[name]; !ok {
			t.Errorf("--%s binds but has no help", name)
		}
	}
}

// TestARefusingFarmIsOneLineWithoutItsToken: every command that reaches
// a browser, pointed at a farm that refuses (wrong token, full), fails
// with one line saying which, and neither the token in --cdp's query nor
// the --cdp-header credential appears in anything it writes, even when
// the farm's answer quotes them.
func TestARefusingFarmIsOneLineWithoutItsToken(t *testing.T) {
	const token, credential = "tok-S3CRET-42", "cred-S3CRET-43"
	for status, want := range map[int]string{http.StatusUnauthorized: "check the token", http.StatusTooManyRequests: "queue are full"} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(status)
			w.Write([]byte(r.URL.String() + " " + r.Header.Get("Authorization")))
		}))
		farm := "ws://" + strings.TrimPrefix(srv.URL, "http://") + "/?token=" + token
		for _, args := range [][]string{
			{"snapshot", "--cdp", farm, "--cdp-header", "Authorization: Bearer " + credential, "https://example.com"},
			{"snapshot", "--cdp", farm},
			{"act", "--cdp", farm, "click", "e1"},
			{"tabs", "--cdp", farm},
		} {
			var out, errOut bytes.Buffer
			err := run(context.Background(), args, &out, &errOut)
			all := out.String() + errOut.String()
			if err != nil {
				all += err.Error()
			}
			switch {
			case err == nil:
				t.Errorf("%d %s: no error", status, args[0])
			case err != nil && (!strings.Contains(err.Error(), want) || strings.Contains(oneLine(err.Error()), "\n")):
				t.Errorf("%d %s: error %v, want one line saying %q", status, args[0], err, want)
			}
			if strings.Contains(all, token) || strings.Contains(all, credential) {
				t.Errorf("%d %s: a secret was printed: %q", status, args[0], all)
			}
		}
		srv.Close()
	}
}

// TestEndpointFlagsAreChecked: several --cdp only where pages are spread,
// --cdp-header only with --cdp and well formed, and never quoted.
func TestEndpointFlagsAreChecked(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"snapshot", "--cdp", "ws://a:1/?token=x1", "--cdp", "ws://b:1/?token=x2"}, "only batch and compare --batch"},
		{[]string{"snapshot", "--cdp-header", "Authorization: Bearer zzz-secret"}, "goes with --cdp"},
		{[]string{"snapshot", "--cdp", "ws://a:1/", "--cdp-header", "broken zzz-secret"}, "--cdp-header #1"},
	} {
		err := run(context.Background(), tc.args, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "zzz-secret") {
			t.Errorf("%q: %v, want an error saying %q and no secret", tc.args, err, tc.want)
		}
	}
}
