package capture

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
)

// The viewport pass: viewport.js run in axfuse's isolated world of the
// top frame, and its answer decoded (the wire types below).

// probeStep is the spacing (CSS px) of the grid of hit-test probes that
// order painted boxes.
const probeStep = 48

// viewportKey names the installed pass in the isolated world.
var viewportKey = func() string {
	sum := sha256.Sum256([]byte(viewportJS))
	return "__axfusePass_" + hex.EncodeToString(sum[:6])
}()

// viewDoc is one document as the viewport pass describes it.
type viewDoc struct {
	URL           string     `json:"url"`
	Title         string     `json:"title"`
	ScrollX       float64    `json:"scrollX"`
	ScrollY       float64    `json:"scrollY"`
	Width         float64    `json:"width"`
	Height        float64    `json:"height"`
	ContentWidth  float64    `json:"contentWidth"`
	ContentHeight float64    `json:"contentHeight"`
	DPR           float64    `json:"dpr"`
	Owner         int        `json:"owner"`     // the iframe's node index in parentDoc, -1 for the top
	ParentDoc     int        `json:"parentDoc"` // -1 for the top
	Base          int        `json:"base"`      // index of its first node in the flat node list
	Styles        [][]string `json:"styles"`
	Nodes         []viewNode `json:"nodes"`
	Elided        []viewRun  `json:"elided"`
	// Whole are the nodes whose whole subtree is kept; Above the kept nodes
	// above them (listeners are asked for in one query per whole subtree).
	Whole []int `json:"whole"`
	Above []int `json:"above"`
}

type viewNode struct {
	Parent         int32       `json:"parent"`
	Type           int         `json:"type"`
	Name           string      `json:"name"`
	Value          string      `json:"value"`
	Attrs          []string    `json:"attrs"`
	InputValue     string      `json:"inputValue"`
	Checked        bool        `json:"checked"`
	Selected       bool        `json:"selected"`
	ShadowRootType string      `json:"shadowRootType"`
	Clickable      bool        `json:"clickable"`
	ElidedTargets  int         `json:"elidedTargets"`
	PseudoType     string      `json:"pseudoType"`
	AltText        string      `json:"altText"`
	Layout         *viewLayout `json:"layout"`
	// In an incremental pass: the node's AX node (Fresh) or its
	// listeners (LFresh) may have changed since the memo's pass.
	Fresh  int `json:"fresh"`
	LFresh int `json:"lfresh"`
	// ID is the node's number in the page's memo; NID its place among the
	// serialized nodes, -1 when the memo's pass gave it.
	ID  int `json:"id"`
	NID int `json:"nid"`
	// Same, in an incremental pass, names (by ID) a node described as at
	// the memo's pass: only its place (SameParent), style and paint order
	// (SameStyle, SamePaint) and its fresh flags come; the memo holds the
	// rest (delta).
	Same       int   `json:"="`
	SameParent int32 `json:"p"`
	SameStyle  int   `json:"s"`
	SamePaint  int64 `json:"o"`
}

type viewLayout struct {
	Bounds     []float64   `json:"bounds"`
	Client     []float64   `json:"client"`
	Scroll     []float64   `json:"scroll"`
	Style      int         `json:"style"`
	PaintOrder int64       `json:"paintOrder"`
	Text       string      `json:"text"`
	Fragments  [][]float64 `json:"fragments"`
}

type viewRun struct {
	Parent int            `json:"parent"`
	After  int            `json:"after"`
	Dir    string         `json:"dir"`
	Role   string         `json:"role"`
	Name   string         `json:"name"`
	Level  int            `json:"level"`
	Nodes  int            `json:"nodes"`
	Roles  map[string]int `json:"roles"`
}

type viewResult struct {
	Docs    []viewDoc `json:"docs"`
	TooMany bool      `json:"tooMany"`
	// TooShare, in auto mode, is the estimated count of nodes meeting the
	// viewport when it passes autoMaxKeptShare of the top document's
	// elements: the pass stopped early.
	TooShare int  `json:"tooShare"`
	Small    bool `json:"small"`
	Walked   int  `json:"walked"`
	// Closed are the kept iframes in view whose document the pass could
	// not read (cross-origin), as indexes into the kept nodes.
	Closed []int `json:"closed"`
	// Canvases counts the top document's <canvas> elements whose box meets
	// the viewport.
	Canvases int `json:"-"`
	Probes   int `json:"probes"`
	// Phases are the milliseconds each part of the pass took in the page.
	Phases map[string]float64 `json:"phases"`
	// Incremental says the pass reused its memo of the pass numbered by
	// the caller's expect; Gen numbers this pass's memo (0: none kept);
	// Why says why a pass asked to reuse one walked everything.
	Incremental bool   `json:"incremental"`
	Gen         int    `json:"gen"`
	Why         string `json:"why"`
	// Spec says nothing was recorded between the quiet check's specOf and
	// the pass: the AX nodes it named, asked alongside, stand.
	Spec bool `json:"spec"`
	// Cut says the hit-test probes ran out of time or number: paint
	// order may then differ from one pass to the next.
	Cut bool `json:"cut"`
	// Share is the auto mode share rule the pass ran with.
	Share float64 `json:"-"`
}

// serializedNode is the part of a deep-serialized DOM node the capture uses.
type serializedNode struct {
	Backend int64  `json:"backendNodeId"`
	Loader  string `json:"loaderId"`
}

// evaluateInWorld evaluates in axfuse's isolated world of the frame and
// fails on a script that threw.
func (e *Engine) evaluateInWorld(ctx context.Context, top frameInfo, params runtime.EvaluateParams) (*runtime.EvaluateResult, error) {
	params.Silent = new(true)
	for attempt := 0; ; attempt++ {
		world, err := e.isolatedWorld(ctx, top)
		if err != nil {
			return nil, err
		}
		params.ContextID = world
		res, err := cdpcall.Do(ctx, runtime.Evaluate, params)
		if attempt == 0 && errors.Is(err, browser.ErrContextGone) {
			// The world went with a document the frame tree had not yet
			// let go of: make it anew, once.
			e.forgetWorld()
			continue
		}
		if err != nil {
			return nil, err
		}
		if res.ExceptionDetails != nil {
			return nil, fmt.Errorf("script threw: %s", cdpcall.ExceptionText(res.ExceptionDetails))
		}
		return &res, nil
	}
}

// installedInWorld runs a script installed in the top frame's isolated
// world (cdpcall.InstalledCall's short and install calls) and gives its
// deep-serialized answer.
func (e *Engine) installedInWorld(step string, top frameInfo, short, install string) ([]byte, error) {
	var raw []byte
	err := e.call(step, func(ctx context.Context) error {
		return cdpcall.ShortElseInstall(short, install, func(expr string) error {
			r, err := e.evaluateInWorld(ctx, top, runtime.EvaluateParams{Expression: expr, SerializationOptions: cdpcall.NodeSerialization(2)})
			if err != nil {
				return err
			}
			if r.Result == nil || r.Result.DeepSerializedValue == nil {
				return errors.New("no result")
			}
			if r.Result.DeepSerializedValue.Type == "null" {
				return cdpcall.ErrNotInstalled // not in this world yet
			}
			raw = r.Result.DeepSerializedValue.Value
			return nil
		})
	})
	return raw, err
}

// viewportPass runs the pass in the frame's isolated world and returns its
// description, each node's backendNodeId and each document's loader id. In
// auto mode a small page ends it at its first step (Small set).
// noMemo, without a memo, says why there is none (for the timings).
func (e *Engine) viewportPass(top frameInfo, margin float64, minElements int, p *parts, memo *viewMemo, noMemo string) (*passOut, error) {
	start := time.Now()
	maxShare := 0.0
	canvases := -1 // viewport.js counts them
	expect := 0
	if memo != nil {
		// The page was measured at the memo's pass: its share rule stands.
		expect, maxShare = memo.gen, memo.share
	} else if minElements > 0 {
		res, err := e.smallPage(top, minElements)
		if err != nil || res.Small {
			return &passOut{res: res}, err
		}
		if res.Walked >= minElements { // not a page taken for its text alone
			maxShare = autoMaxKeptShare
		}
		canvases = res.Canvases // counted already
	}
	if math.IsNaN(margin) || margin < 0 || margin > 1e6 {
		margin = 0
	}
	args, err := json.Marshal(passArgs{Margin: margin, Step: probeStep, MaxKept: maxKeptNodes, StyleProps: domsnap.StyleProperties,
		MaxShare: maxShare, Expect: expect, Token: e.memoToken(), Canvases: canvases})
	if err != nil {
		return nil, err
	}
	// The pass is installed once in the world (under its source's hash):
	// V8 keeps its optimized code from one capture to the next, and later
	// calls do not send it.
	short, install := cdpcall.InstalledCall(viewportKey, viewportJS, "return f("+string(args)+");")
	raw, err := e.installedInWorld("viewport pass", top, short, install)
	if err != nil {
		return nil, err
	}
	pass, err := decodeViewportPass(raw, memo)
	if errors.Is(err, errMemoLacks) {
		e.memo.Store(nil)
		return e.viewportPass(top, margin, minElements, p, nil, "a node the memo lacks")
	}
	if err != nil {
		return nil, err
	}
	res := pass.res
	res.Share = maxShare
	how := ""
	switch {
	case res.Incremental:
		how = ", incremental"
	case res.Why != "" && expect > 0:
		how = ", whole walk: " + res.Why
	case noMemo != "":
		how = ", whole walk: " + noMemo
	}
	if res.Cut {
		how += ", probes cut short"
	}
	p.time(fmt.Sprintf("viewport pass (%d elements walked, %d nodes kept, %d hit-test probes%s)", res.Walked, len(pass.backends), res.Probes, how), start)
	for _, ph := range []string{"boxes", "count", "describe", "paint order", "delta"} {
		if ms, ok := res.Phases[ph]; ok {
			p.timings = append(p.timings, domsnap.Timing{Step: "viewport pass: " + ph, MS: math.Round(ms*1000) / 1000})
		}
	}
	return pass, nil
}

// passArgs are viewport.js's arguments (viewportPass there tells them);
// Canvases, the canvases in view when counted already, is -1 for the pass
// to count them.
type passArgs struct {
	Margin     float64  `json:"margin"`
	Step       int      `json:"step"`
	MaxKept    int      `json:"maxKept"`
	StyleProps []string `json:"styleProps"`
	MaxShare   float64  `json:"maxShare"`
	Expect     int      `json:"expect"`
	Token      string   `json:"token"`
	Canvases   int      `json:"canvases"`
}

// passOut is what the viewport pass found: its result, and the nodes it
// kept (their backend ids, loaders and memo numbers, in order).
type passOut struct {
	res      *viewResult
	backends []int64
	loaders  []string
	ids      []int
}

// errMemoLacks: an incremental pass named a node by a number the memo
// does not hold; a whole pass follows.
var errMemoLacks = errors.New("viewport pass: a node the memo lacks")

// decodeViewportPass reads the pass's answer: its result (a JSON text),
// the nodes it serialized and the canvases in view. Each kept node's
// backend id is its serialized one, or the memo's for a node the memo's
// pass gave already.
func decodeViewportPass(raw []byte, memo *viewMemo) (*passOut, error) {
	text, items, rest, err := decodeTextAndNodes(raw, 3)
	if err != nil {
		return nil, fmt.Errorf("viewport pass: %w", err)
	}
	res := &viewResult{}
	if err := decodeLenient([]byte(text), res); err != nil {
		return nil, fmt.Errorf("viewport pass: %w", err)
	}
	if err := expandSame(res, memo); err != nil {
		return nil, err
	}
	if json.Unmarshal(rest[0].Value, &res.Canvases) != nil {
		res.Canvases = 0
	}
	out := &passOut{res: res}
	for d := range res.Docs {
		for _, vn := range res.Docs[d].Nodes {
			var b int64
			var loader string
			switch {
			case vn.NID >= 0 && vn.NID < len(items):
				b, loader = items[vn.NID].Backend, items[vn.NID].Loader
			case vn.PseudoType != "":
			case memo != nil && res.Incremental && memo.ids[vn.ID] != 0:
				b, loader = memo.ids[vn.ID], memo.loader
			default:
				return nil, errMemoLacks
			}
			out.backends = append(out.backends, b)
			out.loaders = append(out.loaders, loader)
			out.ids = append(out.ids, vn.ID)
		}
	}
	return out, nil
}

// decodeTextAndNodes reads a deep-serialized answer of n items whose first
// is a JSON text and second a list of DOM nodes: the text, each node's
// backend id and loader (zero for an item that is not a node), and the
// items after them.
func decodeTextAndNodes(raw []byte, n int) (text string, nodes []serializedNode, rest []cdpcall.Serialized, err error) {
	var items []cdpcall.Serialized
	if err := decodeLenient(raw, &items); err != nil || len(items) != n || n < 2 {
		return "", nil, nil, errors.New("unexpected result shape")
	}
	if err := decodeLenient(items[0].Value, &text); err != nil {
		return "", nil, nil, err
	}
	var list []cdpcall.Serialized
	if len(items[1].Value) > 0 {
		if err := json.Unmarshal(items[1].Value, &list); err != nil {
			return "", nil, nil, err
		}
	}
	nodes = make([]serializedNode, len(list))
	for i, it := range list {
		if it.Type != "node" || json.Unmarshal(it.Value, &nodes[i]) != nil {
			nodes[i] = serializedNode{}
		}
	}
	return text, nodes, items[2:], nil
}

// expandSame gives each node an incremental pass sent as described at the
// memo's pass (Same) the memo's description, in its new place.
func expandSame(res *viewResult, memo *viewMemo) error {
	for d := range res.Docs {
		nodes := res.Docs[d].Nodes
		for i := range nodes {
			vn := &nodes[i]
			if vn.Same == 0 {
				continue
			}
			prev, ok := memo.described(vn.Same)
			if !ok || !res.Incremental || d > 0 {
				return errMemoLacks
			}
			prev.Parent, prev.ID, prev.NID, prev.Fresh, prev.LFresh = vn.SameParent, vn.Same, -1, vn.Fresh, vn.LFresh
			if prev.Layout != nil {
				l := *prev.Layout
				l.Style, l.PaintOrder = vn.SameStyle, vn.SamePaint
				prev.Layout = &l
			}
			*vn = prev
		}
	}
	return nil
}

// isolatedWorld returns the execution context of axfuse's isolated world in
// the frame, created once per document.
func (e *Engine) isolatedWorld(ctx context.Context, f frameInfo) (runtime.ExecutionContextID, error) {
	e.worldMu.Lock()
	defer e.worldMu.Unlock()
	if e.world != 0 && e.worldLoader == f.loader {
		return e.world, nil
	}
	r, err := cdpcall.Do(ctx, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: cdp.FrameID(f.id), WorldName: "axfuse"})
	if err != nil {
		return 0, fmt.Errorf("Page.createIsolatedWorld: %w", err)
	}
	e.world, e.worldLoader = r.ExecutionContextID, f.loader
	return e.world, nil
}

func (e *Engine) forgetWorld() {
	e.worldMu.Lock()
	e.world, e.worldLoader = 0, ""
	e.worldMu.Unlock()
}

// decodeLenient decodes the viewport pass's answer, the largest JSON of an
// incremental capture, about twice as fast as encoding/json (with the JSON
// layer cdproto decodes every answer with), and as forgiving of what the
// page's strings hold: a lone surrogate in a text becomes U+FFFD, as
// encoding/json makes it, and is no error. (The text is JSON.stringify's:
// it names no member twice.)
func decodeLenient(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, jsonv2.AllowInvalidUTF8(true))
}
