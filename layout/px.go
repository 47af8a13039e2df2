package layout

import (
	"strconv"
	"strings"
)

// Px reads a CSS length in px as Chrome computes it ("5px", "-2.5px",
// or a bare number such as "0"): ok false when it is not one. It is the
// one px parser of the pure stages. It reads the value as given: a caller
// whose value may hold spaces trims them, and each caller judges the sign
// and range itself (a padding is never negative; a shadow's offset or an
// outline's offset may be).
func Px(s string) (float64, bool) {
	f, err := strconv.ParseFloat(strings.TrimSuffix(s, "px"), 64)
	return f, err == nil
}

// nonNegative is a length Px read, 0 when it was not one, is not finite,
// or is negative (a padding).
func nonNegative(f float64, ok bool) float64 {
	if !ok || !finite(f) || f < 0 {
		return 0
	}
	return f
}
