package chrome

// Launching a browser: finding Chromium, its flags, its profile.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/chromedp/chromedp"
)

// ErrNoBrowser is returned when no Chromium executable can be found.
var ErrNoBrowser = errors.New("no Chromium found: install Debian's chromium package (apt-get install chromium), pass --browser PATH, or attach to a running browser with --cdp URL")

// candidates are the executable names tried, in order.
var candidates = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"}

// FindBrowser returns the browser executable: override when given (it must
// exist), else the first candidate on PATH.
func FindBrowser(override string) (string, error) {
	if override != "" {
		p, err := exec.LookPath(override)
		if err != nil {
			return "", fmt.Errorf("browser %q: %w", override, err)
		}
		return p, nil
	}
	for _, name := range candidates {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoBrowser
}

func launchFlags(path string, opts Options) []chromedp.ExecAllocatorOption {
	flags := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("hide-scrollbars", true),
		// chromedp turns Chromium's IPC flooding protection off (after
		// Puppeteer); with it off a page that calls history.pushState
		// 5,000 times while loading holds the browser for 26–40 s (2 s
		// with it on, as Chrome ships): a page must not be able to wedge
		// the tab.
		chromedp.Flag("disable-ipc-flooding-protection", false),
		// A page restored from the back/forward cache comes back as it
		// was left, timers stopped: the guard of the click that left it
		// was still armed and stopped the next action's events (guard.js
		// now disarms on pagehide). After `back` the agent observes a page
		// loaded afresh.
		chromedp.Flag("disable-back-forward-cache", true),
		chromedp.WindowSize(opts.Width, opts.Height),
	)
	if os.Geteuid() == 0 {
		flags = append(flags, chromedp.NoSandbox)
	}
	if opts.LoopbackOnly {
		flags = append(flags, chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]"))
	}
	return flags
}

// afterwards returns cancel followed by then.
func afterwards(cancel context.CancelFunc, then func()) context.CancelFunc {
	return func() { cancel(); then() }
}

// removeProfile removes a launched browser's profile once the browser has
// exited (chromedp's cancel waits for that), and the directory its
// SingletonSocket link points to: Chromium makes that one in the
// temporary directory (org.chromium.Chromium.*) and, stopped as chromedp
// stops it or crashed, leaves it there, one a run. Only the two entries
// Chromium puts there are removed, and then the directory if empty. A
// child process may still be writing to the profile for a moment, so its
// removal is tried again for up to a second.
func removeProfile(profile string) {
	if sock, err := os.Readlink(filepath.Join(profile, "SingletonSocket")); err == nil && filepath.Base(sock) == "SingletonSocket" {
		singleton := filepath.Dir(sock)
		os.Remove(sock)
		os.Remove(filepath.Join(singleton, "SingletonCookie"))
		os.Remove(singleton)
	}
	for deadline := time.Now().Add(time.Second); ; time.Sleep(20 * time.Millisecond) {
		if err := os.RemoveAll(profile); err == nil || time.Now().After(deadline) {
			return
		}
	}
}

// removeSingleton removes the empty singleton directory dir a browser
// that could not start named in its output, if it lies in our temporary
// folder (os.Remove takes empty directories only).
func removeSingleton(dir string) {
	if dir != "" && filepath.Dir(dir) == filepath.Clean(os.TempDir()) {
		os.Remove(dir)
	}
}
