package capture

import (
	_ "embed"
	"strings"
)

// The page scripts. Each .js file here is a plain script of top-level
// function declarations (node --test loads them as they are, see
// *.test.cjs); the Go side joins the ones a call needs into one function,
// whose body declares them all and calls the entry function.

//go:embed pixels.js
var pixelsJS string

//go:embed pixelhide.js
var pixelHideJS string

// The functions TextPixels calls on each frame's anchor element
// (pixelstyle.go).
var (
	registerJS = pageFunction("registerTexts", pixelsJS)
	hideJS     = pageFunction("hideTexts", pixelsJS, pixelHideJS)
	restoreJS  = pageFunction("restoreTexts", pixelsJS)
)

// pageFunction is a function declaration for Runtime.callFunctionOn: it
// declares the scripts' functions and calls entry with its own this and
// arguments.
func pageFunction(entry string, scripts ...string) string {
	var b strings.Builder
	b.WriteString("function (...args) {\n")
	for _, s := range scripts {
		b.WriteString(s)
		b.WriteString("\n")
	}
	b.WriteString("return " + entry + ".apply(this, args);\n}")
	return b.String()
}
