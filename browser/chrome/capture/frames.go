package capture

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/target"
)

// frameConcurrency bounds the iframe targets captured at once.
const frameConcurrency = 4

// captureFrameTargets captures every out-of-process iframe below the tab,
// breadth first (parents before children), to the depth limit. A frame that
// cannot be captured comes back with its error, never silently dropped.
func (e *Engine) captureFrameTargets(top *parts, kept map[int64]bool) []*parts {
	start := time.Now()
	var infos []*target.Info
	// Asked on the tab's own session: a lean tab never needs the browser's
	// websocket for its frames.
	err := e.page.CallTargets("Target.getTargets", func(ctx context.Context) error {
		res, err := cdpcall.Do(ctx, target.GetTargets, target.GetTargetsParams{})
		infos = res.TargetInfos
		return err
	})
	if err != nil {
		top.timeFailed("iframe targets", err, start)
		return nil
	}
	children := map[string][]*target.Info{}
	for _, in := range infos {
		if in != nil && in.Type == "iframe" && in.ParentID != "" {
			children[string(in.ParentID)] = append(children[string(in.ParentID)], in)
		}
	}
	live := map[string]bool{}
	for _, in := range infos {
		if in != nil {
			live[string(in.TargetID)] = true
		}
	}
	e.page.KeepTargets(live)
	var out []*parts
	level := children[top.target]
	for depth := 1; len(level) > 0; depth++ {
		follow := depth <= e.opts.FrameDepth
		got := make([]*parts, len(level))
		parallel(len(level), frameConcurrency, func(i int) { got[i] = e.captureFrameTarget(level[i], follow, kept) })
		for _, g := range got {
			if g != nil {
				out = append(out, g)
			}
		}
		kept = nil
		if !follow {
			break
		}
		var next []*target.Info
		for i, in := range level {
			if got[i] != nil {
				next = append(next, children[string(in.TargetID)]...)
			}
		}
		level = next
	}
	top.time(fmt.Sprintf("Target.getTargets, iframe targets (%d)", len(out)), start)
	return out
}

// captureFrameTarget finds one iframe target's element in its parent and,
// when follow, attaches to the target and captures it.
func (e *Engine) captureFrameTarget(in *target.Info, follow bool, kept map[int64]bool) *parts {
	id := string(in.TargetID)
	failed := func(err error) *parts {
		return &parts{target: id, parentFrame: string(in.ParentFrameID), url: in.URL, err: err}
	}
	parent := e.page.Session(string(in.ParentID))
	if parent == nil {
		return failed(errors.New("its parent frame was not captured"))
	}
	owner, err := e.frameOwner(parent, id)
	if err != nil {
		return failed(err)
	}
	if kept != nil && !kept[owner] {
		return nil // its iframe lies outside the viewport capture
	}
	if !follow {
		p := failed(errTooDeep{e.opts.FrameDepth})
		p.owner = owner
		return p
	}
	s, err := e.page.Attach(id)
	if err != nil {
		return failed(err)
	}
	frames, err := e.frameTree(s)
	if err != nil {
		return failed(err)
	}
	p := newParts(id, frames)
	p.parentFrame, p.owner, p.url = string(in.ParentFrameID), owner, in.URL
	var wg sync.WaitGroup
	var snapErr error
	wg.Go(func() { snapErr = e.captureSnapshot(s, p) })
	wg.Go(func() { e.discoverListeners(s, p) })
	e.axTrees(s, p, &wg)
	wg.Wait()
	p.err = snapErr
	return p
}

// stitch appends each iframe process's documents and frames to c, linking
// its top document under the iframe element that holds it, and returns the
// routes for acting in them. A frame that failed keeps a Frame entry with
// its error, and its iframe element its ContentFrame.
func stitch(c *domsnap.Capture, subs []*parts) Routes {
	r := Routes{ByFrame: map[string]string{}, Children: map[Owner]string{}}
	for _, p := range subs {
		d, k, ok := ownerElement(c, p)
		if !ok {
			c.Frames = append(c.Frames, domsnap.Frame{FrameID: p.target, ParentFrameID: p.parentFrame, URL: p.url,
				Error: "its iframe element was not found in the parent frame"})
			continue
		}
		owner := &c.Documents[d].Nodes[k]
		owner.ContentFrame = p.target
		root := -1
		if p.err == nil && p.snapshot != nil {
			root = appendDocuments(c, p)
		}
		if root < 0 {
			why := "its document was not captured"
			if p.err != nil {
				why = p.err.Error()
			}
			c.Frames = append(c.Frames, domsnap.Frame{FrameID: p.target, ParentFrameID: p.parentFrame, URL: p.url,
				Error: why, TooDeep: errors.As(p.err, new(errTooDeep))})
			continue
		}
		owner.ContentDocument = root
		c.Frames = append(c.Frames, convertFrames(p)...)
		r.Children[Owner{c.Documents[d].Target, owner.Backend}] = p.target
		for _, f := range p.frames {
			r.ByFrame[f.id] = p.target
		}
	}
	return r
}

// ownerElement finds the iframe element of an out-of-process frame: in the
// document of its parent frame, the node with the backend id
// DOM.getFrameOwner gave, in the process of that frame.
func ownerElement(c *domsnap.Capture, p *parts) (doc, node int, ok bool) {
	for d := range c.Documents {
		if c.Documents[d].FrameID != p.parentFrame {
			continue
		}
		for k := range c.Documents[d].Nodes {
			n := &c.Documents[d].Nodes[k]
			if n.Backend == p.owner && n.Type == domsnap.ElementNode && n.ContentDocument == 0 && n.ContentFrame == "" {
				return d, k, true
			}
		}
	}
	return 0, 0, false
}

// appendDocuments appends a process's documents, moving their
// content-document indexes past the documents already there, and returns
// the index of the frame's own document (-1 when it is missing).
func appendDocuments(c *domsnap.Capture, p *parts) int {
	docs := convertDocuments(p)
	off := len(c.Documents)
	root := -1
	for i := range docs {
		for k := range docs[i].Nodes {
			if cd := docs[i].Nodes[k].ContentDocument; cd > 0 {
				docs[i].Nodes[k].ContentDocument = cd + off
			}
		}
		if docs[i].FrameID == p.target && root < 0 {
			root = off + i
		}
	}
	if root < 0 {
		return -1
	}
	c.Documents = append(c.Documents, docs...)
	return root
}

// errTooDeep: a frame nested deeper than the capture follows.
type errTooDeep struct{ depth int }

func (e errTooDeep) Error() string { return fmt.Sprintf("nested deeper than %d frames", e.depth) }
