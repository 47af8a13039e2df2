package chrome

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// TestBrowserLeavesNoTemporaryFiles launches Chromium with TMPDIR pointing
// at an empty directory, captures a page, and closes it: nothing may stay
// behind there. Stopped as chromedp stops it, Chromium used to leave its
// singleton directory (org.chromium.Chromium.*) on every run, hundreds a
// day under tests. A browser that crashed first is cleaned up too.
func TestBrowserLeavesNoTemporaryFiles(t *testing.T) {
	requireBrowser(t)
	for _, crash := range []bool{false, true} {
		dir := t.TempDir()
		t.Setenv("TMPDIR", dir)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		b, err := Open(ctx, Options{CallTimeout: 20 * time.Second})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		tab, err := b.NewTab()
		if err == nil {
			err = tab.Navigate("data:text/html,<button>Pay</button>", 0)
		}
		if err == nil {
			_, err = tab.Capture()
		}
		if err != nil {
			t.Fatal(err)
		}
		if crash {
			// The browser dies under the call: its answer never comes.
			_ = bounded(2*time.Second, func() error { _, err := chromedp.CallBrowser(b.ctx, browser.Crash, cdp.Empty{}); return err })
			for deadline := time.Now().Add(10 * time.Second); b.Alive() && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
		}
		tab.Close()
		b.Close()
		cancel()
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			t.Errorf("crashed %v: %s left in the temporary directory", crash, e.Name())
		}
	}
}

// TestLongTemporaryFolderIsSaid: with a TMPDIR too long for Chromium's
// singleton socket, Chromium exits at once with a FATAL line; the error
// says what to change, in one line, and nothing is left behind.
func TestLongTemporaryFolderIsSaid(t *testing.T) {
	requireBrowser(t)
	dir := filepath.Join(t.TempDir(), strings.Repeat("long-", 16))
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := Open(ctx, Options{CallTimeout: 20 * time.Second})
	if err == nil {
		b.Close()
		t.Fatalf("Chromium started with a %d-byte TMPDIR: the test no longer tests anything", len(dir))
	}
	if want := "set TMPDIR to a shorter one"; !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q: want one line saying %q", err, want)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("%s left in the temporary directory", e.Name())
	}
}
