package index

import "regexp"

// RefGrammar is what a ref may look like, unanchored: "e" and a number, as
// Table hands them out, optionally after a frame's "f" and a number. No
// table hands out a frame-prefixed ref; the MCP schema publishes the
// grammar with it, so such a ref passes every shape check and is answered
// as unknown by the lookup. It is the one source of the grammar: the MCP
// tools' schemas, act's command line and fuse's ref scope read it.
const RefGrammar = `(f[0-9]+)?e[0-9]+`

// RefPattern is RefGrammar anchored: a whole string that is a ref.
const RefPattern = `^` + RefGrammar + `$`

var refShape = regexp.MustCompile(RefPattern)

// ValidRef reports whether s has a ref's shape (RefPattern); whether a
// table knows it is KeyOf's to say.
func ValidRef(s string) bool { return refShape.MatchString(s) }
