package chrome

import (
	"bytes"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/page"
)

// paintPage has a 2D canvas, a WebGL canvas, a field, a style sheet and
// room to scroll: each way below changes the pixels with no DOM change
// (or with one), and the screenshot must not be the one from before it.
const paintPage = `<!doctype html><title>paint</title>
<style id=sheet>body{margin:0} #box{width:60px;height:60px;background:#eee}</style>
<canvas id=c2 width=120 height=80></canvas><canvas id=gl width=120 height=80></canvas>
<input id=field value="before"><div id=box></div><div id=anim style="width:40px;height:40px;background:blue"></div>
<div style="height:3000px"></div>
<script>
const ctx = c2.getContext('2d'); ctx.fillStyle = '#08f'; ctx.fillRect(0, 0, 60, 40);
const gl = document.getElementById('gl').getContext('webgl', {preserveDrawingBuffer: true});
if (gl) { gl.clearColor(0, 0.5, 0, 1); gl.clear(gl.COLOR_BUFFER_BIT); }
</script>`

// TestScreenshotIsReusedOnlyWhileNothingRepainted takes a screenshot,
// changes the page one way, and takes another: each must differ from the
// one before and equal a fresh Page.captureScreenshot; on a page where
// nothing changed the paint generation holds (so the last one is reused)
// and equals a fresh capture too.
func TestScreenshotIsReusedOnlyWhileNothingRepainted(t *testing.T) {
	requireBrowser(t)
	tab := pageTab(t, paintPage, 120*time.Second)
	if _, err := tab.CaptureWith(browser.CaptureOptions{Mode: domsnap.CaptureFull}); err != nil {
		t.Fatal(err)
	}
	fresh := func(t *testing.T) []byte {
		t.Helper()
		res, err := cdpcall.Do(tab.Context(), page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, OptimizeForSpeed: new(true)})
		if err != nil {
			t.Fatal(err)
		}
		return res.Data
	}
	shot := func(t *testing.T) []byte {
		t.Helper()
		png, err := tab.CapturePNG(tab.Context())
		if err != nil {
			t.Fatal(err)
		}
		return png
	}
	time.Sleep(300 * time.Millisecond)
	before := shot(t)
	gen := tab.paintGen()
	if gen == "" {
		t.Fatal("no paint generation on a still page: the screenshot would never be reused")
	}
	if again := shot(t); !bytes.Equal(again, before) || tab.paintGen() != gen {
		t.Fatal("a still page: the paint generation moved or the screenshot changed")
	}
	if !bytes.Equal(fresh(t), before) {
		t.Fatal("the reused screenshot is not what Chrome shows now")
	}
	for _, change := range []struct{ name, js string }{
		{"2D canvas draw", `ctx.fillStyle = '#f00'; ctx.fillRect(0, 0, 120, 80)`},
		{"WebGL clear", `gl.clearColor(1, 0, 1, 1); gl.clear(gl.COLOR_BUFFER_BIT)`},
		{"style sheet rule", `sheet.sheet.insertRule('#box{background:#000 !important}', 0)`},
		{"adopted style sheet", `{ const s = new CSSStyleSheet(); s.replaceSync('#box{outline:8px solid red}'); document.adoptedStyleSheets = [s]; }`},
		{"field value from script", `field.value = 'after, much longer text'`},
		{"animation that ended and holds", `anim.animate([{transform: 'none'}, {transform: 'translateX(300px)'}], {duration: 50, fill: 'forwards'})`},
		{"DOM change", `box.style.width = '200px'`},
		{"scroll", `scrollTo(0, 400)`}, // last: the others are above the fold
	} {
		t.Run(change.name, func(t *testing.T) {
			prev := shot(t)
			evalIn[any](t, tab, "(() => { "+change.js+"; return null; })()")
			time.Sleep(250 * time.Millisecond) // the animation ends, the frame is drawn
			now := shot(t)
			if bytes.Equal(now, prev) {
				t.Fatalf("the screenshot after the change is the one from before it (paint generation %q)", tab.paintGen())
			}
			if !bytes.Equal(now, fresh(t)) {
				t.Fatal("the screenshot is not what Chrome shows now")
			}
		})
	}
}
