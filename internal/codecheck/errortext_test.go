package codecheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"testing"
)

// mappingFiles may read an error's text: each maps the browser's messages
// to typed errors once, so that no other code has to (issue 51).
var mappingFiles = []string{
	"browser/chrome/internal/cdpcall/errors.go",
}

// TestNoDecisionOnErrorText: no non-test Go code outside mappingFiles
// decides on an error's text. It fails where the result of x.Error() —
// directly, through a local variable, or through the strings functions
// that keep text (ToLower, TrimSpace, …) — is compared (==, !=, a switch
// tag), searched (strings.Contains, HasPrefix, Index, Cut, Fields, …) or
// matched by a regexp. Formatting an error (into a message, a log, a
// result) is fine. Without type checking, any x.Error() with no
// arguments counts as an error's Error method.
func TestNoDecisionOnErrorText(t *testing.T) {
	var findings []string
	for _, f := range goSources(t) {
		if slices.Contains(mappingFiles, f) {
			continue
		}
		file := parse(t, f)
		for _, d := range decisions(file, errorText) {
			findings = append(findings, fmt.Sprintf("%s: %s decides on %s", f, enclosing(file, d.Pos()), d.what))
		}
	}
	judge(t, findings)
}

// TestNoStageReadsAnotherStagesProse: no non-test Go code searches,
// matches or compares to a text the prose of another stage — a capture
// step's name (domsnap.Timing's Step) or a frame's error (domsnap.Frame's
// Error): what a stage must know travels in typed fields. Without type
// checking, the fields are known by name: any selector .Step or .Error
// that is not a call.
func TestNoStageReadsAnotherStagesProse(t *testing.T) {
	var findings []string
	for _, f := range goSources(t) {
		file := parse(t, f)
		for _, d := range decisions(file, proseField) {
			findings = append(findings, fmt.Sprintf("%s: %s decides on %s", f, enclosing(file, d.Pos()), d.what))
		}
	}
	judge(t, findings)
}

func parse(t *testing.T, f string) *ast.File {
	t.Helper()
	// Object resolution on: local variables are followed through it.
	file, err := parser.ParseFile(token.NewFileSet(), f, read(t, f), 0)
	if err != nil {
		t.Fatal(err)
	}
	return file
}

// errorText reports whether e is an error's text: x.Error().
func errorText(e ast.Expr) (string, bool) {
	c, ok := e.(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return "", false
	}
	if s, ok := c.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Error" {
		return exprString(s.X) + ".Error()", true
	}
	return "", false
}

// proseField reports whether e reads a field that holds another stage's
// prose: .Step (domsnap.Timing) or .Error (domsnap.Frame), not called.
func proseField(e ast.Expr) (string, bool) {
	s, ok := e.(*ast.SelectorExpr)
	if !ok || (s.Sel.Name != "Step" && s.Sel.Name != "Error") {
		return "", false
	}
	return exprString(s.X) + "." + s.Sel.Name, true
}

// A decision is a place where code decides on a text.
type decision struct {
	ast.Node
	what string
}

// searches are the functions of package strings that search or split a
// text (their first argument, or either for EqualFold).
var searches = map[string]bool{
	"Contains": true, "ContainsAny": true, "ContainsRune": true, "ContainsFunc": true,
	"HasPrefix": true, "HasSuffix": true, "EqualFold": true, "Compare": true, "Count": true,
	"Index": true, "IndexAny": true, "IndexByte": true, "IndexFunc": true, "IndexRune": true,
	"LastIndex": true, "LastIndexAny": true, "LastIndexByte": true, "LastIndexFunc": true,
	"Cut": true, "CutPrefix": true, "CutSuffix": true, "Fields": true, "FieldsFunc": true,
	"Split": true, "SplitN": true, "SplitAfter": true, "SplitAfterN": true,
}

// keeps are the functions of package strings whose result is their first
// argument's text, changed: what they return is still that text.
var keeps = map[string]bool{
	"ToLower": true, "ToUpper": true, "ToTitle": true, "TrimSpace": true, "Trim": true,
	"TrimLeft": true, "TrimRight": true, "TrimPrefix": true, "TrimSuffix": true, "TrimFunc": true,
	"Clone": true,
}

// matches are the methods of *regexp.Regexp that match a string, and
// regexp.MatchString.
var matches = map[string]bool{
	"MatchString": true, "FindString": true, "FindStringIndex": true, "FindStringSubmatch": true,
	"FindStringSubmatchIndex": true, "FindAllString": true, "FindAllStringIndex": true,
	"FindAllStringSubmatch": true, "FindAllStringSubmatchIndex": true,
}

// decisions finds in file where a text that source recognises is decided
// on: compared with == or != (a field: with a string literal other than
// ""),
// switched on, passed to a search of package strings or to a regexp's
// match. A local variable assigned such a text (in the same function,
// with := = or var) carries it on.
func decisions(file *ast.File, source func(ast.Expr) (string, bool)) []decision {
	carried := map[*ast.Object]string{}
	var text func(e ast.Expr) (string, bool)
	text = func(e ast.Expr) (string, bool) {
		switch x := e.(type) {
		case *ast.ParenExpr:
			return text(x.X)
		case *ast.SliceExpr:
			return text(x.X)
		case *ast.Ident:
			if x.Obj != nil {
				w, ok := carried[x.Obj]
				return w, ok
			}
			return "", false
		case *ast.CallExpr:
			if pkg, fn := pkgCall(x); pkg == "strings" && keeps[fn] && len(x.Args) > 0 {
				return text(x.Args[0])
			}
		}
		return source(e)
	}
	// Carry texts through assignments until nothing new is carried (a
	// variable assigned from one that carries one).
	for changed := true; changed; {
		changed = false
		carry := func(lhs ast.Expr, rhs ast.Expr) {
			id, ok := lhs.(*ast.Ident)
			if !ok || id.Obj == nil || id.Name == "_" {
				return
			}
			if _, done := carried[id.Obj]; done {
				return
			}
			if w, ok := text(rhs); ok {
				carried[id.Obj] = w
				changed = true
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.AssignStmt:
				if len(s.Lhs) == len(s.Rhs) {
					for i := range s.Lhs {
						carry(s.Lhs[i], s.Rhs[i])
					}
				}
			case *ast.ValueSpec:
				if len(s.Names) == len(s.Values) {
					for i := range s.Names {
						carry(s.Names[i], s.Values[i])
					}
				}
			}
			return true
		})
	}

	var out []decision
	ast.Inspect(file, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BinaryExpr:
			if x.Op != token.EQL && x.Op != token.NEQ {
				break
			}
			for _, side := range [2][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
				w, ok := text(side[0])
				if !ok || (isField(side[0]) && !textLiteral(side[1])) {
					continue // a field against nil, "" or a variable: not prose read
				}
				out = append(out, decision{x, w + " compared with " + x.Op.String()})
				break
			}
		case *ast.SwitchStmt:
			if x.Tag != nil {
				if w, ok := text(x.Tag); ok {
					out = append(out, decision{x, w + " switched on"})
				}
			}
		case *ast.CallExpr:
			pkg, fn := pkgCall(x)
			var args []ast.Expr
			switch {
			case pkg == "strings" && searches[fn]:
				args = x.Args
			case pkg == "regexp" && fn == "MatchString" && len(x.Args) == 2:
				args = x.Args[1:]
			case pkg == "" && matches[fn] && len(x.Args) > 0:
				args = x.Args[:1]
			}
			for _, a := range args {
				if w, ok := text(a); ok {
					out = append(out, decision{x, w + " in " + exprString(x.Fun)})
					break
				}
			}
		}
		return true
	})
	return out
}

// pkgCall names a call's package and function when its function is
// pkg.Name with pkg an identifier not resolved in the file (an import);
// for a method call x.Name it returns "" and Name.
func pkgCall(c *ast.CallExpr) (pkg, fn string) {
	s, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	if id, ok := s.X.(*ast.Ident); ok && id.Obj == nil && (id.Name == "strings" || id.Name == "regexp") {
		return id.Name, s.Sel.Name
	}
	return "", s.Sel.Name
}

// textLiteral reports whether e is a string literal other than "".
func textLiteral(e ast.Expr) bool {
	b, ok := e.(*ast.BasicLit)
	return ok && b.Kind == token.STRING && b.Value != `""` && b.Value != "``"
}

func isField(e ast.Expr) bool {
	_, ok := e.(*ast.SelectorExpr)
	return ok
}

// exprString writes e short: names and selectors, "…" for the rest.
func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	case *ast.CallExpr:
		return exprString(x.Fun) + "(…)"
	case *ast.IndexExpr:
		return exprString(x.X) + "[…]"
	case *ast.ParenExpr:
		return exprString(x.X)
	case *ast.StarExpr:
		return "*" + exprString(x.X)
	}
	return "…"
}
