package codecheck

import (
	"regexp"
	"testing"
)

// TestMakeTestRunsTheJavaScriptChecks: the JavaScript's lint and unit
// tests run in make test (issue 51), and so in CI: the test target needs
// the js target, which runs scripts/js-check.sh.
func TestMakeTestRunsTheJavaScriptChecks(t *testing.T) {
	mk := read(t, "Makefile")
	if !regexp.MustCompile(`(?m)^test:.*\bjs\b`).Match(mk) {
		t.Error("the Makefile's test target does not need js")
	}
	if !regexp.MustCompile(`(?m)^js:.*\n\t@?\./scripts/js-check\.sh\s*$`).Match(mk) {
		t.Error("the Makefile's js target does not run ./scripts/js-check.sh")
	}
}
