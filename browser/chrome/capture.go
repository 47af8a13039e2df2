package chrome

import (
	"context"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/capture"
	"github.com/axfuse/axfuse/domsnap"
)

// The tab's captures are its engine's (package capture); these are the
// driver's doors to it.

// AutoMinElements is the page size, in elements, from which auto mode
// captures the viewport only (capture.AutoMinElements).
const AutoMinElements = capture.AutoMinElements

// TextProbe, PixelVerdict and its values are capture's, for TextPixels.
type (
	TextProbe    = capture.TextProbe
	PixelVerdict = capture.PixelVerdict
)

const (
	PixelUnsure = capture.PixelUnsure
	PixelShown  = capture.PixelShown
	PixelHidden = capture.PixelHidden
)

// Capture captures the tab's current document atomically: when the document
// changes identity (navigation) mid-capture it retries once, then fails;
// parts of two documents are never fused.
func (t *Tab) Capture() (*domsnap.Capture, error) {
	return t.eng.Capture()
}

// CaptureWith captures the tab's current document as the options say; like
// Capture it retries once when the page navigates mid-capture. When
// nothing changed since the tab's last capture of the document, with the
// same options, that capture is given again.
func (t *Tab) CaptureWith(o browser.CaptureOptions) (*domsnap.Capture, error) {
	c, err := t.eng.CaptureWith(o)
	if err == nil {
		t.shot.captured(c)
	}
	return c, err
}

// TextPixels judges each probe by the tab's pixels (capture.TextPixels).
func (t *Tab) TextPixels(ctx context.Context, probes []TextProbe) ([]PixelVerdict, error) {
	return t.eng.TextPixels(ctx, probes)
}
