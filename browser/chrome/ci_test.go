package chrome

import (
	"os"
	"testing"

	"github.com/axfuse/axfuse/internal/ci"
)

// TestMissingChromiumFailsUnderCI runs this package's browser tests in a
// child test process with no browser on PATH: under CI they must fail,
// never skip; outside CI they skip.
func TestMissingChromiumFailsUnderCI(t *testing.T) {
	if os.Getenv("AXFUSE_CHILD_TEST") != "" {
		t.Skip("in the child process")
	}
	child := []string{"AXFUSE_CHILD_TEST=1"}
	ci.RunChildren(t, "^(TestPageLogKeepsEveryAnswer|TestCaptureReuseOnlyWhenNothingChanged|TestIncrementalCaptureEqualsWhole)$",
		ci.Child{CI: "true", Env: child, Fail: true, Want: "CI=true and no Chromium"},
		ci.Child{CI: "1", Env: child, Fail: true, Want: "CI=1 and no Chromium"},
		ci.Child{CI: "", Env: child, Want: "--- SKIP: TestPageLogKeepsEveryAnswer"})
}
