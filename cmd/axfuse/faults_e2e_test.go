package main

// Faults, each against real Chromium: a page that navigates while it is
// captured, a renderer crash, a browser killed mid-snapshot, a main thread
// in an endless loop, a CDP connection that drops, an alert open during a
// snapshot, a tab closed under an action. Each ends in a clear error (or
// a clear observation) and a process that exits, within its deadline.

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// runBounded runs axfuse as a separate process that must exit by the
// deadline; it returns stdout and stderr.
func runBounded(t *testing.T, deadline time.Duration, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "AXFUSE_MAIN=1")
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("axfuse %v did not exit within %s; stderr:\n%s", args, deadline, errOut.String())
	}
	return out.String(), errOut.String(), err
}

// busyPage has 20,000 listener rows: a capture of it takes a while.
const busyPage = `<!doctype html><title>Busy</title><h1>Busy</h1><div id=l></div><script>
const l = document.getElementById('l');
for (let i = 0; i < 20000; i++) { const d = document.createElement('div'); d.textContent = 'row ' + i; d.onclick = () => {}; l.appendChild(d); }
</script>`

func TestNavigationDuringCapture(t *testing.T) {
	needChromium(t)
	page := `<!doctype html><title>Restless</title><h1>Restless</h1><script>setTimeout(() => location.reload(), 15)</script>`
	url := serve(t, map[string]string{"/": page}).URL + "/"
	out, stderr, err := runBounded(t, 90*time.Second, "snapshot", "--timeout", "10s", url)
	switch {
	case err == nil && strings.Contains(out, `heading "Restless"`):
		t.Log("a capture fell between two reloads and succeeded")
	case err != nil && strings.Contains(stderr, "the page navigated during the capture"):
		t.Logf("clear error: %s", strings.TrimSpace(stderr))
	default:
		t.Errorf("want a snapshot or a clear error, got %v:\n%s\n%s", err, out, stderr)
	}
}

func TestRendererCrash(t *testing.T) {
	b := openBrowser(t)
	tab, err := b.NewTab()
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	if err := tab.Navigate(serve(t, map[string]string{"/": busyPage}).URL+"/", 0); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		ctx, cancel := context.WithTimeout(tab.Context(), 5*time.Second)
		defer cancel()
		chromedp.Call(ctx, page.Crash, cdp.Empty{})
	}()
	start := time.Now()
	var capErr error
	for range 20 { // until the crash lands
		if _, capErr = tab.Capture(); capErr != nil {
			break
		}
	}
	if capErr == nil || !strings.Contains(capErr.Error(), "crashed") {
		t.Fatalf("capture after a renderer crash: %v, want an error naming the crash", capErr)
	}
	t.Logf("after %s: %v", time.Since(start).Round(time.Millisecond), capErr)
	if _, err := tab.Capture(); err == nil || !strings.Contains(err.Error(), "crashed") {
		t.Errorf("a later capture: %v", err)
	}
}

// TestBrowserKilledMidSnapshot kills the browser at a few points of a
// snapshot (attaching, capturing, fusing, depending on the machine): each
// time the process ends with one clear line.
func TestBrowserKilledMidSnapshot(t *testing.T) {
	browser := needChromium(t)
	for _, after := range []time.Duration{700 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second} {
		t.Run(after.String(), func(t *testing.T) {
			endpoint, kill := debugBrowserProcess(t, browser, serve(t, map[string]string{"/": busyPage}).URL+"/")
			waitForPage(t, endpoint, "Busy")
			timer := time.AfterFunc(after, kill)
			defer timer.Stop()
			out, stderr, err := runBounded(t, 60*time.Second, "snapshot", "--cdp", endpoint)
			if err == nil {
				t.Logf("the snapshot finished before the browser died (%d bytes)", len(out))
				return
			}
			if !strings.Contains(stderr, "the connection to the browser closed") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("want one clear line on stderr, got %q", stderr)
			}
			t.Logf("clear error: %s", strings.TrimSpace(stderr))
		})
	}
}

func TestEndlessLoopHitsDeadlines(t *testing.T) {
	needChromium(t)
	page := `<!doctype html><title>Loop</title><h1>Loop</h1><script>setTimeout(() => { for (;;) {} }, 300)</script>`
	url := serve(t, map[string]string{"/": page}).URL + "/"
	_, stderr, err := runBounded(t, 90*time.Second, "snapshot", "--timeout", "3s", "--wait", "600ms", url)
	if err == nil || !strings.Contains(stderr, "no answer within 3s") {
		t.Fatalf("want a deadline error naming the call, got %v: %s", err, stderr)
	}
	t.Logf("clear error: %s", strings.TrimSpace(stderr))
}

// TestConnectionDrops runs the snapshot through a proxy that cuts every
// connection shortly after the websocket opens.
func TestConnectionDrops(t *testing.T) {
	browser := needChromium(t)
	endpoint, _ := debugBrowserProcess(t, browser, serve(t, map[string]string{"/": busyPage}).URL+"/")
	waitForPage(t, endpoint, "Busy")
	proxy := cuttingProxy(t, strings.TrimPrefix(endpoint, "http://"), 700*time.Millisecond, false)
	out, stderr, err := runBounded(t, 60*time.Second, "snapshot", "--cdp", "http://"+proxy)
	if err == nil {
		t.Logf("finished before the cut:\n%.200s", out)
		return
	}
	if !strings.Contains(stderr, "the connection to the browser closed") {
		t.Errorf("unclear error: %q", stderr)
	}
	t.Logf("clear error: %s", strings.TrimSpace(stderr))
}

func TestAlertDuringSnapshot(t *testing.T) {
	needChromium(t)
	page := `<!doctype html><title>Alert</title><h1>Alert</h1><script>alert("Session expired")</script><p>after</p>`
	url := serve(t, map[string]string{"/": page}).URL + "/"
	out, stderr, err := runBounded(t, 60*time.Second, "snapshot", "--timeout", "10s", url)
	if err != nil || !strings.Contains(out, `alert dialog open with "Session expired"`) {
		t.Fatalf("want the dialog reported, got %v:\n%s\n%s", err, out, stderr)
	}
}

// TestAlertBeforeAttaching: a dialog the page showed before anyone attached
// blocks every command and no later client is told of it; snapshot and act
// end at their deadline with an error that says what may be going on.
func TestAlertBeforeAttaching(t *testing.T) {
	browser := needChromium(t)
	page := `<!doctype html><title>Alert</title><h1>Alert</h1><script>alert("Session expired")</script>`
	endpoint := debugBrowser(t, browser, serve(t, map[string]string{"/": page}).URL+"/")
	waitForPage(t, endpoint, "Alert")
	for _, args := range [][]string{{"snapshot", "--cdp", endpoint}, {"act", "--cdp", endpoint, "scroll", "down"}} {
		args = append(args, "--timeout", "2s")
		out, stderr, err := runBounded(t, 60*time.Second, args...)
		if err == nil || !strings.Contains(stderr, "no answer within 2s") || !strings.Contains(stderr, "an alert, confirm or prompt") {
			t.Errorf("%v on a page blocked by an alert: %v\n%s\n%s", args[:1], err, out, stderr)
		}
	}
}

func TestTabClosedUnderAnAction(t *testing.T) {
	page := `<!doctype html><title>Slow</title><h1>Slow</h1><button onclick="const t = Date.now(); while (Date.now() - t < 4000) {}">Slow button</button>`
	endpoint, snap := attachedURL(t, serve(t, map[string]string{"/": page}).URL+"/", `button "Slow button"`)
	ref := refOf(t, snap, `button "Slow button"`)
	go func() {
		time.Sleep(700 * time.Millisecond)
		closeTabs(endpoint)
	}()
	out, stderr, err := runBounded(t, 60*time.Second, "act", "--cdp", endpoint, "click", ref)
	if err == nil || !strings.Contains(stderr, "the tab is gone") {
		t.Fatalf("act on a closed tab: %v\n%s\n%s", err, out, stderr)
	}
	t.Logf("clear error: %s", strings.TrimSpace(stderr))
}

// debugBrowserProcess is debugBrowser with a way to kill the browser.
func debugBrowserProcess(t *testing.T, browser, url string) (string, func()) {
	t.Helper()
	var mu sync.Mutex
	var kill func()
	endpoint := startDebugBrowser(t, browser, url, func(k func(), _ int) { mu.Lock(); kill = k; mu.Unlock() })
	return endpoint, func() { mu.Lock(); defer mu.Unlock(); kill() }
}

// waitForPage waits until the browser's page tab shows title.
func waitForPage(t *testing.T, endpoint, title string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if tabs, err := listTabs(endpoint); err == nil {
			for _, tb := range tabs {
				if tb.Type == "page" && tb.Title == title {
					return
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the page %q never showed", title)
}

type tabInfo struct{ ID, Type, Title string }

func listTabs(endpoint string) ([]tabInfo, error) {
	res, err := http.Get(endpoint + "/json/list")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var tabs []tabInfo
	return tabs, json.NewDecoder(res.Body).Decode(&tabs)
}

func closeTabs(endpoint string) {
	tabs, _ := listTabs(endpoint)
	for _, tb := range tabs {
		if tb.Type == "page" {
			if res, err := http.Get(endpoint + "/json/close/" + tb.ID); err == nil {
				res.Body.Close()
			}
		}
	}
}

// cuttingProxy forwards TCP to target and closes connections after
// after, counted from each one's start: every connection, or with
// firstOnly the first alone (a session lost once, the next ones kept).
func cuttingProxy(t *testing.T, target string, after time.Duration, firstOnly bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				up, err := net.Dial("tcp", target)
				if err != nil {
					c.Close()
					return
				}
				if n.Add(1) == 1 || !firstOnly {
					time.AfterFunc(after, func() { c.Close(); up.Close() })
				}
				go io.Copy(up, c)
				io.Copy(c, up)
				c.Close()
				up.Close()
			}()
		}
	}()
	return ln.Addr().String()
}
