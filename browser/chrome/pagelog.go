package chrome

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Logs keep the last messages and requests of a tab, bounded: a page that
// logs in a loop costs a fixed amount of memory.
const (
	maxConsole  = 500
	maxRequests = 1000
)

// pageLog is a tab's console and network record.
type pageLog struct {
	mu       sync.Mutex
	console  []browser.ConsoleMessage
	requests []*browser.Request
	byID     map[string]*browser.Request
}

func (l *pageLog) addConsole(m browser.ConsoleMessage) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.console) == maxConsole {
		l.console = append(l.console[:0], l.console[1:]...)
	}
	l.console = append(l.console, m)
}

func (l *pageLog) startRequest(id string, r *browser.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byID == nil {
		l.byID = map[string]*browser.Request{}
	}
	if len(l.requests) == maxRequests {
		for k, v := range l.byID {
			if v == l.requests[0] {
				delete(l.byID, k)
			}
		}
		l.requests = append(l.requests[:0], l.requests[1:]...)
	}
	l.requests = append(l.requests, r)
	l.byID[id] = r
}

func (l *pageLog) update(id string, f func(r *browser.Request)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r := l.byID[id]; r != nil {
		f(r)
	}
}

// ConsoleMessages are the tab's console messages since it was attached,
// oldest first (the last 500).
func (t *Tab) ConsoleMessages() []browser.ConsoleMessage {
	t.log.mu.Lock()
	defer t.log.mu.Unlock()
	return append([]browser.ConsoleMessage(nil), t.log.console...)
}

// Requests are the tab's network requests since it was attached, oldest
// first (the last 1000).
func (t *Tab) Requests() []browser.Request {
	t.log.mu.Lock()
	defer t.log.mu.Unlock()
	out := make([]browser.Request, len(t.log.requests))
	for i, r := range t.log.requests {
		out[i] = *r
	}
	return out
}

// watch records console calls, exceptions and requests. It listens in
// the order events arrive: with one goroutine per event type, a response
// could be handled before its request was recorded, and its status lost
// (a 404 then read as unanswered). The handlers only take a lock and append.
func (l *pageLog) watch(ctx context.Context) {
	chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			l.consoleCalled(ev)
		case *runtime.EventExceptionThrown:
			if d := ev.ExceptionDetails; d != nil {
				l.addConsole(browser.ConsoleMessage{Level: "exception", Text: cdpcall.OneLine(cdpcall.ExceptionText(d)), Source: fmt.Sprintf("%s:%d", d.URL, d.LineNumber+1)})
			}
		case *network.EventRequestWillBeSent:
			l.requestSent(ev)
		case *network.EventResponseReceived:
			if ev.Response != nil {
				l.update(string(ev.RequestID), func(r *browser.Request) { r.Status = int(ev.Response.Status) })
			}
		case *network.EventLoadingFailed:
			l.update(string(ev.RequestID), func(r *browser.Request) { r.Failed = ev.ErrorText })
		}
	})
}

func (l *pageLog) consoleCalled(ev *runtime.EventConsoleAPICalled) {
	src := ""
	if ev.StackTrace != nil && len(ev.StackTrace.CallFrames) > 0 {
		f := ev.StackTrace.CallFrames[0]
		src = fmt.Sprintf("%s:%d", f.URL, f.LineNumber+1)
	}
	l.addConsole(browser.ConsoleMessage{Level: string(ev.Type), Text: cdpcall.OneLine(consoleText(ev.Args)), Source: src})
}

func (l *pageLog) requestSent(ev *network.EventRequestWillBeSent) {
	if ev.Request == nil {
		return
	}
	if ev.RedirectResponse != nil {
		l.update(string(ev.RequestID), func(r *browser.Request) { r.Status = int(ev.RedirectResponse.Status) })
	}
	l.startRequest(string(ev.RequestID), &browser.Request{Method: ev.Request.Method, URL: ev.Request.URL, Type: string(ev.Type)})
}

// consoleText is what a console call printed: each argument's
// description, or its value (strings unquoted), space-separated.
func consoleText(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		if a == nil {
			continue
		}
		switch {
		case a.Description != "":
			parts = append(parts, a.Description)
		case len(a.Value) > 0:
			var s string
			if json.Unmarshal(a.Value, &s) == nil {
				parts = append(parts, s)
			} else {
				parts = append(parts, string(a.Value))
			}
		}
	}
	return strings.Join(parts, " ")
}

// maxEvalResult bounds an evaluation's answer (JSON).
const maxEvalResult = 16 << 10

// Evaluate runs a JavaScript expression in the page (awaiting a promise)
// and gives its value as JSON, cut to 16 KiB. The expression is the
// agent's: the caller decides whether it may run any (an opt-in).
func (t *Tab) Evaluate(expression string) (string, error) {
	var out string
	err := t.call("Runtime.evaluate", func(ctx context.Context) error {
		yes := true
		r, err := cdpcall.Do(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: expression, ReturnByValue: &yes, AwaitPromise: &yes, UserGesture: &yes})
		if err != nil {
			return err
		}
		if r.ExceptionDetails != nil {
			return errors.New("the expression threw: " + cdpcall.OneLine(cdpcall.ExceptionText(r.ExceptionDetails)))
		}
		switch {
		case r.Result == nil:
			out = "undefined"
		case len(r.Result.Value) > 0:
			out = string(r.Result.Value)
		case r.Result.Description != "":
			out = r.Result.Description
		default:
			out = string(r.Result.Type)
		}
		return nil
	})
	if len(out) > maxEvalResult {
		out = out[:maxEvalResult] + "…"
	}
	return out, err
}

// Resize sets the tab's viewport (CSS px).
func (t *Tab) Resize(width, height int) error {
	return t.call("Emulation.setDeviceMetricsOverride", func(ctx context.Context) error {
		scale := t.browser.opts.Scale
		if scale <= 0 {
			scale = 1
		}
		_, err := cdpcall.Do(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: int64(width), Height: int64(height), DeviceScaleFactor: scale})
		return err
	})
}

// PDF prints the page to PDF (headless Chromium only).
func (t *Tab) PDF() ([]byte, error) {
	var data []byte
	err := t.call("Page.printToPDF", func(ctx context.Context) error {
		yes := true
		r, err := cdpcall.Do(ctx, page.PrintToPDF, page.PrintToPDFParams{PrintBackground: &yes})
		if err != nil {
			return err
		}
		data = r.Data
		return nil
	})
	return data, err
}
