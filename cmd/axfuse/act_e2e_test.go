package main

// End-to-end tests of acting by ref: `snapshot --cdp` then `act --cdp` as
// separate runs that share nothing but the session file, against a browser
// started with a remote-debugging port.

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// refOf finds the ref of the first line matching pattern (e.g. `clickable "Add to cart"`).
func refOf(t *testing.T, yaml, line string) string {
	t.Helper()
	ref := refIn(yaml, line)
	if ref == "" {
		t.Fatalf("no ref for %s in:\n%s", line, yaml)
	}
	return ref
}

// refIn is the ref on the snapshot line holding line, "" for none; safe
// from any goroutine.
func refIn(yaml, line string) string {
	m := regexp.MustCompile(regexp.QuoteMeta(line) + `[^\n]*\[ref=(e\d+)\]`).FindStringSubmatch(yaml)
	if m == nil {
		return ""
	}
	return m[1]
}

func attachedPage(t *testing.T, page string) (endpoint, first string) {
	t.Helper()
	needChromium(t)
	return attachedURL(t, servePage(t, page), `heading "Shop"`)
}

// attachedURL starts a browser with a debugging port showing url and waits
// until a snapshot of it contains want.
func attachedURL(t *testing.T, url, want string) (endpoint, first string) {
	t.Helper()
	browser := needChromium(t)
	endpoint = debugBrowser(t, browser, url)
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // a session of this test's own
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if first = mustCLI(t, "snapshot", "--cdp", endpoint); strings.Contains(first, want) {
			return endpoint, first
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("the page never showed %s:\n%s", want, first)
	return
}

func TestActByRef(t *testing.T) {
	endpoint, first := attachedPage(t, "actions.html")
	// snapshot then act in two real processes, sharing the session file.
	snap, err := runProcess(t, "snapshot", "--cdp", endpoint)
	if err != nil {
		t.Fatal(err)
	}
	add := refOf(t, snap, `clickable "Add to cart"`)
	if refOf(t, first, `clickable "Add to cart"`) != add {
		t.Errorf("ref %s of the separate process's snapshot is not the session's:\n%s\nbefore:\n%s", add, snap, first)
	}
	out, err := runProcess(t, "act", "--cdp", endpoint, "click", add)
	if err != nil || !strings.Contains(out, "added to cart") {
		t.Fatalf("clicking %s did not reach the listener div (%v):\n%s", add, err, out)
	}
	if refOf(t, out, `clickable "Add to cart"`) != add {
		t.Errorf("ref %s changed across snapshots of the same document:\n%s", add, out)
	}

	// Typing into the search field and submitting the form.
	q := refOf(t, out, `textbox "Search"`)
	out = mustCLI(t, "act", "--cdp", endpoint, "type", q, "lanterns", "--submit")
	if !strings.Contains(out, "searched lanterns") {
		t.Fatalf("type --submit did not submit:\n%s", out)
	}
	out = mustCLI(t, "act", "--cdp", endpoint, "type", q, "tents", "--clear", "--submit")
	if !strings.Contains(out, "searched tents") {
		t.Fatalf("type --clear did not replace the text:\n%s", out)
	}

	// select, check, uncheck, fill, drag.
	out = mustCLI(t, "act", "--cdp", endpoint, "select", refOf(t, out, `combobox "Size"`), "Large")
	if !strings.Contains(out, "size Large") {
		t.Fatalf("select did not pick Large:\n%s", out)
	}
	gift := refOf(t, out, `checkbox "Gift wrap"`)
	out = mustCLI(t, "act", "--cdp", endpoint, "check", gift)
	if !strings.Contains(out, "gift true") || !strings.Contains(out, `checkbox "Gift wrap" [checked]`) {
		t.Fatalf("check did not check:\n%s", out)
	}
	out = mustCLI(t, "act", "--cdp", endpoint, "check", gift) // already checked: nothing to do
	if !strings.Contains(out, "gift true") || !strings.Contains(out, `checkbox "Gift wrap" [checked]`) {
		t.Fatalf("check of a checked box did not leave it checked:\n%s", out)
	}
	out = mustCLI(t, "act", "--cdp", endpoint, "uncheck", gift)
	if !strings.Contains(out, "gift false") {
		t.Fatalf("uncheck did not uncheck:\n%s", out)
	}
	out = mustCLI(t, "act", "--cdp", endpoint, "fill", q+"=stoves")
	if !strings.Contains(out, `textbox "Search" [ref=`+q+`]: stoves`) {
		t.Fatalf("fill did not set the field:\n%s", out)
	}
	out = mustCLI(t, "act", "--cdp", endpoint, "drag", refOf(t, out, `clickable "Drag me"`), refOf(t, out, `clickable "Drop here"`))
	if !strings.Contains(out, "dropped") {
		t.Fatalf("drag did not drop:\n%s", out)
	}

	// A JavaScript dialog the action opens is answered as --dialog says and
	// reported.
	del := refOf(t, out, `button "Delete all"`)
	out = mustCLI(t, "act", "--cdp", endpoint, "click", del)
	if !strings.HasPrefix(out, `- note: confirm dialog "Delete everything?" was dismissed`) || !strings.Contains(out, "paragraph: kept") {
		t.Fatalf("the dismissed confirm dialog was not reported:\n%s", out)
	}
	out = mustCLI(t, "act", "--cdp", endpoint, "--dialog", "accept", "click", del)
	if !strings.HasPrefix(out, `- note: confirm dialog "Delete everything?" was accepted`) || !strings.Contains(out, "paragraph: confirmed") {
		t.Fatalf("the accepted confirm dialog was not reported:\n%s", out)
	}

	// A label in front of a hidden checkbox is the target.
	out = mustCLI(t, "act", "--cdp", endpoint, "click", refOf(t, out, `clickable "Dark mode"`))
	if !strings.Contains(out, "dark true") {
		t.Fatalf("clicking the label did not toggle its hidden checkbox:\n%s", out)
	}

	// A file chooser is reported, and answered by upload.
	file := refOf(t, out, `button "Receipt"`)
	out = mustCLI(t, "act", "--cdp", endpoint, "click", file)
	if !strings.HasPrefix(out, "- note: file chooser opened for "+file+", give it a file with act upload "+file+" FILE") {
		t.Fatalf("the file chooser was not reported:\n%s", out)
	}
	receipt := t.TempDir() + "/receipt.txt"
	os.WriteFile(receipt, []byte("paid"), 0o644)
	out = mustCLI(t, "act", "--cdp", endpoint, "upload", file, receipt)
	if !strings.Contains(out, "files 1 receipt.txt") {
		t.Fatalf("upload did not reach the input:\n%s", out)
	}

	// A stale ref: the node is removed after the snapshot.
	item := refOf(t, out, `clickable "Old item"`)
	out = mustCLI(t, "act", "--cdp", endpoint, "click", refOf(t, out, `button "Remove old item"`))
	if strings.Contains(out, `"Old item"`) {
		t.Fatalf("the old item was not removed:\n%s", out)
	}
	_, err = runCLI(t, "act", "--cdp", endpoint, "click", item)
	if err == nil || err.Error() != "Ref "+item+" not found in the current page snapshot" {
		t.Errorf("stale ref: error %v", err)
	}
	if strings.Contains(mustCLI(t, "snapshot", "--cdp", endpoint), "old item clicked") {
		t.Error("something was clicked for the stale ref")
	}

	// Covered after the snapshot: the promo banner opens over the page.
	before := mustCLI(t, "snapshot", "--cdp", endpoint)
	add = refOf(t, before, `clickable "Add to cart"`)
	mustCLI(t, "act", "--cdp", endpoint, "click", refOf(t, before, `button "Open promo"`))
	_, err = runCLI(t, "act", "--cdp", endpoint, "click", add)
	if err == nil || !strings.Contains(err.Error(), `covered by region "Promo"`) {
		t.Errorf("covered target: error %v", err)
	}
}

// TestActRefusesAChangedElement: the element behind a ref no longer looks
// like what the agent saw (here the session's fingerprint is edited to
// stand for a snapshot taken before the page renamed the element).
func TestActRefusesAChangedElement(t *testing.T) {
	endpoint, snap := attachedPage(t, "actions.html")
	add := refOf(t, snap, `clickable "Add to cart"`)
	files, _ := os.ReadDir(os.Getenv("XDG_CACHE_HOME") + "/axfuse/sessions")
	if len(files) != 1 {
		t.Fatalf("%d session files", len(files))
	}
	path := os.Getenv("XDG_CACHE_HOME") + "/axfuse/sessions/" + files[0].Name()
	raw, _ := os.ReadFile(path)
	var sess map[string]any
	if err := json.Unmarshal(raw, &sess); err != nil {
		t.Fatal(err)
	}
	for _, r := range sess["refs"].([]any) {
		if m := r.(map[string]any); m["ref"] == add {
			m["name"] = "Add to basket"
		}
	}
	raw, _ = json.Marshal(sess)
	os.WriteFile(path, raw, 0o600)
	_, err := runCLI(t, "act", "--cdp", endpoint, "click", add)
	want := `Ref ` + add + ` changed since the snapshot: was clickable "Add to basket" <div>, now clickable "Add to cart" <div>; nothing was done`
	if err == nil || err.Error() != want {
		t.Errorf("error %v,\nwant %s", err, want)
	}
	if strings.Contains(mustCLI(t, "snapshot", "--cdp", endpoint), "added to cart") {
		t.Error("the changed element was clicked")
	}
}

// TestActScrollByWheel: `act scroll` turns the wheel; the long table moves
// and the rows seen first collapse above. On a page of 7,000 elements the
// snapshot is a viewport capture, and a ref scrolled out of it still
// resolves (act looks for it in a full capture) and scrolls back into view.
func TestActScrollByWheel(t *testing.T) {
	endpoint, snap := attachedURL(t, servePage(t, "big.html"), `heading "Inventory"`)
	first := refOf(t, snap, `link "Item 0"`)
	out := mustCLI(t, "act", "--cdp", endpoint, "scroll", "down")
	if !strings.Contains(out, "collapsed: above") || strings.Contains(out, `link "Item 0"`) {
		t.Fatalf("scroll down did not move the table:\n%s", out)
	}
	out = mustCLI(t, "act", "--cdp", endpoint, "scrollto", first)
	if !strings.Contains(out, `link "Item 0" [ref=`+first+`]`) {
		t.Fatalf("scrollto %s did not bring the first row back:\n%s", first, out)
	}
}
