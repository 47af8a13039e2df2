package main

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/screenshot"
)

// TestScreenshotFallback: a canvas with a click listener and no accessible
// content gets an annotated screenshot whose reason names it; a form page
// gets none.
func TestScreenshotFallback(t *testing.T) {
	needChromium(t)
	page := `<!doctype html><title>chart</title><body style="margin:8px"><h1>Sales</h1>
<canvas id=c width=300 height=150></canvas><script>
const c = document.getElementById('c'); c.getContext('2d').fillRect(10, 10, 100, 100);
c.addEventListener('click', () => {});</script>`
	url := serve(t, map[string]string{"/": page}).URL + "/"
	obs := decode(t, mustCLI(t, "snapshot", "--format", "json", url))
	if obs.Screenshot == nil || len(obs.Screenshot.Regions) != 1 || obs.Screenshot.Regions[0].Kind != "canvas" {
		t.Fatalf("no screenshot for the canvas: %+v", obs.Screenshot)
	}
	if !strings.HasPrefix(obs.Screenshot.Reason, "canvas 300×150 at (8,") || !strings.HasSuffix(obs.Screenshot.Reason, "has a click listener and no accessible content") {
		t.Errorf("reason %q", obs.Screenshot.Reason)
	}
	if !strings.HasSuffix(obs.Snapshot, "- screenshot: "+obs.Screenshot.Path+"\n  reason: "+obs.Screenshot.Reason+"\n") {
		t.Errorf("the YAML does not end with the screenshot line:\n%s", obs.Snapshot)
	}
	defer os.Remove(obs.Screenshot.Path)
	readPNG(t, obs.Screenshot.Path)
	alongside := false
	for _, tm := range obs.Stats.Timings {
		alongside = alongside || strings.HasPrefix(tm.Step, "Page.captureScreenshot (taken alongside the capture")
	}
	if !alongside {
		t.Errorf("the canvas page's screenshot was not taken alongside the capture: %+v", obs.Stats.Timings)
	}
	// A chart library listens on a wrapper, not on its canvas.
	wrapped := `<!doctype html><title>chart</title><div id=w style="width:300px;height:150px"><canvas width=300 height=150></canvas></div>
<script>document.getElementById('w').addEventListener('click', () => {});</script>`
	wobs := decode(t, mustCLI(t, "snapshot", "--format", "json", serve(t, map[string]string{"/": wrapped}).URL+"/"))
	if wobs.Screenshot == nil || !strings.HasSuffix(wobs.Screenshot.Reason, "sits in an element with a click listener and no accessible content") {
		t.Errorf("wrapped canvas: %+v", wobs.Screenshot)
	} else {
		os.Remove(wobs.Screenshot.Path)
	}
	if off := decode(t, mustCLI(t, "snapshot", "--format", "json", "--no-screenshot", url)); off.Screenshot != nil {
		t.Errorf("--no-screenshot still attached %+v", off.Screenshot)
	}
	if form := decode(t, mustCLI(t, "snapshot", "--format", "json", servePage(t, "forms.html"))); form.Screenshot != nil {
		t.Errorf("a form page got a screenshot: %+v", form.Screenshot)
	}
}

// TestEarlyScreenshotOnlyForCanvasInView: the screenshot taken alongside
// the capture starts only for a canvas that meets the viewport, and one
// nobody needs is dropped and shows in the timings.
func TestEarlyScreenshotOnlyForCanvasInView(t *testing.T) {
	needChromium(t)
	for _, tc := range []struct {
		name, canvas string
		dropped      bool
	}{
		{"below the viewport", `<canvas width=300 height=150 style="margin-top:3000px"></canvas>`, false},
		{"hidden", `<canvas width=300 height=150 style="display:none"></canvas>`, false},
		{"in view, described", `<canvas width=300 height=150 aria-label="Sales by month"></canvas>`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<!doctype html><title>c</title><h1>Chart</h1>` + tc.canvas
			obs := decode(t, mustCLI(t, "snapshot", "--format", "json", serve(t, map[string]string{"/": page}).URL+"/"))
			if obs.Screenshot != nil {
				os.Remove(obs.Screenshot.Path)
				t.Fatalf("a screenshot was attached: %+v", obs.Screenshot)
			}
			dropped, other := false, ""
			for _, tm := range obs.Stats.Timings {
				switch {
				case tm.Step == "Page.captureScreenshot (taken alongside the capture, not needed: dropped)":
					dropped = true
				case strings.HasPrefix(tm.Step, "Page.captureScreenshot"):
					other = tm.Step
				}
			}
			if dropped != tc.dropped || other != "" {
				t.Errorf("early screenshot dropped %v (want %v), other screenshot step %q: %+v", dropped, tc.dropped, other, obs.Stats.Timings)
			}
		})
	}
}

// TestCompareDemo: the fused view finds the listener divs the AX-only view
// lacks, and the numbers add up.
func TestCompareDemo(t *testing.T) {
	needChromium(t)
	var cmp fuse.Comparison
	if err := json.Unmarshal([]byte(mustCLI(t, "compare", "--format", "json")), &cmp); err != nil {
		t.Fatal(err)
	}
	adds := 0
	for _, s := range cmp.OnlyFused {
		if strings.HasPrefix(s, `clickable "Add to cart"`) {
			adds++
		}
	}
	if adds != 3 {
		t.Errorf("only-fused targets %v, want the 3 listener divs", cmp.OnlyFused)
	}
	for _, row := range cmp.Table {
		switch row.Measure {
		case "refs":
			if row.AX != len(cmp.AX.Elements) || row.Fused != len(cmp.Fused.Elements) {
				t.Errorf("refs row %+v, elements %d and %d", row, len(cmp.AX.Elements), len(cmp.Fused.Elements))
			}
		case "tokens":
			if row.Fused >= row.AX {
				t.Errorf("fused view not smaller: %+v", row)
			}
		}
	}
	text := mustCLI(t, "compare")
	if !strings.Contains(text, "# AX-only view") || !strings.Contains(text, "│ # fused view") || !strings.Contains(text, "role-less listener targets") {
		t.Errorf("compare text lacks the views or the table:\n%s", text)
	}
}

// TestLocate: a point on a listener div answers its ref; a point on the
// page's background answers no node, with a cropped screenshot.
func TestLocate(t *testing.T) {
	needChromium(t)
	url := serve(t, map[string]string{"/": listenerPage}).URL + "/"
	obs := decode(t, mustCLI(t, "snapshot", "--format", "json", url))
	var ref string
	var box [4]float64
	for _, el := range obs.Elements {
		if el.Tag == "div" {
			ref, box = el.Ref, *el.Box
		}
	}
	out := mustCLI(t, "locate", fmtF(box[0]+box[2]/2), fmtF(box[1]+box[3]/2), url)
	if out != "- ref "+ref+": clickable \"Add to cart\"\n" {
		t.Errorf("locate on the div: %q", out)
	}
	out = mustCLI(t, "locate", "1200", "600", url)
	if !strings.HasPrefix(out, "- note: no node covers (1200,600)\n- screenshot: ") {
		t.Fatalf("locate on the background: %q", out)
	}
	path := strings.TrimSpace(strings.TrimPrefix(strings.Split(out, "\n")[1], "- screenshot: "))
	defer os.Remove(path)
	if img := readPNG(t, path); img.Bounds().Dx() == 0 || img.Bounds().Dx() > 400 || img.Bounds().Dy() == 0 || img.Bounds().Dy() > 300 {
		t.Errorf("crop %v", img.Bounds())
	}
}

func fmtF(f float64) string { return strconv.FormatFloat(f, 'f', 0, 64) }

// TestIconToolbarAndScale: svg icons with listeners each get a ref and a
// box; named ones need no screenshot, an unnamed one does. At --scale 2 the
// PNG has twice the pixels and the outlines sit at twice the coordinates.
func TestIconToolbarAndScale(t *testing.T) {
	needChromium(t)
	icon := func(id, label string) string {
		return `<svg id="` + id + `" width="32" height="32"` + label + `><rect width="32" height="32" fill="#888"/></svg>`
	}
	page := `<!doctype html><title>toolbar</title><body style="margin:10px"><div role="toolbar">` +
		icon("bold", ` aria-label="Bold"`) + icon("italic", ` aria-label="Italic"`) + icon("mystery", "") +
		`</div><script>for (const s of document.querySelectorAll('svg')) s.addEventListener('click', () => {});</script>`
	url := serve(t, map[string]string{"/": page}).URL + "/"
	path := t.TempDir() + "/shot.png"
	obs := decode(t, mustCLI(t, "snapshot", "--format", "json", "--scale", "2", "--screenshot", path, url))
	n := 0
	for _, el := range obs.Elements {
		if el.Tag == "svg" && el.Box != nil && el.Box[2] == 32 {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d svg refs with boxes, want 3: %+v", n, obs.Elements)
	}
	if obs.Screenshot == nil || len(obs.Screenshot.Regions) != 1 || obs.Screenshot.Regions[0].Kind != "svg" {
		t.Fatalf("want one region, the unnamed svg: %+v", obs.Screenshot)
	}
	img := readPNG(t, path)
	if img.Bounds().Dx() != 2560 || img.Bounds().Dy() != 1440 {
		t.Fatalf("PNG %v at --scale 2, want 2560x1440", img.Bounds())
	}
	bold := false
	for _, el := range obs.Elements {
		if el.Tag == "svg" && el.Name == "Bold" {
			bold = true
			checkOutline(t, img, *el.Box, 2, screenshot.KindListener, "the Bold icon")
		}
	}
	if !bold {
		t.Error("no Bold icon element")
	}
}

// TestLargePaintedAreas: pixels filling a large share of the viewport with
// no node to describe them get a screenshot even with no sign of
// interactivity (a keyboard-driven game); small or decorative ones do not.
func TestLargePaintedAreas(t *testing.T) {
	needChromium(t)
	img := `data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='10' height='10' fill='red'/></svg>`
	cases := []struct {
		name, body, reason string
	}{
		{"game canvas clipped by its intro", `<h1>Press Space</h1><div style="width:44px;height:150px;overflow:hidden"><canvas width=600 height=150 style="width:600px;height:150px;background:#eee"></canvas></div>
<script>document.addEventListener('keydown', () => {});</script>`, "canvas 44×150 at (8,"},
		{"icon-sized canvas", `<canvas width=40 height=40></canvas>`, ""},
		{"puzzle canvas, no listener", `<canvas width=150 height=100></canvas>`, "canvas 150×100 at (8,8) with no accessible content"},
		{"named canvas", `<canvas width=150 height=100 aria-label="Sales by month"></canvas>`, ""},
		{"decorative image", `<img alt="" src="` + img + `" width=900 height=400>`, ""},
		{"image with no name", `<img src="` + img + `" width=900 height=400>`, "img 900×400 at (8,8) has a 900×400 painted area and no accessible content"},
		{"named image", `<img alt="A red square" src="` + img + `" width=900 height=400>`, ""},
		{"empty zero-height listener div", `<div onclick="go()"></div><p>text</p>`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			page := `<!doctype html><title>t</title><body style="margin:8px">` + c.body
			obs := decode(t, mustCLI(t, "snapshot", "--format", "json", serve(t, map[string]string{"/": page}).URL+"/"))
			if obs.Screenshot != nil {
				defer os.Remove(obs.Screenshot.Path)
			}
			switch {
			case c.reason == "" && obs.Screenshot != nil:
				t.Errorf("screenshot attached: %s", obs.Screenshot.Reason)
			case c.reason != "" && (obs.Screenshot == nil || !strings.HasPrefix(obs.Screenshot.Reason, c.reason)):
				t.Errorf("want a screenshot whose reason starts %q, got %+v", c.reason, obs.Screenshot)
			}
			if c.name == "game canvas clipped by its intro" && obs.Screenshot != nil && !strings.Contains(obs.Screenshot.Reason, "has a 600×150 drawing surface") {
				t.Errorf("reason %q does not give the drawing surface", obs.Screenshot.Reason)
			}
			if strings.Contains(c.body, "onclick") && len(obs.Elements) != 0 {
				t.Errorf("an element with no area got a ref: %+v", obs.Elements)
			}
		})
	}
}
