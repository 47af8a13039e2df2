package fuse

import (
	"io"
	"strings"
	"time"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/internal/o200k"
	"github.com/axfuse/axfuse/layout"
)

// AttachScreenshot records the screenshot written at path: in the JSON,
// and as the YAML's last line with the reason.
func (o *Observation) AttachScreenshot(path, reason string) {
	regions := o.Regions
	if regions == nil {
		regions = []Region{}
	}
	o.Screenshot = &Screenshot{Path: path, Reason: reason, Regions: regions}
	f := o.format
	if f == nil {
		f = YAMLFormat
	}
	o.Snapshot += f.Screenshot(path, reason)
}

// Snapshot runs the pure pipeline on a capture: layout, fuse, serialize.
func Snapshot(c *domsnap.Capture, opts Options) *Observation {
	timings := append([]domsnap.Timing(nil), c.Timings...)
	start := time.Now()
	g := layout.Compute(c)
	timings = append(timings, domsnap.TimingSince("layout", start))
	start = time.Now()
	t := Build(c, g, opts)
	timings = append(timings, domsnap.TimingSince("fuse", start))
	start = time.Now()
	var text strings.Builder
	t.Write(&text)
	yaml := text.String()
	timings = append(timings, domsnap.TimingSince("serialize", start))
	start = time.Now()
	tokens := CountTokens(yaml)
	timings = append(timings, domsnap.TimingSince("tokens", start))
	elements := t.Elements
	if elements == nil {
		elements = []Element{}
	}
	withheld := t.Withheld
	if withheld == nil {
		withheld = []WithheldItem{}
	}
	return &Observation{
		URL: visibleText(c.URL), Title: visibleText(c.Title), Viewport: c.Viewport, Mode: t.Mode,
		Snapshot: yaml, format: t.format, Elements: elements, Regions: t.Regions, Withheld: withheld,
		Stats: Stats{Counts: t.Counts, Lines: lines(yaml), Tokens: tokens, Timings: timings},
	}
}

func lines(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			n++
		}
	}
	return n
}

// WriteJSON writes the observation as one indented JSON object.
func (o *Observation) WriteJSON(w io.Writer) error { return EncodeJSON(w, o, true) }

// CountTokens counts o200k tokens (GPT-4o's encoding), or -1 when it
// cannot (a damaged vocabulary table). internal/o200k counts as
// tiktoken-go does without building its vocabulary map at each process
// start (about 25 ms) or linking it (startup and an 11 MB larger binary).
func CountTokens(s string) int {
	if n, ok := o200k.Count(s); ok {
		return n
	}
	return -1
}
