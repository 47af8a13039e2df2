package paintorder

import (
	"github.com/axfuse/axfuse/domsnap"
)

// Behind a modal dialog. showModal() puts a dialog in the top layer with a
// ::backdrop painted over the whole page, a box DOMSnapshot does not
// give: see-through by default (10% black), but a page may paint it any
// colour. The text behind is inert (the AX tree leaves it out) yet may be
// read, so its sight is the pixels' to settle: every text of a document
// with a modal dialog open, outside the open dialogs, is unsure.

// modalDocs marks, per document, one whose AX tree says a modal dialog
// is open (an ignored node for "activeModalDialog"), made on first use.
func (ix *Index) modalDocs() []bool {
	if ix.modal == nil {
		ix.modal = make([]bool, len(ix.c.Documents))
		byFrame := make(map[string]int, len(ix.c.Documents))
		for d := range ix.c.Documents {
			byFrame[ix.c.Documents[d].FrameID] = d
		}
		for f := range ix.c.Frames {
			d, ok := byFrame[ix.c.Frames[f].FrameID]
			if ok && modalOpen(ix.c.Frames[f].AXNodes) {
				ix.modal[d] = true
			}
		}
	}
	return ix.modal
}

// modalOpen: an AX tree leaves nodes out for an active modal dialog.
func modalOpen(nodes []domsnap.AXNode) bool {
	for k := range nodes {
		for _, r := range nodes[k].IgnoredReasons {
			if r == "activeModalDialog" {
				return true
			}
		}
	}
	return false
}

// behindModal: element el of doc lies outside every open dialog of a
// document with a modal dialog open.
func (ix *Index) behindModal(doc, el int) bool {
	if !ix.modalDocs()[doc] {
		return false
	}
	nodes := ix.c.Documents[doc].Nodes
	for k, depth := el, 0; k >= 0 && k < len(nodes) && depth < 512; k, depth = int(nodes[k].Parent), depth+1 {
		if n := &nodes[k]; n.Name == "DIALOG" {
			if _, open := n.Attr("open"); open {
				return false
			}
		}
	}
	return true
}

// anyModal: some document of the capture has a modal dialog open.
func anyModal(c *domsnap.Capture) bool {
	for f := range c.Frames {
		if modalOpen(c.Frames[f].AXNodes) {
			return true
		}
	}
	return false
}
