package act

import (
	"embed"
	"strings"
)

// The page functions act calls on elements (Runtime.callFunctionOn), one
// a file. A file holds its function as one parenthesised expression,
// "(function (x) {…})" and a newline, which node and ESLint read as it
// stands; the text sent is the function alone, byte for byte what the
// recorded sessions (testdata/sessions) hold.

//go:embed field.js caret.js select.js findoption.js chooseoption.js follow.js
var pageScripts embed.FS

// pageFunction is the function the file holds, without the parentheses
// around it and the newline after them.
func pageFunction(file string) string {
	b, err := pageScripts.ReadFile(file)
	if err != nil {
		panic(err) // embedded above: cannot fail
	}
	fn, open := strings.CutPrefix(string(b), "(")
	fn, closed := strings.CutSuffix(fn, ")\n")
	if !open || !closed {
		panic(file + " is not one parenthesised function and a newline")
	}
	return fn
}
