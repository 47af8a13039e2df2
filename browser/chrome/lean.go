package chrome

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// A lean session talks to one page target over a websocket of its own
// (ws://HOST/devtools/page/ID) with no domain enabled and no events kept.
// chromedp's attach enables eleven domains one round trip at a time (DOM
// and CSS among them: 25 ms on a small page, up to 190 ms on a long one)
// before the first command; a one-shot observation needs none of them.
// Commands of the tab go through cdpcall.Do, which picks the lean session
// when the context carries one (cdpcall.WithSession).

// A leanSession is the page's own session on a lean socket (id "") or a
// flattened session on the same socket, attached to one of the page's
// out-of-process iframes.
type leanSession struct {
	*leanSocket
	id target.SessionID
}

// leanSocket is one websocket to a page target and the calls waiting on it;
// answers are matched by id, whichever session asked.
type leanSocket struct {
	conn    *remote.Conn
	next    atomic.Int64
	mu      sync.Mutex
	waiting map[int64]chan *cdproto.Message
	closed  chan struct{}
	err     error // why closed closed
	once    sync.Once
}

func dialLean(ctx context.Context, wsURL string, headers http.Header) (*leanSession, error) {
	conn, err := remote.DialContext(ctx, wsURL, remote.WithConnHTTPHeader(headers))
	if err != nil {
		return nil, err
	}
	s := &leanSocket{conn: conn, waiting: map[int64]chan *cdproto.Message{}, closed: make(chan struct{})}
	go s.read()
	return &leanSession{leanSocket: s}, nil
}

// read hands each answer to its caller; events are dropped (no domain is
// enabled, so few come).
func (s *leanSocket) read() {
	for {
		msg := new(cdproto.Message)
		if err := s.conn.Read(context.Background(), msg); err != nil {
			s.close(fmt.Errorf("%w: %v", browser.ErrConnectionClosed, err))
			return
		}
		if msg.ID == 0 {
			continue
		}
		s.mu.Lock()
		ch := s.waiting[msg.ID]
		delete(s.waiting, msg.ID)
		s.mu.Unlock()
		if ch != nil {
			ch <- msg
		}
	}
}

func (s *leanSocket) close(why error) {
	s.once.Do(func() {
		s.err = why
		close(s.closed)
		s.conn.Close()
	})
}

// Call sends one command and waits for its answer, the context's end, or
// the connection's.
func (s *leanSession) Call(ctx context.Context, method string, params, result any) error {
	buf, err := jsonv2.Marshal(params, chromedp.DefaultMarshalOptions)
	if err != nil {
		return err
	}
	id := s.next.Add(1)
	ch := make(chan *cdproto.Message, 1)
	s.mu.Lock()
	s.waiting[id] = ch
	s.mu.Unlock()
	forget := func() {
		s.mu.Lock()
		delete(s.waiting, id)
		s.mu.Unlock()
	}
	if err := s.conn.Write(ctx, &cdproto.Message{ID: id, SessionID: s.id, Method: cdproto.MethodType(method), Params: buf}); err != nil {
		forget()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// A write fails only on a dead connection; the reader may not
		// have noticed yet.
		s.close(fmt.Errorf("%w: %v", browser.ErrConnectionClosed, err))
		return s.err
	}
	select {
	case msg := <-ch:
		if msg.Error != nil {
			return msg.Error
		}
		if result == nil || len(msg.Result) == 0 {
			return nil
		}
		return jsonv2.Unmarshal(msg.Result, result, chromedp.DefaultUnmarshalOptions)
	case <-ctx.Done():
		forget()
		return ctx.Err()
	case <-s.closed:
		return s.err
	}
}

// Subscribe gives a closed channel: a lean session keeps no events.
func (s *leanSession) Subscribe(string) (<-chan jsonv2.Value, func()) {
	ch := make(chan jsonv2.Value)
	close(ch)
	return ch, func() {}
}

// pageSocket is the websocket address of a page target on the browser an
// endpoint names (http://host:port or ws://host:port/devtools/browser/...).
func pageSocket(endpoint, id string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("endpoint %q: no host", endpoint)
	}
	scheme := "ws"
	if u.Scheme == "https" || u.Scheme == "wss" {
		scheme = "wss"
	}
	if strings.ContainsAny(id, "/?#") {
		return "", errors.New("the browser gave a malformed target id")
	}
	return scheme + "://" + u.Host + "/devtools/page/" + id, nil
}

// CurrentTabLean is CurrentTab for one-shot observations (snapshot, find,
// locate, capture): a lean session on the tab, dialled directly, with no
// domain enabled. It sees no events: no dialogs, no network activity, no
// crash notice (a dead connection still ends every call). An attached
// browser only; a farm's browser has no page socket to dial apart.
func (b *Browser) CurrentTabLean() (*Tab, error) {
	if b.opts.Endpoint == "" || b.farm {
		return b.CurrentTab()
	}
	var id target.ID
	switch {
	case b.opts.Tab == "" && b.page != "":
		id = target.ID(b.page) // the page the endpoint names
	case b.opts.Tab == "":
		id = b.onlyPage()
	}
	if id == "" {
		var err error
		if id, err = b.currentPage(); err != nil {
			return nil, err
		}
	}
	ws, err := pageSocket(b.opts.Endpoint, string(id))
	if err != nil {
		return nil, err
	}
	dctx, cancelDial := context.WithTimeout(b.ctx, b.opts.callTimeout())
	s, err := dialLean(dctx, ws, b.opts.Headers)
	cancelDial()
	if err != nil {
		if b.page != "" && b.opts.Tab == "" {
			return nil, fmt.Errorf("attaching to tab %s (the page the endpoint names): %w; axfuse tabs lists the tabs", b.page, err)
		}
		return nil, fmt.Errorf("attaching to the tab: %w", err)
	}
	ctx, cancel := context.WithCancel(cdpcall.WithSession(b.ctx, s))
	t := newTab(ctx, func() { cancel(); s.close(browser.ErrConnectionClosed) }, b)
	t.target = string(id)
	go func() {
		select {
		case <-s.closed:
			t.setGone(s.err)
		case <-ctx.Done():
		}
	}()
	return t, nil
}

// onlyPage is the one page tab of the browser behind an http endpoint, read
// from its /json/list: one HTTP request instead of dialling the browser's
// websocket and asking Target.getTargets (about 4 ms of a small page's
// snapshot). It is "" when the browser has several tabs (only
// Target.getTargets says which one is in use), none, or the list cannot be
// read; the caller then asks the browser.
func (b *Browser) onlyPage() target.ID {
	u, err := url.Parse(b.opts.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	ctx, cancel := context.WithTimeout(b.ctx, b.opts.callTimeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.Scheme+"://"+u.Host+"/json/list", nil)
	if err != nil {
		return ""
	}
	for name, vs := range b.opts.Headers {
		req.Header[name] = vs
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return ""
	}
	return onlyPageIn(io.LimitReader(resp.Body, maxTargetList))
}

// onlyPageIn reads a /json/list answer: the one page tab's id, or "".
func onlyPageIn(list io.Reader) target.ID {
	var listed []struct {
		ID   string `json:"id"`
		Type string `json:"type"`
		URL  string `json:"url"`
	}
	if json.NewDecoder(list).Decode(&listed) != nil {
		return ""
	}
	var only target.ID
	for _, l := range listed {
		if !isPageTab(&target.Info{TargetID: target.ID(l.ID), Type: l.Type, URL: l.URL}) {
			continue
		}
		if only != "" || !targetID.MatchString(l.ID) {
			return "" // several, or an id no page websocket can hold
		}
		only = target.ID(l.ID)
	}
	return only
}

// maxTargetList bounds the /json/list answer read (a browser with
// thousands of targets still fits).
const maxTargetList = 16 << 20
