package chrome

import (
	"reflect"
	"testing"

	"github.com/chromedp/cdproto/target"
)

func TestDecodeListeners(t *testing.T) {
	raw := []byte(`[
	 {"type":"array","value":[{"type":"node","value":{"nodeType":1,"backendNodeId":42}},{"type":"string","value":"click,pointerup"}]},
	 {"type":"array","value":[{"type":"node","value":{"nodeType":9,"backendNodeId":1}},{"type":"string","value":"click"}]},
	 {"type":"array","value":[{"type":"string","value":"forged"},{"type":"string","value":"click"}]},
	 {"type":"array","value":[{"type":"node","value":{}},{"type":"string","value":"click"}]},
	 {"type":"number","value":3}
	]`)
	got, err := decodeListeners(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64][]string{42: {"click", "pointerup"}, 1: {"click"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, err := decodeListeners([]byte(`{"not":"an array"}`)); err == nil {
		t.Error("garbage accepted")
	}
}

func TestPickPage(t *testing.T) {
	infos := []*target.Info{
		{TargetID: "dev", Type: "page", URL: "devtools://devtools/x", Attached: true},
		{TargetID: "w", Type: "service_worker"},
		{TargetID: "p1", Type: "page", URL: "http://a/"},
		{TargetID: "p2", Type: "page", URL: "http://b/", Attached: true},
	}
	if id, ok := pickPage(infos); !ok || id != "p2" {
		t.Errorf("picked %q, want the attached page p2", id)
	}
	if id, ok := pickPage(infos[:3]); !ok || id != "p1" {
		t.Errorf("picked %q, want p1", id)
	}
	if _, ok := pickPage(infos[:2]); ok {
		t.Error("picked a page where there is none")
	}
}

func TestCheckEndpoint(t *testing.T) {
	for ep, ok := range map[string]bool{
		"http://127.0.0.1:9222": true, "ws://127.0.0.1:9222/devtools/browser/x": true,
		"127.0.0.1:9222": false, "ftp://x": false, "": false, "http://": false,
	} {
		if err := checkEndpoint(ep); (err == nil) != ok {
			t.Errorf("%q: error %v", ep, err)
		}
	}
}
