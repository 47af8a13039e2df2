package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/runtime"
)

// The auto policy of a viewport capture: when it falls back to a full one
// (a small page, too much of the page in view), and the small document
// that is captured whole at once.

// AutoMinElements is the page size, in elements, from which auto mode
// captures the viewport only. Below it a full capture is about as fast and
// sees everything (measured on the corpus, see docs/decisions).
const AutoMinElements = 400

// autoMinText: a page of fewer elements still takes the viewport capture
// when its text (scripts and styles aside) runs to this many characters:
// Chrome's full AX tree holds a node per line of text, which the viewport
// capture never asks for (measured: docs/decisions).
const autoMinText = 30000

// autoMaxKeptShare: when the nodes meeting the viewport outnumber this share
// of the page's elements, auto mode takes the full capture after all: one
// getPartialAXTree per kept node then costs more than the whole tree. (Not
// on a page taken for its text: its lines, not its elements, make the
// whole tree dear.)
const autoMaxKeptShare = 0.5

// maxKeptNodes bounds a viewport capture: past it (thousands of elements
// stacked in view) the full capture, with its own bounds, is taken instead.
const maxKeptNodes = 20000

// errFallBack says the viewport capture does not fit this page; the full
// capture is taken instead.
type errFallBack struct {
	why string
	// frames, when the pass stopped at its first step, are the frames it
	// began with: the full capture starts from them.
	frames []frameInfo
	// small, when the page was found small, is what the tab remembers of
	// it once the full capture confirms it.
	small *smallDoc
}

func (e errFallBack) Error() string { return e.why }

// smallDoc is a document auto mode found small (under AutoMinElements
// elements, little text) and whose full capture confirmed it: its next
// auto capture is full at once, without asking the page its size (a
// round trip, a sixth of a small page's snapshot). canvas says whether a
// canvas met the viewport then: OnCanvas is called again at once.
type smallDoc struct {
	loader string
	canvas bool
}

// rememberSmall keeps c's document as small when its full capture shows
// it is (its elements, shadow trees included, and its text counted), and
// forgets it otherwise: a page that grew asks its size again next time.
func (e *Engine) rememberSmall(c *domsnap.Capture, was *smallDoc) (kept bool) {
	if c == nil || len(c.Documents) == 0 || !smallCapture(&c.Documents[0]) {
		e.small.Store(nil)
		return false
	}
	e.small.Store(was)
	return true
}

// smallCapture is the page-size rule on a captured document.
func smallCapture(d *domsnap.Document) bool {
	elements, text := 0, 0
	for _, n := range d.Nodes {
		switch {
		case n.Type == 1 && n.PseudoType == "":
			elements++
		case n.Type == 3 && n.Parent >= 0 && int(n.Parent) < len(d.Nodes):
			switch d.Nodes[n.Parent].Name {
			case "SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE":
			default:
				text += len(n.Value)
			}
		}
		if elements >= AutoMinElements || text >= autoMinText {
			return false
		}
	}
	return true
}

// smallBefore is the errFallBack of an auto capture of a document that
// was small at its last capture (the full capture serves it), nil else.
func (e *Engine) smallBefore(o browser.CaptureOptions, before []frameInfo) error {
	sd := e.small.Load()
	if sd == nil || sd.loader != before[0].loader {
		return nil
	}
	if sd.canvas && o.OnCanvas != nil {
		o.OnCanvas()
	}
	return errFallBack{why: "the document was small at its last capture", frames: before, small: sd}
}

// fallBack is the errFallBack that sends a capture to the full one when
// the viewport pass cannot serve it, nil when it can.
func (e *Engine) fallBack(o browser.CaptureOptions, before []frameInfo, pass *passOut) error {
	res, kept := pass.res, len(pass.backends)
	switch {
	case res.Small:
		return errFallBack{why: fmt.Sprintf("%d elements, under %d, and little text", res.Walked, AutoMinElements), frames: before,
			small: &smallDoc{loader: before[0].loader, canvas: res.Canvases > 0}}
	case res.TooShare > 0:
		return errFallBack{why: fmt.Sprintf("about %d of %d elements' nodes meet the viewport", res.TooShare, res.Walked)}
	case res.TooMany:
		return errFallBack{why: fmt.Sprintf("over %d nodes meet the viewport", maxKeptNodes)}
	case o.Mode == domsnap.CaptureAuto && res.Walked >= AutoMinElements && float64(kept) > autoMaxKeptShare*float64(res.Walked):
		return errFallBack{why: fmt.Sprintf("%d of %d elements' nodes meet the viewport", kept, res.Walked)}
	case e.closedFrameInProcess(before, res, pass.backends, pass.loaders):
		return errFallBack{why: "a cross-origin frame in view shares the tab's process (no target of its own, unreadable by the pass)"}
	}
	return nil
}

// smallPage tells, for auto mode, whether the page is under minElements
// elements and little text, in an expression of its own: on such a page
// (most of the corpus) the full capture follows, and compiling and running
// the whole pass only to learn its size cost 3–6 ms of a ~50 ms snapshot,
// where this costs well under one.
func (e *Engine) smallPage(top frameInfo, minElements int) (*viewResult, error) {
	expr, err := pageCall("pageSize", struct {
		MinElements int `json:"minElements"`
		MinText     int `json:"minText"`
	}{minElements, autoMinText}, pageSizeJS)
	if err != nil {
		return nil, err
	}
	var raw []byte
	err = e.call("page size", func(ctx context.Context) error {
		r, err := e.evaluateInWorld(ctx, top, runtime.EvaluateParams{Expression: expr, ReturnByValue: new(true)})
		if err == nil && r.Result != nil {
			raw = r.Result.Value
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	var got []json.RawMessage
	res := &viewResult{}
	if json.Unmarshal(raw, &got) != nil || len(got) != 3 ||
		json.Unmarshal(got[0], &res.Small) != nil || json.Unmarshal(got[1], &res.Walked) != nil {
		return nil, errors.New("page size: unexpected result shape")
	}
	if json.Unmarshal(got[2], &res.Canvases) != nil {
		res.Canvases = 0
	}
	return res, nil
}
