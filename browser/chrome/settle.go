package chrome

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"sync"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The wait after an action holds for what the action caused, not for the
// whole page to fall silent: a navigation it started (to the new
// document's DOMContentLoaded), requests sent after the input that are
// not background, timers its event handlers set, DOM changes of nodes
// that do not change on their own or that the action's own timers,
// frames and intervals make, and animations it started. See
// docs/decisions/2026-12-02-settle-on-what-the-action-caused.md.

//go:embed settle.js
var settleJS string

const (
	// react is how long the page is given to dispatch the input before
	// the first look.
	react = 30 * time.Millisecond
	// domQuiet is how long no caused DOM change must come before the
	// answer; netQuiet likewise after the last caused request ended.
	domQuiet = 100 * time.Millisecond
	netQuiet = 50 * time.Millisecond
	// afterLoad is the quiet a new document gets after DOMContentLoaded.
	afterLoad = 150 * time.Millisecond
	// longAnimation: an animation with more left than this is not waited
	// for (as settle.js's LIMIT bounds timers, frames and intervals).
	longAnimation = 2 * time.Second
	// silentHost: a host with a request unanswered this long before the
	// action, that has answered nothing since that request went, does
	// not answer; the wait does not hold for it. (A long poll's host
	// answers other requests.)
	silentHost = time.Second
	// pollEvery is the wait's polling period.
	pollEvery = 25 * time.Millisecond
)

// settleTracker follows the tab's network and navigation events in the
// order they arrive (chromedp.Listen), and knows which requests and
// which navigation the current action caused.
type settleTracker struct {
	key   string // the page-side tracker's name on window (settle.js)
	frame string // the tab's main frame id (its target id)

	mu       sync.Mutex
	reqs     map[network.RequestID]*request
	action   bool // between Mark and the end of Settle
	armed    bool // the page side was armed for this action
	silent   map[string]bool
	answered map[string]time.Time // each host's last response
	bgURLs   map[string]bool
	ignored  int
	lastEnd  time.Time // the last caused request's end
	causedN  int
	nav      navState
	navURL   string
	navDoc   network.RequestID
	loadedAt time.Time // the new document's DOMContentLoaded
	// finished counts every request that ended: a picture (a CSS
	// background) can arrive with no DOM change.
	finished int
}

type navState int

const (
	navNone navState = iota
	navRequested
	navCommitted
	navLoaded
)

type request struct {
	url, host string
	typ       network.ResourceType
	start     time.Time
	answered  bool
	caused    bool
}

// background resource types: never what an action waits for.
var backgroundTypes = map[network.ResourceType]bool{
	network.ResourceTypePing: true, network.ResourceTypeMedia: true, network.ResourceTypeWebSocket: true,
	network.ResourceTypeEventSource: true, network.ResourceTypeManifest: true, network.ResourceTypePrefetch: true,
	network.ResourceTypeCSPViolationReport: true, network.ResourceTypeTextTrack: true, network.ResourceTypeFedCM: true,
}

// newSettleTracker follows the tab whose main frame (and target) is
// frame. The page-side name comes from the target id, so that every
// process acting on the tab (one `axfuse act` after another) finds the
// one installed tracker instead of wrapping the page's timers again; a
// page does not know its target id before the tracker is there.
func newSettleTracker(frame string) *settleTracker {
	sum := sha256.Sum256([]byte("axfuse settle " + frame))
	return &settleTracker{key: "__axfuse_settle_" + hex.EncodeToString(sum[:8]), frame: frame,
		reqs: map[network.RequestID]*request{}, answered: map[string]time.Time{}}
}

// watchSettle feeds the tracker from the tab's events, in order.
func (t *Tab) watchSettle() {
	st := newSettleTracker(t.TargetID())
	t.settle = st
	chromedp.Listen(t.ctx, func(ev any) { st.event(ev, time.Now()) })
}

// event takes one event; it runs on the tab's reading goroutine, so it
// only updates maps under the lock.
func (s *settleTracker) event(ev any, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		s.started(e, now)
	case *network.EventResponseReceived:
		if r := s.reqs[e.RequestID]; r != nil {
			r.answered = true
			if len(s.answered) < 1000 {
				s.answered[r.host] = now
			}
		}
	case *network.EventLoadingFinished:
		s.ended(e.RequestID, now)
	case *network.EventLoadingFailed:
		s.ended(e.RequestID, now)
	case *page.EventFrameRequestedNavigation:
		if string(e.FrameID) == s.frame && s.action && s.nav == navNone && e.Disposition == page.ClientNavigationDispositionCurrentTab {
			s.nav, s.navURL = navRequested, e.URL
		}
	case *page.EventFrameNavigated:
		if e.Frame != nil && e.Frame.ParentID == "" && s.action && s.nav == navRequested {
			s.nav = navCommitted
		}
	case *page.EventDomContentEventFired:
		if s.action && s.nav == navCommitted {
			s.nav, s.loadedAt = navLoaded, now
		}
	}
}

func (s *settleTracker) started(e *network.EventRequestWillBeSent, now time.Time) {
	if e.Request == nil {
		return
	}
	if old := s.reqs[e.RequestID]; old != nil && e.RedirectResponse != nil {
		old.url = e.Request.URL // a redirect keeps the request's id
		return
	}
	r := &request{url: e.Request.URL, typ: e.Type, start: now}
	if u, err := url.Parse(e.Request.URL); err == nil {
		r.host = u.Host
	}
	if s.action && s.armed {
		r.caused = s.isCaused(r)
		if !r.caused {
			s.ignored++
		} else {
			s.causedN++
		}
		if e.Type == network.ResourceTypeDocument && string(e.FrameID) == s.frame && s.nav == navNone {
			// A form's submission or a link the browser follows.
			s.nav, s.navURL, s.navDoc = navRequested, e.Request.URL, e.RequestID
		}
		if e.Type == network.ResourceTypeDocument && s.nav == navRequested {
			s.navDoc = e.RequestID
		}
	}
	if len(s.reqs) < 10000 { // a page that leaks requests must not grow us without bound
		s.reqs[e.RequestID] = r
	}
}

// isCaused says whether a request sent during the action is the
// action's: not a background kind, not a restart of one in flight when
// the action began (a long poll), not to a host that does not answer.
func (s *settleTracker) isCaused(r *request) bool {
	return !backgroundTypes[r.typ] && !s.bgURLs[r.url] && !s.silent[r.host] && r.host != ""
}

func (s *settleTracker) ended(id network.RequestID, now time.Time) {
	s.finished++
	r := s.reqs[id]
	delete(s.reqs, id)
	if r != nil && r.caused {
		s.lastEnd = now
	}
	if id == s.navDoc && s.nav == navRequested {
		// The document request ended with no commit (a 204, a download):
		// there is no new document to wait for.
		s.nav = navNone
	}
}

// begin starts an action: what is in flight now is background.
func (s *settleTracker) begin() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.action, s.armed = true, false
	s.ignored, s.causedN, s.lastEnd = 0, 0, time.Time{}
	s.nav, s.navURL, s.navDoc = navNone, "", ""
}

// arm marks the action's first input: requests from now on are judged.
func (s *settleTracker) arm(now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.action || s.armed {
		return false
	}
	s.armed = true
	s.silent, s.bgURLs = map[string]bool{}, map[string]bool{}
	for _, r := range s.reqs {
		r.caused = false
		s.bgURLs[r.url] = true
		if !r.answered && now.Sub(r.start) >= silentHost && r.host != "" && s.answered[r.host].Before(r.start) {
			s.silent[r.host] = true
		}
	}
	return true
}

// requestsEnded is how many requests of the tab have ended so far.
func (s *settleTracker) requestsEnded() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.finished
}

func (s *settleTracker) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.action, s.armed = false, false
}

// netView is the tracker's state for one look of the wait.
type netView struct {
	inflight        []string
	caused, ignored int
	lastEnd         time.Time
	nav             navState
	navURL          string
	loadedAt        time.Time
}

func (s *settleTracker) view() netView {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := netView{caused: s.causedN, ignored: s.ignored, lastEnd: s.lastEnd, nav: s.nav, navURL: s.navURL, loadedAt: s.loadedAt}
	for _, r := range s.reqs {
		if r.caused {
			v.inflight = append(v.inflight, r.url)
		}
	}
	sort.Strings(v.inflight)
	return v
}

// pageState is what settle.js reports.
type pageState struct {
	Caused        int     `json:"caused"`
	QuietFor      float64 `json:"quietFor"`
	Background    int     `json:"background"`
	Timers        int     `json:"timers"`
	TimerDue      float64 `json:"timerDue"`
	Animations    int     `json:"animations"`
	AnimationLeft float64 `json:"animationLeft"`
	Gen           string  `json:"gen"`  // op paint
	Sent          int     `json:"sent"` // fetch and XHR calls of the action's handlers
	Navigating    bool    `json:"navigating"`
	// Wide counts what the viewport memo cannot follow (shadow roots
	// attached, constructed style sheets edited); ListenSeq counts target
	// listeners added or removed.
	Wide      int64 `json:"wide"`
	ListenSeq int64 `json:"listenSeq"`
}

// pageSettle runs settle.js's op in the tab's main world (where the
// page's timers live). A document that went away mid-call is no error
// worth more than "no state".
//
// A JavaScript dialog blocks the page's script, and so any evaluation:
// with one open nothing is asked, and one that opens mid-call ends the
// call (the page waits for the dialog, and so does the answer). A page
// busy in a long script is given pageCall, not the whole call deadline.
func (t *Tab) pageSettle(op string) (pageState, error) {
	var ps pageState
	if t.OpenDialog() != nil {
		return ps, errDialogOpen
	}
	ctx, cancel := context.WithTimeout(t.ctx, min(pageCall, t.browser.opts.callTimeout()))
	defer cancel() // also ends a call left waiting on a dialog
	var got pageState
	err, dialog := t.unlessDialog(func() error { return t.evaluateSettle(ctx, op, &got) })
	if dialog {
		return ps, errDialogOpen
	}
	return got, err
}

// pageCall bounds one call of settle.js.
const pageCall = 2 * time.Second

var errDialogOpen = errors.New("a JavaScript dialog is open")

// evaluateSettle asks the installed tracker with a short call; only a
// document without one gets the whole script.
func (t *Tab) evaluateSettle(ctx context.Context, op string, ps *pageState) error {
	key := t.settle.key
	short := fmt.Sprintf("window[%q] ? window[%q].run(%q) : null", key, key, op)
	install := fmt.Sprintf("(%s)(%q, %q)", settleJS, key, op)
	return cdpcall.ShortElseInstall(short, install, func(expr string) error { return t.evaluateSettleWith(ctx, op, expr, ps) })
}

func (t *Tab) evaluateSettleWith(ctx context.Context, op, expression string, ps *pageState) error {
	return t.callIn(ctx, "Runtime.evaluate (settle "+op+")", func(ctx context.Context) error {
		res, err := cdpcall.Do(ctx, runtime.Evaluate, runtime.EvaluateParams{
			Expression: expression, ReturnByValue: new(true), Silent: new(true),
		})
		if err != nil {
			return err
		}
		if res.ExceptionDetails != nil {
			return fmt.Errorf("script threw: %s", cdpcall.ExceptionText(res.ExceptionDetails))
		}
		if res.Result == nil || res.Result.Type != runtime.RemoteObjectTypeObject || res.Result.Subtype == runtime.RemoteObjectSubtypeNull {
			return cdpcall.ErrNotInstalled
		}
		return json.Unmarshal(res.Result.Value, ps)
	})
}

// Mark numbers the present (Since(mark) is what came after it) and
// opens an action: the next input arms the wait that Settle ends.
func (t *Tab) Mark() int {
	if t.settle != nil {
		t.settle.begin()
	}
	t.act.mu.Lock()
	defer t.act.mu.Unlock()
	return t.act.seq
}

// watchDOM starts the page side's record of which nodes change on their
// own, so that the next action knows its background: an observation
// comes before an action (its refs), and so does this. A page that
// refuses is only waited for by the network and the bound.
// It returns settle.js's counts of what the viewport memo cannot follow
// and of target listeners added or removed, -1 each when unknown.
func (t *Tab) watchDOM() (wide, listenSeq int64) {
	if t.settle == nil {
		return -1, -1
	}
	ps, err := t.pageSettle("install")
	if err != nil {
		return -1, -1
	}
	return ps.Wide, ps.ListenSeq
}

// armSettle runs before each input: the first input of an action arms
// the page side, so that what the input's handlers set is the action's.
func (t *Tab) armSettle() {
	if t.settle == nil || !t.settle.arm(time.Now()) {
		return
	}
	t.pageSettle("arm") // a page that refuses is waited for by the network and the bound alone
}

// Settle waits, at most max from since (the input; zero: now), until
// what the action caused is over: a navigation it started has committed
// and reached DOMContentLoaded (then a short quiet), requests it caused
// have ended, timers its handlers set have run, DOM changes it caused
// (with those made by the frames and intervals it asked for, for two
// seconds at most) have been quiet for 100 ms, and animations it started
// (of at most two seconds, and of more than colours) have ended.
// Background activity — polls, beacons, media,
// streams, hosts that do not answer, nodes that change on their own —
// does not hold it. An open JavaScript dialog ends it at once: the page
// waits for the dialog.
func (t *Tab) Settle(max time.Duration, since time.Time) browser.Settled {
	if since.IsZero() {
		since = time.Now()
	}
	out := browser.Settled{Bound: max}
	if t.settle == nil {
		return out
	}
	defer t.endSettle()
	w := waiter{since: since, deadline: since.Add(max)}
	time.Sleep(time.Until(since.Add(react)))
	for {
		now := time.Now()
		nv := t.settle.view()
		var ps pageState
		pageErr := error(nil)
		if nv.nav == navNone || nv.nav == navLoaded {
			ps, pageErr = t.pageSettle("state")
		}
		if nv.nav == navLoaded && !w.rearmed {
			// The new document: its tracker starts now, and what it
			// changes from here on holds the answer as a caused change.
			w.rearmed = true
			ps, pageErr = t.pageSettle("arm")
		}
		pending := w.look(now, nv, ps, pageErr)
		if len(pending) == 0 || t.OpenDialog() != nil {
			break
		}
		if !now.Before(w.deadline) {
			out.HitBound, out.Pending = true, pending
			break
		}
		time.Sleep(min(pollEvery, time.Until(w.deadline)))
	}
	nv := t.settle.view()
	out.Waited = time.Since(since)
	out.Parts = w.parts()
	out.IgnoredRequests, out.IgnoredMutations = nv.ignored, w.background
	out.Navigated = nv.nav != navNone
	return out
}

func (t *Tab) endSettle() {
	t.settle.end()
	t.pageSettle("idle")
}

// waiter keeps, for each part of the wait, how many of it the action
// caused and when it was last seen pending.
type waiter struct {
	since, deadline time.Time
	rearmed         bool
	background      int
	navHint         time.Time // when the page said a navigation began
	seen            map[string]*browser.SettlePart
	order           []string
}

func (w *waiter) part(name string, count int, pendingNow bool, now time.Time) {
	if w.seen == nil {
		w.seen = map[string]*browser.SettlePart{}
	}
	p := w.seen[name]
	if p == nil {
		if count == 0 && !pendingNow {
			return
		}
		p = &browser.SettlePart{Name: name}
		w.seen[name] = p
		w.order = append(w.order, name)
	}
	p.Count = max(p.Count, count)
	if pendingNow || p.Done == 0 {
		p.Done = now.Sub(w.since)
	}
}

func (w *waiter) parts() []browser.SettlePart {
	var out []browser.SettlePart
	for _, n := range w.order {
		out = append(out, *w.seen[n])
	}
	return out
}

// look judges one look: what is still pending ("" parts are over).
func (w *waiter) look(now time.Time, nv netView, ps pageState, pageErr error) []string {
	var pending []string
	navPending := nv.nav == navRequested || nv.nav == navCommitted || (nv.nav == navLoaded && now.Sub(nv.loadedAt) < afterLoad)
	if nv.nav != navNone {
		w.part(browser.PartNavigation, 1, navPending, now)
		if navPending {
			pending = append(pending, "navigation to "+quoteURL(nv.navURL))
		}
	}
	reqPending := len(nv.inflight) > 0 || (!nv.lastEnd.IsZero() && now.Sub(nv.lastEnd) < netQuiet)
	w.part(browser.PartRequests, nv.caused, reqPending, now)
	if len(nv.inflight) > 0 {
		pending = append(pending, fmt.Sprintf("%d %s the action caused (%s)", len(nv.inflight), plural(len(nv.inflight), "request"), quoteURL(nv.inflight[0])))
	}
	if pageErr != nil || (nv.nav != navNone && nv.nav != navLoaded) {
		return pending // no page state to judge: a document between two
	}
	w.background = max(w.background, ps.Background)
	if ps.Navigating && w.navHint.IsZero() {
		w.navHint = now
	}
	// The page knew of a navigation before the browser's events said so:
	// wait for them, a second at most (a navigation that is cancelled
	// sends none).
	if nv.nav == navNone && !w.navHint.IsZero() && now.Sub(w.navHint) < time.Second {
		w.part(browser.PartNavigation, 1, true, now)
		pending = append(pending, "a navigation the page began")
	}
	if seen := nv.caused + nv.ignored; ps.Sent > seen && !w.since.Add(time.Second).Before(now) {
		// Sent by the action's handlers, not yet seen on the network (a
		// second at most: a request the browser never starts sends none).
		w.part(browser.PartRequests, ps.Sent, true, now)
		pending = append(pending, fmt.Sprintf("%d %s the action's handlers sent, not yet on the network", ps.Sent-seen, plural(ps.Sent-seen, "request")))
	}
	w.part(browser.PartTimers, ps.Timers, ps.Timers > 0, now)
	if ps.Timers > 0 {
		pending = append(pending, fmt.Sprintf("%d %s the action set (due in %.0f ms)", ps.Timers, plural(ps.Timers, "timer"), ps.TimerDue))
	}
	domPending := ps.QuietFor >= 0 && ps.QuietFor < float64(domQuiet.Milliseconds())
	w.part(browser.PartDOM, ps.Caused, domPending, now)
	if domPending {
		pending = append(pending, fmt.Sprintf("DOM changes the action caused (%d so far)", ps.Caused))
	}
	animPending := ps.Animations > 0 && ps.AnimationLeft <= float64(longAnimation.Milliseconds())
	w.part(browser.PartAnimations, ps.Animations, animPending, now)
	if animPending {
		pending = append(pending, fmt.Sprintf("%d %s the action started", ps.Animations, plural(ps.Animations, "animation")))
	}
	return pending
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// quoteURL quotes a page's URL for an answer, cut short.
func quoteURL(u string) string {
	if len(u) > 120 {
		u = u[:120] + "…"
	}
	return fmt.Sprintf("%q", u)
}
