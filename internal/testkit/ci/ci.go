// Package ci says whether tests run under continuous integration, where
// what a test needs from the machine (Chromium, the shared corpus) must be
// there: a test that lacks it fails, never skips. Outside CI it skips, so
// that the pure tests run anywhere.
package ci

import (
	"os"
	"os/exec"
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

// A Child is one run of a test binary's tests in a child process.
type Child struct {
	CI   string   // the child's CI variable
	Env  []string // more of the child's environment ("K=V")
	Fail bool     // the child must fail, and skip nothing
	Want string   // text the child's output must hold
	Not  string   // text it must not hold ("" for none)
}

// RunChildren runs the tests of this test binary that match the pattern
// run, once per child, in a process whose PATH and HOME are empty
// temporary folders (no browser to find), and fails t when a child's
// outcome is not the one it names. It is how a package proves that its
// tests fail under CI, never skip, when the machine lacks what they need.
func RunChildren(t *testing.T, run string, children ...Child) {
	t.Helper()
	for _, c := range children {
		cmd := exec.Command(os.Args[0], "-test.run="+run, "-test.v", "-test.count=1")
		cmd.Env = append([]string{"PATH=" + t.TempDir(), "HOME=" + t.TempDir(), "CI=" + c.CI}, c.Env...)
		out, err := cmd.CombinedOutput()
		if failed := err != nil; failed != c.Fail || !strings.Contains(string(out), c.Want) {
			t.Errorf("CI=%q %v: failed %v, want %v, and %q in:\n%s", c.CI, c.Env, failed, c.Fail, c.Want, out)
		}
		if c.Fail && strings.Contains(string(out), "--- SKIP") {
			t.Errorf("CI=%q %v: a test skipped:\n%s", c.CI, c.Env, out)
		}
		if c.Not != "" && strings.Contains(string(out), c.Not) {
			t.Errorf("CI=%q %v: %q in:\n%s", c.CI, c.Env, c.Not, out)
		}
	}
}
