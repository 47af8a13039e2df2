package mcpserver

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/screenshot"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// look observes the tab and answers with what the agent should see: the
// full snapshot (full, a new document, or nothing seen yet) or what
// changed since its last look. Either becomes what it last saw.
func (s *Server) look(ts *tabState, full bool, note string) (*mcp.CallToolResult, error) {
	if d := ts.tab.OpenDialog(); d != nil {
		text := fmt.Sprintf("%s\n%s %s dialog is open with %s; the page waits for it. Answer it with browser_handle_dialog {accept, promptText}.",
			note, article(string(d.Type)), d.Type, fuse.Quote(fuse.DisplayName(d.Message)))
		return textResult(strings.TrimSpace(text), nil), nil
	}
	// A canvas usually means a screenshot: take it while the capture runs,
	// when the answer will be the full snapshot. (A delta, the usual answer
	// after an action, attaches none; Chrome would still spend 60–90 ms
	// producing the frame.)
	var early *screenshot.Pending
	var onCanvas func()
	switch {
	case ts.screenshot == "always":
		early = screenshot.Start(ts.tab, s.timeout())
	case ts.screenshot != "never" && (full || ts.seen == nil):
		onCanvas = func() { early = screenshot.Start(ts.tab, s.timeout()) }
	}
	start := time.Now()
	o, err := ts.sess.ObserveNotifying(s.viewOptions(0), onCanvas)
	if err != nil {
		early.Drop()
		if errors.Is(err, browser.ErrDialogOpen) && ts.tab.OpenDialog() != nil {
			// A dialog opened while the capture waited on the page: the
			// dialog is what there is to see.
			return s.look(ts, full, note)
		}
		return nil, err
	}
	timings := append(slices.Clone(o.Capture.Timings), domsnap.TimingSince("capture and fuse", start))
	prev := ts.seen
	ts.seen = o
	start = time.Now()
	yaml := fuse.YAML(o.Tree.Roots)
	fullTokens := fuse.CountTokens(yaml)
	timings = append(timings, domsnap.TimingSince("serialize and count tokens", start))
	meta := mcp.Meta{"fullTokens": fullTokens, "timings": timings}
	var sb strings.Builder
	if note != "" {
		sb.WriteString(note + "\n")
	}
	writePage(&sb, o)
	if !full && prev != nil && prev.Document == o.Document {
		delta := fuse.Diff(prev.Tree, o.Tree)
		if dt := fuse.CountTokens(delta); dt < fullTokens {
			meta["deltaTokens"] = dt
			fmt.Fprintf(&sb, "Changes since your last snapshot (%d tokens; the full snapshot is %d, browser_snapshot shows it):\n", dt, fullTokens)
			sb.WriteString(delta)
			res := textResult(sb.String(), meta)
			if ts.screenshot == "always" {
				s.attachRegions(ts, o, res, early)
			} else {
				early.Drop()
			}
			return res, nil
		}
	}
	fmt.Fprintf(&sb, "Snapshot (%d tokens):\n", fullTokens)
	sb.WriteString(yaml)
	res := textResult(sb.String(), meta)
	s.attachRegions(ts, o, res, early)
	return res, nil
}

// article is "An" before a vowel ("An alert dialog"), else "A".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "An"
	}
	return "A"
}

// writePage names the page; its URL and title are the page's words, so
// they are quoted.
func writePage(sb *strings.Builder, o *act.Observed) {
	fmt.Fprintf(sb, "Page: %s\nTitle: %s\n", fuse.Quote(fuse.DisplayName(o.Capture.URL)), fuse.Quote(fuse.DisplayName(o.Capture.Title)))
}

// attachRegions adds the annotated screenshot when the tree cannot serve:
// targets with no node (canvas, uncaptured frames). early, when not nil, is
// the screenshot taken alongside the capture; it is used or dropped.
// With the call's screenshot choice "always" it is attached whatever the
// regions; with "never" it never is.
func (s *Server) attachRegions(ts *tabState, o *act.Observed, res *mcp.CallToolResult, early *screenshot.Pending) {
	always := ts.screenshot == "always"
	if ts.screenshot == "never" || (len(o.Tree.Regions) == 0 && !always) {
		early.Drop()
		return
	}
	why := fuse.Reasons(o.Tree.Regions)
	if len(o.Tree.Regions) == 0 {
		why = "asked for (screenshot: always)"
	}
	obs := &fuse.Observation{Elements: o.Tree.Elements, Regions: o.Tree.Regions, Viewport: o.Capture.Viewport}
	var clip *[4]float64
	if !always {
		clip = regionsClip(obs)
	}
	png, err := s.annotated(ts, obs, early, clip)
	if err != nil {
		res.Content = append(res.Content, &mcp.TextContent{Text: "(the screenshot for " + why + " failed: " + err.Error() + ")"})
		return
	}
	text := "Screenshot attached: " + why
	if clip != nil {
		text += fmt.Sprintf("\nIt shows the part of the viewport at x=%.0f, y=%.0f, %.0f×%.0f CSS px: add x and y to a point in it for browser_mouse_click_xy (screenshot: always gives the whole viewport).", clip[0], clip[1], clip[2], clip[3])
	}
	res.Content = append(res.Content, &mcp.TextContent{Text: text}, &mcp.ImageContent{Data: png, MIMEType: "image/png"})
}

// regionsClip is the part of the viewport the regions need, nil when the
// whole viewport serves as well (see screenshot.Clip). Its corner is
// rounded to whole CSS px, so that the offsets the answer gives are exact.
func regionsClip(obs *fuse.Observation) *[4]float64 {
	boxes := make([][4]float64, len(obs.Regions))
	for i, r := range obs.Regions {
		boxes[i] = r.Box
	}
	box, ok := screenshot.Clip(boxes, obs.Viewport.Width, obs.Viewport.Height)
	if !ok {
		return nil
	}
	x, y := math.Floor(box[0]), math.Floor(box[1])
	box = [4]float64{x, y, math.Ceil(box[0] + box[2] - x), math.Ceil(box[1] + box[3] - y)}
	return &box
}

// annotated takes the viewport (or waits for the one taken early) and
// outlines the observation's elements, cut to clip when not nil.
func (s *Server) annotated(ts *tabState, obs *fuse.Observation, early *screenshot.Pending, clip *[4]float64) ([]byte, error) {
	if early == nil {
		early = screenshot.Start(ts.tab, s.timeout())
	}
	shot, err := early.Wait()
	if err != nil {
		return nil, err
	}
	marks, scale := screenshot.MarksOf(obs), obs.Viewport.DevicePixelRatio
	var cut [4]float64
	if clip != nil {
		cut = *clip
	}
	if a := ts.annotatedLast; a != nil && a.scale == scale && a.clip == cut && slices.Equal(a.marks, marks) && bytes.Equal(a.shot, shot) {
		// The same picture with the same marks: the same annotated PNG,
		// without decoding and encoding it again.
		return a.out, nil
	}
	out, err := screenshot.AnnotateClipped(shot, marks, scale, clip)
	if err == nil {
		ts.annotatedLast = &annotatedShot{shot: shot, marks: marks, scale: scale, clip: cut, out: out}
	}
	return out, err
}

// annotatedShot is the last annotated screenshot and what it was made of
// (clip zero: the whole viewport).
type annotatedShot struct {
	shot, out []byte
	marks     []screenshot.Mark
	scale     float64
	clip      [4]float64
}

func (s *Server) screenshot(ts *tabState) ([]byte, error) {
	return screenshot.Start(ts.tab, s.timeout()).Wait()
}

const defaultTimeout = 20 * time.Second

// timeout is the deadline of one CDP call.
func (s *Server) timeout() time.Duration {
	if s.opts.CallTimeout <= 0 {
		return defaultTimeout
	}
	return s.opts.CallTimeout
}

func textResult(text string, meta mcp.Meta) *mcp.CallToolResult {
	return &mcp.CallToolResult{Meta: meta, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// writeFile saves a snapshot where the agent asked, for files too large to
// read at once.
func writeFile(path, text string) error {
	if path == "" {
		return nil
	}
	return os.WriteFile(path, []byte(text), 0o600)
}
