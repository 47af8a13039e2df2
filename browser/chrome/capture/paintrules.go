package capture

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/runtime"
)

// What a page's style rules paint that the snapshot's computed styles do
// not show. A ::first-line (or ::first-letter) rule paints the first line
// of a block otherwise than the block's own computed style, which is all
// the snapshot gives: a transparent first line over a dark block, a dark
// one over a block in the page's colour. A visited link takes the
// colours of the rules that match it once visited, and the browser
// computes every style as if no link were. Sight cannot see either, so
// one call per document (paintrules.js) finds the elements first-line
// rules style (Capture.FirstLines) and the links whose colours change
// once visited, with their colours (Document.VisitedLinks); their texts
// are unsure where those colours would change the verdict, settled by
// the pixels. A page without such rules pays one call per document.

const (
	// maxFirstLines bounds the elements taken from one document.
	maxFirstLines = 200
	// maxVisitedLinks bounds the links taken from one document; past it
	// every link of the document is taken as changing.
	maxVisitedLinks = 5000
	// maxPaintRuleDocs bounds the documents asked in one capture.
	maxPaintRuleDocs = 16
	// paintRulesBudget bounds the asking of one capture.
	paintRulesBudget = 3 * time.Second
)

// findPaintRules records the elements ::first-line rules style and the
// links :visited and :link rules colour. Documents are asked at once
// (each call is a round trip, most of its cost).
func (e *Engine) findPaintRules(c *domsnap.Capture) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(e.ctx(), paintRulesBudget)
	defer cancel()
	var asked []int
	for d := range c.Documents {
		doc := &c.Documents[d]
		if len(doc.Nodes) == 0 || doc.Nodes[0].Type != domsnap.DocumentNode || doc.Nodes[0].Backend == 0 {
			continue
		}
		if len(asked) == maxPaintRuleDocs {
			// Unasked, its links may change once visited.
			doc.VisitedUnknown = true
			continue
		}
		asked = append(asked, d)
	}
	found := make([]*paintRules, len(asked))
	errs := make([]error, len(asked))
	var wg sync.WaitGroup
	for k, d := range asked {
		wg.Go(func() { found[k], errs[k] = e.askPaintRules(ctx, &c.Documents[d]) })
	}
	wg.Wait()
	failed, visited := 0, 0
	for k, d := range asked {
		doc := &c.Documents[d]
		if errs[k] != nil {
			// Unread, the visited colours are unknown: links' texts go to
			// the pixels.
			doc.VisitedUnknown = true
			failed++
			continue
		}
		placePaintRules(c, d, found[k])
		if doc.VisitedUnknown || len(doc.VisitedLinks) > 0 {
			visited++
		}
	}
	if len(c.FirstLines) > 0 || failed > 0 || visited > 0 {
		step := fmt.Sprintf("style rules: %d elements styled by ::first-line, %d documents with links :visited or :link rules colour", len(c.FirstLines), visited)
		if failed > 0 {
			step += fmt.Sprintf(" (%d documents not asked)", failed)
		}
		c.Timings = append(c.Timings, domsnap.TimingSince(step, start))
	}
}

// placePaintRules finds what one document's rules style among its nodes.
func placePaintRules(c *domsnap.Capture, d int, found *paintRules) {
	doc := &c.Documents[d]
	at := make(map[int64]int, len(found.elements))
	for k, b := range found.elements {
		if b != 0 {
			at[b] = k
		}
	}
	for i := range doc.Nodes {
		k, ok := at[doc.Nodes[i].Backend]
		if !ok || doc.Nodes[i].Type != domsnap.ElementNode {
			continue
		}
		if k < found.First {
			c.FirstLines = append(c.FirstLines, domsnap.Pos{Doc: d, Node: i})
		}
		if ks, ok := found.links[k]; ok {
			doc.VisitedLinks = append(doc.VisitedLinks, domsnap.VisitedLink{Node: i, Colours: ks})
		}
	}
}

// paintRules is what paintrules.js found in one document: the elements
// (backend ids) of which the first First are styled by ::first-line
// rules, and the colours of links (by index into elements).
type paintRules struct {
	First    int
	elements []int64
	links    map[int][]int
}

// askPaintRules asks one document for the elements its ::first-line
// rules style and the links its :visited and :link rules colour, and
// records the colours in the document.
func (e *Engine) askPaintRules(ctx context.Context, doc *domsnap.Document) (*paintRules, error) {
	session := e.page.SessionFor(doc.FrameID)
	var raw []byte
	expr, err := pageCall("paintRules", struct {
		MaxFirst int `json:"maxFirst"`
		MaxLinks int `json:"maxLinks"`
	}{maxFirstLines, maxVisitedLinks}, paintRulesJS)
	if err != nil {
		return nil, err
	}
	err = e.pixelStep(ctx, session, "read ::first-line and :visited rules", pixelStyleTimeout, func(ctx context.Context) error {
		res, err := e.evaluateInFrameWorld(ctx, session, doc.FrameID, runtime.EvaluateParams{
			Expression:           expr,
			SerializationOptions: cdpcall.NodeSerialization(2),
		})
		if err != nil {
			return err
		}
		if res == nil || res.DeepSerializedValue == nil {
			return errors.New("no result")
		}
		raw = res.DeepSerializedValue.Value
		return nil
	})
	if err != nil {
		return nil, err
	}
	return decodePaintRules(raw, doc)
}

// decodePaintRules reads paintrules.js's answer into found and doc.
func decodePaintRules(raw []byte, doc *domsnap.Document) (*paintRules, error) {
	text, nodes, _, err := decodeTextAndNodes(raw, 2)
	if err != nil {
		return nil, fmt.Errorf("style rules: %w", err)
	}
	var found struct {
		First          int      `json:"first"`
		Visited        []string `json:"visited"`
		VisitedUnknown bool     `json:"visitedUnknown"`
		Links          [][]int  `json:"links"`
	}
	if err := json.Unmarshal([]byte(text), &found); err != nil {
		return nil, fmt.Errorf("style rules: %w", err)
	}
	out := &paintRules{First: min(found.First, len(nodes)), elements: make([]int64, len(nodes)), links: make(map[int][]int, len(found.Links))}
	for k, n := range nodes {
		out.elements[k] = n.Backend
	}
	doc.VisitedColours, doc.VisitedUnknown = found.Visited, found.VisitedUnknown
	for _, l := range found.Links {
		if len(l) < 2 || l[0] < 0 || l[0] >= len(nodes) {
			continue
		}
		ks := l[1:]
		for i, k := range ks {
			if k < 0 || k >= len(found.Visited) {
				ks[i] = -1
			}
		}
		out.links[l[0]] = ks
	}
	return out, nil
}

// evaluateInFrameWorld evaluates in axfuse's isolated world of the frame
// (the guard's, made once per document): one call when the world is
// known, a new world when the frame's document was replaced.
func (e *Engine) evaluateInFrameWorld(ctx, session context.Context, frame string, params runtime.EvaluateParams) (*runtime.RemoteObject, error) {
	params.Silent = new(true)
	for fresh := false; ; fresh = true {
		world, made, err := e.page.World(ctx, session, frame, fresh)
		if err != nil {
			return nil, err
		}
		params.ContextID = world
		res, err := cdpcall.Do(ctx, runtime.Evaluate, params)
		if !fresh && !made && errors.Is(err, browser.ErrContextGone) {
			continue // the world went with its document
		}
		if err != nil {
			return nil, err
		}
		if res.ExceptionDetails != nil {
			return nil, fmt.Errorf("script threw: %s", cdpcall.ExceptionText(res.ExceptionDetails))
		}
		return res.Result, nil
	}
}
