package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
)

// TestResumeReadsWhatWasWritten: a resumed file's whole lines are the
// pages done, a line cut by the interruption is cut off the file, and a
// file of another list or with a page twice is refused.
func TestResumeReadsWhatWasWritten(t *testing.T) {
	pages := []string{"http://a/", "http://b/", "http://c/"}
	dir := t.TempDir()
	write := func(body string) string {
		p := filepath.Join(dir, "out.jsonl")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := write(`{"index":2,"url":"http://c/","ms":3}` + "\n" + `{"index":0,"url":"http://a/","error":"x"}` + "\n" + `{"index":1,"url":"http://b/","observ`)
	lines, written, err := readResumed[batchLine](p, pages)
	if err != nil || len(lines) != 2 || !written[0] || written[1] || !written[2] || lines[1].Error != "x" {
		t.Fatalf("lines %+v written %v err %v", lines, written, err)
	}
	if b, _ := os.ReadFile(p); !bytes.HasSuffix(b, []byte("\"x\"}\n")) {
		t.Errorf("the cut line was left: %q", b)
	}
	for body, want := range map[string]string{
		`{"index":1,"url":"http://elsewhere/"}` + "\n":                                  "another list",
		`{"index":7,"url":"http://a/"}` + "\n":                                          "another list",
		`{"index":0,"url":"http://a/"}` + "\n" + `{"index":0,"url":"http://a/"}` + "\n": "two lines",
	} {
		if _, _, err := readResumed[batchLine](write(body), pages); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error saying %q", body, err, want)
		}
	}
	// A compare run's summary line is not a page.
	if _, written, err := readResumed[batchLine](write(`{"index":0,"url":"http://a/"}`+"\n"+`{"summary":{"pages":1}}`+"\n"), pages); err != nil || len(written) != 1 {
		t.Errorf("with a summary line: %v %v", written, err)
	}
}

// TestOrderedLinesWaitForThoseBefore: with --ordered a line goes out once
// every page before it did; flush writes what an interrupted run left
// waiting; without it lines go out as they come.
func TestOrderedLinesWaitForThoseBefore(t *testing.T) {
	var out bytes.Buffer
	idx := func(l batchLine) int { return l.Index }
	w := newLineWriter(&out, true, []int{1, 3, 4, 6}, idx)
	var got []int
	for _, i := range []int{4, 1, 6} {
		for _, l := range w.write(batchLine{Index: i}) {
			got = append(got, l.Index)
		}
	}
	if len(got) != 1 || got[0] != 1 {
		t.Fatalf("written before 3 came: %v", got)
	}
	for _, l := range w.flush() {
		got = append(got, l.Index)
	}
	if len(got) != 3 || got[1] != 4 || got[2] != 6 || strings.Count(out.String(), "\n") != 3 {
		t.Errorf("after flush: %v, output %q", got, out.String())
	}
	out.Reset()
	w = newLineWriter(&out, false, []int{1, 2}, idx)
	if l := w.write(batchLine{Index: 2}); len(l) != 1 || !strings.Contains(out.String(), `"index":2`) {
		t.Errorf("unordered: %v %q", l, out.String())
	}
}

// TestNoPageStartsOnceStopped: once the run's context ends, no page is
// handed to a worker; every page before ran exactly once.
func TestNoPageStartsOnceStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	ran := map[int]int{}
	todo := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	eachPage(ctx, 2, todo, func(worker, i int) {
		if worker < 0 || worker > 1 {
			t.Errorf("worker %d", worker)
		}
		mu.Lock()
		ran[i]++
		if len(ran) == 4 {
			cancel()
		}
		mu.Unlock()
	})
	if len(ran) < 4 || len(ran) > 6 {
		t.Errorf("%d pages ran after the stop at 4", len(ran))
	}
	for i, n := range ran {
		if n != 1 {
			t.Errorf("page %d ran %d times", i, n)
		}
	}
}

// TestSameMomentReadsTheQuietCheck: a capture asked again after the hit
// tests says whether the page changed: reused (no), captured anew (yes),
// or nothing kept to compare with (not known).
func TestSameMomentReadsTheQuietCheck(t *testing.T) {
	for reuse, want := range map[domsnap.Reuse]moment{
		domsnap.Reused:         momentSame,
		domsnap.ReuseNone:      momentChanged,
		domsnap.ReuseNoneKept:  momentUnknown,
		domsnap.ReuseNeverKept: momentUnknown,
	} {
		if got := sameMoment(&domsnap.Capture{Reuse: reuse}); got != want {
			t.Errorf("%q: %s, want %s", reuse, got, want)
		}
	}
	if !keepsNone(&domsnap.Capture{Reuse: domsnap.ReuseNeverKept}) || keepsNone(&domsnap.Capture{Reuse: domsnap.ReuseNoneKept}) {
		t.Error("keepsNone misreads the first capture's check")
	}
}

// TestWrittenLinesKeepOnlyWhatTheSummaryNeeds: a written batch line lets
// its observation go and keeps its tokens for the summary.
func TestWrittenLinesKeepOnlyWhatTheSummaryNeeds(t *testing.T) {
	full := batchLine{Index: 0, MS: 5, Observation: &fuse.Observation{Stats: fuse.Stats{Tokens: 7}}}
	light := full.light()
	if light.Observation != nil || light.tokens != 7 {
		t.Errorf("light line: %+v", light)
	}
	if s := summarize([]batchLine{light, full, {Index: 2, Error: "x"}}); s.Tokens != 14 || s.Failures != 1 || s.Pages != 3 {
		t.Errorf("summary %+v", s)
	}
}
