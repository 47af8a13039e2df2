package roles

import "testing"

func TestPrinted(t *testing.T) {
	for _, tc := range []struct{ chrome, want string }{
		{"image", "img"}, {"img", "img"}, {"DisclosureTriangle", "button"}, {"LayoutTable", "table"},
		{"LayoutTableRow", "row"}, {"LayoutTableCell", "cell"}, {"SvgRoot", "img"}, {"Canvas", "img"},
		{"graphics-symbol", "img"}, {"Date", "textbox"}, {"MenuListOption", "option"}, {"Iframe", "iframe"},
		{"LabelText", "generic"}, {"Pre", "generic"}, {"sectionheader", "generic"}, {"SomeFutureRole", "generic"},
		{"button", "button"}, {"heading", "heading"}, {"", ""},
	} {
		if got := Printed(tc.chrome); got != tc.want {
			t.Errorf("Printed(%q) = %q, want %q", tc.chrome, got, tc.want)
		}
	}
}

func TestSame(t *testing.T) {
	for _, tc := range []struct {
		asked, printed string
		want           bool
	}{
		{"img", "img", true}, {"image", "img", true}, {"IMAGE", "img", true}, {"DisclosureTriangle", "button", true},
		{"Button", "button", true}, {"link", "button", false}, {"image", "button", false},
	} {
		if got := Same(tc.asked, tc.printed); got != tc.want {
			t.Errorf("Same(%q, %q) = %v, want %v", tc.asked, tc.printed, got, tc.want)
		}
	}
}
