package capture

import (
	"context"
	"errors"
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
	images, read := e.settleImages(c, ix, ix.UnsureImages(maxUnsureImages))
	texts = append(texts, images...)
	if len(texts) == 0 {
		c.Timings = append(c.Timings, domsnap.TimingSince("sight: no unsure text in view; "+imagesStep(read, read), start))
		return
	}
	probes := make([]TextProbe, len(texts))
	for k, u := range texts {
		doc := &c.Documents[u.Doc]
		p := TextProbe{FrameID: doc.FrameID, Backend: doc.Nodes[u.Node].Backend}
		switch n := &doc.Nodes[u.Node]; {
		case n.Parent >= 0 && (n.Type == domsnap.TextNode || n.PseudoType != ""):
			// A text's element, or the one a pseudo element's generated
			// text inherits its colour from.
			p.Parent = doc.Nodes[n.Parent].Backend
		case n.Type == domsnap.ElementNode:
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
	step := fmt.Sprintf("sight: %d unsure texts and %s, %d settled by the screenshot", len(texts)-len(images), imagesStep(len(images)+read, read), settled)
	if err != nil {
		err = errors.New("the pixels: " + cdpcall.OneLine(err.Error()))
	}
	c.Timings = append(c.Timings, domsnap.FailedSince(step, err, start))
}

// settleImages reads the named images' own pixels (images.js), records
// those it settles as hidden in the capture, and returns those the
// screenshot must settle, with how many it read.
func (e *Engine) settleImages(c *domsnap.Capture, ix *paintorder.Index, images []paintorder.UnsureText) (left []paintorder.UnsureText, read int) {
	if len(images) == 0 {
		return nil, 0
	}
	ctx, cancel := context.WithTimeout(e.ctx(), pixelStyleTimeout)
	defer cancel()
	for k, v := range e.readImages(ctx, c, ix, images) {
		switch v {
		case PixelHidden:
			c.TextPixels = append(c.TextPixels, domsnap.TextPixel{Doc: images[k].Doc, Node: images[k].Node, Seen: false})
			read++
		case PixelShown:
			read++
		default:
			left = append(left, images[k])
		}
	}
	return left, read
}
