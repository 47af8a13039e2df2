package capture

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/paintorder"
)

// A named image's own pixels, read cheaply first. Whether an image paints
// anything (an empty svg, a clear GIF) is asked of the image itself in
// one call per frame (images.js): a canvas reads its pixels where the
// page allows it (same origin, CORS, data:). Clear throughout: hidden;
// two colours a person tells apart: shown; broken: its alt text, drawn
// in its colour, judged as text. The rest (another origin's
// image, one of a single colour, one not loaded) goes to the screenshot
// batch with the unsure texts, which settles it from the browser's own
// paint.

// askImages reads the images (indexes into images) of document d, one
// verdict each: PixelHidden, PixelShown, or PixelUnsure for the
// screenshot to settle. A broken image draws its alt text in its own
// colour: the model judges that colour against what is behind (ix).
func (e *Engine) askImages(ctx context.Context, c *domsnap.Capture, ix *paintorder.Index, d int, images []paintorder.UnsureText, ks []int) []PixelVerdict {
	out := make([]PixelVerdict, len(ks))
	doc := &c.Documents[d]
	backends := make([]int64, len(ks))
	for j, k := range ks {
		backends[j] = doc.Nodes[images[k].Node].Backend
	}
	session := e.page.SessionFor(doc.FrameID)
	objs := e.resolveAll(ctx, session, doc.FrameID, backends)
	args, found := objectArgs(objs)
	if len(found) == 0 {
		return out
	}
	var said []string
	err := e.pixelStep(ctx, session, "read the images' own pixels", pixelStyleTimeout, func(ctx context.Context) error {
		return callObjects(ctx, objs[found[0]], imagesJS, args, &said)
	})
	if err != nil || len(said) != len(found) {
		return out // all unsure: the screenshot says
	}
	for i, j := range found {
		switch said[i] {
		case "hidden":
			out[j] = PixelHidden
		case "shown":
			out[j] = PixelShown
		case "broken":
			out[j] = PixelShown
			if !ix.OwnTextSight(d, images[ks[j]].Node).Seen {
				out[j] = PixelHidden
			}
		}
	}
	return out
}

// readImages asks every document's images; the verdicts come in the
// order of images.
func (e *Engine) readImages(ctx context.Context, c *domsnap.Capture, ix *paintorder.Index, images []paintorder.UnsureText) []PixelVerdict {
	out := make([]PixelVerdict, len(images))
	byDoc := map[int][]int{}
	var docs []int
	for k, im := range images {
		if _, ok := byDoc[im.Doc]; !ok {
			docs = append(docs, im.Doc)
		}
		byDoc[im.Doc] = append(byDoc[im.Doc], k)
	}
	for _, d := range docs {
		for j, v := range e.askImages(ctx, c, ix, d, images, byDoc[d]) {
			out[byDoc[d][j]] = v
		}
	}
	return out
}

// imagesStep says what the images' own pixels settled.
func imagesStep(n, read int) string {
	return fmt.Sprintf("%d named images, %d read from their own pixels", n, read)
}
