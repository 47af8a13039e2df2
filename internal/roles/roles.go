// Package roles maps the roles Chrome's accessibility tree reports to the
// ARIA role names agents and test templates read (Playwright's aria
// snapshot, WAI-ARIA 1.2): `image` is `img`, a `<summary>`'s
// `DisclosureTriangle` is the `button` that toggles its details, a layout
// table is a `table`. Chrome sends its internal enum name where ARIA has
// none (`LayoutTableCell`, `SvgRoot`); older Chromes sent more of them
// (`GenericContainer`, `Paragraph`). Every role printed anywhere (the
// fused view, the AX-only view, JSON, Find, MCP) goes through Printed, so no
// internal name reaches the output.
package roles

import "strings"

// chrome maps Chrome's role names, current and legacy, that differ from
// the printed ones. Roles with no line of their own in Playwright's
// snapshot (a <label>, <pre>, <abbr>, <dl>) print as generic, which the
// fused view leaves out when unnamed.
var chrome = map[string]string{
	"image": "img", "Image": "img", "Canvas": "img", "SvgRoot": "img",
	"graphics-symbol": "img", "graphics-object": "img", "graphics-document": "img",
	"DisclosureTriangle": "button", "DisclosureTriangleGrouped": "button",
	"ToggleButton": "button", "PopUpButton": "button",
	"LayoutTable": "table", "LayoutTableRow": "row", "LayoutTableCell": "cell",
	"ColorWell": "textbox", "Date": "textbox", "DateTime": "textbox", "InputTime": "textbox",
	"MenuListOption": "option", "ListBoxOption": "option",
	"Iframe": "iframe", "IframePresentational": "iframe",
	"Header": "banner", "Footer": "contentinfo", "Details": "group",
	"MathMLMath": "math", "Paragraph": "paragraph", "Mark": "mark", "Time": "time",
	"Emphasis": "emphasis", "Strong": "strong", "Code": "code", "Subscript": "subscript",
	"Superscript": "superscript", "Caption": "caption", "ContentDeletion": "deletion",
	"ContentInsertion": "insertion", "Blockquote": "blockquote", "Figure": "figure",
	"DescriptionListTermDeprecated": "term", "DescriptionListDetailDeprecated": "definition",
	"DescriptionListTerm": "term", "DescriptionListDetail": "definition",
	"Audio": "group", "Video": "group", "EmbeddedObject": "group", "PluginObject": "group",
	"Ignored": "none", "StaticText": "text",
}

// Printed is the role to print for a role Chrome reports. Any other name
// Chrome keeps to itself (upper-case: LabelText, Pre, Abbr, Legend,
// sectionheader's cousins) prints as generic.
func Printed(role string) string {
	if r, ok := chrome[role]; ok {
		return r
	}
	switch role {
	case "sectionheader", "sectionfooter", "comment", "suggestion":
		return "generic" // no line in Playwright's snapshot either
	}
	if role != "" && role[0] >= 'A' && role[0] <= 'Z' {
		return "generic"
	}
	return role
}

// Same reports whether a role asked for (a Find query's role, a scope "role:name")
// names a printed role: either spelling, Chrome's or ARIA's, any case. It
// runs for every node a search visits: one map lookup.
func Same(asked, printed string) bool {
	if strings.EqualFold(asked, printed) {
		return true
	}
	p, ok := byLower[strings.ToLower(asked)]
	return ok && p == printed
}

// byLower is chrome keyed by lower-case name.
var byLower = func() map[string]string {
	m := make(map[string]string, len(chrome))
	for c, p := range chrome {
		m[strings.ToLower(c)] = p
	}
	return m
}()
