package fuse

import (
	"fmt"
	"strings"
)

// scoped picks the subtree Options.Scope names, from the full tree:
// "ROLE", "ROLE:NAME" (name substring, case-insensitive) or a ref of this
// snapshot.
func (v *view) scoped(full []*Node) []*Node {
	s := v.opts.Scope
	var match func(*Node) bool
	if refPattern.MatchString(s) {
		key, ok := v.opts.Refs.KeyOf(s)
		match = func(n *Node) bool { return ok && n.target != nil && n.target.key == key }
	} else {
		role, name, _ := strings.Cut(s, ":")
		name = strings.ToLower(name)
		match = func(n *Node) bool {
			return strings.EqualFold(n.Role, role) && strings.Contains(strings.ToLower(n.Name), name)
		}
	}
	if n := findNode(full, match); n != nil {
		return []*Node{n}
	}
	return []*Node{{Role: "note", Text: fmt.Sprintf("nothing matches the scope %s", s)}}
}
