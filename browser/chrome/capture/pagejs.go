package capture

import (
	"embed"
	"encoding/json"
	"strings"
)

// The page scripts. Each .js file here is a plain script of top-level
// function declarations (node --test loads them as they are, see
// *.test.cjs); the Go side joins the ones a call needs into one function,
// whose body declares them all and calls the entry function.

//go:embed images.js tails.js quiet.js paintrules.js pixels.js pixelhide.js pagesize.js viewport.js dom.js roles.js geometry.js walk.js finish.js describe.js memo.js
var pageScripts embed.FS

// script is the page script of that name.
func script(name string) string {
	b, err := pageScripts.ReadFile(name)
	if err != nil {
		panic(err) // embedded above: cannot fail
	}
	return string(b)
}

var pixelsJS, pixelHideJS = script("pixels.js"), script("pixelhide.js")

// viewportJS is the viewport pass (viewpass.go): an arrow function of its
// named arguments, viewportCall's.
var viewportJS = pageArrow("viewportCall", script("viewport.js"), script("dom.js"), script("roles.js"),
	script("geometry.js"), script("walk.js"), script("finish.js"), script("describe.js"), script("memo.js"),
	script("pagesize.js"))

// imagesJS reads named images' own pixels (images.go); tailsJS the shown
// part of texts a box cuts (tails.go).
var imagesJS, tailsJS = pageFunction("imagesShown", script("images.js")), pageFunction("textTails", script("tails.js"))

// quietJS is the quiet check's watch (quiet.go), installed in the world.
var quietJS = pageFunction("quietWatch", script("quiet.js"))

// paintRulesJS reads the ::first-line and :visited rules (paintrules.go).
var paintRulesJS = script("paintrules.js")

// pageSizeJS is auto mode's page size (auto.go).
var pageSizeJS = script("pagesize.js")

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
	return wrapScripts("function (...args) {\n", scripts, "return "+entry+".apply(this, args);\n}")
}

// pageArrow is an arrow function of one argument that declares the
// scripts' functions and gives what entry gives for that argument.
func pageArrow(entry string, scripts ...string) string {
	return wrapScripts("(args) => {\n", scripts, "return "+entry+"(args);\n}")
}

// wrapScripts is head, each script on lines of its own, then tail.
func wrapScripts(head string, scripts []string, tail string) string {
	var b strings.Builder
	b.WriteString(head)
	for _, s := range scripts {
		b.WriteString(s)
		b.WriteString("\n")
	}
	b.WriteString(tail)
	return b.String()
}

// pageCall is an expression that declares the scripts' functions and
// gives what entry gives for args, sent as their JSON.
func pageCall(entry string, args any, scripts ...string) (string, error) {
	a, err := json.Marshal(args)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("(() => {\n")
	for _, s := range scripts {
		b.WriteString(s)
		b.WriteString("\n")
	}
	b.WriteString("return " + entry + "(" + string(a) + ");\n})()")
	return b.String(), nil
}
