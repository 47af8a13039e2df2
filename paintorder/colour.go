package paintorder

import (
	"math"
	"strconv"
	"strings"
)

// RGBA is a colour with channels 0 to 255 and alpha 0 to 1, as Chrome
// computes colours.
type RGBA struct{ R, G, B, A float64 }

// White is the canvas of a page that paints no background.
var White = RGBA{255, 255, 255, 1}

// ParseColour reads Chrome's computed colours, rgb(r, g, b) and
// rgba(r, g, b, a). Anything else (color(), keywords) is unknown.
func ParseColour(s string) (RGBA, bool) {
	var inner string
	switch {
	case strings.HasPrefix(s, "rgba(") && strings.HasSuffix(s, ")"):
		inner = s[5 : len(s)-1]
	case strings.HasPrefix(s, "rgb(") && strings.HasSuffix(s, ")"):
		inner = s[4 : len(s)-1]
	default:
		return RGBA{}, false
	}
	parts := strings.Split(inner, ",")
	if len(parts) != 3 && len(parts) != 4 {
		return RGBA{}, false
	}
	v := [4]float64{0, 0, 0, 1}
	for k, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return RGBA{}, false
		}
		v[k] = f
	}
	for k := 0; k < 3; k++ {
		v[k] = math.Min(255, math.Max(0, v[k]))
	}
	v[3] = math.Min(1, math.Max(0, v[3]))
	return RGBA{v[0], v[1], v[2], v[3]}, true
}

// over paints c, at alpha a (its own alpha times any opacity), over the
// opaque colour under: the browser blends in sRGB.
func over(c RGBA, a float64, under RGBA) RGBA {
	return RGBA{a*c.R + (1-a)*under.R, a*c.G + (1-a)*under.G, a*c.B + (1-a)*under.B, 1}
}

// Contrast is the WCAG contrast ratio of two opaque colours, 1 to 21.
func Contrast(a, b RGBA) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(c RGBA) float64 {
	ch := func(v float64) float64 {
		v /= 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
}
