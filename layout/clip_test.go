package layout

import (
	"testing"

	"github.com/axfuse/axfuse/domsnap"
)

// TestClipsAway: the clips that leave nothing are matched with spaces
// removed, so each spelling Chrome computes for them is listed without.
func TestClipsAway(t *testing.T) {
	for _, tc := range []struct {
		clip, clipPath string
		want           bool
	}{
		{"rect(0px, 0px, 0px, 0px)", "", true},
		{"rect(0px 0px 0px 0px)", "", true},
		{"rect(0px, 10px, 10px, 0px)", "", false},
		{"auto", "", false},
		{"", "inset(50%)", true},
		{"", "inset(100%)", true},
		{"", "circle(0px)", true},
		{"", "circle(0px at center)", true},
		{"", "circle(0px at 50% 50%)", true},
		{"", "circle(10px at 50% 50%)", false},
		{"", "none", false},
		{"", "", false},
	} {
		st := &domsnap.Style{Clip: tc.clip, ClipPath: tc.clipPath}
		if got := clipsAway(st); got != tc.want {
			t.Errorf("clipsAway(clip %q, clip-path %q) = %v; want %v", tc.clip, tc.clipPath, got, tc.want)
		}
	}
}
