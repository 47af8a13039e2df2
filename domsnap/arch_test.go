package domsnap

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOnlyTheDriverReachesTheBrowser: chromedp and cdproto are reached only
// by the Chrome driver (browser/chrome) and by programs (package main,
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
		if name == "main" || path == "github.com/axfuse/axfuse/browser/chrome" {
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
	for _, pkg := range []string{"domsnap", "layout", "paintorder", "index", "fuse", "browser", "act", "mcpserver", "screenshot", "truth", "report"} {
		if !checked[pkg] {
			t.Errorf("%s was not checked", pkg)
		}
	}
}
