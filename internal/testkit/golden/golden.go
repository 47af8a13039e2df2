// Package golden compares test output with files under testdata, and
// rewrites them when the test runs with -update.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Check compares got with the golden file at path (rewriting it under
// -update) and reports a difference with the first differing line.
func Check(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from the output (run with -update to accept):\n%s", path, firstDiff(string(want), string(got)))
	}
}

func firstDiff(want, got string) string {
	line := 1
	for i := 0; i < len(want) && i < len(got); i++ {
		if want[i] != got[i] {
			return "line " + itoa(line) + ":\nwant: " + lineAt(want, i) + "\ngot:  " + lineAt(got, i)
		}
		if want[i] == '\n' {
			line++
		}
	}
	return "one is a prefix of the other (lengths " + itoa(len(want)) + " and " + itoa(len(got)) + ")"
}

func lineAt(s string, i int) string {
	start, end := i, i
	for start > 0 && s[start-1] != '\n' {
		start--
	}
	for end < len(s) && s[end] != '\n' {
		end++
	}
	return s[start:end]
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// Captures lists the recorded captures under the repository's
// testdata/captures, by name.
func Captures(t testing.TB, root string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "testdata", "captures", "*.capture.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded captures under %s/testdata/captures: %v", root, err)
	}
	out := map[string]string{}
	for _, f := range files {
		name := filepath.Base(f)
		out[name[:len(name)-len(".capture.json")]] = f
	}
	return out
}
