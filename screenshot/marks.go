package screenshot

import (
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/index"
)

// MarksOf lists what an observation's screenshot outlines: every ref'd
// element with a box, coloured by kind, and every region with no node.
func MarksOf(obs *fuse.Observation) []Mark {
	var marks []Mark
	for _, el := range obs.Elements {
		if el.Box != nil {
			marks = append(marks, Mark{Ref: el.Ref, Kind: kindOf(el), Box: *el.Box})
		}
	}
	for _, r := range obs.Regions {
		if r.Ref == "" {
			marks = append(marks, Mark{Ref: r.Kind, Kind: KindCanvas, Box: r.Box})
		}
	}
	return marks
}

func kindOf(el fuse.Element) string {
	switch {
	case el.Tag == "canvas":
		return KindCanvas
	case el.Role == "textbox" || el.Role == "searchbox" || el.Role == "spinbutton":
		return KindTextField
	case el.Role == "link":
		return KindLink
	case index.OnlyFromDOM(el.Reasons):
		return KindListener
	}
	return KindControl
}
