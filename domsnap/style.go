package domsnap

// The computed styles a capture records: the Style fields, and the one
// table that ties each to its CSS property.

// Style is one computed-style tuple.
type Style struct {
	Display         string `json:"display,omitempty"`
	Visibility      string `json:"visibility,omitempty"`
	Opacity         string `json:"opacity,omitempty"`
	Cursor          string `json:"cursor,omitempty"`
	PointerEvents   string `json:"pointerEvents,omitempty"`
	OverflowX       string `json:"overflowX,omitempty"`
	OverflowY       string `json:"overflowY,omitempty"`
	Position        string `json:"position,omitempty"`
	BackgroundColor string `json:"backgroundColor,omitempty"`
	ZIndex          string `json:"zIndex,omitempty"`
	Clip            string `json:"clip,omitempty"`
	ClipPath        string `json:"clipPath,omitempty"`
	PaddingLeft     string `json:"paddingLeft,omitempty"`
	PaddingTop      string `json:"paddingTop,omitempty"`
	Float           string `json:"float,omitempty"`
	Color           string `json:"color,omitempty"`
	BackgroundImage string `json:"backgroundImage,omitempty"`
	// What decides whether text is seen beyond its colour and opacity:
	// a filter's opacity(), the fill colour that overrides color, a
	// shadow or stroke that draws the glyphs anyway, background-clip:
	// text that paints them with the background.
	Filter          string `json:"filter,omitempty"`
	TextFillColor   string `json:"textFillColor,omitempty"`
	TextShadow      string `json:"textShadow,omitempty"`
	TextStrokeWidth string `json:"textStrokeWidth,omitempty"`
	BackgroundClip  string `json:"backgroundClip,omitempty"`
	// What paints SVG text: its fill and stroke, not color (empty in
	// captures recorded before these were: unknown, judged seen).
	Fill          string `json:"fill,omitempty"`
	FillOpacity   string `json:"fillOpacity,omitempty"`
	Stroke        string `json:"stroke,omitempty"`
	StrokeOpacity string `json:"strokeOpacity,omitempty"`
	StrokeWidth   string `json:"strokeWidth,omitempty"`
	// ColorScheme: on the root, a dark scheme makes Chrome paint the
	// canvas (and the default text colour) dark, a colour sight does not
	// know (empty in older captures: light).
	ColorScheme string `json:"colorScheme,omitempty"`
	// What paints that sight does not model as colours: masks, blend
	// modes, backdrop filters, 3D transforms and font-size-adjust make a
	// text unsure (the browser's pixels settle it); contain: paint clips
	// like overflow; shadows, borders and outlines paint colours that
	// are not recorded where they lie (empty in older captures: none).
	MaskImage         string `json:"maskImage,omitempty"`
	MixBlendMode      string `json:"mixBlendMode,omitempty"`
	BackdropFilter    string `json:"backdropFilter,omitempty"`
	Transform         string `json:"transform,omitempty"`
	Contain           string `json:"contain,omitempty"`
	BoxShadow         string `json:"boxShadow,omitempty"`
	BorderTopWidth    string `json:"borderTopWidth,omitempty"`
	BorderRightWidth  string `json:"borderRightWidth,omitempty"`
	BorderBottomWidth string `json:"borderBottomWidth,omitempty"`
	BorderLeftWidth   string `json:"borderLeftWidth,omitempty"`
	OutlineStyle      string `json:"outlineStyle,omitempty"`
	OutlineWidth      string `json:"outlineWidth,omitempty"`
	OutlineOffset     string `json:"outlineOffset,omitempty"`
	FontSizeAdjust    string `json:"fontSizeAdjust,omitempty"`
	// A decoration line drawn thick (text-decoration-thickness) may
	// cover the glyphs it decorates in any colour: unsure (empty in older
	// captures: none).
	TextDecorationLine      string `json:"textDecorationLine,omitempty"`
	TextDecorationThickness string `json:"textDecorationThickness,omitempty"`
}

// styleTable declares each computed style a capture records once: its
// CSS property and the Style field that holds its value. Its order is the
// order DOMSnapshot.captureSnapshot is asked for them (StyleProperties),
// which the capture engine sends and recorded sessions index by: append
// new properties, never reorder. It follows the order of the Style fields
// (a test holds both to it).
var styleTable = [...]struct {
	property string
	field    func(*Style) *string
}{
	{"display", func(s *Style) *string { return &s.Display }},
	{"visibility", func(s *Style) *string { return &s.Visibility }},
	{"opacity", func(s *Style) *string { return &s.Opacity }},
	{"cursor", func(s *Style) *string { return &s.Cursor }},
	{"pointer-events", func(s *Style) *string { return &s.PointerEvents }},
	{"overflow-x", func(s *Style) *string { return &s.OverflowX }},
	{"overflow-y", func(s *Style) *string { return &s.OverflowY }},
	{"position", func(s *Style) *string { return &s.Position }},
	{"background-color", func(s *Style) *string { return &s.BackgroundColor }},
	{"z-index", func(s *Style) *string { return &s.ZIndex }},
	{"clip", func(s *Style) *string { return &s.Clip }},
	{"clip-path", func(s *Style) *string { return &s.ClipPath }},
	{"padding-left", func(s *Style) *string { return &s.PaddingLeft }},
	{"padding-top", func(s *Style) *string { return &s.PaddingTop }},
	{"float", func(s *Style) *string { return &s.Float }},
	{"color", func(s *Style) *string { return &s.Color }},
	{"background-image", func(s *Style) *string { return &s.BackgroundImage }},
	{"filter", func(s *Style) *string { return &s.Filter }},
	{"-webkit-text-fill-color", func(s *Style) *string { return &s.TextFillColor }},
	{"text-shadow", func(s *Style) *string { return &s.TextShadow }},
	{"-webkit-text-stroke-width", func(s *Style) *string { return &s.TextStrokeWidth }},
	{"background-clip", func(s *Style) *string { return &s.BackgroundClip }},
	{"fill", func(s *Style) *string { return &s.Fill }},
	{"fill-opacity", func(s *Style) *string { return &s.FillOpacity }},
	{"stroke", func(s *Style) *string { return &s.Stroke }},
	{"stroke-opacity", func(s *Style) *string { return &s.StrokeOpacity }},
	{"stroke-width", func(s *Style) *string { return &s.StrokeWidth }},
	{"color-scheme", func(s *Style) *string { return &s.ColorScheme }},
	{"mask-image", func(s *Style) *string { return &s.MaskImage }},
	{"mix-blend-mode", func(s *Style) *string { return &s.MixBlendMode }},
	{"backdrop-filter", func(s *Style) *string { return &s.BackdropFilter }},
	{"transform", func(s *Style) *string { return &s.Transform }},
	{"contain", func(s *Style) *string { return &s.Contain }},
	{"box-shadow", func(s *Style) *string { return &s.BoxShadow }},
	{"border-top-width", func(s *Style) *string { return &s.BorderTopWidth }},
	{"border-right-width", func(s *Style) *string { return &s.BorderRightWidth }},
	{"border-bottom-width", func(s *Style) *string { return &s.BorderBottomWidth }},
	{"border-left-width", func(s *Style) *string { return &s.BorderLeftWidth }},
	{"outline-style", func(s *Style) *string { return &s.OutlineStyle }},
	{"outline-width", func(s *Style) *string { return &s.OutlineWidth }},
	{"outline-offset", func(s *Style) *string { return &s.OutlineOffset }},
	{"font-size-adjust", func(s *Style) *string { return &s.FontSizeAdjust }},
	{"text-decoration-line", func(s *Style) *string { return &s.TextDecorationLine }},
	{"text-decoration-thickness", func(s *Style) *string { return &s.TextDecorationThickness }},
}

// StyleProperties are the computed styles a capture records, in the order of
// the Style fields.
var StyleProperties = styleProperties()

func styleProperties() []string {
	out := make([]string, len(styleTable))
	for i, p := range styleTable {
		out[i] = p.property
	}
	return out
}

// StyleFromValues builds a Style from values in StyleProperties order;
// missing values stay empty.
func StyleFromValues(v []string) Style {
	var s Style
	for i := range min(len(v), len(styleTable)) {
		*styleTable[i].field(&s) = v[i]
	}
	return s
}
