package domsnap

import (
	"reflect"
	"strings"
	"testing"
	"unicode"
)

// webkitOnly are the Style fields whose property Chrome computes only
// under the -webkit- prefix.
var webkitOnly = map[string]bool{"TextFillColor": true, "TextStrokeWidth": true}

// kebab is a Style field's CSS property name: OverflowX → overflow-x.
func kebab(field string) string {
	var b strings.Builder
	if webkitOnly[field] {
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

// TestStyleTable: each entry of the style table names the CSS property of
// the Style field it fills, every field has exactly one entry, and the
// table (so StyleProperties, the order captures are asked and recorded
// in) follows the order of the fields. A property and a field that drift
// apart fail here.
func TestStyleTable(t *testing.T) {
	ty := reflect.TypeOf(Style{})
	if ty.NumField() != len(styleTable) || len(StyleProperties) != len(styleTable) {
		t.Fatalf("Style has %d fields, the style table %d entries, StyleProperties %d names", ty.NumField(), len(styleTable), len(StyleProperties))
	}
	for i, e := range styleTable {
		var s Style
		*e.field(&s) = "x"
		v := reflect.ValueOf(s)
		filled := -1
		for k := range ty.NumField() {
			if v.Field(k).String() == "x" {
				filled = k
			}
		}
		if filled != i {
			t.Errorf("entry %d (%s) fills field %d, want %d (%s)", i, e.property, filled, i, ty.Field(i).Name)
			continue
		}
		f := ty.Field(i)
		if want := kebab(f.Name); e.property != want {
			t.Errorf("field %s is read from %q, want %q", f.Name, e.property, want)
		}
		if want := strings.ToLower(f.Name[:1]) + f.Name[1:] + ",omitempty"; f.Tag.Get("json") != want {
			t.Errorf("field %s has JSON name %q, want %q", f.Name, f.Tag.Get("json"), want)
		}
		if StyleProperties[i] != e.property {
			t.Errorf("StyleProperties[%d] = %q, want %q", i, StyleProperties[i], e.property)
		}
	}
}

// TestStyleFromValues: the value at StyleProperties[i] lands in the
// field of that property; values missing at the end stay empty, extra
// ones are ignored.
func TestStyleFromValues(t *testing.T) {
	vals := make([]string, len(StyleProperties)+2)
	for i := range vals {
		vals[i] = "value of " + kebabOr(i)
	}
	s := StyleFromValues(vals)
	for _, e := range styleTable {
		if got := *e.field(&s); got != "value of "+e.property {
			t.Errorf("%s holds %q", e.property, got)
		}
	}
	short := StyleFromValues(vals[:3])
	want := Style{Display: vals[0], Visibility: vals[1], Opacity: vals[2]}
	if short != want {
		t.Errorf("from 3 values: %+v, want %+v", short, want)
	}
	if (StyleFromValues(nil) != Style{}) {
		t.Error("from no values: not the zero Style")
	}
}

func kebabOr(i int) string {
	if i < len(StyleProperties) {
		return StyleProperties[i]
	}
	return "nothing"
}
