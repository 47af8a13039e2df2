package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/axfuse/axfuse/internal/textcut"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A toolSpec is one tool as the agent sees it: its name, title and
// description, what it does to the page (its annotations), and the limits
// of its arguments that Go types cannot state.
type toolSpec struct {
	name, title, desc string
	effect            effect
	rules             map[string]rule
}

// effect is what a tool does to its world, for the MCP annotations.
type effect int

const (
	reads   effect = iota // only looks: snapshot, find, screenshot
	acts                  // input that changes the page, not beyond it: hover, scroll
	changes               // may change the world: click, type, navigate, submit
)

// rule limits one argument: one of enum, a number in [min, max], a
// string matching pattern. desc, when given, is its description: one
// built from a shared text, which a struct tag cannot be.
type rule struct {
	enum     []string
	min, max *float64
	pattern  string
	desc     string
}

func between(lo, hi float64) rule { return rule{min: &lo, max: &hi} }

func (sp toolSpec) annotations() *mcp.ToolAnnotations {
	yes, no := true, false
	a := &mcp.ToolAnnotations{Title: sp.title, OpenWorldHint: &yes}
	switch sp.effect {
	case reads:
		a.ReadOnlyHint, a.IdempotentHint = true, true
	case acts:
		a.DestructiveHint = &no
	case changes:
		a.DestructiveHint = &yes
	}
	return a
}

// inputSchema is In's schema with the spec's rules: enums, ranges,
// patterns, and arrays that are arrays (Go's nil slice infers "null or
// array").
func inputSchema[In any](sp toolSpec) (*jsonschema.Schema, error) {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		return nil, err
	}
	fixNullable(s)
	for name, r := range sp.rules {
		p := s.Properties[name]
		if p == nil {
			return nil, fmt.Errorf("%s: a rule for %q, which is no argument", sp.name, name)
		}
		for _, e := range r.enum {
			p.Enum = append(p.Enum, e)
		}
		p.Minimum, p.Maximum, p.Pattern = r.min, r.max, r.pattern
		if r.desc != "" {
			p.Description = r.desc
		}
	}
	return s, nil
}

func fixNullable(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && (s.Types[0] == "null" || s.Types[1] == "null") {
		s.Type = s.Types[0]
		if s.Type == "null" {
			s.Type = s.Types[1]
		}
		s.Types = nil
	}
	fixNullable(s.Items)
	for _, p := range s.Properties {
		fixNullable(p)
	}
}

// decodeArgs checks the arguments against the schema and decodes them,
// with messages in the tool's own words: which argument, what it must be.
func decodeArgs[In any](raw json.RawMessage, s *jsonschema.Schema) (In, error) {
	var in In
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return in, fmt.Errorf("the arguments are not JSON: %v", err)
	}
	if err := checkValue("arguments", v, s); err != nil {
		return in, err
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, fmt.Errorf("the arguments do not decode: %v", err)
	}
	return in, nil
}

// checkValue checks v against s; path names it in messages.
func checkValue(path string, v any, s *jsonschema.Schema) error {
	if s == nil {
		return nil
	}
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s must be an object, not %s", path, kind(v))
		}
		return checkObject(path, m, s)
	case "array":
		return checkArray(path, v, s)
	case "string":
		return checkString(path, v, s)
	case "integer", "number":
		return checkNumber(path, v, s)
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s must be true or false, not %s", path, kind(v))
		}
	}
	return nil
}

func checkArray(path string, v any, s *jsonschema.Schema) error {
	a, ok := v.([]any)
	if !ok {
		return fmt.Errorf("%s must be an array, not %s", path, kind(v))
	}
	for i, e := range a {
		if err := checkValue(fmt.Sprintf("%s[%d]", path, i), e, s.Items); err != nil {
			return err
		}
	}
	return nil
}

func checkString(path string, v any, s *jsonschema.Schema) error {
	str, ok := v.(string)
	if !ok {
		return fmt.Errorf("%s must be a string, not %s", path, kind(v))
	}
	if len(s.Enum) > 0 && !inEnum(str, s.Enum) {
		return fmt.Errorf("%s %q is not one of: %s", path, textcut.Bytes(str, 60), enumList(s.Enum))
	}
	if s.Pattern != "" {
		if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(str) {
			return fmt.Errorf("%s %q: %s", path, textcut.Bytes(str, 60), s.Description)
		}
	}
	return nil
}

func checkNumber(path string, v any, s *jsonschema.Schema) error {
	f, ok := v.(float64)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("%s must be a number, not %s", path, kind(v))
	}
	if s.Type == "integer" && f != math.Trunc(f) {
		return fmt.Errorf("%s must be a whole number, not %v", path, f)
	}
	if s.Minimum != nil && f < *s.Minimum || s.Maximum != nil && f > *s.Maximum {
		return fmt.Errorf("%s %v is out of range: %s", path, f, rangeOf(s))
	}
	return nil
}

func checkObject(path string, m map[string]any, s *jsonschema.Schema) error {
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p, ok := s.Properties[k]
		if !ok {
			if len(names) == 0 {
				return fmt.Errorf("unknown argument %q: the tool takes none", textcut.Bytes(k, 60))
			}
			return fmt.Errorf("unknown argument %q: the tool takes %s", textcut.Bytes(k, 60), strings.Join(names, ", "))
		}
		where := k
		if path != "arguments" {
			where = path + "." + k
		}
		if err := checkValue(where, m[k], p); err != nil {
			return err
		}
	}
	for _, r := range s.Required {
		if _, ok := m[r]; !ok {
			where := r
			if path != "arguments" {
				where = path + "." + r
			}
			return fmt.Errorf("%s is required", where)
		}
	}
	return nil
}

func kind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", textcut.Bytes(x, 40))
	case float64:
		return fmt.Sprintf("the number %v", x)
	case bool:
		return fmt.Sprint(x)
	case []any:
		return "an array"
	}
	return "an object"
}

func inEnum(s string, enum []any) bool {
	for _, e := range enum {
		if e == s {
			return true
		}
	}
	return false
}

func enumList(enum []any) string {
	var out []string
	for _, e := range enum {
		out = append(out, fmt.Sprint(e))
	}
	return strings.Join(out, ", ")
}

func rangeOf(s *jsonschema.Schema) string {
	switch {
	case s.Minimum != nil && s.Maximum != nil:
		return fmt.Sprintf("from %v to %v", *s.Minimum, *s.Maximum)
	case s.Minimum != nil:
		return fmt.Sprintf("at least %v", *s.Minimum)
	}
	return fmt.Sprintf("at most %v", *s.Maximum)
}
