package chrome

import (
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
)

// TestSettleTrackerJudgesRequests feeds the tracker the events of an
// action, in order, and checks which requests it holds the wait for.
func TestSettleTrackerJudgesRequests(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	sent := func(id, url string, typ network.ResourceType) *network.EventRequestWillBeSent {
		return &network.EventRequestWillBeSent{RequestID: network.RequestID(id), Request: &network.Request{URL: url}, Type: typ, FrameID: "main"}
	}
	answered := func(id string) *network.EventResponseReceived {
		return &network.EventResponseReceived{RequestID: network.RequestID(id)}
	}
	done := func(id string) *network.EventLoadingFinished {
		return &network.EventLoadingFinished{RequestID: network.RequestID(id)}
	}
	s := newSettleTracker("main")
	// Before the action: a long poll to an answering host, a request to
	// a host that never answers, and an answered one from that first host.
	s.event(sent("poll", "http://app.test/poll", network.ResourceTypeFetch), at(0))
	s.event(sent("dead", "http://dead.test/x", network.ResourceTypeScript), at(0))
	s.event(sent("ok", "http://app.test/ok", network.ResourceTypeFetch), at(500))
	s.event(answered("ok"), at(510))
	s.event(done("ok"), at(520))
	s.begin()
	s.arm(at(2000))
	for _, ev := range []any{
		sent("poll2", "http://app.test/poll", network.ResourceTypeFetch),    // the long poll again: background
		sent("beacon", "http://app.test/b", network.ResourceTypePing),       // a beacon: background
		sent("dead2", "http://dead.test/y", network.ResourceTypeFetch),      // the silent host: background
		sent("mine", "http://app.test/api", network.ResourceTypeFetch),      // the action's
		sent("img", "http://cdn.test/a.png", network.ResourceTypeImage),     // the action's
		sent("ws", "http://app.test/socket", network.ResourceTypeWebSocket), // a stream: background
	} {
		s.event(ev, at(2010))
	}
	v := s.view()
	if v.caused != 2 || v.ignored != 4 || len(v.inflight) != 2 {
		t.Fatalf("caused %d, ignored %d, in flight %v; want 2, 4, [api, a.png]", v.caused, v.ignored, v.inflight)
	}
	s.event(done("mine"), at(2300))
	s.event(&network.EventLoadingFailed{RequestID: "img"}, at(2400))
	if v := s.view(); len(v.inflight) != 0 || !v.lastEnd.Equal(at(2400)) {
		t.Fatalf("after both ended: in flight %v, last end %v", v.inflight, v.lastEnd)
	}
	s.end()
	// Outside an action nothing is judged.
	s.event(sent("later", "http://app.test/later", network.ResourceTypeFetch), at(3000))
	if v := s.view(); v.caused != 2 || len(v.inflight) != 0 {
		t.Fatalf("a request outside the action counted: %+v", v)
	}
}

// TestSettleTrackerFollowsNavigation: a navigation the action requested
// is pending until commit and DOMContentLoaded; a document request that
// ends with no commit (a 204, a download) ends it too.
func TestSettleTrackerFollowsNavigation(t *testing.T) {
	now := time.Unix(1000, 0)
	s := newSettleTracker("main")
	s.begin()
	s.arm(now)
	s.event(&page.EventFrameRequestedNavigation{FrameID: "main", URL: "http://app.test/next", Disposition: page.ClientNavigationDispositionCurrentTab}, now)
	if s.view().nav != navRequested {
		t.Fatal("a requested navigation is not pending")
	}
	s.event(&page.EventFrameNavigated{Frame: &cdp.Frame{ID: "main"}}, now)
	if s.view().nav != navCommitted {
		t.Fatal("the commit was not seen")
	}
	s.event(&page.EventDomContentEventFired{}, now)
	if s.view().nav != navLoaded {
		t.Fatal("DOMContentLoaded was not seen")
	}
	s.end()

	s.begin()
	s.arm(now)
	s.event(&network.EventRequestWillBeSent{RequestID: "doc", Request: &network.Request{URL: "http://app.test/204"}, Type: network.ResourceTypeDocument, FrameID: "main"}, now)
	if s.view().nav != navRequested {
		t.Fatal("a form's document request is not a navigation")
	}
	s.event(&network.EventLoadingFinished{RequestID: "doc"}, now)
	if s.view().nav != navNone {
		t.Fatal("a document request that ended with no commit still holds the wait")
	}
	// A navigation of another frame, or into a new tab, is not the tab's.
	s.event(&page.EventFrameRequestedNavigation{FrameID: "child", URL: "x", Disposition: page.ClientNavigationDispositionCurrentTab}, now)
	s.event(&page.EventFrameRequestedNavigation{FrameID: "main", URL: "x", Disposition: page.ClientNavigationDispositionNewTab}, now)
	if s.view().nav != navNone {
		t.Fatal("another frame's or a new tab's navigation held the wait")
	}
}
