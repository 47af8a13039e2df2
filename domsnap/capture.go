// Package domsnap defines the Capture: the plain data that one capture of a
// live page yields (DOM snapshot, accessibility trees per frame, listeners,
// viewport), with a JSON form that can be recorded and replayed.
//
// This package does not talk to the browser; the Chrome driver
// (browser/chrome) does. Every pure stage (layout, paintorder, index, fuse) reads a Capture and
// never imports chromedp, so it can be tested on recorded captures alone.
//
// Everything in a Capture comes from the page and is untrusted: Validate
// checks the structure (indexes in range, parents before children) so later
// stages can index without bounds surprises.
package domsnap

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"time"
)

// FormatVersion is the version of the JSON form written by Save.
const FormatVersion = 1

// DOM node types, as in the DOM standard.
const (
	ElementNode  = 1
	TextNode     = 3
	DocumentNode = 9
	FragmentNode = 11
)

// Capture is one atomic capture of a page: every part of it comes from the
// same document.
type Capture struct {
	Version int    `json:"version"`
	URL     string `json:"url"`
	Title   string `json:"title"`
	// Mode is how it was captured: CaptureFull (every node) or
	// CaptureViewport (the nodes meeting the viewport and their ancestors;
	// the rest counted in Document.Elided).
	Mode     CaptureMode `json:"mode"`
	Viewport Viewport    `json:"viewport"`
	// Documents holds one entry per document of the page; Documents[0] is the
	// top-level document. Iframe documents follow, linked from their owner
	// node's ContentDocument.
	Documents []Document `json:"documents"`
	// Frames holds the accessibility tree of each frame.
	Frames []Frame `json:"frames"`
	// Timings are the milliseconds each capture step took.
	Timings []Timing `json:"timings,omitempty"`
	// Reuse says how the capture stands to the tab's last one: taken
	// anew (""), that one again, or none kept to reuse. A fact of the
	// tab, not of the page: it is not written out.
	Reuse Reuse `json:"-"`
	// Hits are the browser's hit tests at chosen points, for measuring
	// observations against what a click reaches (package truth); only
	// captures made for that hold them.
	Hits []Hit `json:"hits,omitempty"`
	// TextPixels are the browser's own verdicts on the texts sight was
	// unsure of (paintorder.UnsureTexts): made transparent, did the
	// screenshot change? A text the model is unsure of and the pixels did
	// not settle is withheld.
	TextPixels []TextPixel `json:"textPixels,omitempty"`
	// TextCuts are the texts a box hiding its overflow cuts
	// (layout.CutTexts), with the part the browser found inside it.
	TextCuts []TextCut `json:"textCuts,omitempty"`
	// FirstLines are the elements a ::first-line or ::first-letter rule
	// styles: their first line may be painted otherwise than their own
	// computed style says, so sight leaves their texts to the pixels.
	FirstLines []Pos `json:"firstLines,omitempty"`
}

// TextCut is what shows of one text node a clip cuts: its first Shown
// characters (nodeValue's prefix, as the browser laid it out). The rest
// is cut off; Shown is empty when no character is inside.
type TextCut struct {
	Doc   int    `json:"doc"`
	Node  int    `json:"node"`
	Shown string `json:"shown"`
}

// TextPixel is the pixels' verdict on one text node.
type TextPixel struct {
	Doc  int  `json:"doc"`
	Node int  `json:"node"`
	Seen bool `json:"seen"`
}

// Hit is what the browser's hit test (a click's) reaches at a point of
// the top-level viewport, CSS px: the node, by the target that captured
// its document (Document.Target) and its backend id; zero when nothing is
// there.
type Hit struct {
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	Target  string  `json:"target,omitempty"`
	Backend int64   `json:"backendNodeId,omitempty"`
}

// Viewport is the top-level layout viewport in CSS pixels.
type Viewport struct {
	Width            float64 `json:"width"`
	Height           float64 `json:"height"`
	ScrollX          float64 `json:"scrollX"`
	ScrollY          float64 `json:"scrollY"`
	DevicePixelRatio float64 `json:"devicePixelRatio"`
}

// Reuse is how a capture stands to the tab's last capture of the page.
type Reuse string

const (
	// ReuseNone: captured anew, as the last capture no longer held.
	ReuseNone Reuse = ""
	// Reused: the last capture again; nothing changed since.
	Reused Reuse = "reused"
	// ReuseNoneKept: captured anew; no capture was kept to reuse.
	ReuseNoneKept Reuse = "noneKept"
	// ReuseNeverKept: captured anew; no capture of this page is ever kept
	// (frames, a closed shadow root, a defined custom element).
	ReuseNeverKept Reuse = "neverKept"
)

// Timing is the duration of one capture step. Error says why a step
// failed ("" when it did not); the step's name stays the same either way,
// so runs of a step group by Step.
type Timing struct {
	Step  string  `json:"step"`
	MS    float64 `json:"ms"`
	Error string  `json:"error,omitempty"`
}

// TimingSince is the timing of a step that began at start and ends now.
func TimingSince(step string, start time.Time) Timing {
	return Timing{Step: step, MS: float64(time.Since(start).Microseconds()) / 1000}
}

// FailedSince is TimingSince of a step that ended with err (nil: none).
func FailedSince(step string, err error, start time.Time) Timing {
	t := TimingSince(step, start)
	if err != nil {
		t.Error = err.Error()
	}
	return t
}

// Document is one document's DOM snapshot, flattened in tree order (shadow
// roots and pseudo elements included, as DOMSnapshot gives them).
type Document struct {
	FrameID string `json:"frameId"`
	// Target is the browser's id of the process-level target that captured
	// the document: the tab's, or an out-of-process iframe's. Backend node
	// ids are unique within one target only.
	Target        string  `json:"target,omitempty"`
	URL           string  `json:"url"`
	Title         string  `json:"title,omitempty"`
	ScrollX       float64 `json:"scrollX,omitempty"`
	ScrollY       float64 `json:"scrollY,omitempty"`
	ContentWidth  float64 `json:"contentWidth,omitempty"`
	ContentHeight float64 `json:"contentHeight,omitempty"`
	// Styles is the table of distinct computed-style tuples that the layout
	// entries point into.
	Styles []Style `json:"styles"`
	Nodes  []Node  `json:"nodes"`
	// VisitedColours are the colours :visited rules give links' text
	// ("inherit": the parent's), which no computed style shows (the
	// browser hides which links are visited, and computes styles as if
	// none were). VisitedLinks are the links whose colours change once
	// visited, with theirs. VisitedUnknown: the rules could not be
	// matched to links (or were not read), so every link may change.
	// Sight judges a link's text in each of its colours, and leaves it to
	// the pixels when they disagree.
	VisitedColours []string      `json:"visitedColours,omitempty"`
	VisitedLinks   []VisitedLink `json:"visitedLinks,omitempty"`
	VisitedUnknown bool          `json:"visitedUnknown,omitempty"`
	// Elided are the runs of sibling subtrees a viewport capture counted
	// but did not fetch, because they lie wholly outside the viewport.
	Elided []Elided `json:"elided,omitempty"`
}

// VisitedLink is a link whose colours change once it is visited: Node is
// its index in the document's Nodes; Colours index VisitedColours, -1
// standing for one that cannot be read (or the colour a :link rule gave,
// lost once visited, whose successor is not known).
type VisitedLink struct {
	Node    int   `json:"node"`
	Colours []int `json:"colours"`
}

// Elided is one run of sibling subtrees left out of a viewport capture:
// where it stands, which way it lies, and what it holds.
type Elided struct {
	// Parent is the index of the kept node the run's subtrees hang from;
	// After is the kept sibling the run follows, -1 when it comes first.
	Parent int    `json:"parent"`
	After  int    `json:"after"`
	Dir    string `json:"dir"` // above, below, left, right
	// Role is the role of a run led by a heading or a landmark ("heading",
	// "navigation"...), with its Name and Level; else the role all of the
	// run's subtrees share, or "group".
	Role  string `json:"role"`
	Name  string `json:"name,omitempty"`
	Level int    `json:"level,omitempty"`
	// Nodes is the number of elements left out; Roles counts them by the
	// role their tag or role attribute gives (the browser's AX tree was not
	// asked, so these are close to, not exactly, what it would say).
	Nodes int            `json:"nodes"`
	Roles map[string]int `json:"roles,omitempty"`
}

// CaptureMode says how much of the page a capture fetches, and what a
// capture holds.
type CaptureMode string

// Capture modes.
const (
	// CaptureFull fetches the whole page (the default).
	CaptureFull CaptureMode = "full"
	// CaptureViewport fetches what meets the viewport and counts the rest.
	CaptureViewport CaptureMode = "viewport"
	// CaptureAuto is the viewport capture on large pages, else full; a
	// capture made so records which of the two it was.
	CaptureAuto CaptureMode = "auto"
)

// CaptureModes lists the modes, in the order help texts name them.
var CaptureModes = []CaptureMode{CaptureFull, CaptureViewport, CaptureAuto}

// Pos is a node's place in one capture: its document (an index into
// Documents) and its index in that document's Nodes. It names a node
// within a capture; Key names it across captures and at the browser.
type Pos struct {
	Doc, Node int
}

// Key is a node's identity across captures and at the browser: the frame
// that holds it and its backend node id, which stays the same for the
// life of the node however often the page is captured.
type Key struct {
	Frame   string `json:"frame"`
	Backend int64  `json:"backendNodeId"`
}

// Node is one DOM node.
type Node struct {
	Backend int64 `json:"backendNodeId"`
	// Parent is the index of the parent node in the same document, or -1.
	// Parents always come before their children.
	Parent     int32    `json:"parent"`
	Type       int      `json:"type"`
	Name       string   `json:"name"`            // nodeName: "DIV", "#text", ...
	Value      string   `json:"value,omitempty"` // nodeValue, for text nodes
	Attrs      []string `json:"attrs,omitempty"` // name, value, name, value, ...
	InputValue string   `json:"inputValue,omitempty"`
	Checked    bool     `json:"checked,omitempty"`
	Selected   bool     `json:"selected,omitempty"`
	// ContentDocument is the index in Capture.Documents of an iframe's
	// document; 0 means none (document 0 is the top-level one, which no
	// node contains).
	ContentDocument int `json:"contentDocument,omitempty"`
	// ContentFrame is the frame id of the frame an iframe element holds,
	// when the browser named it (out-of-process iframes), even if its
	// document could not be captured.
	ContentFrame   string `json:"contentFrame,omitempty"`
	ShadowRootType string `json:"shadowRootType,omitempty"`
	PseudoType     string `json:"pseudoType,omitempty"`
	// AltText is, for a pseudo element a viewport capture read itself,
	// CSS content's alt text (content: "" / "alt"): never painted, but
	// part of the name Chrome gives its element. Chrome's own capture
	// leaves it to the AX tree.
	AltText string `json:"altText,omitempty"`
	// Clickable is DOMSnapshot's isClickable: a click listener, a link, a
	// form control.
	Clickable bool `json:"clickable,omitempty"`
	// Listeners are the event types with a listener on this node that make
	// it a target: click-like and drag-and-drop ones
	// (index.ClickListenerTypes, index.DragListenerTypes).
	Listeners []string `json:"listeners,omitempty"`
	// ElidedTargets counts, in a viewport capture, the elements below this
	// node that were left out and look like targets (links, buttons, form
	// controls, a tabindex): a listener above many targets delegates.
	ElidedTargets int     `json:"elidedTargets,omitempty"`
	Layout        *Layout `json:"layout,omitempty"`
}

// Layout is a node's layout object.
type Layout struct {
	// Bounds is the border box in the document's own coordinates (CSS px,
	// document scroll ignored).
	Bounds Rect `json:"bounds"`
	// Client is clientLeft, clientTop, clientWidth, clientHeight.
	Client *Rect `json:"client,omitempty"`
	// Scroll is scrollLeft, scrollTop, scrollWidth, scrollHeight.
	Scroll          *Rect  `json:"scroll,omitempty"`
	Style           int    `json:"style"` // index into Document.Styles, -1 if none
	PaintOrder      int64  `json:"paintOrder,omitempty"`
	StackingContext bool   `json:"stackingContext,omitempty"`
	Text            string `json:"text,omitempty"` // layout text of a text node
	// Fragments are a text node's line boxes (document coordinates): a
	// wrapped link is clickable on its lines, not on the whole box.
	Fragments []Rect `json:"fragments,omitempty"`
}

// Rect is x, y, width, height; its JSON form is a 4-number array.
type Rect struct{ X, Y, W, H float64 }

// MarshalJSON writes the rect as [x, y, w, h].
func (r Rect) MarshalJSON() ([]byte, error) {
	return json.Marshal([4]float64{finite(r.X), finite(r.Y), finite(r.W), finite(r.H)})
}

// UnmarshalJSON reads [x, y, w, h].
func (r *Rect) UnmarshalJSON(b []byte) error {
	var a [4]float64
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	*r = Rect{a[0], a[1], a[2], a[3]}
	return nil
}

func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// Frame is one frame and its accessibility tree.
type Frame struct {
	FrameID       string `json:"frameId"`
	ParentFrameID string `json:"parentFrameId,omitempty"`
	URL           string `json:"url"`
	LoaderID      string `json:"loaderId,omitempty"`
	// Error says why the frame's AX tree is missing (cross-process frame,
	// timeout); empty when AXNodes is the full tree.
	Error string `json:"error,omitempty"`
	// TooDeep: the frame is nested deeper than the capture follows
	// (CaptureOptions.FrameDepth); Error says how deep.
	TooDeep bool     `json:"tooDeep,omitempty"`
	AXNodes []AXNode `json:"axNodes"`
}

// AXNode is one node of Accessibility.getFullAXTree.
type AXNode struct {
	ID             string   `json:"id"`
	Parent         string   `json:"parent,omitempty"`
	Children       []string `json:"children,omitempty"`
	Backend        int64    `json:"backendNodeId,omitempty"`
	Ignored        bool     `json:"ignored,omitempty"`
	IgnoredReasons []string `json:"ignoredReasons,omitempty"`
	Role           string   `json:"role,omitempty"`
	Name           string   `json:"name,omitempty"`
	// NameFrom is the source Chrome took the name from: "contents",
	// "attribute", "relatedElement", "placeholder", "title", ...
	NameFrom    string `json:"nameFrom,omitempty"`
	Description string `json:"description,omitempty"`
	Value       string `json:"value,omitempty"`
	Props       []Prop `json:"props,omitempty"`
}

// Prop is one AX property (states such as checked, disabled, level).
type Prop struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Prop returns the value of the named property and whether it is present.
func (n *AXNode) Prop(name string) (string, bool) {
	for _, p := range n.Props {
		if p.Name == name {
			return p.Value, true
		}
	}
	return "", false
}

// Attr returns the value of the named attribute and whether it is present.
func (n *Node) Attr(name string) (string, bool) {
	for i := 0; i+1 < len(n.Attrs); i += 2 {
		if n.Attrs[i] == name {
			return n.Attrs[i+1], true
		}
	}
	return "", false
}

// Decode reads a capture in its JSON form and validates it.
func Decode(r io.Reader) (*Capture, error) {
	var c Capture
	dec := json.NewDecoder(r)
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("decoding capture: %w", err)
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// Load reads and validates a capture file.
func Load(path string) (*Capture, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c, err := Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Encode writes the capture's JSON form.
func (c *Capture) Encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(c)
}

// Save writes the capture to a file.
func (c *Capture) Save(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := c.Encode(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Validate checks what later stages index by: parents precede children and
// lie in range, style and document indexes are in range, sizes are finite.
func (c *Capture) Validate() error {
	if c.Version != FormatVersion {
		return fmt.Errorf("capture format version %d, want %d", c.Version, FormatVersion)
	}
	if len(c.Documents) == 0 {
		return fmt.Errorf("capture has no documents")
	}
	vp := c.Viewport
	for _, f := range []float64{vp.Width, vp.Height, vp.ScrollX, vp.ScrollY, vp.DevicePixelRatio} {
		if math.IsNaN(f) || math.IsInf(f, 0) || f < -1e9 || f > 1e9 {
			return fmt.Errorf("viewport %+v is not a size", vp)
		}
	}
	if vp.Width < 0 || vp.Height < 0 {
		return fmt.Errorf("viewport %gx%g is not a size", vp.Width, vp.Height)
	}
	for d := range c.Documents {
		if err := c.validateDocument(d); err != nil {
			return fmt.Errorf("document %d: %w", d, err)
		}
	}
	// AX trees are not checked: Chrome itself repeats node ids at times,
	// and fuse tolerates duplicates, cycles and dangling ids.
	return nil
}

func (c *Capture) validateDocument(d int) error {
	doc := &c.Documents[d]
	for i := range doc.Nodes {
		n := &doc.Nodes[i]
		if n.Parent < -1 || int(n.Parent) >= i {
			return fmt.Errorf("node %d: parent %d out of order", i, n.Parent)
		}
		if n.ContentDocument < 0 || n.ContentDocument >= len(c.Documents) || (n.ContentDocument != 0 && n.ContentDocument <= d) {
			return fmt.Errorf("node %d: content document %d out of range", i, n.ContentDocument)
		}
		if l := n.Layout; l != nil {
			if l.Style < -1 || l.Style >= len(doc.Styles) {
				return fmt.Errorf("node %d: style %d out of range", i, l.Style)
			}
		}
	}
	for k, e := range doc.Elided {
		if e.Parent < 0 || e.Parent >= len(doc.Nodes) || e.After < -1 || e.After >= len(doc.Nodes) {
			return fmt.Errorf("elided run %d: node out of range", k)
		}
		if e.Dir != "above" && e.Dir != "below" && e.Dir != "left" && e.Dir != "right" {
			return fmt.Errorf("elided run %d: direction %q", k, e.Dir)
		}
		if e.Nodes < 0 {
			return fmt.Errorf("elided run %d: %d nodes", k, e.Nodes)
		}
		for role, n := range e.Roles {
			if n < 0 {
				return fmt.Errorf("elided run %d: %d of %q", k, n, role)
			}
		}
	}
	return nil
}
