package capture

import (
	"errors"
	"fmt"

	"github.com/axfuse/axfuse/domsnap"
)

// The pass's documents as domsnap documents, and the closed frames it
// could not enter.

// closedFrameInProcess reports whether one of the iframes in view that the
// pass could not enter holds a frame of this process: a cross-origin frame
// of the same site, which has no target of its own and so would be lost.
// (Out-of-process frames in view are captured through their targets.)
func (e *Engine) closedFrameInProcess(frames []frameInfo, res *viewResult, backends []int64, loaders []string) bool {
	if len(res.Closed) == 0 || len(frames) < 2 {
		return false
	}
	owners := map[int64]bool{}
	for _, k := range res.Closed {
		if k >= 0 && k < len(backends) && backends[k] != 0 {
			owners[backends[k]] = true
		}
	}
	entered := map[string]bool{}
	for _, vd := range res.Docs {
		if vd.Base >= 0 && vd.Base < len(loaders) {
			entered[loaders[vd.Base]] = true
		}
	}
	for _, f := range frames[1:] {
		if entered[f.loader] {
			continue
		}
		if owner, err := e.frameOwner(e.ctx(), f.id); err == nil && owners[owner] {
			return true
		}
	}
	return false
}

// viewDocuments turns the pass's description into capture documents and
// names each one's frame (by its document's loader id).
func viewDocuments(res *viewResult, backends []int64, loaders []string, frames []frameInfo, target string) ([]domsnap.Document, []string, error) {
	if len(res.Docs) == 0 {
		return nil, nil, errors.New("viewport pass: no document")
	}
	frameByLoader := map[string]string{}
	for _, f := range frames {
		frameByLoader[f.loader] = f.id
	}
	docs := make([]domsnap.Document, len(res.Docs))
	frameOf := make([]string, len(res.Docs))
	for d := range res.Docs {
		vd := &res.Docs[d]
		if vd.Base < 0 || vd.Base+len(vd.Nodes) > len(backends) || len(vd.Nodes) == 0 {
			return nil, nil, fmt.Errorf("viewport pass: document %d out of range", d)
		}
		frameOf[d] = frameByLoader[loaders[vd.Base]]
		if d == 0 {
			frameOf[d] = frames[0].id
		}
		if frameOf[d] == "" {
			frameOf[d] = fmt.Sprintf("unknown-frame-%d", d)
		}
		docs[d] = viewDocument(vd, backends[vd.Base:vd.Base+len(vd.Nodes)], frameOf[d], target)
	}
	for d := 1; d < len(res.Docs); d++ {
		vd := &res.Docs[d]
		if vd.ParentDoc < 0 || vd.ParentDoc >= d || vd.Owner < 0 || vd.Owner >= len(docs[vd.ParentDoc].Nodes) {
			return nil, nil, fmt.Errorf("viewport pass: document %d has no owner", d)
		}
		docs[vd.ParentDoc].Nodes[vd.Owner].ContentDocument = d
	}
	return docs, frameOf, nil
}

func viewDocument(vd *viewDoc, backends []int64, frame, target string) domsnap.Document {
	doc := domsnap.Document{FrameID: frame, Target: target, URL: vd.URL, Title: vd.Title,
		ScrollX: vd.ScrollX, ScrollY: vd.ScrollY, ContentWidth: vd.ContentWidth, ContentHeight: vd.ContentHeight}
	for _, s := range vd.Styles {
		doc.Styles = append(doc.Styles, domsnap.StyleFromValues(s))
	}
	doc.Nodes = make([]domsnap.Node, len(vd.Nodes))
	for i, vn := range vd.Nodes {
		n := &doc.Nodes[i]
		*n = domsnap.Node{Backend: backends[i], Parent: vn.Parent, Type: vn.Type, Name: vn.Name, Value: vn.Value,
			Attrs: vn.Attrs, InputValue: vn.InputValue, Checked: vn.Checked, Selected: vn.Selected, ShadowRootType: vn.ShadowRootType,
			Clickable: vn.Clickable, ElidedTargets: max(vn.ElidedTargets, 0)}
		if vn.PseudoType != "" {
			// Generated text in its element's box (Layout.Text holds it);
			// the backend id the pass gave is its element's.
			n.Backend, n.PseudoType, n.Type, n.AltText = 0, vn.PseudoType, domsnap.ElementNode, vn.AltText
		}
		if l := vn.Layout; l != nil {
			n.Layout = &domsnap.Layout{Bounds: rect(l.Bounds), Style: l.Style, PaintOrder: l.PaintOrder, Text: l.Text}
			if len(l.Client) == 4 {
				r := rect(l.Client)
				n.Layout.Client = &r
			}
			if len(l.Scroll) == 4 {
				r := rect(l.Scroll)
				n.Layout.Scroll = &r
			}
			for _, f := range l.Fragments {
				n.Layout.Fragments = append(n.Layout.Fragments, rect(f))
			}
		}
	}
	for _, r := range vd.Elided {
		doc.Elided = append(doc.Elided, domsnap.Elided{Parent: r.Parent, After: r.After, Dir: r.Dir,
			Role: r.Role, Name: r.Name, Level: r.Level, Nodes: r.Nodes, Roles: r.Roles})
	}
	return doc
}

// keptBackends lists the tab process's kept nodes, for finding which
// out-of-process iframes the viewport holds.
func keptBackends(docs []domsnap.Document) map[int64]bool {
	out := map[int64]bool{}
	for d := range docs {
		for _, n := range docs[d].Nodes {
			out[n.Backend] = true
		}
	}
	return out
}
