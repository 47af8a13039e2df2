package mcpserver

// The opt-in capabilities: what each enables, and its tools.

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type (
	evaluateArgs struct {
		Function string `json:"function" jsonschema:"a JavaScript function to run in the page, e.g. () => document.title; its value comes back as JSON"`
	}
	xyArgs struct {
		answerArgs
		X           float64 `json:"x" jsonschema:"viewport x in CSS pixels"`
		Y           float64 `json:"y" jsonschema:"viewport y in CSS pixels"`
		DoubleClick bool    `json:"doubleClick,omitempty" jsonschema:"double-click instead"`
	}
	wheelArgs struct {
		answerArgs
		X      float64 `json:"x" jsonschema:"viewport x in CSS pixels"`
		Y      float64 `json:"y" jsonschema:"viewport y in CSS pixels"`
		DeltaX float64 `json:"deltaX,omitempty" jsonschema:"horizontal scroll in CSS pixels"`
		DeltaY float64 `json:"deltaY,omitempty" jsonschema:"vertical scroll in CSS pixels (positive: down)"`
	}
	pdfArgs struct {
		Filename string `json:"filename,omitempty" jsonschema:"the file name under the server's output folder (default page.pdf)"`
	}
)

// A Capability is an opt-in tool group (Options.Caps, axfuse mcp --caps).
type Capability struct {
	Name    string // as Options.Caps names it
	Enables string // what it enables, in words
	tools   func() []toolAdder
}

// Capabilities are the opt-in tool groups, in the order they are told.
func Capabilities() []Capability {
	return []Capability{
		{Name: "evaluate", Enables: "browser_evaluate runs the agent's JavaScript in the page", tools: evaluateTools},
		{Name: "vision", Enables: "browser_mouse_click_xy and browser_mouse_wheel at viewport points", tools: visionTools},
		{Name: "pdf", Enables: "browser_pdf_save", tools: pdfTools},
	}
}

// evaluateTools run the agent's JavaScript in the page.
func evaluateTools() []toolAdder {
	return []toolAdder{
		toolDef[evaluateArgs]{spec: toolSpec{name: "browser_evaluate", title: "Run JavaScript", effect: changes,
			desc: "Run a JavaScript function in the current page and return its value as JSON (promises are awaited; at most 16 KiB). Enabled by the server's evaluate capability."}, handle: func(s *Server, ts *tabState, in evaluateArgs) (*mcp.CallToolResult, error) {
			if strings.TrimSpace(in.Function) == "" {
				return nil, errors.New("browser_evaluate: function is empty")
			}
			out, err := ts.tab.Evaluate("(" + in.Function + ")()")
			if err != nil {
				return nil, err
			}
			return textResult("Result (the page's value):\n"+out, nil), nil
		}},
	}
}

// visionTools give input at viewport points.
func visionTools() []toolAdder {
	xy := map[string]rule{"x": between(0, 100000), "y": between(0, 100000)}
	wheel := map[string]rule{"x": between(0, 100000), "y": between(0, 100000), "deltaX": between(-1e6, 1e6), "deltaY": between(-1e6, 1e6)}
	return []toolAdder{
		toolDef[xyArgs]{spec: toolSpec{name: "browser_mouse_click_xy", title: "Click at a point", effect: changes, rules: xy,
			desc: "Click at a viewport point (CSS px), for targets with no ref: a canvas, a chart (the annotated screenshot shows where). Nothing checks what the point reaches; browser_locate says. Returns what changed."}, handle: func(s *Server, ts *tabState, in xyArgs) (*mcp.CallToolResult, error) {
			count := 1
			if in.DoubleClick {
				count = 2
			}
			return s.after(ts, ts.sess.ClickAt(in.X, in.Y, count))
		}},
		toolDef[wheelArgs]{spec: toolSpec{name: "browser_mouse_wheel", title: "Turn the mouse wheel at a point", effect: acts, rules: wheel,
			desc: "Turn the mouse wheel at a viewport point by deltaX, deltaY CSS px (a map's zoom, a canvas's scroll). Returns what changed."}, handle: func(s *Server, ts *tabState, in wheelArgs) (*mcp.CallToolResult, error) {
			return s.after(ts, ts.sess.WheelAt(in.X, in.Y, in.DeltaX, in.DeltaY))
		}},
	}
}

// pdfTools print the page.
func pdfTools() []toolAdder {
	return []toolAdder{
		toolDef[pdfArgs]{spec: toolSpec{name: "browser_pdf_save", title: "Save as PDF", effect: reads,
			desc: "Print the current page to a PDF file under the server's output folder and return its path (headless browsers only)."}, handle: func(s *Server, ts *tabState, in pdfArgs) (*mcp.CallToolResult, error) {
			name := in.Filename
			if name == "" {
				name = "page.pdf"
			}
			path, err := s.outputPath(ts.owner, name)
			if err != nil {
				return nil, err
			}
			data, err := ts.tab.PDF()
			if err != nil {
				return nil, err
			}
			if err := os.WriteFile(path, data, 0o600); err != nil {
				return nil, err
			}
			return textResult(fmt.Sprintf("PDF (%d bytes) written to %s", len(data), path), nil), nil
		}},
	}
}
