package chrome

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
)

// A ::first-line (or ::first-letter) rule paints the first line of a
// block otherwise than the block's own computed style, which is all the
// snapshot gives: a transparent first line over a dark block, a dark one
// over a block in the page's colour. Sight cannot see that, so the
// elements such rules style are found in the page (firstline.js, one call
// per document) and recorded in the capture (Capture.FirstLines); their
// texts are unsure, settled by the pixels. A page without such rules pays
// one call per document.

//go:embed firstline.js
var firstLineJS string

// takeFirstLinesJS hands over (and forgets) what firstline.js kept.
const takeFirstLinesJS = `function () { const a = globalThis.__axfuseFirstLines || []; delete globalThis.__axfuseFirstLines; return a; }`

// firstLineGroup holds the objects one asking makes, released together.
const firstLineGroup = "axfuse-first-lines"

const (
	// maxFirstLines bounds the elements taken from one document.
	maxFirstLines = 200
	// maxFirstLineDocs bounds the documents asked in one capture.
	maxFirstLineDocs = 16
	// firstLineBudget bounds the asking of one capture.
	firstLineBudget = 3 * time.Second
)

// findFirstLines records the elements ::first-line rules style.
func (t *Tab) findFirstLines(c *domsnap.Capture) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(t.ctx, firstLineBudget)
	defer cancel()
	asked, failed, visited := 0, 0, 0
	for d := range c.Documents {
		doc := &c.Documents[d]
		if len(doc.Nodes) == 0 || doc.Nodes[0].Type != domsnap.DocumentNode || doc.Nodes[0].Backend == 0 {
			continue
		}
		if asked == maxFirstLineDocs {
			break
		}
		asked++
		backends, err := t.askFirstLines(ctx, doc)
		if err != nil {
			failed++
			continue
		}
		if doc.VisitedUnknown || len(doc.VisitedColours) > 0 {
			visited++
		}
		if len(backends) == 0 {
			continue
		}
		want := make(map[int64]bool, len(backends))
		for _, b := range backends {
			want[b] = true
		}
		for i := range doc.Nodes {
			if doc.Nodes[i].Type == domsnap.ElementNode && want[doc.Nodes[i].Backend] {
				c.FirstLines = append(c.FirstLines, domsnap.Pos{Doc: d, Node: i})
			}
		}
	}
	if len(c.FirstLines) > 0 || failed > 0 || visited > 0 {
		step := fmt.Sprintf("first lines: %d elements styled by ::first-line, %d documents with :visited colours", len(c.FirstLines), visited)
		if failed > 0 {
			step += fmt.Sprintf(" (%d documents not asked)", failed)
		}
		c.Timings = append(c.Timings, domsnap.TimingSince(step, start))
	}
}

// askFirstLines returns the backend ids of one document's elements that
// ::first-line rules style, and records the colours its :visited rules
// give in the document.
func (t *Tab) askFirstLines(ctx context.Context, doc *domsnap.Document) ([]int64, error) {
	session := t.sessionFor(doc.FrameID)
	var found struct {
		N              int      `json:"n"`
		Visited        []string `json:"visited"`
		VisitedUnknown bool     `json:"visitedUnknown"`
	}
	err := t.pixelStep(ctx, session, "find ::first-line rules", pixelStyleTimeout, func(ctx context.Context) error {
		res, err := t.evaluateInFrameWorld(ctx, session, doc.FrameID, runtime.EvaluateParams{
			Expression: fmt.Sprintf("(%s).call(document, %d)", firstLineJS, maxFirstLines), ReturnByValue: new(true),
		})
		if err != nil {
			return err
		}
		return json.Unmarshal(res.Value, &found)
	})
	if err != nil {
		// Unread, the visited colours are unknown: links' texts go to
		// the pixels.
		doc.VisitedUnknown = true
		return nil, err
	}
	doc.VisitedColours, doc.VisitedUnknown = found.Visited, found.VisitedUnknown
	if found.N == 0 {
		return nil, nil
	}
	// The elements themselves, by reference, released once described.
	var arr *runtime.RemoteObject
	err = t.pixelStep(ctx, session, "take the ::first-line elements", pixelStyleTimeout, func(ctx context.Context) error {
		res, err := t.evaluateInFrameWorld(ctx, session, doc.FrameID, runtime.EvaluateParams{
			Expression: "(" + takeFirstLinesJS + ")()", ObjectGroup: firstLineGroup,
		})
		arr = res
		return err
	})
	defer t.pixelStep(ctx, session, "release the ::first-line elements", pixelStyleTimeout, func(ctx context.Context) error {
		_, err := do(ctx, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: firstLineGroup})
		return err
	})
	if err != nil || arr == nil || arr.ObjectID == "" {
		return nil, err
	}
	var props []*runtime.PropertyDescriptor
	err = t.pixelStep(ctx, session, "list the ::first-line elements", pixelStyleTimeout, func(ctx context.Context) error {
		p, err := do(ctx, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: arr.ObjectID, OwnProperties: new(true)})
		props = p.Result
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, p := range props {
		if p.Value == nil || p.Value.ObjectID == "" || p.Value.Subtype != runtime.RemoteObjectSubtypeNode || len(out) == maxFirstLines {
			continue
		}
		var backend int64
		err := t.pixelStep(ctx, session, "DOM.describeNode", pixelStyleTimeout, func(ctx context.Context) error {
			n, err := do(ctx, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: p.Value.ObjectID})
			if err == nil && n.Node != nil {
				backend = int64(n.Node.BackendNodeID)
			}
			return err
		})
		if err == nil && backend != 0 {
			out = append(out, backend)
		}
	}
	return out, nil
}

// evaluateInFrameWorld evaluates in axfuse's isolated world of the frame
// (the guard's, made once per document): one call when the world is
// known, a new world when the frame's document was replaced.
func (t *Tab) evaluateInFrameWorld(ctx, session context.Context, frame string, params runtime.EvaluateParams) (*runtime.RemoteObject, error) {
	params.Silent = new(true)
	for fresh := false; ; fresh = true {
		world, made, err := t.frameWorld(ctx, session, frame, fresh)
		if err != nil {
			return nil, err
		}
		params.ContextID = world
		res, err := do(ctx, runtime.Evaluate, params)
		if err != nil && !fresh && !made && strings.Contains(err.Error(), "context") {
			continue // the world went with its document
		}
		if err != nil {
			return nil, err
		}
		if res.ExceptionDetails != nil {
			return nil, fmt.Errorf("script threw: %s", exceptionText(res.ExceptionDetails))
		}
		return res.Result, nil
	}
}
