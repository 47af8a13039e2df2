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
	row := func(name, ax, fused string) { fmt.Fprintf(&sb, "  %-36s %10s %10s\n", name, ax, fused) }
	row("", "AX-only", "fused")
	row("targets with a ref", fmt.Sprintf("%d/%d", r.AX.Found, r.Targets), fmt.Sprintf("%d/%d", r.Fused.Found, r.Targets))
	row("recall", recall(r.AX), recall(r.Fused))
	row("listener-only targets with a ref", fmt.Sprintf("%d/%d", r.AX.ListenerOnlyFound, r.ListenerOnly), fmt.Sprintf("%d/%d", r.Fused.ListenerOnlyFound, r.ListenerOnly))
	row("refs in view a click cannot reach", fmt.Sprintf("%d/%d", r.AX.Unreachable, r.AX.RefsInView), fmt.Sprintf("%d/%d", r.Fused.Unreachable, r.Fused.RefsInView))
	row("precision", precision(r.AX), precision(r.Fused))
	row("tokens", fmt.Sprint(r.AX.Tokens), fmt.Sprint(r.Fused.Tokens))
	for _, l := range []struct {
		name   string
		missed []string
	}{{"AX-only view", r.MissedByAX}, {"fused view", r.MissedByFused}} {
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
