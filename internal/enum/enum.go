// Package enum spells typed word constants (modes, policies) as the
// strings a flag check or a JSON schema lists.
package enum

// Strings spells each word as a string, in order.
func Strings[T ~string](ws ...T) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = string(w)
	}
	return out
}
