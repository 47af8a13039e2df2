package ci

import (
	"errors"
	"os"
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
// test that lacks Chromium: under CI the child must fail, never skip or go
// on; outside CI it skips.
func TestNeedFailsUnderCI(t *testing.T) {
	if os.Getenv("AXFUSE_CI_CHILD") != "" {
		Need(t, "Chromium", errors.New("not on PATH"))
		t.Log("went on")
		return
	}
	child := []string{"AXFUSE_CI_CHILD=1"}
	RunChildren(t, "^TestNeedFailsUnderCI$",
		Child{CI: "true", Env: child, Fail: true, Want: "CI=true and no Chromium: not on PATH", Not: "went on"},
		Child{CI: "1", Env: child, Fail: true, Want: "CI=1 and no Chromium", Not: "went on"},
		Child{CI: "", Env: child, Want: "--- SKIP: TestNeedFailsUnderCI"},
		Child{CI: "false", Env: child, Want: "--- SKIP: TestNeedFailsUnderCI"})
}

// TestRunChildrenFails: RunChildren reports a child whose outcome is not
// the one asked (run in a child itself, so that its failure is seen, not
// suffered).
func TestRunChildrenFails(t *testing.T) {
	switch os.Getenv("AXFUSE_CI_CHILD") {
	case "":
	case "inner":
		Need(t, "Chromium", errors.New("not on PATH"))
		return
	default:
		// The inner child fails (CI=true, no Chromium); asked to pass, the
		// harness must say so.
		RunChildren(t, "^TestRunChildrenFails$", Child{CI: "true", Env: []string{"AXFUSE_CI_CHILD=inner"}, Want: "CI=true and no Chromium"})
		return
	}
	RunChildren(t, "^TestRunChildrenFails$", Child{CI: "", Env: []string{"AXFUSE_CI_CHILD=outer"}, Fail: true, Want: "failed true, want false"})
}
