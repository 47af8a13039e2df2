package codecheck

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

const (
	maxGoLines = 700 // a non-test Go file
	maxJSLines = 400 // a JavaScript file, tests included
)

// TestNoGoFileOver700Lines: a non-test Go file holds one feature, and one
// feature fits in 700 lines; a bigger file holds several.
func TestNoGoFileOver700Lines(t *testing.T) {
	var findings []string
	for _, f := range goSources(t) {
		if n := lines(read(t, f)); n > maxGoLines {
			t.Logf("%s: %d lines", f, n)
			findings = append(findings, fmt.Sprintf("%s: over %d lines", f, maxGoLines))
		}
	}
	judge(t, findings)
}

// TestNoJSFileOver400Lines: the same for JavaScript (the page scripts,
// their tests and the Node scripts), whose files join by feature.
func TestNoJSFileOver400Lines(t *testing.T) {
	var findings []string
	checked := 0
	for _, f := range repoFiles(t) {
		if !strings.HasSuffix(f, ".js") && !strings.HasSuffix(f, ".cjs") && !strings.HasSuffix(f, ".mjs") {
			continue
		}
		checked++
		if n := lines(read(t, f)); n > maxJSLines {
			t.Logf("%s: %d lines", f, n)
			findings = append(findings, fmt.Sprintf("%s: over %d lines", f, maxJSLines))
		}
	}
	if checked == 0 {
		t.Fatal("no JavaScript file was checked")
	}
	judge(t, findings)
}

// lines counts a file's lines as wc -l does, and a last line with no
// newline as one more.
func lines(b []byte) int {
	n := bytes.Count(b, []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
