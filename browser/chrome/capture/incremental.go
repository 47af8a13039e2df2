package capture

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/page"
)

// Incremental viewport captures. After an action, most of a big page is
// as it was: the viewport pass keeps, in its isolated world, a memo of
// what lay outside the viewport and a record of what changed since
// (viewport.js), and the tab keeps what it fetched for the kept nodes
// (viewMemo). The next viewport capture of the same document walks only
// what changed or is in view, and asks the browser for the AX nodes and
// listeners of the nodes that may have changed; a node described as at the
// last pass comes back as its number, place and style only. Its capture is the one a
// whole pass would make; the end-to-end tests hold it to that.

// viewMemo is what the last viewport capture of a document leaves for the
// next: it serves only the pass its number names (gen), of the same tab
// (token), document (loader) and options.
type viewMemo struct {
	gen         int
	loader      string
	margin      float64
	minElements int
	share       float64
	// ids gives the backend id of each node the pass numbered.
	ids map[int]int64
	// nodes holds the pass's description of each of its nodes (pseudo
	// elements aside) by number, for the next pass's deltas.
	nodes map[int]viewNode
	// ax holds each kept node's getPartialAXTree answer.
	ax map[int64][]*accessibility.Node
	// listeners holds the target listeners of every kept element and
	// document node (nil: none).
	listeners map[int64][]string
	// listenSeq is settle.js's count of listeners added or removed, as
	// read at that capture.
	listenSeq int64
	// wide is settle.js's count, before the pass, of what the memo cannot
	// follow: a shadow root attached since may sit in a subtree the memo
	// has sealed, a constructed style sheet edited restyles anything.
	wide    int64
	metrics *page.GetLayoutMetricsResult
	dpr     float64
}

// described is the memo's description of node id.
func (m *viewMemo) described(id int) (viewNode, bool) {
	if m == nil {
		return viewNode{}, false
	}
	n, ok := m.nodes[id]
	return n, ok
}

// pageCounts are settle.js's counts as a capture begins (watchDOM), read
// alongside the capture's first calls: wide (what the memo cannot follow)
// and listenSeq (target listeners added or removed), -1 when unknown.
type pageCounts struct {
	ready           chan struct{}
	wide, listenSeq int64
}

// countPage installs settle.js if need be and reads its counts, in the
// background.
func (e *Engine) countPage() *pageCounts {
	c := &pageCounts{ready: make(chan struct{})}
	go func() {
		defer close(c.ready)
		c.wide, c.listenSeq = e.page.DOMCounts()
	}()
	return c
}

// wait waits for the counts.
func (c *pageCounts) wait() { <-c.ready }

// memoToken names this Tab's memo in the page: another process acting on
// the tab has its own isolated world, and its own numbers.
func (e *Engine) memoToken() string {
	e.memoOnce.Do(func() {
		var b [8]byte
		_, _ = rand.Read(b[:])
		e.memoTok = hex.EncodeToString(b[:])
	})
	return e.memoTok
}

// memoFor is the memo a viewport capture of frames may reuse, nil for
// none: the same top document, with the same options. (Frames elsewhere
// on the page do not matter: the memo's capture held one document, and a
// frame that comes into view makes the pass walk everything.)
// The second answer says why there is none ("" for a first capture).
func (e *Engine) memoFor(frames []frameInfo, margin float64, minElements int, wide int64) (*viewMemo, string) {
	m := e.memo.Load()
	switch {
	case m == nil:
		if why := e.memoLost.Load(); why != nil {
			return nil, *why
		}
		return nil, ""
	case m.loader != frames[0].loader:
		return nil, ""
	case m.margin != margin || m.minElements != minElements:
		return nil, "other capture options"
	case wide < 0:
		return nil, "settle.js's counts unknown"
	case m.wide != wide:
		return nil, "a shadow root attached or a constructed style sheet edited"
	}
	return m, ""
}

// keepMemo keeps what a viewport capture of one document fetched, for the
// next; anything else forgets it.
func (e *Engine) keepMemo(c *domsnap.Capture, next *viewMemo, frames []frameInfo, margin float64, minElements int, res *viewResult, wide int64) {
	// One document of the tab's process; out-of-process frames in view
	// (sub) are captured anew each time.
	var lost string
	switch {
	case c == nil:
		lost = "the last capture failed"
	case next == nil || next.ax == nil:
		lost = "the last capture's listener queries failed"
	case res.Gen <= 0 || len(res.Docs) != 1:
		lost = "the last pass kept no memo"
	case len(c.Documents) == 0:
		lost = "the last capture held no document"
	case wide < 0:
		// Nothing to compare the next count with: a shadow root attached
		// in between would go unseen.
		lost = "settle.js's counts unknown at the last capture"
	}
	if lost != "" {
		e.memo.Store(nil)
		e.memoLost.Store(&lost)
		return
	}
	e.memoLost.Store(nil)
	next.gen, next.loader, next.margin, next.minElements, next.share = res.Gen, frames[0].loader, margin, minElements, res.Share
	next.wide = wide
	next.nodes = make(map[int]viewNode, len(res.Docs[0].Nodes))
	for _, n := range res.Docs[0].Nodes {
		if n.PseudoType == "" {
			next.nodes[n.ID] = n
		}
	}
	next.listeners = map[int64][]string{}
	for _, n := range c.Documents[0].Nodes {
		if (n.Type == domsnap.ElementNode || n.Type == domsnap.DocumentNode) && n.Backend != 0 && n.PseudoType == "" {
			next.listeners[n.Backend] = n.Listeners
		}
	}
	e.memo.Store(next)
}

// axReuse is the last capture's AX answers, and the nodes that must be
// asked again.
type axReuse struct {
	nodes map[int64][]*accessibility.Node
	fresh map[int64]bool
	// asked holds the answers asked alongside the pass (axSpec), which
	// serve fresh nodes; alongside counts those taken.
	asked     map[int64][]*accessibility.Node
	alongside int
}

// take is the answer to reuse for backend b, nil when it must be asked.
func (r *axReuse) take(b int64) []*accessibility.Node {
	switch {
	case r == nil:
		return nil
	case r.fresh[b]:
		ns := r.asked[b]
		if ns != nil {
			r.alongside++
		}
		return ns
	}
	return r.nodes[b]
}

// axSpec is the AX nodes asked alongside an incremental pass: those of the
// nodes the quiet check found changed (specOf in viewport.js).
type axSpec struct {
	gen      int     // the memo's pass the numbers are of
	ids, anc []int   // changed nodes and those below them; their ancestors
	added    []int64 // backend ids of nodes added since (no number yet)
	done     chan struct{}
	got      map[int64][]*accessibility.Node
}

// axSpecOf reads the spec part of the quiet watch's answer (named: [ids,
// ancestors] or null; added: the nodes added since), nil for none.
func axSpecOf(named json.RawMessage, added []serializedNode, gen int) *axSpec {
	var lists [][]int
	if gen <= 0 || json.Unmarshal(named, &lists) != nil || len(lists) != 2 {
		return nil
	}
	s := &axSpec{gen: gen, ids: lists[0], anc: lists[1]}
	for _, n := range added {
		if n.Backend != 0 {
			s.added = append(s.added, n.Backend)
		}
	}
	if len(s.ids)+len(s.added) == 0 || len(s.ids)+len(s.anc)+len(s.added) > 3*maxSpec {
		return nil
	}
	return s
}

// maxSpec bounds the nodes of each kind a quiet check names for the next
// pass's AX queries: past it, the pass's own answer says which to ask.
const maxSpec = 64

// start asks for the AX nodes, in the background, when the spec names
// nodes of memo's pass: the changed nodes and those below them, and of
// their ancestors those the pass would ask again (see keepsAX: asking a
// table's costs about as much as its rows).
func (s *axSpec) start(e *Engine, memo *viewMemo) {
	if s == nil || s.gen != memo.gen {
		return
	}
	ask := slices.Clone(s.added)
	for _, id := range s.ids {
		if b := memo.ids[id]; b != 0 {
			ask = append(ask, b)
		}
	}
	for _, id := range s.anc {
		if b := memo.ids[id]; b != 0 && !keepsAX(memo.ax[b], b) {
			ask = append(ask, b)
		}
	}
	s.done = make(chan struct{})
	go func() {
		defer close(s.done)
		got := e.fetchAXQueries(ask, axNode)
		s.got = make(map[int64][]*accessibility.Node, len(ask))
		for i, b := range ask {
			if got[i] != nil {
				s.got[b] = got[i]
			}
		}
	}()
}

// answers waits for the AX nodes and gives them when they stand (ok: the
// pass saw nothing recorded after the quiet check named them).
func (s *axSpec) answers(ok bool) map[int64][]*accessibility.Node {
	if s == nil || s.done == nil {
		return nil
	}
	<-s.done
	if !ok {
		return nil
	}
	return s.got
}

// fitsTogether checks the AX nodes, reused and fresh, against each other:
// a parent must list its child, and a child name its parent. Chrome may
// make a subtree's AX objects anew (new ids) when it changes, or show a
// child no DOM change announced (a style rule edited through the CSSOM);
// then they do not fit, and everything is asked again.
func fitsTogether(per [][]*accessibility.Node) bool {
	byID := map[accessibility.NodeID]*accessibility.Node{}
	for _, ns := range per {
		for _, a := range ns {
			if a != nil {
				byID[a.NodeID] = a
			}
		}
	}
	for _, a := range byID {
		if p := byID[a.ParentID]; p != nil && !slices.Contains(p.ChildIDs, a.NodeID) {
			return false
		}
		for _, c := range a.ChildIDs {
			if ch := byID[c]; ch != nil && ch.ParentID != a.NodeID {
				return false
			}
		}
	}
	return true
}

// mustAskAX: nodes whose AX node may change with no change of their own
// subtree — form controls (values set by script, labels elsewhere) and
// nodes named or described by other nodes — are always asked again.
func mustAskAX(n *domsnap.Node) bool {
	switch n.Name {
	case "INPUT", "SELECT", "TEXTAREA", "OPTION", "OUTPUT", "METER", "PROGRESS", "AREA":
		return true
	}
	for i := 0; i+1 < len(n.Attrs); i += 2 {
		switch strings.ToLower(n.Attrs[i]) {
		case "aria-labelledby", "aria-describedby", "aria-activedescendant", "aria-controls", "aria-details",
			"aria-errormessage", "aria-flowto", "aria-owns", "contenteditable", "for", "list", "usemap":
			return true
		}
	}
	return false
}

// keepsAX: a node only something below which changed keeps its AX node
// when its role takes no name from its content (a table, a landmark, the
// document) and it is not named by content or a related element (a
// table's caption) nor focusable (Chrome names a focusable generic by its
// content).
func keepsAX(ns []*accessibility.Node, backend int64) bool {
	for _, a := range ns {
		if a == nil || int64(a.BackendDOMNodeID) != backend {
			continue
		}
		if !reusableRoles[ValueString(a.Role)] {
			return false
		}
		if ValueString(a.Name) != "" && nameSource(a.Name) != "attribute" {
			return false
		}
		for _, p := range a.Properties {
			if p != nil && p.Name == accessibility.PropertyNameFocusable {
				return false
			}
		}
		return true
	}
	return false
}

// reusableRoles take no name from their content.
var reusableRoles = map[string]bool{
	"RootWebArea": true, "generic": true, "none": true, "presentation": true, "table": true, "LayoutTable": true,
	"rowgroup": true, "list": true, "main": true, "navigation": true, "banner": true, "contentinfo": true,
	"complementary": true, "form": true, "region": true, "article": true, "paragraph": true, "search": true,
	"blockquote": true, "figure": true, "document": true,
}

// holdsFrame: an element that may hold an out-of-process frame.
func holdsFrame(doc *domsnap.Document) bool {
	for _, n := range doc.Nodes {
		switch n.Name {
		case "IFRAME", "FRAME", "OBJECT", "EMBED", "FENCEDFRAME", "PORTAL":
			return true
		}
	}
	return false
}

// viewPartsAgain is viewParts for an incremental pass: the layout metrics
// are the memo's (the pass found the viewport where it was), and only the
// nodes that may have changed are asked for their AX nodes and listeners.
// rec is settle.js's listener record, asked with the pass; asked holds the
// AX answers asked alongside it that stand (nil: none).
func (e *Engine) viewPartsAgain(docs []domsnap.Document, res *viewResult, p *parts, memo *viewMemo, rec *listenRecord, before []frameInfo, asked map[int64][]*accessibility.Node) ([][]domsnap.AXNode, []*parts, *viewMemo, error) {
	p.metrics, p.dpr = memo.metrics, memo.dpr
	doc, vd := &docs[0], &res.Docs[0]
	fresh, lfresh := map[int64]bool{}, map[int64]bool{}
	for i := range vd.Nodes {
		n := &doc.Nodes[i]
		if n.Backend == 0 {
			continue
		}
		switch f := vd.Nodes[i].Fresh; {
		case mustAskAX(n), f == 1, f == 2 && !keepsAX(memo.ax[n.Backend], n.Backend):
			fresh[n.Backend] = true
		}
		if vd.Nodes[i].LFresh != 0 {
			lfresh[n.Backend] = true
		}
	}
	next := &viewMemo{metrics: memo.metrics, dpr: memo.dpr}
	plans := []axPlan{planOf(vd, doc)}
	var sub []*parts
	var others sync.WaitGroup // the calls besides the AX queries
	var wide int64
	var listened bool
	others.Go(func() { next.listenSeq, wide, listened = e.listenersAgain(doc, memo, lfresh, rec, p) })
	if holdsFrame(doc) {
		others.Go(func() { sub = e.captureFrameTargets(p, keptBackends(docs)) })
	}
	// The final same-document check goes out once every call of the
	// capture was answered, while Go converts the AX answers (0.5-1 ms on
	// the 5,000-row table), not after.
	check := make(chan func() error, 1)
	ax, nextAX := e.partialAX(plans, p, &axReuse{nodes: memo.ax, fresh: fresh, asked: asked}, func() {
		go func() {
			others.Wait()
			check <- e.sameDocumentSoon(before, p)
		}()
	})
	next.ax = nextAX
	others.Wait()
	p.sameDoc = <-check
	if wide != memo.wide {
		return nil, nil, nil, errMemoStale{wide}
	}
	if !listened {
		next = nil // listeners in part: the capture stands, its memo does not
	}
	return ax, sub, next, nil
}

// errMemoStale: a shadow root was attached or a constructed style sheet
// edited while the incremental pass ran (wide is settle.js's count now).
type errMemoStale struct{ wide int64 }

func (e errMemoStale) Error() string { return "a shadow root was attached during the capture" }

// listenersAgain gives every kept element its target listeners: the
// memo's, unless the node is new, an on* attribute of it changed, or the
// page added or removed a target listener on it (settle.js counts them);
// those are asked. It returns settle.js's count for the next capture.
func (e *Engine) listenersAgain(doc *domsnap.Document, memo *viewMemo, lfresh map[int64]bool, rec *listenRecord, p *parts) (seq, wide int64, ok bool) {
	start := time.Now()
	<-rec.ready
	seq, lost, heard, wide, err := rec.seq, rec.lost, rec.heard, rec.wide, rec.err
	everything := err != nil || lost
	var asks []listenerAsk
	byBackend := map[int64]*domsnap.Node{}
	for i := range doc.Nodes {
		n := &doc.Nodes[i]
		if n.Type != domsnap.ElementNode && n.Type != domsnap.DocumentNode || n.Backend == 0 || n.PseudoType != "" {
			continue
		}
		byBackend[n.Backend] = n
		types, known := memo.listeners[n.Backend]
		if everything || !known || lfresh[n.Backend] || heard[n.Backend] {
			asks = append(asks, listenerAsk{n.Backend, 0})
			continue
		}
		setListeners(n, types)
	}
	found, err := e.askListeners(asks)
	ok = err == nil
	step := fmt.Sprintf("listeners of kept nodes (%d queries, %d as at the last capture)", len(asks), len(byBackend)-len(asks))
	for id, types := range found {
		if n := byBackend[id]; n != nil {
			setListeners(n, types)
		}
	}
	p.timeFailed(step, err, start)
	return seq, wide, ok
}

// setListeners gives a node its listener types; as DOMSnapshot's
// isClickable, a click listener (not a drag one) makes it clickable.
func setListeners(n *domsnap.Node, types []string) {
	n.Listeners = types
	if slices.ContainsFunc(types, index.IsClickListener) {
		n.Clickable = true
	}
}

// listenRecord is settle.js's answer to listenedSince, asked in the
// background together with an incremental pass (captureViewport).
type listenRecord struct {
	ready     chan struct{}
	seq, wide int64
	lost      bool
	heard     map[int64]bool
	err       error
}

// askListened asks listenedSince(since) in the background.
func (e *Engine) askListened(since int64) *listenRecord {
	r := &listenRecord{ready: make(chan struct{})}
	go func() {
		defer close(r.ready)
		r.seq, r.lost, r.heard, r.wide, r.err = e.page.Listened(since)
	}()
	return r
}
