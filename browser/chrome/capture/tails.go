package capture

import (
	"context"
	_ "embed"
	"fmt"
	"math"
	"time"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
	"github.com/chromedp/cdproto/runtime"
)

// Cut-off tails are settled by the browser's layout. A text that a box
// hiding its overflow cuts (text-overflow: ellipsis, line-clamp, a card
// of fixed height) shows only part of its characters; printing it whole
// prints words no one sees. Right after a capture, every such text in
// view (layout.CutTexts) is asked, in one call per frame, which of its
// characters lie inside the clip; the shown prefix travels in the capture
// (Capture.TextCuts), and fuse prints it ending in "…".

const (
	// maxCutTexts bounds one capture's texts asked; past it, texts print
	// as laid out.
	maxCutTexts = 500
	// tailsBudget bounds the asking of one capture.
	tailsBudget = 5 * time.Second
)

// settleTails records in the capture what shows of each text in view a
// hiding box cuts, with a timing step.
func (e *Engine) settleTails(c *domsnap.Capture, g *layout.Geometry) {
	texts := layout.CutTexts(c, g, maxCutTexts)
	if len(texts) == 0 {
		return
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(e.ctx(), tailsBudget)
	defer cancel()
	byDoc := map[int][]int{}
	var docs []int
	for k, ct := range texts {
		if _, ok := byDoc[ct.Doc]; !ok {
			docs = append(docs, ct.Doc)
		}
		byDoc[ct.Doc] = append(byDoc[ct.Doc], k)
	}
	cut, failed := 0, 0
	for _, d := range docs {
		shown, err := e.askTails(ctx, c, d, texts, byDoc[d])
		if err != nil {
			failed += len(byDoc[d])
			continue
		}
		for j, k := range byDoc[d] {
			if shown[j] != nil {
				c.TextCuts = append(c.TextCuts, domsnap.TextCut{Doc: texts[k].Doc, Node: texts[k].Node, Shown: *shown[j]})
				cut++
			}
		}
	}
	step := fmt.Sprintf("tails: %d texts cut by a box, %d cut off", len(texts), cut)
	if failed > 0 {
		step += fmt.Sprintf(" (%d not asked: printed as laid out)", failed)
	}
	c.Timings = append(c.Timings, domsnap.TimingSince(step, start))
}

// askTails asks one document's texts (indexes into texts) in its frame's
// isolated world: per text, nil when nothing of it is cut.
func (e *Engine) askTails(ctx context.Context, c *domsnap.Capture, d int, texts []layout.CutText, ks []int) ([]*string, error) {
	doc := &c.Documents[d]
	backends := make([]int64, len(ks))
	for j, k := range ks {
		backends[j] = doc.Nodes[texts[k].Node].Backend
	}
	session := e.page.SessionFor(doc.FrameID)
	objs := e.resolveAll(ctx, session, doc.FrameID, backends)
	args, found := objectArgs(objs)
	var clips [][4]float64
	for _, j := range found {
		b := texts[ks[j]].Clip
		clips = append(clips, [4]float64{farEdge(b[0]), farEdge(b[1]), farEdge(b[2]), farEdge(b[3])})
	}
	out := make([]*string, len(ks))
	if len(found) == 0 {
		return out, nil
	}
	args = append([]*runtime.CallArgument{{Value: jsonValue(clips)}}, args...)
	var shown []*string
	err := e.pixelStep(ctx, session, "read the cut texts' characters", pixelStyleTimeout, func(ctx context.Context) error {
		return callObjects(ctx, objs[found[0]], tailsJS, args, &shown)
	})
	if err != nil {
		return nil, err
	}
	if len(shown) != len(found) {
		return nil, fmt.Errorf("tails: %d answers for %d texts", len(shown), len(found))
	}
	for i, j := range found {
		out[j] = shown[i]
	}
	return out, nil
}

// farEdge is a clip edge JSON can carry: an unclipped side is far away.
func farEdge(v float64) float64 {
	switch {
	case math.IsInf(v, 1) || v > 1e9:
		return 1e9
	case math.IsInf(v, -1) || v < -1e9:
		return -1e9
	case math.IsNaN(v):
		return 0
	}
	return v
}

// objectArgs are the resolved objects as call arguments, with their
// indexes in objs (a node not found, "", is left out).
func objectArgs(objs []runtime.RemoteObjectID) (args []*runtime.CallArgument, found []int) {
	for j, obj := range objs {
		if obj != "" {
			args = append(args, &runtime.CallArgument{ObjectID: obj})
			found = append(found, j)
		}
	}
	return args, found
}
