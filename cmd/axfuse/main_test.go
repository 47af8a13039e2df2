package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/internal/testkit/ci"
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
	code := runInOwnTemp(m)
	stopFarm()
	os.Exit(code)
}

// runInOwnTemp runs the tests with TMPDIR set to a directory of their own,
// removed afterwards: the CLI writes a snapshot's screenshot to a new
// temporary file when no --screenshot names one, and the tests would
// otherwise leave those behind on every run.
func runInOwnTemp(m *testing.M) int {
	dir, err := os.MkdirTemp("", "axfuse-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Setenv("TMPDIR", dir)
	return m.Run()
}

// TestMissingChromiumFailsUnderCI runs end-to-end tests in a child test
// process with no browser on PATH: under CI they must fail, both at the
// package's start and in needChromium itself (the start check turned off);
// outside CI they skip. Every way a test reaches Chromium is in the list:
// the CLI, an attached browser, an in-process one, the MCP server.
func TestMissingChromiumFailsUnderCI(t *testing.T) {
	startCheckOff := []string{"AXFUSE_TEST_NO_PRECHECK=1"}
	ci.RunChildren(t, "^(TestHiddenTextNeverPrinted|TestActBoxlessLink|TestActTypesIntoATerminalsClearField|TestVisitedLinksAreSeenAsPainted|TestActFollowsAnElementAHoverMoves|"+
		"TestJourneyScrollThenClick|TestJourneyScrollThenClickThroughCLIAndMCP|TestJourneyFormNavigationReRender|TestJourneyClickAfterBack|TestKeyTraps|TestKeyTrapsThroughCLIAndMCP|TestSlideTraps|TestFloodsThroughMCP|TestHistoryFloodThroughCLI|TestBatchStoppedHalfwayResumes|TestBatchOrderedKeepsTheListsOrder|TestBatchRetriesAPageWhoseSessionWasLost|TestGroundTruthIsOfTheCapturesMoment|TestMCPSessionsDoNotWaitForEachOther|TestAWrongTokenThroughAFarm|TestMCPSessionsThroughAFarm|"+
		"TestNativeControls|TestOutcomeTraps|TestChordAsTheFirstAction|TestOriginPolicyHoldsAtTheNetwork|TestSmugglingThroughTheCLI|TestSmugglingThroughMCP|TestHiddenOptionsAreNotPrinted|TestNamesAndPaintThroughTheCLI|TestNamesAndPaintThroughMCP|TestNamesAndPaintLabelsAreThePixels|TestImageNamesAgreeWithPixelsOnTheCorpus|TestModalDialogScopesTheSnapshot)$",
		ci.Child{CI: "true", Fail: true, Want: "CI=true and no Chromium"},
		ci.Child{CI: "true", Env: startCheckOff, Fail: true, Want: "CI=true and no Chromium"},
		ci.Child{CI: "1", Env: startCheckOff, Fail: true, Want: "CI=1 and no Chromium"},
		ci.Child{CI: "", Want: "--- SKIP: TestHiddenTextNeverPrinted"})
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

// TestLongTestsAreNamedSo: make test leaves out the tests named
// …OnTheCorpus (-skip) and make test-long runs them, so a test of the
// whole corpus (one that checks -short) must be named so, or CI would run
// it twice or make test would take its minutes; and a test so named must
// be one of them.
func TestLongTestsAreNamedSo(t *testing.T) {
	for _, dir := range []string{".", "../../browser/chrome"} {
		files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no tests in %s: %v", dir, err)
		}
		for _, file := range files {
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			src, _ := os.ReadFile(file)
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Test") || fd.Body == nil || fd.Name.Name == "TestLongTestsAreNamedSo" {
					continue
				}
				body := string(src[fd.Body.Pos()-f.FileStart : fd.Body.End()-f.FileStart])
				long := strings.Contains(body, "corpusPages(t)") || strings.Contains(body, "testing.Short()")
				if named := strings.HasSuffix(fd.Name.Name, "OnTheCorpus"); long != named {
					t.Errorf("%s (%s): skips under -short %v, named …OnTheCorpus %v", fd.Name.Name, file, long, named)
				}
				farmed := strings.Contains(body, "startFarm(t)")
				if named := strings.HasSuffix(fd.Name.Name, "ThroughAFarm"); farmed != named {
					t.Errorf("%s (%s): starts the farm %v, named …ThroughAFarm %v", fd.Name.Name, file, farmed, named)
				}
			}
		}
	}
}
