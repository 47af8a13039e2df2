package chrome

import (
	"context"
	"sync"

	"github.com/axfuse/axfuse/browser"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// The request gate: the browser itself stops, at the network, every
// request a policy refuses, in every tab, frame and popup of every
// browser context (decision 2026-12-07-the-origin-policy-is-enforced-at-
// the-network). Fetch enabled on the browser's own session pauses the
// requests of all its targets, out-of-process frames and popups
// included, before they leave: no target is attached too late, and a
// redirect, a form post, a <meta refresh> or a window.open is a request
// like any other.

// requestGate is a browser's gate once GateRequests armed it.
type requestGate struct {
	allow func(rawURL string) bool
	mu    sync.Mutex
	// blocked are the requests stopped since TakeBlocked last took them.
	blocked []browser.Blocked
}

// maxBlockedKept bounds the stopped requests kept between two takes (a
// page may ask for a blocked image thousands of times).
const maxBlockedKept = 256

// GateRequests has the browser stop every request whose URL allow
// refuses before it is sent (net::ERR_BLOCKED_BY_CLIENT), and let the
// others go. It needs the browser's own endpoint; an error means nothing
// is gated, and a caller with a policy must not go on.
func (b *Browser) GateRequests(allow func(rawURL string) bool) error {
	if err := b.connected(); err != nil {
		return err
	}
	g := &requestGate{allow: allow}
	if err := chromedp.ListenBrowser(b.ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			// Decided off the loop that reads the browser's messages:
			// answering from inside it would wait on itself.
			go b.decide(g, e)
		}
	}); err != nil {
		return err
	}
	err := bounded(b.opts.callTimeout(), func() error {
		_, err := chromedp.CallBrowser(b.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*", RequestStage: fetch.RequestStageRequest}}})
		return err
	})
	if err != nil {
		return err
	}
	b.gate.Store(g)
	return nil
}

// decide lets one paused request go or stops it.
func (b *Browser) decide(g *requestGate, e *fetch.EventRequestPaused) {
	ctx, cancel := context.WithTimeout(b.ctx, b.opts.callTimeout())
	defer cancel()
	raw := ""
	if e.Request != nil {
		raw = e.Request.URL
	}
	if g.allow(raw) {
		chromedp.CallBrowser(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
		return
	}
	g.note(browser.Blocked{Origin: browser.OriginOf(raw), Document: e.ResourceType == network.ResourceTypeDocument, Frame: string(e.FrameID)})
	chromedp.CallBrowser(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: e.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
}

func (g *requestGate) note(bl browser.Blocked) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.blocked) < maxBlockedKept {
		g.blocked = append(g.blocked, bl)
	}
}

// TakeBlocked returns the requests the gate stopped since the last take
// (none when no gate is armed).
func (b *Browser) TakeBlocked() []browser.Blocked {
	g := b.gate.Load()
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	out := g.blocked
	g.blocked = nil
	return out
}
