// Package ci says whether tests run under continuous integration, where
// what a test needs from the machine (Chromium, the shared corpus) must be
// there: a test that lacks it fails, never skips. Outside CI it skips, so
// that the pure tests run anywhere.
package ci

import (
	"os"
	"strings"
	"testing"
)

// Running: CI is set to anything but empty, "false" or "0" (CI systems
// write "true", "1" or "yes").
func Running() bool {
	v := strings.ToLower(strings.TrimSpace(os.Getenv("CI")))
	return v != "" && v != "false" && v != "0"
}

// Need ends t when what it needs is missing (err not nil): a failure under
// CI, a skip elsewhere. The message names what is missing and why.
func Need(t testing.TB, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if Running() {
		t.Fatalf("CI=%s and no %s: %v", os.Getenv("CI"), what, err)
	}
	t.Skipf("no %s (under CI this fails): %v", what, err)
}
