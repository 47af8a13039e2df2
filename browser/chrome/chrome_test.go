package chrome

import (
	"testing"
)

func TestCheckEndpoint(t *testing.T) {
	for ep, ok := range map[string]bool{
		"http://127.0.0.1:9222": true, "ws://127.0.0.1:9222/devtools/browser/x": true,
		"127.0.0.1:9222": false, "ftp://x": false, "": false, "http://": false,
	} {
		if err := checkEndpoint(ep); (err == nil) != ok {
			t.Errorf("%q: error %v", ep, err)
		}
	}
}
