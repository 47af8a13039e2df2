package capture

import (
	"context"
	"fmt"
	"time"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/paintorder"
)

// Unsure sight is settled by the browser's pixels. The fast model
// (paintorder's sight) says unsure, rather than seen or hidden, where a
// text or its painted surroundings use paint it does not model exactly
// (a colour it cannot parse, a filter, a clip-path), and a named image's
// own pixels may paint nothing (an empty svg, a clear GIF). Right after a
// capture, every such text in view is judged by TextPixels in one batch:
// a screenshot, every unsure text's parent made transparent at once,
// another screenshot, compared per text box. The verdicts travel in the
// capture (Capture.TextPixels), so replays and every consumer see them;
// a text left unsure is withheld. A capture whose styles use nothing
// unmodelled pays one scan of its distinct styles.

const (
	// maxUnsureTexts bounds one batch; texts past it stay unsure.
	maxUnsureTexts = 2000
	// maxUnsureImages bounds the named images in view one batch asks
	// about; those past it are judged by the model alone (seen).
	maxUnsureImages = 200
	// unsureBudget bounds the pixel batch of one capture: a page that
	// stalls its screenshots leaves its unsure texts withheld.
	unsureBudget = 10 * time.Second
)

// askBrowser asks the browser what the model leaves to it: which
// elements ::first-line rules style, the sight of unsure texts (pixels)
// and the shown part of cut texts (layout).
func (e *Engine) askBrowser(c *domsnap.Capture) {
	g := layout.Compute(c)
	e.findPaintRules(c)
	e.settleUnsure(c, g)
	e.settleTails(c, g)
}

// settleUnsure asks the pixels about the capture's unsure texts in view
// and records their verdicts in it, with a timing step.
func (e *Engine) settleUnsure(c *domsnap.Capture, g *layout.Geometry) {
	if !paintorder.MayBeUnsure(c) {
		return
	}
	start := time.Now()
	ix := paintorder.Build(c, g)
	texts := ix.UnsureTexts(maxUnsureTexts)
	images := len(texts)
	texts = append(texts, ix.UnsureImages(maxUnsureImages)...)
	images = len(texts) - images
	if len(texts) == 0 {
		c.Timings = append(c.Timings, domsnap.TimingSince("sight: no unsure text in view", start))
		return
	}
	probes := make([]TextProbe, len(texts))
	for k, u := range texts {
		doc := &c.Documents[u.Doc]
		p := TextProbe{FrameID: doc.FrameID, Backend: doc.Nodes[u.Node].Backend}
		if parent := doc.Nodes[u.Node].Parent; parent >= 0 && doc.Nodes[u.Node].Type == domsnap.TextNode {
			p.Parent = doc.Nodes[parent].Backend
		} else if doc.Nodes[u.Node].Type == domsnap.ElementNode {
			p.Parent = p.Backend // an image: made clear itself
		}
		for _, b := range u.Boxes {
			p.Boxes = append(p.Boxes, domsnap.Rect{X: b.X, Y: b.Y, W: b.W, H: b.H})
		}
		probes[k] = p
	}
	ctx, cancel := context.WithTimeout(e.ctx(), unsureBudget)
	defer cancel()
	verdicts, err := e.TextPixels(ctx, probes)
	settled := 0
	if err == nil {
		for k, v := range verdicts {
			if v == PixelUnsure {
				continue
			}
			c.TextPixels = append(c.TextPixels, domsnap.TextPixel{Doc: texts[k].Doc, Node: texts[k].Node, Seen: v == PixelShown})
			settled++
		}
	}
	step := fmt.Sprintf("sight: %d unsure texts and %d named images, %d settled by pixels", len(texts)-images, images, settled)
	if err != nil {
		step += " (the pixels failed: " + cdpcall.OneLine(err.Error()) + ")"
	}
	c.Timings = append(c.Timings, domsnap.TimingSince(step, start))
}
