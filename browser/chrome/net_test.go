package chrome

import (
	"testing"
	"time"
)

// TestNetActivityInAnyOrder: a request whose end is handled before its
// start (separate event subscriptions) leaves nothing in flight; a redirect
// (two starts, one end) ends once; a request that never ends stays.
func TestNetActivityInAnyOrder(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events []string // "+id" start, "-id" end
		quiet  bool
	}{
		{"in order", []string{"+a", "-a"}, true},
		{"end first", []string{"-a", "+a"}, true},
		{"redirect", []string{"+a", "+a", "-a"}, true},
		{"two, one ends first", []string{"-b", "+a", "+b", "-a"}, true},
		{"never ends", []string{"+a", "-b", "+b"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n netActivity
			for _, e := range tc.events {
				if e[0] == '+' {
					n.start(e[1:])
				} else {
					n.end(e[1:])
				}
			}
			n.changed = time.Now().Add(-time.Second)
			if got := n.quietFor(300 * time.Millisecond); got != tc.quiet {
				t.Errorf("quiet %v, want %v (in flight %v, ended early %v)", got, tc.quiet, n.inflight, n.ended)
			}
		})
	}
}

// TestNetActivityForgetsOldEarlyEnds: a page cannot grow the memory of
// ends seen before their starts without bound.
func TestNetActivityForgetsOldEarlyEnds(t *testing.T) {
	var n netActivity
	for k := 0; k < 3*maxEarlyEnds; k++ {
		n.end(string(rune('a'+k%26)) + time.Duration(k).String())
	}
	if len(n.ended) > maxEarlyEnds || len(n.endOrder) > maxEarlyEnds {
		t.Errorf("%d ends remembered, %d in order; bound %d", len(n.ended), len(n.endOrder), maxEarlyEnds)
	}
}
