package chrome

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMissingChromiumFailsUnderCI runs this package's browser tests in a
// child test process with no browser on PATH: under CI they must fail,
// never skip; outside CI they skip.
func TestMissingChromiumFailsUnderCI(t *testing.T) {
	if os.Getenv("AXFUSE_CHILD_TEST") != "" {
		t.Skip("in the child process")
	}
	const tests = "^(TestPageLogKeepsEveryAnswer|TestCaptureReuseOnlyWhenNothingChanged|TestIncrementalCaptureEqualsWhole)$"
	for _, tc := range []struct {
		ci       string
		wantFail bool
		want     string
	}{
		{"true", true, "CI=true and no Chromium"},
		{"1", true, "CI=1 and no Chromium"},
		{"", false, "--- SKIP: TestPageLogKeepsEveryAnswer"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run="+tests, "-test.v", "-test.count=1")
		cmd.Env = []string{"PATH=" + t.TempDir(), "HOME=" + t.TempDir(), "CI=" + tc.ci, "AXFUSE_CHILD_TEST=1"}
		out, err := cmd.CombinedOutput()
		if failed := err != nil; failed != tc.wantFail || !strings.Contains(string(out), tc.want) {
			t.Errorf("CI=%q: failed %v, want %v, and %q in:\n%s", tc.ci, failed, tc.wantFail, tc.want, out)
		}
		if tc.wantFail && strings.Contains(string(out), "--- SKIP") {
			t.Errorf("CI=%q: a test skipped:\n%s", tc.ci, out)
		}
	}
}
