package index

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/axfuse/axfuse/domsnap"
)

func TestReasons(t *testing.T) {
	cases := []struct {
		name string
		s    Signals
		want []string
	}{
		{"button", Signals{Traits: Traits{Role: "button", Focusable: true}}, []string{"role:button", "focusable"}},
		{"link with href", Signals{Traits: Traits{Role: "link", HasHref: true, Focusable: true}}, []string{"role:link", "focusable"}},
		{"link without href", Signals{Traits: Traits{Role: "link"}}, nil},
		{"listener div", Signals{Traits: Traits{Role: "generic", Tag: "div"}, Listeners: []string{"click", "mousedown"}}, []string{"listener:click", "listener:mousedown"}},
		{"non-click listener", Signals{Traits: Traits{Role: "generic"}, Listeners: []string{"keydown"}}, nil},
		{"isClickable only", Signals{Traits: Traits{Role: "generic", Clickable: true}}, []string{"clickable"}},
		{"contenteditable", Signals{Traits: Traits{Role: "generic", Editable: true, Focusable: true}}, []string{"focusable", "contenteditable"}},
		{"delegated body", Signals{Traits: Traits{Tag: "body", Root: true}, Listeners: []string{"click"}}, nil},
		{"document", Signals{Traits: Traits{Role: "RootWebArea", Focusable: true}}, nil},
		{"plain text", Signals{Traits: Traits{Role: "paragraph"}}, nil},
		{"drop zone", Signals{Traits: Traits{Role: "generic", Tag: "div"}, Listeners: []string{"dragover", "drop"}}, []string{"listener:dragover", "listener:drop"}},
		{"drag source", Signals{Traits: Traits{Role: "generic"}, Listeners: []string{"dragstart"}}, []string{"listener:dragstart"}},
		{"drag end and leave alone", Signals{Traits: Traits{Role: "generic"}, Listeners: []string{"dragend", "dragleave", "drag"}}, nil},
		{"draggable card", Signals{Traits: Traits{Role: "group", Tag: "div", Draggable: true}}, []string{"draggable"}},
		{"draggable with a click listener", Signals{Traits: Traits{Role: "group", Draggable: true}, Listeners: []string{"click", "dragstart"}}, []string{"listener:click", "listener:dragstart", "draggable"}},
		{"draggable, isClickable", Signals{Traits: Traits{Role: "group", Clickable: true, Draggable: true}}, []string{"clickable", "draggable"}},
		// React puts every listener type on its root: drag ones do not
		// make the app root a target either; a draggable root still is.
		{"app root drag listeners", Signals{Traits: Traits{Role: "generic", AppRoot: true}, Listeners: []string{"click", "dragover", "drop"}}, nil},
		{"draggable below an app root", Signals{Traits: Traits{Role: "group", Draggable: true, Delegated: true}}, []string{"draggable", "delegated"}},
		{"draggable body", Signals{Traits: Traits{Tag: "body", Draggable: true, Root: true}}, nil},
	}
	for _, c := range cases {
		if got := Reasons(c.s); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestOnlyFromDOM(t *testing.T) {
	if !OnlyFromDOM([]string{"listener:click", "clickable"}) || OnlyFromDOM([]string{"listener:click", "focusable"}) || OnlyFromDOM(nil) {
		t.Error("OnlyFromDOM misjudges")
	}
	if !OnlyFromDOM([]string{"listener:drop", "draggable"}) || OnlyFromDOM([]string{"role:listitem", "draggable"}) {
		t.Error("OnlyFromDOM misjudges drag reasons")
	}
}

// TestListenerTypes: the one list of target listener types; click types
// are the ones that make delegation, drag types are targets too.
func TestListenerTypes(t *testing.T) {
	for _, typ := range ClickListenerTypes {
		if !IsClickListener(typ) || IsDragListener(typ) || !IsTargetListener(typ) {
			t.Errorf("%s: not a click type alone", typ)
		}
	}
	for _, typ := range DragListenerTypes {
		if IsClickListener(typ) || !IsDragListener(typ) || !IsTargetListener(typ) {
			t.Errorf("%s: not a drag type alone", typ)
		}
	}
	for _, typ := range []string{"keydown", "mouseover", "dragend", "dragleave", "drag", ""} {
		if IsTargetListener(typ) {
			t.Errorf("%s makes a target", typ)
		}
	}
}

func TestTableKeepsRefsAndNeverReuses(t *testing.T) {
	tb := NewTable()
	a, b := domsnap.Key{Frame: "F", Backend: 1}, domsnap.Key{Frame: "F", Backend: 2}
	if tb.Ref(a) != "e1" || tb.Ref(b) != "e2" || tb.Ref(a) != "e1" {
		t.Fatal("refs not stable")
	}
	if tb.Ref(domsnap.Key{Frame: "G", Backend: 1}) != "e3" {
		t.Error("same backend id in another frame must get its own ref")
	}
}

func TestTableDocumentsAndPersistence(t *testing.T) {
	tb := NewTable()
	tb.Document("F/L1")
	a := domsnap.Key{Frame: "F", Backend: 7}
	r := tb.Ref(a)
	tb.Remember(r, Fingerprint{"button", "Pay", "button"})
	raw, err := json.Marshal(tb)
	if err != nil {
		t.Fatal(err)
	}
	back := NewTable()
	if err := json.Unmarshal(raw, back); err != nil {
		t.Fatal(err)
	}
	back.Document("F/L1")
	if back.Ref(a) != r {
		t.Error("a saved table lost its ref")
	}
	if k, fp, ok := back.Lookup(r); !ok || k != a || fp.Name != "Pay" {
		t.Errorf("lookup: %v %v %v", k, fp, ok)
	}
	back.Document("F/L2") // navigation: a new document
	if _, _, ok := back.Lookup(r); ok {
		t.Error("a new document kept the old refs")
	}
	if got := back.Ref(a); got == r {
		t.Errorf("number %s reused in a new document", got)
	}
	if err := json.Unmarshal([]byte(`{"next":1,"refs":[{"ref":"e5","frame":"F","backendNodeId":1},{"ref":"x","frame":"F"}]}`), back); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := back.Lookup("e5"); ok {
		t.Error("a ref beyond next was accepted")
	}
}
