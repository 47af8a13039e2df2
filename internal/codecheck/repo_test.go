package codecheck

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// root is the repository's top, from this package's directory.
const root = "../.."

// repoFiles lists the repository's files, slash-separated and relative to
// its top: those git tracks and the new ones it does not ignore, less what
// is gone from the work tree and whatever lies under node_modules or
// testdata (npm's packages, and inputs that are data, not code).
func repoFiles(t *testing.T) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	var files []string
	for _, f := range strings.Split(string(bytes.TrimRight(out, "\x00")), "\x00") {
		if f == "" || skipped(f) {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			continue // deleted in the work tree, not yet in the index
		}
		files = append(files, f)
	}
	slices.Sort(files)
	files = slices.Compact(files)
	if len(files) == 0 {
		t.Fatal("git ls-files listed no file")
	}
	return files
}

func skipped(path string) bool {
	for _, dir := range strings.Split(path, "/") {
		if dir == "node_modules" || dir == "testdata" {
			return true
		}
	}
	return false
}

// goSources are the repository's non-test Go files.
func goSources(t *testing.T) []string {
	var out []string
	for _, f := range repoFiles(t) {
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") {
			out = append(out, f)
		}
	}
	return out
}

func read(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// judge fails the test on each finding ("file: what").
func judge(t *testing.T, findings []string) {
	t.Helper()
	slices.Sort(findings)
	for _, f := range slices.Compact(findings) {
		t.Error(f)
	}
}
