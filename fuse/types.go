package fuse

import (
	"io"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/layout"
)

// Mode is which view an observation is: fused, or the accessibility
// tree alone (for comparison).
type Mode string

// Modes of the observation.
const (
	ModeFused Mode = "fused"
	ModeAX    Mode = "ax"
)

// Modes lists the modes, the default first.
var Modes = []Mode{ModeFused, ModeAX}

// Node is one line of the observation.
type Node struct {
	Role  string
	Name  string
	Text  string // the text of a "text" node, or an inline child text
	URL   string // a link's target
	Value string // a control's current value
	// Description is Chrome's accessible description; only the AX-only
	// view prints it (as Puppeteer reports it).
	Description string
	States      []string // "checked", "expanded=false", "level=2", ...
	Ref         string
	Children    []*Node
	// owner is the AX parent of a text line: texts of one owner join as
	// written, texts of different owners (inline boxes of one run) join
	// with a space.
	owner string
	// run is the inline run of a text line's last piece: texts of
	// different runs (a block boundary between them) never join (lines.go).
	run lineRun
	// nameFrom is Chrome's name source, which tells whether a label's text
	// beside this node is already its name.
	nameFrom string
	// at is the DOM node behind this line (doc -1 when none); target is set
	// on interactive elements, which get a ref if they stay in the view.
	at     where
	target *target
	// status is filled by the view pass: geometry, occlusion.
	status status
	// modal marks an aria-modal or showModal() dialog.
	modal bool
	// inert marks a text line of inert content (inert.go): the page
	// behind a modal dialog keeps it.
	inert bool
	// summary marks the <summary> that toggles its <details>: the YAML
	// prints it on its group's line (yaml.go, withSummary).
	summary bool
	// bidi marks a line whose page strings held bidi embeddings,
	// overrides or isolates, removed: it prints [bidi] (invisible.go).
	bidi bool
	// orig is the full-tree node a view copy was made from.
	orig *Node
	// elided is the run of a viewport capture this line stands for: what
	// it counted, which way it lies (elided.go).
	elided *domsnap.Elided
	// fold stands for the lines below a node wholly off-screen (fold.go).
	fold *fold
}

// Element is one ref'd element in the JSON form.
type Element struct {
	Ref           string      `json:"ref"`
	Role          string      `json:"role"`
	Name          string      `json:"name"`
	Tag           string      `json:"tag"`
	Box           *[4]float64 `json:"box"`
	Frame         string      `json:"frame"`
	BackendNodeID int64       `json:"backendNodeId"`
	Reasons       []string    `json:"reasons"`
}

// Counts are node counts at each stage.
type Counts struct {
	DOMNodes   int `json:"domNodes"`
	AXNodes    int `json:"axNodes"`
	AXIgnored  int `json:"axIgnored"`
	Kept       int `json:"kept"`       // nodes in the pruned tree
	Refs       int `json:"refs"`       // interactive elements
	Roleless   int `json:"roleless"`   // refs found by DOM signals alone
	FramesMiss int `json:"framesMiss"` // frames whose AX tree is missing
	Occluded   int `json:"occluded"`   // nodes left out because something covers them
	Offscreen  int `json:"offscreen"`  // nodes collapsed or dropped off-screen
	Clipped    int `json:"clipped"`    // nodes overflow clips hide
	Withheld   int `json:"withheld"`   // texts a person cannot see
	Invisible  int `json:"invisible"`  // elements at opacity 0 that take no clicks
	Unchecked  int `json:"unchecked"`  // elements whose covers were not looked for (work bound spent)
	// Unsure counts withheld texts the model could not judge and the
	// browser's pixels did not settle (paintorder.SeenUnsure).
	Unsure int `json:"unsure,omitempty"`
	// CutOff counts texts a box hiding its overflow cuts: they print what
	// shows, ending in "…"; their tails are listed with the withheld.
	CutOff int `json:"cutOff,omitempty"`
	// InvisibleChars counts the characters that draw nothing (zero-width,
	// bidi, tag, control, private-use: invisible.go) removed from the
	// view's text, names, values, URLs and the page's title and URL.
	InvisibleChars int `json:"invisibleChars,omitempty"`
}

// Tree is the fused observation before serialization.
type Tree struct {
	Mode     Mode
	Roots    []*Node // what the agent sees
	full     []*Node // everything (Full), built on first use when folded
	Elements []Element
	Counts   Counts
	// Regions are targets with no node: the reason to attach a screenshot.
	Regions []Region
	// Withheld lists texts and images left out as unseen (the first
	// maxWithheldItems; Counts.Withheld counts them all).
	Withheld []WithheldItem
	viewport layout.Box // for Find's "where"
	view     *view      // for Locate
	format   Format     // Options.Format
}

// Format is the text format the tree was measured in (Options.Format).
func (t *Tree) Format() Format {
	if t.format == nil {
		return YAMLFormat
	}
	return t.format
}

// Write writes the tree's lines in its Format.
func (t *Tree) Write(w io.Writer) error { return t.Format().Write(w, t.Roots) }

// Options choose the view.
type Options struct {
	Mode Mode // ModeFused (default) or ModeAX
	// Format is the text the view is measured and written in (nil:
	// YAMLFormat).
	Format Format
	// Refs assigns refs; a fresh table when nil. Passing the same table
	// across snapshots keeps refs stable.
	Refs *index.Table
	// Offscreen is OffscreenCollapse (default), OffscreenKeep or
	// OffscreenDrop; Margin grows the viewport by that many CSS px.
	Offscreen Offscreen
	Margin    float64
	// Scope prints one subtree: "ROLE", "ROLE:NAME" (name substring,
	// case-insensitive) or a ref such as "e12".
	Scope string
	// Depth limits the printed depth (0: no limit).
	Depth int
	// MaxTokens cuts the view to about that many o200k tokens (0: no
	// limit): the viewport first, then by distance and interactivity, with
	// counted lines for what was left out.
	MaxTokens int
	// FindHint tells, in the budget's last note, how to reach what was left
	// out (the CLI's and the MCP server's words differ).
	FindHint string
	// Audit quotes an excerpt of each withheld text in the audit list
	// (Observation.Withheld), for people checking what was left out;
	// without it the list has kind, reason and box, and no page text.
	Audit bool
}

// Offscreen is what a view does with content outside the viewport.
type Offscreen string

// Off-screen policies.
const (
	OffscreenCollapse Offscreen = "collapse" // one counted line per off-screen subtree or run
	OffscreenKeep     Offscreen = "keep"     // print everything
	OffscreenDrop     Offscreen = "drop"     // leave off-screen content out
)

// OffscreenPolicies lists the policies, the default first.
var OffscreenPolicies = []Offscreen{OffscreenCollapse, OffscreenKeep, OffscreenDrop}

// Located is an element of the full tree with what acting on it needs.
type Located struct {
	Fingerprint index.Fingerprint
	InViewport  bool
	Occluded    bool
	Cover       string     // what covers it, when Occluded
	Point       [2]float64 // where a click reaches it (viewport CSS px)
	// Others are further points of its uncovered part, tried when the
	// browser's hit test at Point finds a node the capture lacks.
	Others [][2]float64
	// FrameBox is the element's box (x, y, w, h) in its own frame's
	// viewport as the observation laid it out; ok false when it had none.
	FrameBox [4]float64
	HasBox   bool
	// FrameOffset is where the element's frame's viewport starts in the
	// top-level one: a point in the frame plus it is a point for input.
	FrameOffset [2]float64
	// NoPointer: no click reaches it (its state NoPointer); keys still do.
	NoPointer bool
	doc, dom  int
}

// Observation is the JSON form of one snapshot.
type Observation struct {
	URL        string           `json:"url"`
	Title      string           `json:"title"`
	Viewport   domsnap.Viewport `json:"viewport"`
	Mode       Mode             `json:"mode"`
	Snapshot   string           `json:"snapshot"`
	Elements   []Element        `json:"elements"`
	Screenshot *Screenshot      `json:"screenshot"`
	Stats      Stats            `json:"stats"`
	// Withheld is what the view left out as unseen, for audit: never in
	// the YAML, whose note only counts it.
	Withheld []WithheldItem `json:"withheld"`
	// Regions are the targets the tree cannot describe; the caller takes
	// the screenshot (AttachScreenshot).
	Regions []Region `json:"-"`
	// format is what Snapshot is written in.
	format Format
}

// Screenshot is the annotated screenshot attached when the tree cannot
// serve (or when asked for).
type Screenshot struct {
	Path    string   `json:"path"`
	Reason  string   `json:"reason"`
	Regions []Region `json:"regions"`
}

// Stats are node counts per stage, the snapshot's size and stage timings.
type Stats struct {
	Counts
	Lines   int              `json:"lines"`
	Tokens  int              `json:"tokens"` // o200k tokens of the YAML
	Timings []domsnap.Timing `json:"timings"`
}
