package replay

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/fuse"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Script is how a scenario's steps reach the world around the code under
// test: Page runs a page step (nil when playing back: the recording holds
// its effect), Sent takes the input sent since the last step.
type Script struct {
	Page func(js string) error
	Sent func() []string
	// URL replaces {url} in step arguments: where the page was served.
	URL string
}

// RunAct takes an act scenario's steps on a session and says what each
// answered.
func RunAct(s *act.Session, steps []Step, sc Script) []Outcome {
	var elems []fuse.Element
	out := make([]Outcome, len(steps))
	for i, st := range steps {
		text, err := actStep(s, st, sc, &elems)
		out[i] = outcome(text, err, sc)
	}
	return out
}

func outcome(text string, err error, sc Script) Outcome {
	o := Outcome{Text: text}
	if err != nil {
		o.Err = err.Error()
	}
	if sc.Sent != nil {
		o.Sent = sc.Sent()
	}
	return o
}

func actStep(s *act.Session, st Step, sc Script, elems *[]fuse.Element) (string, error) {
	ref, err := refOf(st.Ref, *elems)
	if err != nil {
		return "", err
	}
	switch st.Do {
	case "page":
		if sc.Page == nil {
			return "", nil
		}
		return "", sc.Page(st.JS)
	case "snapshot":
		obs, err := s.Snapshot()
		if err != nil {
			return "", err
		}
		*elems = obs.Elements
		return obs.Snapshot, nil
	case "accept", "dismiss":
		return s.AnswerOpenDialog(st.Do == "accept", st.Text)
	}
	verb, ok := act.Lookup(st.Do)
	if !ok {
		return "", fmt.Errorf("replay: step %q is not a step", st.Do)
	}
	in, err := inputOf(verb, st, ref, *elems)
	if err != nil {
		return "", err
	}
	return done(s, verb.Run(s, in))
}

// inputOf reads a step that is one of act's verbs into the verb's Input:
// Ref (resolved by the caller) and a drag's To as refs or @NAME, Text as
// its other argument, one a line where it takes several (upload's files,
// fill's REF=TEXT fields); an optional one left empty is left out.
func inputOf(v act.Verb, st Step, ref string, elems []fuse.Element) (act.Input, error) {
	in := act.Input{Ref: ref}
	for _, a := range v.Args {
		switch {
		case a.Kind == act.RefArg:
		case a.Kind == act.ToArg:
			to, err := refOf(st.To, elems)
			if err != nil {
				return in, err
			}
			in.To = to
		case a.Optional && st.Text == "":
		default:
			words := []string{st.Text}
			if a.Variadic {
				words = strings.Split(st.Text, "\n")
			}
			for _, w := range words {
				if err := v.Set(&in, a, w); err != nil {
					return in, err
				}
			}
		}
	}
	return in, nil
}

// done is an action's answer: what it did beside its input, one note a
// line, and any dialog or file chooser it left open.
func done(s *act.Session, err error) (string, error) {
	d := s.LastDone()
	lines := append([]string(nil), d.Notes...)
	for _, o := range d.Opened {
		lines = append(lines, fmt.Sprintf("opened tab %s %s", fuse.Quote(o.Title), fuse.Quote(o.URL)))
	}
	if s.Tab.OpenDialog() != nil {
		lines = append(lines, "a dialog is open")
	}
	if fc := s.OpenedFileChooser(func(ref string) string { return "upload " + ref }); fc != "" {
		lines = append(lines, fc)
	}
	return strings.Join(lines, "\n"), err
}

// refOf reads a step's ref: a ref as is, or @NAME, the ref of the first
// element so named in the last snapshot.
func refOf(ref string, elems []fuse.Element) (string, error) {
	name, ok := strings.CutPrefix(ref, "@")
	if !ok {
		return ref, nil
	}
	for _, e := range elems {
		if e.Name == name {
			return e.Ref, nil
		}
	}
	return "", fmt.Errorf("replay: no element named %q in the last snapshot", name)
}

// RunMCP takes an MCP scenario's steps through a client session and says
// what each tool answered.
func RunMCP(ctx context.Context, cs *mcp.ClientSession, steps []Step, sc Script) []Outcome {
	out := make([]Outcome, len(steps))
	var seen []string
	for i, st := range steps {
		text, err := mcpStep(ctx, cs, st, sc, seen)
		seen = append(seen, text)
		out[i] = outcome(text, err, sc)
	}
	return out
}

func mcpStep(ctx context.Context, cs *mcp.ClientSession, st Step, sc Script, seen []string) (string, error) {
	switch st.Do {
	case "page":
		if sc.Page == nil {
			return "", nil
		}
		return "", sc.Page(st.JS)
	case "tool":
	default:
		return "", fmt.Errorf("replay: step %q is not an MCP step", st.Do)
	}
	args := map[string]any{}
	for k, v := range st.Args {
		w, err := argOf(v, sc.URL, seen)
		if err != nil {
			return "", err
		}
		args[k] = w
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: st.Tool, Arguments: args})
	if err != nil {
		return "", err
	}
	var parts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.ImageContent:
			parts = append(parts, fmt.Sprintf("[image %s]", c.MIMEType))
		}
	}
	text := strings.Join(parts, "\n")
	if res.IsError {
		return "", errors.New(text)
	}
	return text, nil
}

// argOf reads a tool argument: {url} is where the page was served, @NAME
// the ref the latest answer that shows an element so named gave it.
func argOf(v any, url string, seen []string) (any, error) {
	s, ok := v.(string)
	if !ok {
		return v, nil
	}
	if name, ok := strings.CutPrefix(s, "@"); ok {
		re := regexp.MustCompile(regexp.QuoteMeta(fuse.Quote(name)) + `[^\n]*?\[ref=(e\d+)\]`)
		for i := len(seen) - 1; i >= 0; i-- {
			if m := re.FindStringSubmatch(seen[i]); m != nil {
				return m[1], nil
			}
		}
		return nil, fmt.Errorf("replay: no answer so far shows an element named %q", name)
	}
	return strings.ReplaceAll(s, "{url}", url), nil
}
