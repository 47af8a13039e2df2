package mcpserver

// The tools that fill a form: type, fill, select an option, upload files.

import (
	"errors"
	"fmt"

	"github.com/axfuse/axfuse/act"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type (
	typeArgs struct {
		answerArgs
		Element string `json:"element,omitempty" jsonschema:"what the element is, in words"`
		Ref     string `json:"ref" jsonschema:"the field's ref"`
		Text    string `json:"text" jsonschema:"the text to type"`
		Submit  bool   `json:"submit,omitempty" jsonschema:"press Enter after"`
		Clear   bool   `json:"clear,omitempty" jsonschema:"replace what the field holds"`
	}
	fillArgs struct {
		answerArgs
		Fields []struct {
			Ref   string `json:"ref" jsonschema:"the field's ref"`
			Value string `json:"value" jsonschema:"the text it should hold"`
		} `json:"fields" jsonschema:"the fields to fill, in order"`
	}
	selectArgs struct {
		answerArgs
		Element string   `json:"element,omitempty"`
		Ref     string   `json:"ref" jsonschema:"the <select>'s ref"`
		Values  []string `json:"values" jsonschema:"the option to pick, by label or value (one)"`
	}
	uploadArgs struct {
		answerArgs
		Paths []string `json:"paths" jsonschema:"absolute paths of the files to upload (on the server's machine)"`
		Ref   string   `json:"ref,omitempty" jsonschema:"a file input's ref, or a ref whose click opens a file chooser; without it, the file chooser an earlier action opened"`
	}
)

// formTools put text, options and files into fields (see inputTools).
func formTools() []toolAdder {
	typ, fill, pick, upload := verb("type"), verb("fill"), verb("select"), verb("upload")
	return []toolAdder{
		toolDef[uploadArgs]{spec: toolSpec{name: "browser_file_upload", title: "Upload files", effect: changes, rules: map[string]rule{"ref": refRule},
			desc: "Give files to a file input by ref, to the file chooser a ref's click opens, or (no ref) to the file chooser an earlier action opened. " +
				"The files must lie in the server's upload folder."}, handle: func(s *Server, ts *tabState, in uploadArgs) (*mcp.CallToolResult, error) {
			return s.after(ts, upload.Run(ts.sess, act.Input{Ref: in.Ref, Files: in.Paths}))
		}},
		toolDef[typeArgs]{spec: toolSpec{name: "browser_type", title: "Type text", effect: changes, rules: map[string]rule{"ref": refRule},
			desc: "Click an editable field by ref (off its spin buttons or pickers; without a pointer where they leave no room), check it has the focus, and type text at its end (clear replaces what it holds). The field must then hold what was meant, else the answer is an error naming what it holds; submit presses Enter only after that check. Returns what changed."}, handle: func(s *Server, ts *tabState, in typeArgs) (*mcp.CallToolResult, error) {
			return s.after(ts, typ.Run(ts.sess, act.Input{Ref: in.Ref, Text: in.Text, Clear: in.Clear, Submit: in.Submit}))
		}},
		toolDef[fillArgs]{spec: toolSpec{name: "browser_fill_form", title: "Fill a form", effect: changes,
			desc: "Fill several fields by ref, in order, replacing their text; each must then hold exactly its text. Stops at the first field that cannot be filled, or holds something else, and says which."}, handle: func(s *Server, ts *tabState, in fillArgs) (*mcp.CallToolResult, error) {
			if len(in.Fields) == 0 {
				return nil, errors.New("browser_fill_form: fields is empty; give {ref, value} pairs")
			}
			var fields [][2]string
			for _, f := range in.Fields {
				fields = append(fields, [2]string{f.Ref, f.Value})
			}
			return s.after(ts, fill.Run(ts.sess, act.Input{Fields: fields}))
		}},
		toolDef[selectArgs]{spec: toolSpec{name: "browser_select_option", title: "Select an option", effect: changes, rules: map[string]rule{"ref": refRule},
			desc: "Pick an option of a <select>, listbox or combobox by ref, by its label or value."}, handle: func(s *Server, ts *tabState, in selectArgs) (*mcp.CallToolResult, error) {
			if len(in.Values) != 1 {
				return nil, fmt.Errorf("browser_select_option: values holds %d options; give exactly one", len(in.Values))
			}
			return s.after(ts, pick.Run(ts.sess, act.Input{Ref: in.Ref, Option: in.Values[0]}))
		}},
	}
}
