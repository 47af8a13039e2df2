package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/paintorder"
)

// The browser's own pixels are the ground truth of what a person sees: a
// text is seen when making its colour transparent changes the screenshot
// (chrome.Tab.TextPixels). These tests hold the view's verdict on every
// text in view (printed, or withheld, or covered) against it.

// pixelCount is one page's tally.
type pixelCount struct {
	// tiny: texts whose pixels change but whose glyphs are under 3 px
	// tall: seen as specks, not read; the pixels cannot tell legibility,
	// so they are set apart.
	agree, total, unsure, ariaHidden, tiny int
	misses                                 []string
}

func (c *pixelCount) add(o pixelCount) {
	c.agree, c.total, c.unsure, c.ariaHidden, c.tiny = c.agree+o.agree, c.total+o.total, c.unsure+o.unsure, c.ariaHidden+o.ariaHidden, c.tiny+o.tiny
	c.misses = append(c.misses, o.misses...)
}

func (c pixelCount) ratio() float64 {
	if c.total == 0 {
		return 1
	}
	return float64(c.agree) / float64(c.total)
}

// pixelAgreement captures the tab's page, fuses it, and asks the pixels
// about every text in view the AX tree has. Text the AX tree leaves out
// (aria-hidden) is counted apart: the view leaves it out by rule.
func pixelAgreement(t *testing.T, tab *chrome.Tab) pixelCount {
	t.Helper()
	c, err := tab.CaptureWith(browser.CaptureOptions{Mode: domsnap.CaptureFull})
	if err != nil {
		t.Fatal(err)
	}
	tree := fuse.Build(c, layout.Compute(c), fuse.Options{})
	var probes []chrome.TextProbe
	var judged []fuse.TextVerdict
	var n pixelCount
	for _, v := range tree.TextVerdicts() {
		if !v.InAX {
			n.ariaHidden++
			continue
		}
		doc := &c.Documents[v.Doc]
		p := chrome.TextProbe{FrameID: doc.FrameID, Backend: v.Backend}
		if parent := doc.Nodes[v.Node].Parent; parent >= 0 {
			p.Parent = doc.Nodes[parent].Backend
		}
		for _, b := range v.Boxes {
			p.Boxes = append(p.Boxes, domsnap.Rect{X: b.X, Y: b.Y, W: b.W, H: b.H})
		}
		probes, judged = append(probes, p), append(judged, v)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	pixels, err := tab.TextPixels(ctx, probes)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range judged {
		switch pixels[k] {
		case chrome.PixelUnsure:
			n.unsure++
			continue
		case chrome.PixelShown:
			if v.Reason == paintorder.SeenTooSmall {
				n.tiny++
				continue
			}
			if v.Shown {
				n.agree++
			} else {
				n.misses = append(n.misses, fmt.Sprintf("seen, but the view says %s: %q", v.Reason, cut(v.Text)))
			}
		case chrome.PixelHidden:
			if !v.Shown {
				n.agree++
			} else {
				n.misses = append(n.misses, fmt.Sprintf("unseen, but the view prints it: %q", cut(v.Text)))
			}
		}
		n.total++
	}
	return n
}

func cut(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// checkPixels measures one page against a minimum agreement.
func checkPixels(t *testing.T, b *chrome.Browser, url string, scrollY int, minimum float64) pixelCount {
	t.Helper()
	tab := openPageTab(t, b, url, 300*time.Millisecond)
	if scrollY > 0 {
		if err := tab.Wheel(640, 360, float64(scrollY)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
	}
	n := pixelAgreement(t, tab)
	t.Logf("pixel agreement %d/%d = %.2f%% (%d unsure, %d aria-hidden, %d too small to read)", n.agree, n.total, 100*n.ratio(), n.unsure, n.ariaHidden, n.tiny)
	if n.ratio() < minimum {
		t.Errorf("pixel agreement %.2f%% < %.1f%%:\n%s", 100*n.ratio(), 100*minimum, strings.Join(n.misses, "\n"))
	} else if len(n.misses) > 0 {
		t.Logf("disagreements:\n%s", strings.Join(n.misses, "\n"))
	}
	return n
}

// TestSightAgreesWithPixels: on the hostile pages the view and the pixels
// agree on every text (hidden.html's clipped and sr-only texts have no box
// in view and are not asked about).
func TestSightAgreesWithPixels(t *testing.T) {
	b := openBrowser(t)
	for _, page := range []string{"sight.html", "sight-scroll.html", "ariahidden.html", "hidden.html", "blocks.html", "unsure.html", "darkscheme.html", "visited.html"} {
		t.Run(page, func(t *testing.T) {
			scroll := 0
			if page == "sight-scroll.html" {
				scroll = 1300 // to the traps
			}
			if n := checkPixels(t, b, servePage(t, page), scroll, 1); n.total < 5 {
				t.Errorf("only %d texts judged", n.total)
			}
		})
	}
}

// TestSightAgreesWithPixelsOnTheCorpus: every page of ../shared/corpus;
// pooled, the view and the pixels agree on at least 99.5% of the texts in
// view (each page on at least 97%).
func TestSightAgreesWithPixelsOnTheCorpus(t *testing.T) {
	pages := corpusPages(t)
	b := openBrowser(t)
	var all pixelCount
	for _, p := range pages {
		t.Run(p.path, func(t *testing.T) {
			n := checkPixels(t, b, p.url, 0, 0.97)
			for k := range n.misses {
				n.misses[k] = p.path + ": " + n.misses[k]
			}
			all.add(n)
		})
	}
	t.Logf("corpus pooled pixel agreement %d/%d = %.2f%% (%d unsure, %d aria-hidden, %d too small to read)", all.agree, all.total, 100*all.ratio(), all.unsure, all.ariaHidden, all.tiny)
	if len(all.misses) > 0 {
		t.Logf("all disagreements:\n%s", strings.Join(all.misses, "\n"))
	}
	if all.ratio() < 0.995 {
		t.Errorf("pooled pixel agreement %.2f%% < 99.5%%", 100*all.ratio())
	}
}
