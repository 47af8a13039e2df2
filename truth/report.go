package truth

import (
	"fmt"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/layout"
)

// Report is a comparison's two views measured against one capture's
// ground truth.
type Report struct {
	Targets      int     `json:"targets"`
	ListenerOnly int     `json:"listenerOnly"`
	Covered      int     `json:"covered"`
	Delegating   int     `json:"delegating"`
	Unjudged     int     `json:"unjudged"`
	AX           Measure `json:"ax"`
	Fused        Measure `json:"fused"`
	// MissedByAX and MissedByFused name the targets each view lacks.
	MissedByAX    []string `json:"missedByAX"`
	MissedByFused []string `json:"missedByFused"`
	// Peer is an outside observer of the same tab, when one was asked for.
	Peer *Peer `json:"peer,omitempty"`
}

// Peer is an outside observer (compare --peer) measured against the same
// ground truth by the boxes of its refs.
type Peer struct {
	Name  string  `json:"name"`
	MS    float64 `json:"ms"`
	Error string  `json:"error,omitempty"`
	Lines int     `json:"lines"`
	// Refs counts the "[ref=" marks of its snapshot; Boxes are those it
	// gave a box for.
	Refs    int      `json:"refs"`
	Measure *Measure `json:"measure,omitempty"`
	Missed  []string `json:"missed,omitempty"`

	Snapshot string   `json:"-"`
	Boxes    []BoxRef `json:"-"`
}

// MeasurePeer measures an outside observer's snapshot and ref boxes
// against the capture's ground truth; an observer that failed keeps its
// error and no measure.
func MeasurePeer(c *domsnap.Capture, g *layout.Geometry, p *Peer) {
	if p.Error != "" {
		return
	}
	p.Lines = strings.Count(strings.TrimRight(p.Snapshot, "\n"), "\n") + 1
	p.Refs = strings.Count(p.Snapshot, "[ref=")
	m := MeasureBoxes(g, Judge(c, g, Candidates(c, g)), p.Boxes, fuse.CountTokens(p.Snapshot))
	p.Measure, p.Missed = &m, describe(m.Missed)
}

// PointsFor are the points whose hit tests a comparison's report needs.
func PointsFor(c *domsnap.Capture, g *layout.Geometry, cmp *fuse.Comparison) [][2]float64 {
	return Points(c, g, Candidates(c, g), append(append([]fuse.Element{}, cmp.AX.Elements...), cmp.Fused.Elements...))
}

// Compare measures both views of a comparison against the capture's
// ground truth (its hit tests, c.Hits).
func Compare(c *domsnap.Capture, g *layout.Geometry, cmp *fuse.Comparison) *Report {
	t := Judge(c, g, Candidates(c, g))
	r := &Report{
		Targets: len(t.Targets), Covered: len(t.Covered), Delegating: t.Delegating, Unjudged: t.Unjudged,
		AX:    MeasureView(c, g, t, cmp.AX.Elements, cmp.AX.Stats.Tokens),
		Fused: MeasureView(c, g, t, cmp.Fused.Elements, cmp.Fused.Stats.Tokens),
	}
	r.ListenerOnly = r.Fused.ListenerOnly
	r.MissedByAX, r.MissedByFused = describe(r.AX.Missed), describe(r.Fused.Missed)
	return r
}

// describe names targets for a person: tag, words, box.
func describe(cs []Candidate) []string {
	out := []string{}
	for _, c := range cs {
		kind := "native"
		if c.ListenerOnly() {
			kind = "listener"
		}
		out = append(out, fmt.Sprintf("%s %s (%s) at (%.0f,%.0f) %.0f×%.0f", c.Tag, fuse.Quote(c.Text), kind, c.Box.X, c.Box.Y, c.Box.W, c.Box.H))
	}
	return out
}

// Text is the report as a table and the lists of missed targets.
func (r *Report) Text() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\nGround truth: %d visible click targets (%d listener-only) a click on them reaches; %d covered, %d delegating containers left out",
		r.Targets, r.ListenerOnly, r.Covered, r.Delegating)
	if r.Unjudged > 0 {
		fmt.Fprintf(&sb, ", %d not hit-tested (a capture recorded without --hits, or a frame out of reach)", r.Unjudged)
	}
	sb.WriteString("\n")
	names, views := []string{"AX-only", "fused"}, []Measure{r.AX, r.Fused}
	if p := r.Peer; p != nil && p.Measure != nil {
		names, views = append(names, p.Name), append(views, *p.Measure)
	}
	row := func(name string, cell func(m Measure) string) {
		fmt.Fprintf(&sb, "  %-36s", name)
		for _, m := range views {
			fmt.Fprintf(&sb, " %10s", cell(m))
		}
		sb.WriteString("\n")
	}
	fmt.Fprintf(&sb, "  %-36s", "")
	for _, n := range names {
		fmt.Fprintf(&sb, " %10s", n)
	}
	sb.WriteString("\n")
	row("targets with a ref", func(m Measure) string { return fmt.Sprintf("%d/%d", m.Found, m.Targets) })
	row("recall", recall)
	row("listener-only targets with a ref", func(m Measure) string { return fmt.Sprintf("%d/%d", m.ListenerOnlyFound, m.ListenerOnly) })
	row("refs in view a click cannot reach", func(m Measure) string {
		if m.Unjudged == m.RefsInView && m.RefsInView > 0 {
			return fmt.Sprintf("?/%d", m.RefsInView)
		}
		return fmt.Sprintf("%d/%d", m.Unreachable, m.RefsInView)
	})
	row("precision", precision)
	row("tokens", func(m Measure) string { return fmt.Sprint(m.Tokens) })
	if p := r.Peer; p != nil && p.Error != "" {
		fmt.Fprintf(&sb, "The peer %s failed: %s\n", p.Name, p.Error)
	}
	lists := []struct {
		name   string
		missed []string
	}{{"AX-only view", r.MissedByAX}, {"fused view", r.MissedByFused}}
	if p := r.Peer; p != nil && p.Measure != nil {
		lists = append(lists, struct {
			name   string
			missed []string
		}{"peer " + p.Name, p.Missed})
	}
	for _, l := range lists {
		if len(l.missed) > 0 {
			fmt.Fprintf(&sb, "Targets the %s has no ref for (%d):\n", l.name, len(l.missed))
			for _, m := range l.missed {
				sb.WriteString("  " + m + "\n")
			}
		}
	}
	return sb.String()
}

func pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

// recall is "-" when there is nothing to find.
func recall(m Measure) string {
	if m.Targets == 0 {
		return "-"
	}
	return pct(m.Recall)
}

// precision is "-" when no ref of the view was hit-tested.
func precision(m Measure) string {
	if m.RefsInView-m.Unjudged <= 0 {
		return "-"
	}
	return pct(m.Precision)
}
