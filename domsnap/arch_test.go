package domsnap

import (
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyTheDriverReachesTheBrowser: chromedp and cdproto are reached only
// by the Chrome driver (browser/chrome, its capture engine and its
// internal helpers) and by programs (package main,
// which wire the driver to the rest). Every other package — the capture
// types, the pure stages, the boundary's vocabulary (browser), act, the
// MCP server and screenshots — builds without them, even indirectly: they
// reach the browser through interfaces of their own.
func TestOnlyTheDriverReachesTheBrowser(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{.Name}}", "github.com/axfuse/axfuse/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	checked := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, name, _ := strings.Cut(line, " ")
		if name == "main" || strings.HasPrefix(path, "github.com/axfuse/axfuse/browser/chrome") {
			continue
		}
		checked[strings.TrimPrefix(path, "github.com/axfuse/axfuse/")] = true
		deps, err := exec.Command("go", "list", "-deps", path).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", path, err, deps)
		}
		for _, dep := range strings.Fields(string(deps)) {
			if strings.Contains(dep, "github.com/chromedp/") {
				t.Errorf("%s depends on %s", path, dep)
			}
		}
	}
	// The packages the boundary was drawn for must be among those checked.
	for _, pkg := range []string{"domsnap", "layout", "paintorder", "index", "fuse", "browser", "act", "mcpserver", "screenshot", "truth", "report", "oracle"} {
		if !checked[pkg] {
			t.Errorf("%s was not checked", pkg)
		}
	}
}

// TestOnlyTheLauncherNamesTheDriver: of the CLI's files, only launcher.go
// imports the Chrome driver; the commands and the MCP server's wiring
// reach the browser through interfaces (those of act, the MCP server and
// the CLI's own), so that another driver or a recorded session could
// stand in. Tests may use the driver directly.
func TestOnlyTheLauncherNamesTheDriver(t *testing.T) {
	const driver = "github.com/axfuse/axfuse/browser/chrome"
	files, err := filepath.Glob(filepath.Join("..", "cmd", "axfuse", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	checked, launcherImports := 0, false
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		checked++
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path != driver {
				continue
			}
			if filepath.Base(file) == "launcher.go" {
				launcherImports = true
			} else {
				t.Errorf("%s imports %s: only launcher.go may", file, driver)
			}
		}
	}
	// Else the test would pass with no file of the CLI found at all.
	if !launcherImports {
		t.Errorf("no launcher.go among the %d non-test files of ../cmd/axfuse imports %s", checked, driver)
	}
}

// TestInternalFloors: internal/ holds two floors. The leaf helpers
// (internal/keys, roles, enum, o200k) import no other package of the
// module but leaf helpers; the test kit (internal/testkit/...: recorded
// sessions, goldens, CI) is imported by tests alone, never by a package
// that ships.
func TestInternalFloors(t *testing.T) {
	leaves := 0
	for path, imports := range moduleImports(t) {
		leaf := strings.HasPrefix(path, "internal/") && !strings.HasPrefix(path, "internal/testkit/")
		if leaf {
			leaves++
		}
		for _, dep := range imports {
			switch {
			case leaf && (!strings.HasPrefix(dep, "internal/") || strings.HasPrefix(dep, "internal/testkit/")):
				t.Errorf("leaf helper %s imports %s", path, dep)
			case strings.HasPrefix(dep, "internal/testkit/") && !strings.HasPrefix(path, "internal/testkit/"):
				t.Errorf("%s, which ships, imports the test kit's %s", path, dep)
			}
		}
	}
	if leaves < 4 {
		t.Errorf("only %d leaf helpers found under internal/", leaves)
	}
}

// TestOraclesServeTestsAndCompareAlone: the oracles (package oracle: the
// browser's own answers the model is judged against) are imported by no
// package that ships but the CLI, whose compare command measures against
// them; the driver does not import them either.
func TestOraclesServeTestsAndCompareAlone(t *testing.T) {
	found := false
	for path, imports := range moduleImports(t) {
		for _, dep := range imports {
			if dep != "oracle" {
				continue
			}
			found = true
			if path != "cmd/axfuse" {
				t.Errorf("%s imports the oracles", path)
			}
		}
	}
	if !found {
		t.Error("nothing imports the oracles: compare should")
	}
}

// TestTheDriverHasRooms: the Chrome driver's capture engine
// (browser/chrome/capture) is a package apart, below the driver: it
// imports the driver's internal packages (the shared CDP calls, the test
// seams) but never the driver, which
// reaches it through capture.Page; nothing but the driver imports the
// engine, so captures reach the rest of the module only through the
// driver's Tab.
func TestTheDriverHasRooms(t *testing.T) {
	const driver, engine, helpers = "browser/chrome", "browser/chrome/capture", "browser/chrome/internal/cdpcall"
	imports := moduleImports(t)
	if _, ok := imports[engine]; !ok {
		t.Fatalf("no package %s", engine)
	}
	if !slices.Contains(imports[driver], engine) {
		t.Errorf("the driver does not use the capture engine")
	}
	if !slices.Contains(imports[engine], helpers) {
		t.Errorf("the capture engine does not call through %s", helpers)
	}
	for path, deps := range imports {
		for _, dep := range deps {
			switch {
			case path == engine && strings.HasPrefix(dep, driver) && !strings.HasPrefix(dep, driver+"/internal/"):
				t.Errorf("the capture engine imports %s", dep)
			case dep == engine && path != driver:
				t.Errorf("%s imports the capture engine: captures come through the driver", path)
			}
		}
	}
}

// moduleImports maps each package of the module to the packages of the
// module its non-test files import, both without the module's prefix.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	const mod = "github.com/axfuse/axfuse/"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", mod+"...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		path := strings.TrimPrefix(fields[0], mod)
		imports[path] = nil
		for _, imp := range fields[1:] {
			if dep, ours := strings.CutPrefix(imp, mod); ours {
				imports[path] = append(imports[path], dep)
			}
		}
	}
	return imports
}
