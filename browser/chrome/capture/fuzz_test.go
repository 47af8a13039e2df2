package capture

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/domsnapshot"
)

// seedSnapshot is a small DOMSnapshot result in Chrome's shape: a document
// with html, body, an iframe (its content document the second) and a
// button with text.
func seedSnapshot() domsnapshot.CaptureSnapshotResult {
	rect := func(x, y, w, h float64) domsnapshot.Rectangle { return domsnapshot.Rectangle{x, y, w, h} }
	return domsnapshot.CaptureSnapshotResult{
		Strings: []string{"F", "http://a/", "HTML", "BODY", "IFRAME", "BUTTON", "#text", "Pay", "block", "visible", "1", "G", "about:blank"},
		Documents: []*domsnapshot.DocumentSnapshot{{
			FrameID: 0, DocumentURL: 1,
			Nodes: &domsnapshot.NodeTreeSnapshot{
				ParentIndex:          []int64{-1, 0, 1, 1, 3},
				NodeType:             []int64{1, 1, 1, 1, 3},
				NodeName:             []domsnapshot.StringIndex{2, 3, 4, 5, 6},
				NodeValue:            []domsnapshot.StringIndex{-1, -1, -1, -1, 7},
				BackendNodeID:        []cdp.BackendNodeID{1, 2, 3, 4, 5},
				Attributes:           []domsnapshot.ArrayOfStrings{{}, {}, {}, {}, {}},
				ContentDocumentIndex: &domsnapshot.RareIntegerData{Index: []int64{2}, Value: []int64{1}},
				IsClickable:          &domsnapshot.RareBooleanData{Index: []int64{3}},
			},
			Layout: &domsnapshot.LayoutTreeSnapshot{
				NodeIndex:   []int64{0, 1, 2, 3, 4},
				Styles:      []domsnapshot.ArrayOfStrings{{8, 9, 10}, {8, 9, 10}, {8, 9, 10}, {8, 9, 10}, {}},
				Bounds:      []domsnapshot.Rectangle{rect(0, 0, 800, 600), rect(8, 8, 784, 584), rect(8, 8, 300, 150), rect(320, 8, 60, 20), rect(324, 10, 30, 16)},
				Text:        []domsnapshot.StringIndex{-1, -1, -1, -1, 7},
				PaintOrders: []int64{0, 1, 2, 3, 3},
			},
			TextBoxes: &domsnapshot.TextBoxSnapshot{LayoutIndex: []int64{4}, Bounds: []domsnapshot.Rectangle{rect(324, 10, 30, 16)}},
		}, {
			FrameID: 11, DocumentURL: 12,
			Nodes: &domsnapshot.NodeTreeSnapshot{ParentIndex: []int64{-1}, NodeType: []int64{1}, NodeName: []domsnapshot.StringIndex{2}, BackendNodeID: []cdp.BackendNodeID{9}},
		}},
	}
}

func seedAX() accessibility.GetFullAXTreeResult {
	v := func(s string) *accessibility.Value {
		b, _ := jsonv2.Marshal(s)
		return &accessibility.Value{Type: "string", Value: b}
	}
	return accessibility.GetFullAXTreeResult{Nodes: []*accessibility.Node{
		{NodeID: "1", Role: v("RootWebArea"), ChildIDs: []accessibility.NodeID{"2"}, BackendDOMNodeID: 1},
		{NodeID: "2", ParentID: "1", Role: v("button"), Name: v("Pay"), ChildIDs: []accessibility.NodeID{"3"}, BackendDOMNodeID: 4},
		{NodeID: "3", ParentID: "2", Role: v("StaticText"), Name: v("Pay"), BackendDOMNodeID: 5},
	}}
}

// FuzzCDPResults feeds arbitrary DOMSnapshot and AX tree results, in the
// wire shapes Chrome sends, through assembly and stitching (as the tab's
// own and as an out-of-process frame's) and the pure pipeline: an error or
// a valid capture that fuses, never a panic.
func FuzzCDPResults(f *testing.F) {
	snap, _ := jsonv2.Marshal(seedSnapshot())
	ax, _ := jsonv2.Marshal(seedAX())
	f.Add(snap, ax, int64(3))
	f.Add([]byte(`{"documents":[{"nodes":{"parentIndex":[-1,0,0]}}],"strings":[]}`), []byte(`{"nodes":[{"nodeId":"1","childIds":["1"]}]}`), int64(-7))
	f.Fuzz(func(t *testing.T, snapJSON, axJSON []byte, owner int64) {
		var res domsnapshot.CaptureSnapshotResult
		var tree accessibility.GetFullAXTreeResult
		if jsonv2.Unmarshal(snapJSON, &res) != nil || jsonv2.Unmarshal(axJSON, &tree) != nil {
			return
		}
		frames := []frameInfo{{id: "F", url: "http://a/"}, {id: "G", parent: "F"}}
		top := newParts("T", frames)
		top.snapshot, top.axTrees[0], top.axTrees[1] = &res, &tree, &tree
		c, err := assemble(frames, top)
		if err != nil {
			return
		}
		sub := newParts("G", frames[1:])
		sub.snapshot, sub.axTrees[0], sub.parentFrame, sub.owner = &res, &tree, "F", owner
		stitch(c, []*parts{sub})
		if c.Validate() != nil {
			return
		}
		for _, mode := range fuse.Modes {
			fuse.Snapshot(c, fuse.Options{Mode: mode})
		}
	})
}

// FuzzViewportResult feeds arbitrary viewport-pass results (the page's
// JSON, backend and loader ids) through conversion, assembly and the pure
// pipeline: an error or a valid capture that fuses, never a panic.
func FuzzViewportResult(f *testing.F) {
	f.Add([]byte(`{"docs":[{"url":"http://a/","width":800,"height":600,"owner":-1,"parentDoc":-1,"base":0,
"styles":[["block","visible","1","auto","auto","visible","visible","static"]],
"nodes":[{"parent":-1,"type":9,"name":"#document"},{"parent":0,"type":1,"name":"HTML","layout":{"bounds":[0,0,800,600],"style":0}},
{"parent":1,"type":1,"name":"BUTTON","attrs":["id","b"],"clickable":true,"layout":{"bounds":[8,8,60,20],"style":0,"paintOrder":2}},
{"parent":2,"type":3,"name":"#text","value":"Pay","layout":{"bounds":[10,10,30,16],"style":0,"fragments":[[10,10,30,16]]}}],
"elided":[{"parent":1,"after":2,"dir":"below","role":"row","nodes":40,"roles":{"row":20,"link":20}}],"whole":[2],"above":[0,1]}]}`), 4, []byte(`{"nodes":[{"nodeId":"1","role":{"type":"role","value":"RootWebArea"},"childIds":["2"],"backendDOMNodeId":1},{"nodeId":"2","parentId":"1","role":{"type":"role","value":"button"},"backendDOMNodeId":3}]}`))
	f.Fuzz(func(t *testing.T, passJSON []byte, nodes int, axJSON []byte) {
		var res viewResult
		var tree accessibility.GetFullAXTreeResult
		if jsonv2.Unmarshal(passJSON, &res) != nil || jsonv2.Unmarshal(axJSON, &tree) != nil || nodes < 0 || nodes > 1000 {
			return
		}
		backends := make([]int64, nodes)
		loaders := make([]string, nodes)
		for i := range backends {
			backends[i], loaders[i] = int64(i+1), "L"
		}
		frames := []frameInfo{{id: "F", url: "http://a/", loader: "L"}}
		docs, frameOf, err := viewDocuments(&res, backends, loaders, frames, "T")
		if err != nil {
			return
		}
		for d := range docs {
			planOf(&res.Docs[d], &docs[d])
		}
		p := newParts("T", frames)
		p.docs = docs
		p.viewAX = map[string][]domsnap.AXNode{}
		for d := range docs {
			p.viewAX[frameOf[d]] = convertAX(tree.Nodes)
		}
		c, err := assemble(frames, p)
		if err != nil || c.Validate() != nil {
			return
		}
		c.Mode = domsnap.CaptureViewport
		fuse.Snapshot(c, fuse.Options{})
		fuse.Snapshot(c, fuse.Options{Offscreen: fuse.OffscreenDrop, MaxTokens: 300})
	})
}

// TestViewportPassDecodesAsEncodingJSONDid: the pass's answer is decoded
// as encoding/json decoded it, hostile strings included: a lone surrogate
// (JSON.stringify escapes one, a page can put one in any text) becomes
// U+FFFD and is no error.
func TestViewportPassDecodesAsEncodingJSONDid(t *testing.T) {
	text := `{"docs":[{"url":"http://a/\ud800","title":"x\udc00y","width":800,"height":600,"owner":-1,"parentDoc":-1,
"styles":[["block"]],"nodes":[{"parent":-1,"type":9,"name":"#document","nid":0,"id":1},
{"parent":0,"type":1,"name":"B","attrs":["data-x","\ud83d"],"nid":1,"id":3}]}],"walked":2,"phases":{"boxes":0.5}}`
	item := func(b int) string {
		return fmt.Sprintf(`{"type":"node","value":{"nodeType":1,"backendNodeId":%d,"loaderId":"L"}}`, b)
	}
	quoted, _ := json.Marshal(text)
	raw := []byte(`[{"type":"string","value":` + string(quoted) + `},{"type":"array","value":[` + item(7) + `,` + item(8) + `]},{"type":"number","value":2}]`)
	got, err := decodeViewportPass(raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want viewResult
	if err := json.Unmarshal([]byte(text), &want); err != nil {
		t.Fatal(err)
	}
	want.Canvases = 2
	if !reflect.DeepEqual(got.res, &want) {
		t.Errorf("decoded\n%+v\nwant (encoding/json)\n%+v", got.res, &want)
	}
	if d := got.res.Docs[0]; d.URL != "http://a/\uFFFD" || d.Nodes[1].Attrs[1] != "\uFFFD" || d.Nodes[1].ID != 3 {
		t.Errorf("hostile strings: url %q attr %q id %d", d.URL, d.Nodes[1].Attrs[1], d.Nodes[1].ID)
	}
	if !slices.Equal(got.backends, []int64{7, 8}) {
		t.Errorf("backends %v, want [7 8]", got.backends)
	}
}

// FuzzAXValueString: the decoder-free reading of an AX value gives what
// encoding/json gives, for any bytes the browser (or a page's names
// inside its answers) may send.
func FuzzAXValueString(f *testing.F) {
	for _, s := range []string{`"button"`, `"Pay \"now\""`, `"caf\u00e9"`, `"é"`, "\"a\xffb\"", `"\ud800"`, `true`, `3`, `""`, `"`, "\"tab\there\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		want := string(raw)
		var s string
		if json.Unmarshal(raw, &s) == nil {
			want = s
		}
		if got := ValueString(&accessibility.Value{Value: raw}); got != want && len(raw) > 0 {
			t.Errorf("ValueString(%q) = %q, encoding/json reads %q", raw, got, want)
		}
	})
}

// TestDeltaNodesTakeTheMemosDescription: a node an incremental pass sends
// as described at the memo's pass ("=") gets the memo's description in its
// new place, style and paint order; a number the memo lacks, or a delta in
// a pass that is not incremental, sends the capture to a whole pass.
func TestDeltaNodesTakeTheMemosDescription(t *testing.T) {
	memo := &viewMemo{ids: map[int]int64{1: 70, 5: 75}, nodes: map[int]viewNode{
		1: {Parent: -1, Type: 9, Name: "#document", ID: 1},
		5: {Parent: 0, Type: 1, Name: "B", Attrs: []string{"class", "x"}, Clickable: true, ID: 5,
			Layout: &viewLayout{Bounds: []float64{1, 2, 3, 4}, Style: 9, PaintOrder: 9, Text: "t"}},
	}}
	text := `{"docs":[{"styles":[["block"],["inline"]],"nodes":[{"=":1,"p":-1},{"=":5,"p":0,"s":1,"o":3,"fresh":2}]}],"incremental":true}`
	raw := func(text string) []byte {
		quoted, _ := json.Marshal(text)
		return []byte(`[{"type":"string","value":` + string(quoted) + `},{"type":"array","value":[]},{"type":"number","value":0}]`)
	}
	got, err := decodeViewportPass(raw(text), memo)
	if err != nil {
		t.Fatal(err)
	}
	b := got.res.Docs[0].Nodes[1]
	want := viewNode{Parent: 0, Type: 1, Name: "B", Attrs: []string{"class", "x"}, Clickable: true, ID: 5, NID: -1, Fresh: 2,
		Layout: &viewLayout{Bounds: []float64{1, 2, 3, 4}, Style: 1, PaintOrder: 3, Text: "t"}}
	if !reflect.DeepEqual(b, want) {
		t.Errorf("delta node\n%+v\nwant\n%+v", b, want)
	}
	if memo.nodes[5].Layout.Style != 9 {
		t.Error("the memo's description was changed")
	}
	if !slices.Equal(got.backends, []int64{70, 75}) {
		t.Errorf("backends %v, want [70 75]", got.backends)
	}
	for _, bad := range []string{
		strings.Replace(text, `"=":5`, `"=":6`, 1),
		strings.Replace(text, `"incremental":true`, `"incremental":false`, 1),
	} {
		if _, err := decodeViewportPass(raw(bad), memo); !errors.Is(err, errMemoLacks) {
			t.Errorf("%s: err %v, want errMemoLacks", bad, err)
		}
	}
}
