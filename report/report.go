// Package report turns compared pages (the AX-only and fused views of a
// capture, measured against its ground truth) into what people read: a
// summary over many pages and a self-contained HTML report. It is pure:
// the pages come measured, with their screenshot taken.
package report

import (
	"math"
	"sort"

	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/truth"
)

// Page is one page compared, or the error that stopped it.
type Page struct {
	Index int     `json:"index"`
	URL   string  `json:"url"`
	MS    float64 `json:"ms"`
	Error string  `json:"error,omitempty"`
	// Retried says why the page was tried again (its browser session was
	// lost), "" when it was not.
	Retried string `json:"retried,omitempty"`
	Title   string `json:"title,omitempty"`
	// Table is the comparison's table of counts; Truth both views measured
	// against the ground truth.
	Table []fuse.Row    `json:"table,omitempty"`
	Truth *truth.Report `json:"truth,omitempty"`
	// For the HTML report: the two views and the viewport's PNG (nil for
	// a recorded capture).
	AX, Fused  *fuse.Observation `json:"-"`
	Screenshot []byte            `json:"-"`
}

// TokenRatio is the fused view's tokens over the AX-only view's (0 when
// either is missing).
func (p *Page) TokenRatio() float64 {
	if p.Truth == nil || p.Truth.AX.Tokens == 0 {
		return 0
	}
	return float64(p.Truth.Fused.Tokens) / float64(p.Truth.AX.Tokens)
}

// Summary is a batch's figures over its pages. Medians of recall count
// only pages with a target, of precision only pages with a judged ref in
// view: a page with nothing to find is not found perfectly.
type Summary struct {
	Pages    int     `json:"pages"`
	Failures int     `json:"failures"`
	MedianMS float64 `json:"medianMs"`
	TotalMS  float64 `json:"totalMs"`

	Targets          int `json:"targets"`
	ListenerOnly     int `json:"listenerOnly"`
	AXFound          int `json:"axFound"`
	FusedFound       int `json:"fusedFound"`
	AXListenerFound  int `json:"axListenerOnlyFound"`
	FusedListenFound int `json:"fusedListenerOnlyFound"`
	AXUnreachable    int `json:"axUnreachable"`
	FusedUnreachable int `json:"fusedUnreachable"`
	AXTokens         int `json:"axTokens"`
	FusedTokens      int `json:"fusedTokens"`

	MedianAXRecall       float64 `json:"medianAxRecall"`
	MedianFusedRecall    float64 `json:"medianFusedRecall"`
	MedianAXPrecision    float64 `json:"medianAxPrecision"`
	MedianFusedPrecision float64 `json:"medianFusedPrecision"`
	MedianTokenRatio     float64 `json:"medianTokenRatio"`

	// The peer's figures (compare --peer) over the pages it measured.
	PeerPages        int     `json:"peerPages,omitempty"`
	PeerFound        int     `json:"peerFound,omitempty"`
	PeerTargets      int     `json:"peerTargets,omitempty"` // the targets of those pages
	PeerTokens       int     `json:"peerTokens,omitempty"`
	MedianPeerRecall float64 `json:"medianPeerRecall,omitempty"`

	// Worst lists, for each measure, the pages that fare worst on it.
	Worst []Worst `json:"worst"`
}

// Worst is one measure's worst pages, worst first.
type Worst struct {
	Measure string   `json:"measure"`
	Pages   []Figure `json:"pages"`
}

// Figure is one page's value of a measure.
type Figure struct {
	URL   string  `json:"url"`
	Value float64 `json:"value"`
}

// worstCount is how many pages each worst list names.
const worstCount = 3

// measures are the per-page figures the summary ranks; low says the
// lowest value is the worst. ok leaves a page out of the ranking.
var measures = []struct {
	name string
	low  bool
	of   func(p *Page) (float64, bool)
}{
	{"fused recall", true, func(p *Page) (float64, bool) { return p.Truth.Fused.Recall, p.Truth.Targets > 0 }},
	{"AX-only recall", true, func(p *Page) (float64, bool) { return p.Truth.AX.Recall, p.Truth.Targets > 0 }},
	{"fused precision", true, func(p *Page) (float64, bool) { return p.Truth.Fused.Precision, judgedRefs(p.Truth.Fused) > 0 }},
	{"AX-only precision", true, func(p *Page) (float64, bool) { return p.Truth.AX.Precision, judgedRefs(p.Truth.AX) > 0 }},
	{"token ratio (fused/AX-only)", false, func(p *Page) (float64, bool) { return p.TokenRatio(), p.TokenRatio() > 0 }},
	{"time (ms)", false, func(p *Page) (float64, bool) { return p.MS, true }},
}

func peerRecall(p *truth.Peer) float64 {
	if p == nil || p.Measure == nil {
		return 0
	}
	return p.Measure.Recall
}

func judgedRefs(m truth.Measure) int { return m.RefsInView - m.Unjudged }

// Summarize sums up the pages; failed ones count only as failures.
func Summarize(pages []Page) Summary {
	s := Summary{Pages: len(pages)}
	var ok []*Page
	for i := range pages {
		p := &pages[i]
		if p.Error != "" || p.Truth == nil {
			s.Failures++
			continue
		}
		ok = append(ok, p)
		t := p.Truth
		s.TotalMS += p.MS
		s.Targets += t.Targets
		s.ListenerOnly += t.ListenerOnly
		s.AXFound += t.AX.Found
		s.FusedFound += t.Fused.Found
		s.AXListenerFound += t.AX.ListenerOnlyFound
		s.FusedListenFound += t.Fused.ListenerOnlyFound
		s.AXUnreachable += t.AX.Unreachable
		s.FusedUnreachable += t.Fused.Unreachable
		s.AXTokens += t.AX.Tokens
		s.FusedTokens += t.Fused.Tokens
		if t.Peer != nil && t.Peer.Measure != nil {
			s.PeerPages++
			s.PeerFound += t.Peer.Measure.Found
			s.PeerTargets += t.Targets
			s.PeerTokens += t.Peer.Measure.Tokens
		}
	}
	s.MedianPeerRecall = Median(values(ok, func(p *Page) (float64, bool) {
		peer := p.Truth.Peer
		return peerRecall(peer), peer != nil && peer.Measure != nil && p.Truth.Targets > 0
	}))
	s.MedianMS = Median(values(ok, func(p *Page) (float64, bool) { return p.MS, true }))
	s.MedianAXRecall = Median(values(ok, measures[1].of))
	s.MedianFusedRecall = Median(values(ok, measures[0].of))
	s.MedianAXPrecision = Median(values(ok, measures[3].of))
	s.MedianFusedPrecision = Median(values(ok, measures[2].of))
	s.MedianTokenRatio = Median(values(ok, measures[4].of))
	s.Worst = []Worst{}
	for _, m := range measures {
		s.Worst = append(s.Worst, worst(ok, m.low, m.of, m.name))
	}
	return s
}

func values(pages []*Page, of func(*Page) (float64, bool)) []float64 {
	out := []float64{}
	for _, p := range pages {
		if v, ok := of(p); ok {
			out = append(out, v)
		}
	}
	return out
}

func worst(pages []*Page, low bool, of func(*Page) (float64, bool), name string) Worst {
	w := Worst{Measure: name, Pages: []Figure{}}
	for _, p := range pages {
		if v, ok := of(p); ok {
			w.Pages = append(w.Pages, Figure{URL: p.URL, Value: v})
		}
	}
	sort.SliceStable(w.Pages, func(i, j int) bool {
		if low {
			return w.Pages[i].Value < w.Pages[j].Value
		}
		return w.Pages[i].Value > w.Pages[j].Value
	})
	w.Pages = w.Pages[:min(worstCount, len(w.Pages))]
	return w
}

// Median of the values (0 when none); NaNs are left out.
func Median(v []float64) float64 {
	s := make([]float64, 0, len(v))
	for _, x := range v {
		if !math.IsNaN(x) {
			s = append(s, x)
		}
	}
	if len(s) == 0 {
		return 0
	}
	sort.Float64s(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}
