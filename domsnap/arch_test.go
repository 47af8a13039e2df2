package domsnap

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPureStagesNeverReachTheBrowser: the capture types, every pure stage
// and the screenshot package (which reaches the browser through its Camera
// interface) build without chromedp or cdproto, even indirectly.
func TestPureStagesNeverReachTheBrowser(t *testing.T) {
	for _, pkg := range []string{"domsnap", "layout", "paintorder", "index", "fuse", "screenshot"} {
		out, err := exec.Command("go", "list", "-deps", "github.com/axfuse/axfuse/"+pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.Contains(dep, "chromedp") {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
}
