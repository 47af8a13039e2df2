package ci

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestRunning(t *testing.T) {
	for v, want := range map[string]bool{"": false, "false": false, "0": false, " FALSE ": false,
		"true": true, "1": true, "yes": true, " True": true} {
		t.Setenv("CI", v)
		if got := Running(); got != want {
			t.Errorf("CI=%q: Running() = %v, want %v", v, got, want)
		}
	}
}

// TestNeedFailsUnderCI runs itself again in a child process, there as a
// test that lacks Chromium: under CI the child must fail, never skip;
// outside CI it skips.
func TestNeedFailsUnderCI(t *testing.T) {
	if os.Getenv("AXFUSE_CI_CHILD") != "" {
		Need(t, "Chromium", errors.New("not on PATH"))
		t.Log("went on")
		return
	}
	for _, tc := range []struct {
		ci       string
		wantFail bool
		want     string
	}{
		{"true", true, "CI=true and no Chromium: not on PATH"},
		{"1", true, "CI=1 and no Chromium"},
		{"", false, "--- SKIP: TestNeedFailsUnderCI"},
		{"false", false, "--- SKIP: TestNeedFailsUnderCI"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestNeedFailsUnderCI$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "AXFUSE_CI_CHILD=1", "CI="+tc.ci)
		out, err := cmd.CombinedOutput()
		if failed := err != nil; failed != tc.wantFail || !strings.Contains(string(out), tc.want) {
			t.Errorf("CI=%q: failed %v, want %v, and %q in:\n%s", tc.ci, failed, tc.wantFail, tc.want, out)
		}
		if tc.wantFail && (strings.Contains(string(out), "--- SKIP") || strings.Contains(string(out), "went on")) {
			t.Errorf("CI=%q: the test skipped or went on:\n%s", tc.ci, out)
		}
	}
}
