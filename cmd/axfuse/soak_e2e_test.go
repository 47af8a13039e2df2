package main

// Load and soak: many snapshots of a changing page on one tab, eight tabs
// at once from one process, a long MCP session. Each checks for goroutine
// leaks (goleak) and logs heap and Chromium RSS at the start and the end.
// AXFUSE_SOAK=1 runs the full lengths (1,000 snapshots, 500 MCP actions);
// otherwise short runs keep the suite quick.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/fuse"
	"go.uber.org/goleak"
)

func soakLength(short, full int) int {
	if os.Getenv("AXFUSE_SOAK") == "1" {
		return full
	}
	return short
}

// changingPage rewrites a list and a counter every 50 ms.
const changingPage = `<!doctype html><title>Ticker</title><h1>Ticker</h1><p id=n>0</p><ul id=l></ul><button>Pause</button>
<script>let n = 0; setInterval(() => { n++; document.getElementById('n').textContent = n;
const l = document.getElementById('l'); l.innerHTML = '';
for (let i = 0; i < 30; i++) { const li = document.createElement('li'); li.textContent = 'item ' + (n + i); li.onclick = () => {}; l.appendChild(li); } }, 50);</script>`

// heapMB is the live Go heap after a collection.
func heapMB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}

// groupRSSMB sums the resident memory of the processes in a process group
// (a browser and its helpers).
func groupRSSMB(pgid int) float64 {
	var kb float64
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces; read after ')'.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) < 3 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		status, err := os.ReadFile(filepath.Join(filepath.Dir(p), "status"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				n, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
				kb += n
			}
		}
	}
	return kb / 1024
}

func TestSoakSnapshots(t *testing.T) {
	browser := needChromium(t)
	n := soakLength(60, 1000)
	var pgid int
	endpoint := startDebugBrowser(t, browser, serve(t, map[string]string{"/": changingPage}).URL+"/", func(_ func(), g int) { pgid = g })
	waitForPage(t, endpoint, "Ticker")
	ignore := goleak.IgnoreCurrent()
	func() {
		tab, done := attachedTab(t, context.Background(), endpoint)
		defer done()
		var heap0, rss0 float64
		start := time.Now()
		for i := range n {
			c, err := tab.Capture()
			if err != nil {
				t.Fatalf("snapshot %d: %v", i, err)
			}
			obs := fuse.Snapshot(c, fuse.Options{})
			if !strings.Contains(obs.Snapshot, `heading "Ticker"`) {
				t.Fatalf("snapshot %d:\n%s", i, obs.Snapshot)
			}
			if i == 9 { // after warm-up
				heap0, rss0 = heapMB(), groupRSSMB(pgid)
			}
		}
		heap1, rss1 := heapMB(), groupRSSMB(pgid)
		t.Logf("%d snapshots in %s: Go heap %.1f → %.1f MB, Chromium RSS %.0f → %.0f MB",
			n, time.Since(start).Round(time.Millisecond), heap0, heap1, rss0, rss1)
		if heap1 > 2*heap0+16 {
			t.Errorf("the Go heap grew from %.1f to %.1f MB", heap0, heap1)
		}
	}()
	goleak.VerifyNone(t, ignore)
}

func TestEightTabsAtOnce(t *testing.T) {
	needChromium(t)
	pages := []string{"forms.html", "links.html", "listeners.html", "lists.html", "headings.html", "banner.html", "modal.html", "actions.html"}
	urls := make([]string, len(pages))
	for i, p := range pages {
		urls[i] = servePage(t, p)
	}
	ignore := goleak.IgnoreCurrent()
	func() {
		b, err := chrome.Open(context.Background(), chrome.Options{CallTimeout: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		var wg sync.WaitGroup
		errs := make([]error, len(urls))
		for i, u := range urls {
			wg.Go(func() {
				tab, err := b.NewTab()
				if err != nil {
					errs[i] = err
					return
				}
				defer tab.Close()
				if err := tab.Navigate(u, 0); err != nil {
					errs[i] = err
					return
				}
				for range 3 {
					c, err := tab.Capture()
					if err != nil {
						errs[i] = err
						return
					}
					if obs := fuse.Snapshot(c, fuse.Options{}); obs.Stats.Refs == 0 {
						errs[i] = fmt.Errorf("%s: no refs:\n%s", pages[i], obs.Snapshot)
						return
					}
				}
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("tab %d (%s): %v", i, pages[i], err)
			}
		}
	}()
	goleak.VerifyNone(t, ignore)
}

// TestSoakMCP clicks through the shop over one MCP session and watches the
// server's and Chromium's memory.
func TestSoakMCP(t *testing.T) {
	n := soakLength(30, 500)
	cs, server := mcpServer(t)
	text, _ := call(t, cs, "browser_navigate", map[string]any{"url": servePage(t, "shop.html")}, false)
	add := refOf(t, text, `clickable "Add to cart"`)
	var srv0, chr0 float64
	start := time.Now()
	for i := range n {
		text, _ := call(t, cs, "browser_click", map[string]any{"ref": add}, false)
		if !strings.Contains(text, "Cart: "+strconv.Itoa(i+1)+" item") {
			t.Fatalf("action %d: the cart does not count it:\n%s", i, text)
		}
		if i == 9 {
			srv0, chr0 = treeRSSMB(server.Process.Pid)
		}
	}
	srv1, chr1 := treeRSSMB(server.Process.Pid)
	t.Logf("%d MCP actions in %s (%.0f ms each): server RSS %.0f → %.0f MB, Chromium RSS %.0f → %.0f MB",
		n, time.Since(start).Round(time.Millisecond), float64(time.Since(start).Milliseconds())/float64(n), srv0, srv1, chr0, chr1)
}

// treeRSSMB is the resident memory of a process and, apart, of all its
// descendants (the browser it launched).
func treeRSSMB(pid int) (own, children float64) {
	parent := map[int]int{}
	rss := map[int]float64{}
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		id, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) < 2 {
			continue
		}
		parent[id], _ = strconv.Atoi(f[1])
		status, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "status"))
		for _, line := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
				rss[id] = kb / 1024
			}
		}
	}
	for id, mb := range rss {
		if id == pid {
			own += mb
			continue
		}
		for p, hops := parent[id], 0; p > 1 && hops < 64; p, hops = parent[p], hops+1 {
			if p == pid {
				children += mb
				break
			}
		}
	}
	return own, children
}
