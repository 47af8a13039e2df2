package chrome

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
)

// TestStylesLandInTheirFields: on a page whose one element sets every
// computed style a capture records to a value of its own, each Style
// field holds what the browser computes for the property the field is
// named after (OverflowX: overflow-x), in a full capture (DOMSnapshot)
// and a viewport one (the viewport pass). A property list and the fields
// it fills that drift apart fail here.
func TestStylesLandInTheirFields(t *testing.T) {
	requireBrowser(t)
	html, err := os.ReadFile("testdata/styles.html")
	if err != nil {
		t.Fatal(err)
	}
	tab := pageTab(t, string(html), time.Minute)
	fields := reflect.TypeOf(domsnap.Style{})
	props := make([]string, fields.NumField())
	for i := range props {
		props[i] = propertyOf(fields.Field(i).Name)
	}
	list, _ := json.Marshal(props)
	out, err := tab.Evaluate(fmt.Sprintf(`((props) => {
  const s = getComputedStyle(document.getElementById('styled')), d = getComputedStyle(document.getElementById('plain'));
  return props.map(p => [s.getPropertyValue(p), d.getPropertyValue(p)]);
})(%s)`, list))
	if err != nil {
		t.Fatal(err)
	}
	var computed [][2]string // styled, plain
	if err := json.Unmarshal([]byte(out), &computed); err != nil || len(computed) != len(props) {
		t.Fatalf("computed styles %s: %v", out, err)
	}
	// The page is fit for the test: each value is not the default, and
	// no two are alike (a field filled from another property shows).
	seen := map[string]string{}
	for i, p := range props {
		v := computed[i][0]
		if v == computed[i][1] {
			t.Errorf("the page leaves %s at its default %q", p, v)
		}
		if other, dup := seen[v]; dup {
			t.Errorf("%s and %s are both %q on the page", other, p, v)
		}
		seen[v] = p
	}
	for _, mode := range []domsnap.CaptureMode{domsnap.CaptureFull, domsnap.CaptureViewport} {
		c, err := tab.CaptureWith(browser.CaptureOptions{Mode: mode})
		if err != nil {
			t.Fatalf("%s capture: %v", mode, err)
		}
		st := styleOfID(c, "styled")
		if st == nil {
			t.Fatalf("%s capture: no style for #styled", mode)
		}
		got := reflect.ValueOf(*st)
		for i, p := range props {
			if v := got.Field(i).String(); v != computed[i][0] {
				t.Errorf("%s capture: Style.%s = %q, want %s's %q", mode, fields.Field(i).Name, v, p, computed[i][0])
			}
		}
	}
}

// propertyOf is the CSS property a Style field is named after:
// OverflowX → overflow-x; the two Chrome computes only under the
// -webkit- prefix carry it.
func propertyOf(field string) string {
	var b strings.Builder
	if field == "TextFillColor" || field == "TextStrokeWidth" {
		b.WriteString("-webkit-")
	}
	for i, r := range field {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('-')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// styleOfID is the computed style of the top document's element with
// that id, nil when it has none.
func styleOfID(c *domsnap.Capture, id string) *domsnap.Style {
	doc := &c.Documents[0]
	for i := range doc.Nodes {
		n := &doc.Nodes[i]
		if v, ok := n.Attr("id"); ok && v == id && n.Layout != nil && n.Layout.Style >= 0 && n.Layout.Style < len(doc.Styles) {
			return &doc.Styles[n.Layout.Style]
		}
	}
	return nil
}
