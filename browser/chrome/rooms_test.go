package chrome

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// maxTabMethods bounds the driver's Tab: its lifecycle, navigation,
// input, guard and settle, with captures behind the capture engine and
// frame sessions, dialogs, drags and logs in types of their own. A Tab
// that grows past it is doing another room's job again.
const maxTabMethods = 70

// TestTabStaysSmall counts Tab's methods in the package's non-test files.
func TestTabStaysSmall(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && receiverIs(fn.Recv.List[0].Type, "Tab") {
				names = append(names, fn.Name.Name)
			}
		}
	}
	if len(names) < 20 {
		t.Fatalf("only %d Tab methods found: is this the driver's folder?", len(names))
	}
	if len(names) > maxTabMethods {
		t.Errorf("Tab has %d methods, more than %d: %s", len(names), maxTabMethods, strings.Join(names, " "))
	}
}

func receiverIs(e ast.Expr, name string) bool {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}
