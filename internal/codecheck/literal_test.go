package codecheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

const maxLiteralLines = 10

// TestNoLongStringLiterals: no non-test Go file holds a string literal of
// more than 10 lines, raw or interpreted, or a sum of literals ("…" +
// "…") that long. JavaScript sent to the browser, and templates, live in
// files of their own (go:embed), where they are linted, tested and read
// as what they are.
func TestNoLongStringLiterals(t *testing.T) {
	var findings []string
	for _, f := range goSources(t) {
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f, read(t, f), parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			e, ok := n.(ast.Expr)
			if !ok || !stringConstant(e) {
				return true
			}
			from, to := fset.Position(e.Pos()), fset.Position(e.End())
			if span := to.Line - from.Line + 1; span > maxLiteralLines {
				t.Logf("%s:%d: a string literal of %d lines", f, from.Line, span)
				findings = append(findings, fmt.Sprintf("%s: %s holds a string literal over %d lines", f, enclosing(file, e.Pos()), maxLiteralLines))
			}
			return false // a sum's parts are within it
		})
	}
	judge(t, findings)
}

// stringConstant reports whether e is a string literal, or literals joined
// with +.
func stringConstant(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.STRING
	case *ast.ParenExpr:
		return stringConstant(e.X)
	case *ast.BinaryExpr:
		return e.Op == token.ADD && stringConstant(e.X) && stringConstant(e.Y)
	}
	return false
}

// enclosing names the top-level declaration that holds pos: a function
// ("func F", "func (T).M") or the first name a var or const declares.
func enclosing(file *ast.File, pos token.Pos) string {
	for _, d := range file.Decls {
		if pos < d.Pos() || pos >= d.End() {
			continue
		}
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) > 0 {
				return fmt.Sprintf("func (%s).%s", receiver(d.Recv.List[0].Type), d.Name.Name)
			}
			return "func " + d.Name.Name
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if v, ok := s.(*ast.ValueSpec); ok && pos >= s.Pos() && pos < s.End() && len(v.Names) > 0 {
					return d.Tok.String() + " " + v.Names[0].Name
				}
				if ts, ok := s.(*ast.TypeSpec); ok && pos >= s.Pos() && pos < s.End() {
					return "type " + ts.Name.Name
				}
			}
			return d.Tok.String()
		}
	}
	return "the file"
}

// receiver names a method's receiver type, star and type parameters
// left off.
func receiver(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiver(e.X)
	case *ast.IndexExpr:
		return receiver(e.X)
	case *ast.IndexListExpr:
		return receiver(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}
