package paintorder

import (
	"testing"

	"github.com/axfuse/axfuse/domsnap"
)

// TestUnmodelledClip: a clip-path is modelled when there is none or when
// it clips everything (layout.ClipPathClipsAll, spaces aside); any other
// leaves sight unsure.
func TestUnmodelledClip(t *testing.T) {
	for cp, want := range map[string]bool{
		"": false, "none": false, "inset(50%)": false, "inset(100%)": false, "circle(0px)": false,
		"circle(0px at center)": false, "circle(0px at 50% 50%)": false,
		"inset(10%)": true, "circle(5px at 50% 50%)": true, "polygon(0px 0px, 10px 0px, 0px 10px)": true, "url(\"#c\")": true,
	} {
		if got := unmodelledClip(&domsnap.Style{ClipPath: cp}); got != want {
			t.Errorf("unmodelledClip(%q) = %v; want %v", cp, got, want)
		}
	}
}
