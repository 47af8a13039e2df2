package paintorder

// The colours sight reads of a computed style, parsed once per style.

import (
	"strconv"
	"strings"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/layout"
)

// styleColours are what sight reads of one computed-style tuple, parsed
// once.
type styleColours struct {
	fill, bg       RGBA
	fillOK, bgOK   bool
	pattern        bool // a background image
	shadow, stroke bool // glyphs drawn by a shadow or stroke
	clipText       bool // background-clip: text
	// SVG text paints with fill and stroke, not color: svgFill is the
	// fill at its fill-opacity (svgFillOK false: a gradient or pattern,
	// or not recorded), svgStroke a stroke that shows.
	svgFill              RGBA
	svgFillOK, svgStroke bool
	// fillUnknown, bgUnknown: a colour is set that ParseColour cannot read
	// (CSS Color 4: oklch(), lab(), color(), a color-mix() result): what
	// it paints is not known, so sight is unsure.
	fillUnknown, bgUnknown bool
}

func coloursOf(st *domsnap.Style) styleColours {
	var c styleColours
	if c.fill, c.fillOK = ParseColour(st.TextFillColor); !c.fillOK {
		c.fillUnknown = unknownColour(st.TextFillColor)
		c.fill, c.fillOK = ParseColour(st.Color)
		c.fillUnknown = c.fillUnknown || unknownColour(st.Color)
	}
	c.bg, c.bgOK = ParseColour(st.BackgroundColor)
	c.bgUnknown = !c.bgOK && unknownColour(st.BackgroundColor)
	c.bgOK = c.bgOK && c.bg.A > 0
	c.pattern = st.BackgroundImage != "" && st.BackgroundImage != "none"
	c.shadow = visibleColourIn(st.TextShadow)
	w := strings.TrimSuffix(st.TextStrokeWidth, "px")
	c.stroke = w != "" && w != "0"
	c.clipText = strings.Contains(st.BackgroundClip, "text")
	c.svgFill, c.svgFillOK = svgPaint(st.Fill, st.FillOpacity)
	stroke, ok := svgPaint(st.Stroke, st.StrokeOpacity)
	c.svgStroke = (!ok || stroke.A > 0) && st.Stroke != "" && positive(st.StrokeWidth)
	return c
}

// darkScheme: a computed color-scheme under which Chrome may paint the
// canvas dark (headless prefers light, but a scheme of dark alone is
// used whatever is preferred; "light dark" is left to the pixels too).
func darkScheme(s string) bool {
	return strings.Contains(s, "dark")
}

// unknownColour: a computed colour is set but is not one ParseColour
// reads. "" is a capture that did not record it (older captures), and
// currentcolor takes another property's colour.
func unknownColour(s string) bool {
	if s == "" || strings.EqualFold(s, "currentcolor") {
		return false
	}
	_, ok := ParseColour(s)
	return !ok
}

// svgPaint is an SVG paint (fill or stroke) at its opacity: none is
// clear; a colour is known; anything else (a gradient, a pattern, a
// context paint) is not.
func svgPaint(paint, opacity string) (RGBA, bool) {
	if paint == "none" {
		return RGBA{}, true
	}
	c, ok := ParseColour(paint)
	if !ok {
		return RGBA{}, false
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(opacity), 64); err == nil && f >= 0 && f <= 1 {
		c.A *= f
	}
	return c, true
}

// positive: a CSS length above zero ("1px", "0.5px"; "0px" and "" are not).
func positive(length string) bool {
	f, ok := layout.Px(strings.TrimSpace(length))
	return ok && f > 0
}

// colours returns node i's parsed style colours.
func (ix *Index) colours(doc, i int) (*styleColours, bool) {
	d := &ix.c.Documents[doc]
	if i < 0 || i >= len(d.Nodes) || d.Nodes[i].Layout == nil {
		return nil, false
	}
	s := d.Nodes[i].Layout.Style
	if s < 0 || s >= len(d.Styles) {
		return nil, false
	}
	if ix.colourMemo == nil {
		ix.colourMemo = make([][]styleColours, len(ix.c.Documents))
		ix.colourDone = make([][]bool, len(ix.c.Documents))
	}
	if ix.colourMemo[doc] == nil {
		ix.colourMemo[doc] = make([]styleColours, len(d.Styles))
		ix.colourDone[doc] = make([]bool, len(d.Styles))
	}
	if !ix.colourDone[doc][s] {
		ix.colourMemo[doc][s], ix.colourDone[doc][s] = coloursOf(&d.Styles[s]), true
	}
	return &ix.colourMemo[doc][s], true
}

// visibleColourIn: a computed shadow list holds a colour that is not
// clear ("rgb(0, 0, 0) 0px 0px 3px, rgba(0, 0, 0, 0) 1px 1px 0px").
func visibleColourIn(shadow string) bool {
	if shadow == "" || shadow == "none" {
		return false
	}
	for rest := shadow; ; {
		k := strings.Index(rest, "rgb")
		if k < 0 {
			return false
		}
		rest = rest[k:]
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return false
		}
		if c, ok := ParseColour(rest[:end+1]); ok && c.A >= MinAlpha {
			return true
		}
		rest = rest[end+1:]
	}
}
