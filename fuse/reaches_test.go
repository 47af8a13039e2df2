package fuse

import (
	"testing"

	"github.com/axfuse/axfuse/domsnap"
)

// TestReaches answers, on the frames capture (a top document, a
// same-process iframe, an out-of-process one holding another), whether
// the node a hit test reached is the located element or inside it, and
// names it when not. Backend ids are unique within one target only: the
// cross-site frame's div and the deep frame's document share id 12.
// notHeld is what Reaches names a node the capture lacks.
const notHeld = "a node the capture does not hold (a pseudo-element such as a list marker, or one added since)"

func TestReaches(t *testing.T) {
	c := load(t, "../testdata/captures/frames.capture.json")
	tree := FromCapture(c, Options{})
	located := func(name string) (Located, Element) {
		t.Helper()
		for _, el := range tree.Elements {
			if el.Name == name {
				l, ok := tree.Locate(domsnap.Key{Frame: el.Frame, Backend: el.BackendNodeID})
				if !ok {
					t.Fatalf("%s %q does not locate", el.Ref, name)
				}
				if l.Fingerprint.Name != name {
					t.Fatalf("%q located as %+v", name, l.Fingerprint)
				}
				return l, el
			}
		}
		t.Fatalf("no element %q in the frames capture", name)
		return Located{}, Element{}
	}
	// node finds a DOM node of the document of frame by its name and its
	// parent's backend id (0: any parent), and returns its target and id.
	node := func(frame, nodeName string, parent int64) (string, int64) {
		t.Helper()
		for _, d := range c.Documents {
			if d.FrameID != frame {
				continue
			}
			for _, n := range d.Nodes {
				if n.Name == nodeName && (parent == 0 || n.Parent >= 0 && d.Nodes[n.Parent].Backend == parent) {
					return d.Target, n.Backend
				}
			}
		}
		t.Fatalf("no %s under %d in frame %s", nodeName, parent, frame)
		return "", 0
	}
	top := c.Documents[0]
	cross, crossEl := located("Cross div")
	deep, deepEl := located("Deep button")
	same, sameEl := located("Same button")
	crossTarget, crossText := node(crossEl.Frame, "#text", crossEl.BackendNodeID)
	_, crossInput := node(crossEl.Frame, "INPUT", 0)
	_, crossBody := node(crossEl.Frame, "BODY", 0)
	deepTarget, deepText := node(deepEl.Frame, "#text", deepEl.BackendNodeID)
	_, deepDoc := node(deepEl.Frame, "#document", 0)
	sameTarget, sameText := node(sameEl.Frame, "#text", sameEl.BackendNodeID)
	_, sameFrame := node(top.FrameID, "IFRAME", 0)
	_, shadowDiv := node(top.FrameID, "DIV", 0)
	// The top document's node at the same button's index in its own
	// document: in that index range, but of another document.
	sameIndex := -1
	for _, d := range c.Documents {
		for i, n := range d.Nodes {
			if d.FrameID == sameEl.Frame && n.Backend == sameEl.BackendNodeID {
				sameIndex = i
			}
		}
	}
	if sameIndex < 0 || sameIndex >= len(top.Nodes) {
		t.Fatalf("the same button is node %d of its document", sameIndex)
	}
	topAtSameIndex := top.Nodes[sameIndex].Backend
	if crossTarget == top.Target || deepTarget == crossTarget || sameTarget != top.Target {
		t.Fatalf("targets: top %s, cross %s, deep %s, same %s", top.Target, crossTarget, deepTarget, sameTarget)
	}
	if deepDoc != crossEl.BackendNodeID {
		t.Fatalf("the deep frame's document is %d, the cross div %d: no shared id to test", deepDoc, crossEl.BackendNodeID)
	}
	for _, tc := range []struct {
		name    string
		l       Located
		target  string
		backend int64
		ok      bool
		what    string
	}{
		{"the element itself", cross, crossTarget, crossEl.BackendNodeID, true, ""},
		{"its text", cross, crossTarget, crossText, true, ""},
		{"a sibling control", cross, crossTarget, crossInput, false, `textbox "Cross input"`},
		{"its ancestor", cross, crossTarget, crossBody, false, "body"},
		{"its id in another target", cross, deepTarget, crossEl.BackendNodeID, false, "#document"},
		{"an element of another target", cross, deepTarget, deepEl.BackendNodeID, false, `button "Deep button"`},
		{"its ids under the wrong target", deep, crossTarget, deepText, false, notHeld},
		{"an id nowhere", cross, crossTarget, 99999, false, notHeld},
		{"the deep button itself", deep, deepTarget, deepEl.BackendNodeID, true, ""},
		{"the deep button's text", deep, deepTarget, deepText, true, ""},
		{"a target unknown: any document", deep, "", deepText, true, ""},
		{"same process, other document: itself", same, sameTarget, sameText, true, ""},
		// Named with Chrome's role (Iframe), not the printed one (iframe):
		// coverName does not map roles as the YAML does.
		{"same process, the iframe holding it", same, sameTarget, sameFrame, false, `Iframe "Same-origin frame"`},
		{"same process, the top document's node at its index", same, sameTarget, topAtSameIndex, false, "meta"},
		{"same process, the top document's Shadow div (no AX name)", same, sameTarget, shadowDiv, false, "div"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, what := tree.Reaches(tc.l, tc.target, tc.backend)
			if ok != tc.ok || what != tc.what {
				t.Errorf("Reaches(%s, %d) = %v, %q; want %v, %q", tc.l.Fingerprint.Name, tc.backend, ok, what, tc.ok, tc.what)
			}
		})
	}
}
