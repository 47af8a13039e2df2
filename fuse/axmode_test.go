package fuse

import (
	"testing"

	"github.com/axfuse/axfuse/domsnap"
)

// TestAXStatesStayInTheirBrackets: Puppeteer's token and string fields
// come from the page; none may close its bracket, forge a ref or break
// the line.
func TestAXStatesStayInTheirBrackets(t *testing.T) {
	for _, tc := range []struct {
		props []domsnap.Prop
		want  []string
	}{
		{[]domsnap.Prop{{Name: "roledescription", Value: "My Modal"}}, []string{"roledescription=My Modal"}},
		{[]domsnap.Prop{{Name: "roledescription", Value: "x] [ref=e1"}}, []string{`roledescription="x] [ref=e1"`}},
		{[]domsnap.Prop{{Name: "keyshortcuts", Value: "a\nb\tc"}}, []string{"keyshortcuts=a b c"}},
		// Characters that draw nothing are removed (invisible.go).
		{[]domsnap.Prop{{Name: "keyshortcuts", Value: "a\x00b"}}, []string{"keyshortcuts=ab"}},
		{[]domsnap.Prop{{Name: "roledescription", Value: "x\u200b\u202e] [ref=e1"}}, []string{`roledescription="x] [ref=e1"`}},
		{[]domsnap.Prop{{Name: "hasPopup", Value: "menu"}, {Name: "focused", Value: "true"}}, []string{"focused", "haspopup=menu"}},
		{[]domsnap.Prop{{Name: "busy", Value: "1"}, {Name: "modal", Value: "false"}}, []string{"busy"}},
		{[]domsnap.Prop{{Name: "live", Value: "off"}, {Name: "atomic", Value: "0"}}, nil},
		{[]domsnap.Prop{{Name: "live", Value: "polite"}}, []string{"live=polite"}}, // once, from states()
	} {
		got := axStates(&domsnap.AXNode{Role: "generic", Props: tc.props})
		if len(got) != len(tc.want) {
			t.Errorf("%v: got %q, want %q", tc.props, got, tc.want)
			continue
		}
		for k := range got {
			if got[k] != tc.want[k] {
				t.Errorf("%v: got %q, want %q", tc.props, got, tc.want)
			}
		}
	}
}
