package capture

import (
	"reflect"
	"testing"

	"github.com/chromedp/cdproto/domdebugger"
)

func TestTargetListeners(t *testing.T) {
	ls := []*domdebugger.EventListener{
		{Type: "pointerup", BackendNodeID: 42}, {Type: "click", BackendNodeID: 42}, {Type: "click", BackendNodeID: 42},
		{Type: "mouseover", BackendNodeID: 7}, {Type: "click", BackendNodeID: 0}, nil, {Type: "mousedown", BackendNodeID: 1},
		// Drag sources and drop zones; drag, dragend and dragleave alone
		// make no target.
		{Type: "drop", BackendNodeID: 9}, {Type: "dragover", BackendNodeID: 9}, {Type: "dragleave", BackendNodeID: 9},
		{Type: "dragstart", BackendNodeID: 3}, {Type: "dragenter", BackendNodeID: 3}, {Type: "dragend", BackendNodeID: 5}, {Type: "drag", BackendNodeID: 5},
	}
	got := targetListeners(ls)
	want := map[int64][]string{42: {"click", "pointerup"}, 1: {"mousedown"}, 9: {"dragover", "drop"}, 3: {"dragenter", "dragstart"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
