package fuse

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/internal/textcut"
)

// Comparison sets the AX-only view beside the fused one, for people
// measuring what fusion changes on a page.
type Comparison struct {
	AX        *Observation `json:"ax"`
	Fused     *Observation `json:"fused"`
	Table     []Row        `json:"table"`
	OnlyFused []string     `json:"onlyFused"` // targets the AX-only view lacks
	OnlyAX    []string     `json:"onlyAX"`    // targets the fused view leaves out
}

// Row is one measure for both views.
type Row struct {
	Measure string `json:"measure"`
	AX      int    `json:"ax"`
	Fused   int    `json:"fused"`
}

// Compare runs both views on one capture.
func Compare(c *domsnap.Capture, opts Options) *Comparison {
	axOpts, fusedOpts := opts, opts
	axOpts.Mode, fusedOpts.Mode = ModeAX, ModeFused
	axOpts.Refs, fusedOpts.Refs = nil, nil
	ax, fused := Snapshot(c, axOpts), Snapshot(c, fusedOpts)
	cmp := &Comparison{AX: ax, Fused: fused}
	shot := 0
	if len(fused.Regions) > 0 {
		shot = 1
	}
	cmp.Table = []Row{
		{"tokens", ax.Stats.Tokens, fused.Stats.Tokens},
		{"lines", ax.Stats.Lines, fused.Stats.Lines},
		{"refs", ax.Stats.Refs, fused.Stats.Refs},
		{"role-less listener targets", ax.Stats.Roleless, fused.Stats.Roleless},
		{"covered nodes left out", 0, fused.Stats.Occluded},
		{"off-screen nodes collapsed", 0, fused.Stats.Offscreen},
		{"clipped nodes left out", 0, fused.Stats.Clipped},
		{"screenshot needed (1 yes)", 0, shot},
	}
	cmp.OnlyFused, cmp.OnlyAX = difference(fused.Elements, ax.Elements), difference(ax.Elements, fused.Elements)
	return cmp
}

// difference lists the elements of a whose node b has no element for.
func difference(a, b []Element) []string {
	type key struct {
		frame   string
		backend int64
	}
	in := map[key]bool{}
	for _, e := range b {
		in[key{e.Frame, e.BackendNodeID}] = true
	}
	var out []string
	for _, e := range a {
		if !in[key{e.Frame, e.BackendNodeID}] {
			out = append(out, Key(&Node{Role: e.Role, Name: e.Name})+" ("+strings.Join(e.Reasons, ", ")+")")
		}
	}
	sort.Strings(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// Text renders the comparison: both views side by side, then the table
// and the differences.
func (cmp *Comparison) Text(width int) string {
	if width < 40 {
		width = 40
	}
	var sb strings.Builder
	left := strings.Split(strings.TrimRight("# AX-only view\n"+cmp.AX.Snapshot, "\n"), "\n")
	right := strings.Split(strings.TrimRight("# fused view\n"+cmp.Fused.Snapshot, "\n"), "\n")
	for i := 0; i < len(left) || i < len(right); i++ {
		var l, r string
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		fmt.Fprintf(&sb, "%s │ %s\n", pad(l, width), r)
	}
	sb.WriteString("\n")
	fmt.Fprintf(&sb, "%-30s %10s %10s\n", "measure", "AX-only", "fused")
	for _, row := range cmp.Table {
		fmt.Fprintf(&sb, "%-30s %10d %10d\n", row.Measure, row.AX, row.Fused)
	}
	writeList(&sb, "targets only the fused view has", cmp.OnlyFused)
	writeList(&sb, "targets only the AX-only view has (off-screen, covered or hidden in the fused view)", cmp.OnlyAX)
	return sb.String()
}

func writeList(sb *strings.Builder, title string, items []string) {
	fmt.Fprintf(sb, "\n%s: %d\n", title, len(items))
	for _, it := range items {
		sb.WriteString("  " + it + "\n")
	}
}

// pad cuts or pads s to width runes.
func pad(s string, width int) string {
	if n := utf8.RuneCountInString(s); n > width {
		return textcut.Runes(s, width-1)
	} else {
		return s + strings.Repeat(" ", width-n)
	}
}
