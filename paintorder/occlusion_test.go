package paintorder

import (
	"reflect"
	"testing"

	"github.com/axfuse/axfuse/layout"
)

// TestOtherPoints: further points lie in the piece holding the point, a
// quarter across and down from it, inside the uncovered pieces only.
func TestOtherPoints(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pieces []layout.Box
		p      [2]float64
		want   [][2]float64
	}{
		{"a link's box", []layout.Box{{X: 0, Y: 0, W: 29, H: 35}}, [2]float64{15, 18}, [][2]float64{{7, 18}, {22, 18}, {15, 9}, {15, 26}}},
		{"the point in the second piece", []layout.Box{{X: 0, Y: 0, W: 10, H: 10}, {X: 100, Y: 0, W: 40, H: 8}}, [2]float64{120, 4}, [][2]float64{{110, 4}, {130, 4}, {120, 2}, {120, 6}}},
		{"a point in no piece", []layout.Box{{X: 0, Y: 0, W: 10, H: 10}}, [2]float64{50, 50}, nil},
		{"too small to move", []layout.Box{{X: 0, Y: 0, W: 2, H: 2}}, [2]float64{1, 1}, nil},
	} {
		if got := otherPoints(tc.pieces, tc.p); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
