package mcpserver_test

import (
	"strings"
	"testing"

	"github.com/axfuse/axfuse/mcpserver"
)

// TestCapabilitiesNameTheirTools: each capability adds tools, and what it
// says it enables (the words of axfuse mcp --help) names every one of them.
func TestCapabilitiesNameTheirTools(t *testing.T) {
	base := map[string]bool{}
	for _, tl := range listTools(t, nil) {
		base[tl.Name] = true
	}
	for _, c := range mcpserver.Capabilities() {
		n := 0
		for _, tl := range listTools(t, []string{c.Name}) {
			if base[tl.Name] {
				continue
			}
			n++
			if !strings.Contains(c.Enables, tl.Name) {
				t.Errorf("capability %s adds %s, which %q does not name", c.Name, tl.Name, c.Enables)
			}
		}
		if n == 0 {
			t.Errorf("capability %s adds no tool", c.Name)
		}
	}
}
