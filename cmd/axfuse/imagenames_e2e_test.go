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
)

// imageCount pools the image names judged on the corpus.
type imageCount struct {
	agree, total, unsure int
	skipped              int // named images in view whose name is not their alt alone
	lost, leaked         []string
}

// TestImageNamesAgreeWithPixelsOnTheCorpus: every named image in view on
// every corpus page, asked of the browser's pixels apart from the capture
// (made clear whole, the screenshot compared): an image that paints is
// named in the view (no page loses a visible name), one that paints
// nothing is not (its alt is hidden text).
func TestImageNamesAgreeWithPixelsOnTheCorpus(t *testing.T) {
	pages := corpusPages(t)
	b := openBrowser(t)
	var all imageCount
	for _, p := range pages {
		t.Run(p.path, func(t *testing.T) {
			n := imageNames(t, openPageTab(t, b, p.url, 300*time.Millisecond))
			for _, m := range n.lost {
				all.lost = append(all.lost, p.path+": "+m)
			}
			for _, m := range n.leaked {
				all.leaked = append(all.leaked, p.path+": "+m)
			}
			all.agree, all.total, all.unsure, all.skipped = all.agree+n.agree, all.total+n.total, all.unsure+n.unsure, all.skipped+n.skipped
		})
	}
	t.Logf("corpus image names: %d/%d agree with the pixels (%d the pixels could not judge; %d images in view left out: no alt of 4 characters, an alt repeated, or named otherwise)", all.agree, all.total, all.unsure, all.skipped)
	if all.total < 10 {
		t.Errorf("only %d named images judged on the corpus", all.total)
	}
	if len(all.lost) > 0 {
		t.Errorf("visible images whose names the view lost:\n%s", strings.Join(all.lost, "\n"))
	}
	if len(all.leaked) > 0 {
		t.Errorf("names of images that paint nothing printed:\n%s", strings.Join(all.leaked, "\n"))
	}
}

// imageNames judges the named images in view on the tab's page: their
// alt (of at least 4 characters, found once in the page's alts) printed
// or not, against the pixels. Images named otherwise (aria-label, title,
// an ancestor's aria-label) are left out: their alt is not their name.
func imageNames(t *testing.T, tab *chrome.Tab) imageCount {
	t.Helper()
	c, err := tab.CaptureWith(browser.CaptureOptions{Mode: domsnap.CaptureFull})
	if err != nil {
		t.Fatal(err)
	}
	view := fuse.Snapshot(c, fuse.Options{}).Snapshot
	g := layout.Compute(c)
	var probes []chrome.TextProbe
	var alts []string
	skipped := 0
	for d := range c.Documents {
		doc := &c.Documents[d]
		seen := map[string]int{}
		for i := range doc.Nodes {
			if alt, ok := doc.Nodes[i].Attr("alt"); ok && doc.Nodes[i].Name == "IMG" {
				seen[imageWords(alt)]++
			}
		}
		for i := range doc.Nodes {
			box := layout.Intersect(g.ShownBox(d, i), g.ViewportBox(0))
			if doc.Nodes[i].Name != "IMG" || box.W < 8 || box.H < 8 {
				continue
			}
			alt, ok := judgedImage(doc, i)
			if !ok || seen[imageWords(alt)] != 1 {
				skipped++
				continue
			}
			probes = append(probes, chrome.TextProbe{FrameID: doc.FrameID, Backend: doc.Nodes[i].Backend, Parent: doc.Nodes[i].Backend,
				Boxes: []domsnap.Rect{{X: box.X, Y: box.Y, W: box.W, H: box.H}}})
			alts = append(alts, alt)
		}
	}
	n := imageCount{skipped: skipped}
	if len(probes) == 0 {
		return n
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	verdicts, err := tab.TextPixels(ctx, probes)
	if err != nil {
		t.Fatal(err)
	}
	flat := imageWords(view)
	for k, v := range verdicts {
		printed := strings.Contains(flat, imageWords(alts[k]))
		switch {
		case v == chrome.PixelUnsure:
			n.unsure++
			continue
		case v == chrome.PixelShown && !printed:
			n.lost = append(n.lost, fmt.Sprintf("%q paints, not named", cut(alts[k])))
		case v == chrome.PixelHidden && printed:
			n.leaked = append(n.leaked, fmt.Sprintf("%q paints nothing, named", cut(alts[k])))
		default:
			n.agree++
		}
		n.total++
	}
	return n
}

// judgedImage: node i is an img whose name is its alt (no aria-label,
// aria-labelledby or title of its own, none of the first eight elements
// around it named by aria-label or hidden from the AX tree), alt of at
// least 4 characters.
func judgedImage(doc *domsnap.Document, i int) (string, bool) {
	n := &doc.Nodes[i]
	alt, ok := n.Attr("alt")
	if n.Name != "IMG" || n.Layout == nil || !ok || len(strings.TrimSpace(alt)) < 4 {
		return "", false
	}
	for _, a := range []string{"aria-label", "aria-labelledby", "title", "role"} {
		if _, has := n.Attr(a); has {
			return "", false
		}
	}
	for k, depth := int(n.Parent), 0; k >= 0 && depth < 8; k, depth = int(doc.Nodes[k].Parent), depth+1 {
		for _, a := range []string{"aria-label", "aria-labelledby", "aria-hidden"} {
			if _, has := doc.Nodes[k].Attr(a); has {
				return "", false
			}
		}
	}
	return alt, true
}

// imageWords is s with its runs of spaces (and YAML's quoting) folded,
// to find an alt in a view that joins and quotes names.
func imageWords(s string) string {
	s = strings.NewReplacer(`\"`, `"`, `"`, " ", `'`, " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}
