package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// slowPages serves n pages, each answered after delay: a batch over them
// is slow enough to stop halfway.
func slowPages(t *testing.T, n int, delay time.Duration) (list string, urls []string) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		fmt.Fprintf(w, `<!doctype html><title>Page %[1]s</title><h1>Page %[1]s</h1><button>Go %[1]s</button>`, strings.Trim(r.URL.Path, "/"))
	}))
	t.Cleanup(srv.Close)
	for i := range n {
		urls = append(urls, fmt.Sprintf("%s/p%d", srv.URL, i))
	}
	list = filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(list, []byte(strings.Join(urls, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return list, urls
}

// pageLines reads a batch's output: each page's line by index, failing
// on a page written twice or a line of no page.
func pageLines(t *testing.T, path string, urls []string) map[int]batchLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[int]batchLine{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var l batchLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("a line that is not JSON: %v: %.200s", err, sc.Text())
		}
		if _, dup := got[l.Index]; dup {
			t.Errorf("page %d written twice", l.Index)
		}
		if l.Index < 0 || l.Index >= len(urls) || urls[l.Index] != l.URL {
			t.Errorf("a line of no page: %d %s", l.Index, l.URL)
		}
		got[l.Index] = l
	}
	return got
}

// TestBatchStoppedHalfwayResumes: a batch stopped by SIGTERM halfway
// writes only whole lines of pages it finished and says how to finish;
// --resume runs the rest into the same file; in the end every page has
// exactly one line, and none failed.
func TestBatchStoppedHalfwayResumes(t *testing.T) {
	needChromium(t)
	list, urls := slowPages(t, 12, 400*time.Millisecond)
	out := filepath.Join(t.TempDir(), "out.jsonl")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "batch", "--parallel", "2", "--wait", "0s", list)
	cmd.Env = append(os.Environ(), "AXFUSE_MAIN=1")
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = f, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if b, _ := os.ReadFile(out); strings.Count(string(b), "\n") >= 3 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no three lines within a minute; stderr:\n%s", stderr.String())
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	f.Close()
	first := pageLines(t, out, urls)
	if err == nil || !strings.Contains(stderr.String(), "--resume") || len(first) >= len(urls) {
		t.Fatalf("stopped: %v, %d lines; stderr:\n%s", err, len(first), stderr.String())
	}
	t.Logf("stopped after %d of %d pages: %s", len(first), len(urls), lastLine(stderr.String()))
	var so, se strings.Builder
	if err := run(context.Background(), []string{"batch", "--parallel", "2", "--wait", "0s", "--resume", out, list}, &so, &se); err != nil {
		t.Fatalf("resume: %v\n%s", err, se.String())
	}
	if so.Len() != 0 {
		t.Errorf("a resumed run wrote to stdout: %.200q", so.String())
	}
	all := pageLines(t, out, urls)
	if len(all) != len(urls) {
		t.Fatalf("%d of %d pages have a line after the resume", len(all), len(urls))
	}
	for i, l := range all {
		if l.Error != "" || l.Observation == nil || !strings.Contains(l.Observation.Snapshot, fmt.Sprintf("Go p%d", i)) {
			t.Errorf("page %d: error %q", i, l.Error)
		}
	}
	if !strings.Contains(se.String(), fmt.Sprintf("%d pages, 0 failed", len(urls))) {
		t.Errorf("the resumed run's summary does not count every page: %s", se.String())
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// TestBatchOrderedKeepsTheListsOrder: --ordered writes the lines in the
// list's order however the pages finish (the first page is the slowest).
func TestBatchOrderedKeepsTheListsOrder(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/p0" {
			time.Sleep(time.Second)
		}
		fmt.Fprintf(w, `<!doctype html><title>%s</title><p>text`, r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	var urls []string
	for i := range 6 {
		urls = append(urls, fmt.Sprintf("%s/p%d", srv.URL, i))
	}
	list := filepath.Join(t.TempDir(), "urls.txt")
	os.WriteFile(list, []byte(strings.Join(urls, "\n")), 0o644)
	var out strings.Builder
	if err := run(context.Background(), []string{"batch", "--ordered", "--parallel", "3", "--wait", "0s", list}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for k, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var l batchLine
		if json.Unmarshal([]byte(line), &l) != nil || l.Index != k {
			t.Fatalf("line %d is page %d: %.100s", k, l.Index, line)
		}
	}
}

// TestBatchRetriesAPageWhoseSessionWasLost: the browser session a batch
// runs in is cut mid-page; the pages it held are tried once more on a new
// session, their lines say so, and no page is lost.
func TestBatchRetriesAPageWhoseSessionWasLost(t *testing.T) {
	browser := needChromium(t)
	endpoint := debugBrowser(t, browser, "about:blank")
	res, err := http.Get(endpoint + "/json/version")
	if err != nil {
		t.Fatal(err)
	}
	var version struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	json.NewDecoder(res.Body).Decode(&version)
	res.Body.Close()
	ws := strings.TrimPrefix(version.WebSocketDebuggerURL, "ws://")
	host, path, _ := strings.Cut(ws, "/")
	proxied := "ws://" + cuttingProxy(t, host, 2500*time.Millisecond, true) + "/" + path
	list, urls := slowPages(t, 8, 700*time.Millisecond)
	out := filepath.Join(t.TempDir(), "out.jsonl")
	f, _ := os.Create(out)
	var stderr strings.Builder
	err = run(context.Background(), []string{"batch", "--cdp", proxied, "--parallel", "2", "--wait", "0s", list}, f, &stderr)
	f.Close()
	lines := pageLines(t, out, urls)
	retried := 0
	for i, l := range lines {
		if l.Retried != "" {
			retried++
			t.Logf("page %d: %s", i, l.Retried)
		}
		if l.Error != "" {
			t.Errorf("page %d failed: %s (retried: %q)", i, l.Error, l.Retried)
		}
	}
	if err != nil || len(lines) != len(urls) || retried == 0 {
		t.Fatalf("%v: %d of %d lines, %d retried; stderr:\n%s", err, len(lines), len(urls), retried, stderr.String())
	}
}
