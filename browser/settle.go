package browser

import (
	"fmt"
	"strings"
	"time"
)

// Settled is how the wait after an action ended: what the action caused
// and how long each part of it held the answer. The driver fills it;
// act turns it into notes and timings.
type Settled struct {
	// Waited is the whole wait, from the input to the answer.
	Waited time.Duration
	// Bound is the wait's limit; HitBound says the wait stopped there
	// with something still pending (Pending says what).
	Bound    time.Duration
	HitBound bool
	// Parts are when each thing the action caused was over, counted
	// from the input, in the order they are checked.
	Parts []SettlePart
	// Pending lists what was still going on when the wait stopped at its
	// bound ("2 requests the action caused: GET https://…").
	Pending []string
	// Ignored counts what the wait did not hold for: requests that were
	// background (polls, beacons, media, streams, hosts that do not
	// answer) and DOM changes of nodes that change on their own.
	IgnoredRequests, IgnoredMutations int
	// Navigated says the action started a navigation of the tab.
	Navigated bool
}

// SettlePart is one thing the wait held for: Name, how many of it
// (requests, timers, mutations), and when it was over after the input.
type SettlePart struct {
	Name  string
	Count int
	Done  time.Duration
}

// Settle part names.
const (
	PartNavigation = "navigation (commit and DOMContentLoaded)"
	PartRequests   = "requests the action caused"
	PartTimers     = "timers the action set"
	PartDOM        = "DOM changes the action caused (then quiet)"
	PartAnimations = "animations the action started"
)

// Summary is one line for an answer when the wait ran to its bound, ""
// when it did not.
func (s Settled) Summary() string {
	if !s.HitBound {
		return ""
	}
	return fmt.Sprintf("stopped waiting for the page after %s (the settle bound); still pending: %s",
		s.Bound.Round(time.Millisecond), strings.Join(s.Pending, "; "))
}
