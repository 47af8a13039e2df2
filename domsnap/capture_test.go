package domsnap

import (
	"bytes"
	"strings"
	"testing"
)

func validCapture() *Capture {
	return &Capture{Version: FormatVersion, Documents: []Document{{
		FrameID: "F", Styles: []Style{{Display: "block"}},
		Nodes: []Node{
			{Backend: 1, Parent: -1, Type: DocumentNode, Name: "#document"},
			{Backend: 2, Parent: 0, Type: ElementNode, Name: "HTML", Layout: &Layout{Style: 0}},
		},
	}}}
}

func TestValidateRejectsMalformedCaptures(t *testing.T) {
	cases := []struct {
		name   string
		break_ func(c *Capture)
		want   string
	}{
		{"version", func(c *Capture) { c.Version = 99 }, "version"},
		{"no documents", func(c *Capture) { c.Documents = nil }, "no documents"},
		{"parent after child", func(c *Capture) { c.Documents[0].Nodes[0].Parent = 1 }, "out of order"},
		{"parent self", func(c *Capture) { c.Documents[0].Nodes[1].Parent = 1 }, "out of order"},
		{"parent negative", func(c *Capture) { c.Documents[0].Nodes[1].Parent = -7 }, "out of order"},
		{"style out of range", func(c *Capture) { c.Documents[0].Nodes[1].Layout.Style = 5 }, "style"},
		{"content document out of range", func(c *Capture) { c.Documents[0].Nodes[1].ContentDocument = 3 }, "content document"},
		{"elided parent out of range", func(c *Capture) { c.Documents[0].Elided = []Elided{{Parent: 9, After: -1, Dir: "below"}} }, "elided run 0"},
		{"elided after out of range", func(c *Capture) { c.Documents[0].Elided = []Elided{{Parent: 1, After: -2, Dir: "below"}} }, "elided run 0"},
		{"elided direction", func(c *Capture) { c.Documents[0].Elided = []Elided{{Parent: 1, After: -1, Dir: "]up"}} }, "direction"},
		{"elided negative count", func(c *Capture) {
			c.Documents[0].Elided = []Elided{{Parent: 1, After: -1, Dir: "below", Roles: map[string]int{"row": -3}}}
		}, "elided run 0"},
		{"content document cycle", func(c *Capture) {
			c.Documents = append(c.Documents, Document{Nodes: []Node{{Parent: -1, ContentDocument: 1}}})
		}, "content document"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := validCapture()
			if err := c.Validate(); err != nil {
				t.Fatalf("valid capture rejected: %v", err)
			}
			tc.break_(c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}

func TestJSONRoundTrip(t *testing.T) {
	c, err := Load("../testdata/captures/forms.capture.json")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	back.Encode(&again)
	c.Encode(&buf)
	if again.String() != buf.String() {
		t.Error("capture changes in a JSON round trip")
	}
	if len(back.Documents[0].Nodes) == 0 || len(back.Frames[0].AXNodes) == 0 {
		t.Error("round trip lost nodes")
	}
}

func TestDecodeGarbage(t *testing.T) {
	for _, in := range []string{"", "{", "[]", `{"version":1}`, `{"version":1,"documents":[{"nodes":[{"parent":5}]}]}`, `{"version":1,"documents":[{"nodes":[{"layout":{"bounds":[1,2]}}]}]}`} {
		if _, err := Decode(strings.NewReader(in)); err == nil {
			t.Errorf("%q decoded without error", in)
		}
	}
}
