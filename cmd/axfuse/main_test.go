package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/internal/ci"
)

// TestMain lets a test run the real command as a separate process: the
// test binary re-executes itself with AXFUSE_MAIN=1 and becomes axfuse.
func TestMain(m *testing.M) {
	if os.Getenv("AXFUSE_MAIN") == "1" {
		os.Args = append([]string{"axfuse"}, os.Args[1:]...)
		main()
		os.Exit(0)
	}
	// Under CI a missing Chromium fails the whole package at once (each
	// end-to-end test also fails on its own in needChromium): nothing is
	// skipped there.
	if ci.Running() && os.Getenv("AXFUSE_TEST_NO_PRECHECK") != "1" {
		if _, err := chrome.FindBrowser(""); err != nil {
			fmt.Fprintf(os.Stderr, "CI=%s and no Chromium: %v\n", os.Getenv("CI"), err)
			os.Exit(1)
		}
	}
	os.Exit(m.Run())
}

// TestMissingChromiumFailsUnderCI runs an end-to-end test in a child test
// process with no browser on PATH: under CI it must fail, both at the
// package's start and in needChromium itself (the start check turned off);
// outside CI it skips.
func TestMissingChromiumFailsUnderCI(t *testing.T) {
	for _, tc := range []struct {
		ci, noPrecheck string
		wantFail       bool
		want           string
	}{
		{"true", "", true, "CI=true and no Chromium"},
		{"true", "1", true, "CI=true and no Chromium"},
		{"1", "1", true, "CI=1 and no Chromium"},
		{"", "", false, "--- SKIP: TestHiddenTextNeverPrinted"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHiddenTextNeverPrinted$", "-test.v", "-test.count=1")
		cmd.Env = []string{"PATH=" + t.TempDir(), "HOME=" + t.TempDir(), "CI=" + tc.ci, "AXFUSE_TEST_NO_PRECHECK=" + tc.noPrecheck}
		out, err := cmd.CombinedOutput()
		if failed := err != nil; failed != tc.wantFail || !strings.Contains(string(out), tc.want) {
			t.Errorf("CI=%q, start check off %q: failed %v, want %v, and %q in:\n%s", tc.ci, tc.noPrecheck, failed, tc.wantFail, tc.want, out)
		}
		if tc.wantFail && strings.Contains(string(out), "SKIP") {
			t.Errorf("CI=%q: a test skipped:\n%s", tc.ci, out)
		}
	}
}

// runProcess runs axfuse as a separate process and returns its stdout.
func runProcess(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "AXFUSE_MAIN=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if err != nil {
		t.Logf("axfuse %v: %v: %s", args, err, errOut.String())
	}
	return out.String(), err
}
