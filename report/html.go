package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"image/jpeg"
	"image/png"
	"io"
	"math"

	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/truth"
)

// WriteHTML writes one self-contained page (inline CSS, script and
// images, nothing fetched) reporting the pages: for several, a sortable
// table and plots across them first; then each page's two screenshots
// with the views' refs marked and the targets each view misses outlined
// in red, its measures, and both views' YAML in collapsible panes. Every
// string from a page is escaped.
func WriteHTML(w io.Writer, pages []Page) error {
	data := reportData{Summary: Summarize(pages)}
	for i := range pages {
		data.Pages = append(data.Pages, viewOf(&pages[i]))
		if t := pages[i].Truth; t != nil && t.Peer != nil {
			data.Peer = t.Peer.Name
		}
	}
	if len(pages) > 1 {
		data.RecallPlot, data.RatioPlot = recallPlot(data.Pages), ratioPlot(data.Pages)
	}
	return page.Execute(w, data)
}

// WriteSplit writes a report of many pages in parts that stay small: the
// index (the summary, the plots and the sortable table, each row linking
// to its page's file in the folder dir, relative to the index, which is
// called indexName) and one file a page (its section as WriteHTML draws
// it, its screenshot inline), each openable offline. open gives the
// writer of page i's file, dir/page-i.html.
func WriteSplit(index io.Writer, dir, indexName string, open func(i int) (io.WriteCloser, error), pages []Page) error {
	data := reportData{Summary: Summarize(pages), Split: dir}
	for i := range pages {
		d := viewOf(&pages[i])
		if err := writeDetail(open, indexName, d); err != nil {
			return err
		}
		d.Shot, d.Views = "", nil // the index holds no picture or view
		data.Pages = append(data.Pages, d)
		if t := pages[i].Truth; t != nil && t.Peer != nil {
			data.Peer = t.Peer.Name
		}
	}
	data.RecallPlot, data.RatioPlot = recallPlot(data.Pages), ratioPlot(data.Pages)
	return page.Execute(index, data)
}

func writeDetail(open func(i int) (io.WriteCloser, error), indexName string, d pageData) error {
	w, err := open(d.Index)
	if err != nil {
		return err
	}
	err = detail.Execute(w, struct {
		Page  pageData
		Index string
	}{d, indexName})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

type reportData struct {
	// Split, for a split report's index, is the folder of the pages'
	// files (relative to the index); "" when the pages follow the table.
	Split                 string
	Summary               Summary
	Peer                  string // the peer's name when a page has one
	Pages                 []pageData
	RecallPlot, RatioPlot template.HTML
}

type pageData struct {
	*Page
	Ratio   float64
	Shot    template.URL // a data: URL of the viewport's JPEG, or ""
	ShotErr string
	W, H    float64 // viewport, CSS px
	Views   []viewData
}

type viewData struct {
	Key, Name string
	Measure   truth.Measure
	Refs      []mark
	Missed    []mark
	YAML      string
}

// mark is a box drawn on the screenshot, in viewport CSS px.
type mark struct {
	I           int
	X, Y, W, H  float64
	Label       string
	Unreachable bool // a ref a click at its centre does not reach
}

func viewOf(p *Page) pageData {
	d := pageData{Page: p, Ratio: p.TokenRatio()}
	if p.Truth == nil || p.AX == nil || p.Fused == nil {
		return d
	}
	d.W, d.H = p.Fused.Viewport.Width, p.Fused.Viewport.Height
	if len(p.Screenshot) > 0 {
		shot, err := jpegDataURL(p.Screenshot)
		if err != nil {
			d.ShotErr = err.Error()
		}
		d.Shot = shot
	}
	d.Views = []viewData{
		paneOf("ax", "AX-only", p.AX, p.Truth.AX, p.Truth.MissedByAX, d.W, d.H),
		paneOf("fused", "fused", p.Fused, p.Truth.Fused, p.Truth.MissedByFused, d.W, d.H),
	}
	if peer := p.Truth.Peer; peer != nil && peer.Measure != nil {
		obs := &fuse.Observation{Snapshot: peer.Snapshot}
		for _, b := range peer.Boxes {
			obs.Elements = append(obs.Elements, fuse.Element{Ref: b.Ref, Box: &[4]float64{b.Box.X, b.Box.Y, b.Box.W, b.Box.H}})
		}
		d.Views = append(d.Views, paneOf("peer", peer.Name, obs, *peer.Measure, peer.Missed, d.W, d.H))
	}
	return d
}

func paneOf(key, name string, obs *fuse.Observation, m truth.Measure, missed []string, w, h float64) viewData {
	v := viewData{Key: key, Name: name, Measure: m, YAML: obs.Snapshot}
	unreachable := map[string]bool{}
	for _, r := range m.UnreachableRefs {
		unreachable[r] = true
	}
	for _, e := range obs.Elements {
		if e.Box == nil || !finite(e.Box[:]) || e.Box[0] >= w || e.Box[1] >= h || e.Box[0]+e.Box[2] <= 0 || e.Box[1]+e.Box[3] <= 0 {
			continue
		}
		v.Refs = append(v.Refs, mark{X: e.Box[0], Y: e.Box[1], W: e.Box[2], H: e.Box[3], Label: e.Ref, Unreachable: unreachable[e.Ref]})
	}
	for i, c := range m.Missed {
		label := ""
		if i < len(missed) {
			label = missed[i]
		}
		v.Missed = append(v.Missed, mark{I: i, X: c.Box.X, Y: c.Box.Y, W: c.Box.W, H: c.Box.H, Label: label})
	}
	return v
}

func finite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// jpegDataURL re-encodes a PNG screenshot as a JPEG data: URL: a page's
// picture appears twice, and JPEG keeps a report of many pages a few MB.
func jpegDataURL(pngData []byte) (template.URL, error) {
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return "", fmt.Errorf("the screenshot does not decode: %w", err)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
		return "", err
	}
	// Safe: our own bytes, base64-encoded.
	return template.URL("data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())), nil
}

// Plots across pages: small inline SVGs, one column per page in the
// report's order.
const plotW, plotH = 600.0, 120.0

func recallPlot(pages []pageData) template.HTML {
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg class="plot" viewBox="0 0 %.0f %.0f" role="img" aria-label="recall per page"><rect width="100%%" height="100%%" fill="#fafafa"/>`, plotW, plotH+20)
	step := plotW / float64(max(1, len(pages)))
	for i, p := range pages {
		if p.Truth == nil || p.Truth.Targets == 0 {
			continue
		}
		x := step*float64(i) + step/2
		for _, s := range []struct {
			v     float64
			color string
		}{{p.Truth.AX.Recall, "#c77"}, {p.Truth.Fused.Recall, "#37a"}} {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s</title></circle>`, x, 10+(1-s.v)*plotH, s.color, template.HTMLEscapeString(fmt.Sprintf("%s: %.0f%%", p.URL, 100*s.v)))
		}
	}
	fmt.Fprintf(&b, `<text x="4" y="%.0f" font-size="10">recall per page: AX-only red, fused blue (top = 100%%)</text></svg>`, plotH+18)
	return template.HTML(b.String())
}

func ratioPlot(pages []pageData) template.HTML {
	var b bytes.Buffer
	top := 2.0
	for _, p := range pages {
		top = max(top, p.Ratio)
	}
	fmt.Fprintf(&b, `<svg class="plot" viewBox="0 0 %.0f %.0f" role="img" aria-label="token ratio per page"><rect width="100%%" height="100%%" fill="#fafafa"/>`, plotW, plotH+20)
	step := plotW / float64(max(1, len(pages)))
	one := 10 + plotH*(1-1/top)
	fmt.Fprintf(&b, `<line x1="0" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#999" stroke-dasharray="3"/>`, plotW, one, one)
	for i, p := range pages {
		if p.Ratio <= 0 {
			continue
		}
		h := plotH * p.Ratio / top
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#7a5"><title>%s</title></rect>`, step*float64(i)+1, 10+plotH-h, max(1, step-2), h, template.HTMLEscapeString(fmt.Sprintf("%s: %.2f", p.URL, p.Ratio)))
	}
	fmt.Fprintf(&b, `<text x="4" y="%.0f" font-size="10">tokens, fused over AX-only, per page (dashed: 1)</text></svg>`, plotH+18)
	return template.HTML(b.String())
}

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct": func(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) },
	"f1":  func(f float64) string { return fmt.Sprintf("%.1f", f) },
	"f2":  func(f float64) string { return fmt.Sprintf("%.2f", f) },
}).Parse(pageTemplate))

var detail = template.Must(template.Must(page.Clone()).New("detail").Parse(detailTemplate))
