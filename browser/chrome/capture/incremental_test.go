package capture

import (
	"testing"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/accessibility"
)

// TestNoMemoWithoutSettleCounts: a capture made while settle.js's counts
// could not be read (a loaded machine, a busy page) keeps no memo, so the
// next capture cannot take the counts' arrival for a shadow root attached,
// and says why it walked everything.
func TestNoMemoWithoutSettleCounts(t *testing.T) {
	frames := []frameInfo{{loader: "L1"}}
	c := &domsnap.Capture{Documents: []domsnap.Document{{Nodes: []domsnap.Node{{Type: domsnap.DocumentNode, Backend: 1}}}}}
	res := &viewResult{Gen: 3, Docs: make([]viewDoc, 1)}
	for _, tc := range []struct {
		name       string
		kept, next int64
		why        string
	}{
		{"counts read both times", 0, 0, ""},
		{"a shadow root attached in between", 0, 1, "a shadow root attached or a constructed style sheet edited"},
		{"counts unknown at the last capture", -1, 0, "settle.js's counts unknown at the last capture"},
		{"counts unknown now", 0, -1, "settle.js's counts unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &Engine{}
			next := &viewMemo{ax: map[int64][]*accessibility.Node{}}
			e.keepMemo(c, next, frames, 0, 0, res, tc.kept)
			m, why := e.memoFor(frames, 0, 0, tc.next)
			if why != tc.why || (m != nil) != (tc.why == "") {
				t.Errorf("memo %v, why %q; want why %q", m != nil, why, tc.why)
			}
		})
	}
}
