package chrome

import (
	"os"
	"testing"

	"github.com/axfuse/axfuse/internal/testkit/ci"
)

// TestMissingChromiumFailsUnderCI runs every test of this package in a
// child test process with no browser on PATH: under CI the browser tests
// must fail, and no test may skip; outside CI they skip.
func TestMissingChromiumFailsUnderCI(t *testing.T) {
	if os.Getenv("AXFUSE_CHILD_TEST") != "" {
		return // the child runs the others
	}
	child := []string{"AXFUSE_CHILD_TEST=1"}
	ci.RunChildren(t, ".",
		ci.Child{CI: "true", Env: child, Fail: true, Want: "CI=true and no Chromium"},
		ci.Child{CI: "1", Env: child, Fail: true, Want: "CI=1 and no Chromium"},
		ci.Child{CI: "", Env: child, Want: "--- SKIP: TestPageLogKeepsEveryAnswer"})
}
