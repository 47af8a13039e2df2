package main

// Attacker pages for outcomes: a drop zone that moves as the drag starts,
// a field that loses the focus or is rewritten as the text goes in, a
// select whose page undoes the choice, spin buttons and pickers under the
// point a click would take. Each action is judged by what the page
// logged and the state it ends in, through the CLI and the MCP server: a
// refusal leaves the page as it was, a success is the outcome the verb
// names, and an outcome the page made something else is said, never
// reported as a success.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
)

// outcomeCase is one page and one action on it.
type outcomeCase struct {
	name string
	page string // the body; log(s) appends to the log, state() is read after
	// verb and its targets by name (drag: from, to), and its text.
	verb, target, to, arg string
	submit                bool
	// refused: a substring of the refusal ("" for success).
	refused string
	// never: log lines that must not appear; want: log lines that must.
	never, want []string
	// state: what state() must return afterwards (JSON), "" for no check.
	state string
}

const outcomeLib = `<pre id=log></pre><script>
window.logged = [];
function log(s) { logged.push(s); }
</script>`

// dragPage is a mouse-drag page: an item, and zones listening for the
// release; moveAt (a script) runs on the item's mousedown.
func dragPage(moveAt string) string {
	return `<h1>Drag</h1>
<div id=item style="width:80px;height:30px;background:#ccd">Item</div>
<div id=zone role=region aria-label="Zone" style="position:absolute;left:20px;top:200px;width:150px;height:60px;background:#dfd">Zone</div>
<div id=trash role=region aria-label="Trash" style="position:absolute;left:300px;top:200px;width:150px;height:60px;background:#fdd">Trash</div>
<script>
let dragging = false;
item.addEventListener('mousedown', () => { dragging = true; ` + moveAt + ` });
for (const z of [zone, trash]) z.addEventListener('mouseup', () => { if (dragging) log('dropped on ' + z.id); dragging = false; });
function state() { return null; }
</script>`
}

// html5Page is an HTML5 drag and drop page; moveAt runs at dragstart.
func html5Page(moveAt string) string {
	return `<h1>Drag</h1>
<div id=item draggable=true style="width:80px;height:30px;background:#ccd">Item</div>
<div id=zone role=region aria-label="Zone" style="position:absolute;left:20px;top:200px;width:150px;height:60px;background:#dfd">Zone</div>
<div id=trash role=region aria-label="Trash" style="position:absolute;left:300px;top:200px;width:150px;height:60px;background:#fdd">Trash</div>
<script>
item.addEventListener('dragstart', (e) => { e.dataTransfer.setData('text/plain', 'item'); ` + moveAt + ` });
for (const z of [zone, trash]) {
  z.addEventListener('dragover', (e) => e.preventDefault());
  z.addEventListener('drop', (e) => { e.preventDefault(); log('dropped on ' + z.id); });
}
function state() { return null; }
</script>`
}

// fieldPage is a form with one field (attrs on it) and script.
func fieldPage(attrs, script string) string {
	return `<h1>Field</h1><form id=f onsubmit="event.preventDefault(); log('submitted ' + q.value)">
<input id=q aria-label="Query" ` + attrs + `> <input id=o aria-label="Other"></form>
<script>` + script + `
function state() { return { q: q.value, o: o.value }; }
</script>`
}

func outcomeCases() []outcomeCase {
	const swap = `zone.style.left = '300px'; trash.style.left = '20px';`
	return []outcomeCase{
		{name: "a mouse drop zone that moves away at the press", page: dragPage(swap), verb: "drag", target: "Item", to: "Zone",
			refused: "the drop would land on div#trash", never: []string{"dropped on trash", "dropped on zone"}},
		{name: "a mouse drop zone hidden at the press, another under it", page: dragPage(`zone.style.display = 'none'; trash.style.left = '20px';`), verb: "drag", target: "Item", to: "Zone",
			refused: "the drop would land on div#trash", never: []string{"dropped on trash"}},
		{name: "a mouse drop zone covered at the press by a clear layer", page: dragPage(`const c = document.createElement('div'); c.id = 'veil'; c.style.cssText = 'position:absolute;left:0;top:150px;width:600px;height:200px'; c.addEventListener('mouseup', () => log('veil got it')); document.body.append(c);`),
			verb: "drag", target: "Item", to: "Zone", refused: "the drop would land on div#veil", never: []string{"veil got it", "dropped on zone"}},
		{name: "a mouse drag to a zone that stays", page: dragPage(``), verb: "drag", target: "Item", to: "Zone", want: []string{"dropped on zone"}, never: []string{"dropped on trash"}},
		{name: "a mouse drag whose item holds the pointer and drops where the point is", page: `<h1>Drag</h1>
<div id=item style="width:80px;height:30px;background:#ccd;touch-action:none">Item</div>
<div id=zone role=region aria-label="Zone" style="position:absolute;left:20px;top:200px;width:150px;height:60px;background:#dfd">Zone</div>
<div id=trash role=region aria-label="Trash" style="position:absolute;left:300px;top:200px;width:150px;height:60px;background:#fdd">Trash</div>
<script>
for (const z of [zone, trash]) z.addEventListener('pointerup', () => {});
item.addEventListener('pointerdown', (e) => { item.setPointerCapture(e.pointerId); zone.style.left = '300px'; trash.style.left = '20px'; });
item.addEventListener('pointerup', (e) => { const at = document.elementFromPoint(e.clientX, e.clientY); log('dropped on ' + (at && at.id)); });
function state() { return null; }
</script>`, verb: "drag", target: "Item", to: "Zone", refused: "the drop would land on div#trash", never: []string{"dropped on trash"}},
		{name: "an HTML5 drop zone that moves away at dragstart", page: html5Page(swap), verb: "drag", target: "Item", to: "Zone",
			refused: "the drop would land on div#trash", never: []string{"dropped on trash", "dropped on zone"}},
		{name: "an HTML5 drop zone replaced at dragstart", page: html5Page(`zone.remove(); trash.style.left = '20px';`), verb: "drag", target: "Item", to: "Zone",
			refused: "the drop would land on div#trash", never: []string{"dropped on trash"}},
		{name: "an HTML5 drag to a zone that stays", page: html5Page(``), verb: "drag", target: "Item", to: "Zone", want: []string{"dropped on zone"}},

		{name: "a field that loses the focus at the first input is not typed again", page: fieldPage(``, `let first = true; q.addEventListener('input', () => { log('input ' + q.value); if (first) { first = false; q.blur(); } });`),
			verb: "type", target: "Query", arg: "hello", submit: true, refused: `the field now holds "hello"`, never: []string{"input hellohello", "submitted"}, state: `{"o":"","q":"hello"}`},
		{name: "a field whose page upper-cases the text is said to hold it", page: fieldPage(``, `q.addEventListener('input', () => { q.value = q.value.toUpperCase(); });`),
			verb: "type", target: "Query", arg: "hello", submit: true, refused: `typed "hello" into ref`, never: []string{"submitted"}, state: `{"o":"","q":"HELLO"}`},
		{name: "a field the page empties just after the text", page: fieldPage(``, `q.addEventListener('input', () => setTimeout(() => { q.value = ''; }, 0));`),
			verb: "type", target: "Query", arg: "hello", refused: `but it now holds ""`, state: `{"o":"","q":""}`},
		{name: "a field that sends its focus to another as it gets it", page: fieldPage(``, `q.addEventListener('focus', () => o.focus());`),
			verb: "type", target: "Query", arg: "hello", refused: "Query", state: `{"o":"","q":""}`},
		{name: "a field replaced by a copy as it gets the focus", page: fieldPage(``, `let done = false; q.addEventListener('focus', () => { if (done) return; done = true; const c = q.cloneNode(); c.id = 'copy'; c.setAttribute('aria-label', 'Copy'); c.addEventListener('input', () => log('copy got ' + c.value)); q.after(c); c.focus(); });`),
			verb: "type", target: "Query", arg: "hello", refused: "Query", never: []string{"copy got hello"}, state: `{"o":"","q":""}`},
		{name: "a field whose maxlength cuts the text", page: fieldPage(`maxlength=3`, ``),
			verb: "type", target: "Query", arg: "hello", refused: `but it now holds "hel"`, state: `{"o":"","q":"hel"}`},
		{name: "an ordinary field typed and submitted once", page: `<h1>Field</h1><form id=f onsubmit="event.preventDefault(); log('submitted ' + q.value)"><input id=q aria-label="Query"></form>
<script>function state() { return { q: q.value }; }</script>`,
			verb: "type", target: "Query", arg: "hello", submit: true, want: []string{"submitted hello"}, state: `{"q":"hello"}`},

		{name: "a select whose page puts the first option back", page: `<h1>Select</h1><select id=s aria-label="Size"><option>Small<option>Large</select>
<script>s.addEventListener('change', () => { s.selectedIndex = 0; log('reset'); }); function state() { return { s: s.value }; }</script>`,
			verb: "select", target: "Size", arg: "Large", refused: `it now holds "Small"`, state: `{"s":"Small"}`},
		{name: "a select whose options are reordered as it gets the focus", page: `<h1>Select</h1><select id=s aria-label="Size"><option>Small<option>Medium<option>Large</select>
<script>s.addEventListener('focus', () => { s.prepend(s.options[2]); }); function state() { return { s: s.value }; }</script>`,
			verb: "select", target: "Size", arg: "Medium", state: `{"s":"Medium"}`},

		{name: "a narrow number field is typed into, not stepped", page: `<h1>Qty</h1><label>Quantity <input id=q type=number value=1 style="width:30px"></label>
<script>q.addEventListener('change', () => log('change ' + q.value)); function state() { return { q: q.value }; }</script>`,
			verb: "type", target: "Quantity", arg: "3", never: []string{"change 2"}, state: `{"q":"13"}`},
		{name: "a number field too narrow for a point off its spin buttons", page: `<h1>Qty</h1><label>Quantity <input id=q type=number value=1 style="width:20px"></label>
<script>function state() { return { q: q.value }; }</script>`,
			verb: "type", target: "Quantity", arg: "3", state: `{"q":"13"}`},
		{name: "a click on a narrow number field does not step it", page: `<h1>Qty</h1><input id=q type=number value=1 aria-label="Quantity" style="width:30px">
<script>function state() { return { q: q.value, focus: document.activeElement.id }; }</script>`,
			verb: "click", target: "Quantity", state: `{"focus":"q","q":"1"}`},
		{name: "a right-to-left number field keeps its spin buttons on the left", page: `<h1>Qty</h1><input id=q type=number value=1 dir=rtl aria-label="Quantity" style="width:30px">
<script>function state() { return { q: q.value }; }</script>`,
			verb: "type", target: "Quantity", arg: "3", state: `{"q":"13"}`},
		{name: "a search field's cancel button is not under the click", page: `<h1>Search</h1><input id=q type=search value=ab aria-label="Find" style="width:40px">
<script>function state() { return { q: q.value }; }</script>`,
			verb: "type", target: "Find", arg: "c", state: `{"q":"abc"}`},
		{name: "a field with suggestions is typed into past its picker", page: `<h1>List</h1><input id=q list=l value=ab aria-label="City" style="width:40px"><datalist id=l><option>Oslo<option>Rome</datalist>
<script>function state() { return { q: q.value }; }</script>`,
			verb: "type", target: "City", arg: "c", state: `{"q":"abc"}`},
		{name: "a field that takes no pointer events is typed into by the keyboard", page: `<h1>Field</h1><input id=q aria-label="Query" style="pointer-events:none">
<script>function state() { return { q: q.value }; }</script>`,
			verb: "type", target: "Query", arg: "hello", state: `{"q":"hello"}`},
		{name: "a button that takes no pointer events is refused before any event", page: `<h1>Button</h1><div onclick="log('under')"><button style="pointer-events:none" onclick="log('button')">Pay</button></div>
<script>function state() { return null; }</script>`,
			verb: "click", target: `button "Pay"`, refused: "takes no pointer events", never: []string{"under", "button"}},
	}
}

// TestOutcomeTraps: each attacker page on a fresh load, through the CLI
// and through the MCP server.
func TestOutcomeTraps(t *testing.T) {
	cases := outcomeCases()
	pages := map[string]string{}
	for i, c := range cases {
		pages[fmt.Sprintf("/%d", i)] = `<!doctype html><html><head><meta charset=utf-8><title>Trap</title></head><body>` + outcomeLib + c.page + `</body></html>`
	}
	base := serve(t, pages).URL
	cli := galleryCLI(t, base)
	m := galleryMCP(t)
	// The CLI's browser and the MCP server's own one, side by side.
	t.Run("via", func(t *testing.T) {
		for _, via := range []string{"cli", "mcp"} {
			t.Run(via, func(t *testing.T) {
				t.Parallel()
				for i, c := range cases {
					url := fmt.Sprintf("%s/%d", base, i)
					t.Run(c.name, func(t *testing.T) {
						if via == "cli" {
							snap := cli.open(t, url)
							answer, err := runCLI(t, outcomeArgs(t, cli.endpoint, c, snap)...)
							out, rerr := cli.tab.Evaluate(`({log: logged, state: state()})`)
							if rerr != nil {
								t.Fatal(rerr)
							}
							judgeOutcome(t, c, answer, err, out)
							return
						}
						snap := m.open(t, url)
						answer, err := outcomeMCP(t, m, c, snap)
						text, _ := call(t, m.cs, "browser_evaluate", map[string]any{"function": `() => ({log: logged, state: state()})`}, false)
						judgeOutcome(t, c, answer, err, text)
					})
				}
			})
		}
	})
}

// outcomeArgs is the CLI's command line for a case.
func outcomeArgs(t *testing.T, endpoint string, c outcomeCase, snap string) []string {
	args := []string{"act", "--cdp", endpoint, c.verb, refByNameT(t, snap, c.target)}
	switch c.verb {
	case "drag":
		args = append(args, refByNameT(t, snap, c.to))
	case "type", "select":
		args = append(args, c.arg)
	}
	if c.submit {
		args = append(args, "--submit")
	}
	return args
}

// outcomeMCP runs a case's action through the MCP server.
func outcomeMCP(t *testing.T, m *mcpGallery, c outcomeCase, snap string) (string, error) {
	ref := refByNameT(t, snap, c.target)
	var text string
	var isErr bool
	switch c.verb {
	case "drag":
		tx, res := callAny(t, m.cs, "browser_drag", map[string]any{"startRef": ref, "endRef": refByNameT(t, snap, c.to)})
		text, isErr = tx, res.IsError
	case "type":
		tx, res := callAny(t, m.cs, "browser_type", map[string]any{"ref": ref, "text": c.arg, "submit": c.submit})
		text, isErr = tx, res.IsError
	default:
		return m.do(t, c.verb, ref, c.arg)
	}
	if isErr {
		return text, fmt.Errorf("%s", text)
	}
	return text, nil
}

func refByNameT(t *testing.T, snap, name string) string {
	t.Helper()
	ref := refByName(snap, name)
	if strings.Contains(name, `"`) {
		ref = refIn(snap, name) // a line's start: role "name"
	}
	if ref == "" {
		t.Fatalf("no ref named %q in:\n%s", name, snap)
	}
	return ref
}

// judgeOutcome checks a case's answer, its page's log and state.
func judgeOutcome(t *testing.T, c outcomeCase, answer string, err error, report string) {
	t.Helper()
	switch {
	case c.refused == "" && err != nil:
		t.Errorf("refused: %v", err)
	case c.refused != "" && err == nil:
		t.Errorf("succeeded, want a refusal saying %q:\n%s", c.refused, answer)
	case c.refused != "" && !strings.Contains(err.Error(), c.refused):
		t.Errorf("refusal %q, want it to say %q", err, c.refused)
	case err != nil && strings.Contains(strings.TrimSpace(err.Error()), "\n"):
		t.Errorf("the refusal is not one line: %q", err)
	}
	start, end := strings.Index(report, "{"), strings.LastIndex(report, "}")
	if start < 0 || end < start {
		t.Fatalf("no report: %s", report)
	}
	body := report[start : end+1]
	var got struct {
		Log   []string        `json:"log"`
		State json.RawMessage `json:"state"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("the page's report %q: %v", report, err)
	}
	log := strings.Join(got.Log, "\n")
	for _, l := range c.never {
		if strings.Contains(log, l) {
			t.Errorf("the page logged %q; its log:\n%s", l, log)
		}
	}
	for _, l := range c.want {
		if !strings.Contains(log, l) {
			t.Errorf("the page did not log %q; its log:\n%s", l, log)
		}
	}
	if c.state != "" {
		var have, want any
		json.Unmarshal(got.State, &have)
		json.Unmarshal([]byte(c.state), &want)
		if !reflect.DeepEqual(have, want) {
			t.Errorf("the page's state is %s, want %s", got.State, c.state)
		}
	}
}

// TestFieldsAndReachOnTheCorpus: on every corpus page, every ref in view
// is reachable by a click (the browser's hit test at its point, as
// Resolve asks it) or printed [no pointer]; unreachable refs without the
// mark are at most 0.5% of the refs. Then every visible text-like field
// is filled, and a fill that answered success must hold its text by the
// page's own reading.
func TestFieldsAndReachOnTheCorpus(t *testing.T) {
	pages := corpusPages(t)
	b := openBrowser(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	var refs, unmarked, marked, fields, filled int
	var refusals []string
	for _, p := range pages {
		t.Run(p.path, func(t *testing.T) {
			tab, s := journeySession(t, b, p.url)
			s.Cache = true
			obs, err := s.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range obs.Elements {
				refs++
				noPointer := strings.Contains(lineOf(obs.Snapshot, e.Ref), "[no pointer]")
				if noPointer {
					marked++
				}
				if _, err := s.Resolve(e.Ref); act.Unreachable(err) && !noPointer {
					unmarked++
					t.Logf("unreachable, unmarked: %s %s %q: %v", e.Ref, e.Role, e.Name, err)
				}
			}
			for _, e := range obs.Elements {
				if !textLike(e) {
					continue
				}
				fields++
				err := s.Fill([][2]string{{e.Ref, "axfuse 42"}})
				if err != nil {
					refusals = append(refusals, fmt.Sprintf("%s %s %q: %v", p.path, e.Ref, e.Name, err))
					continue
				}
				var v string
				if err := tab.RunOn(domsnapKey(e), "read the value", `function () { return 'value' in this && this.localName !== 'button' ? this.value : this.innerText; }`, &v); err != nil {
					t.Errorf("reading %s back: %v", e.Ref, err)
					continue
				}
				if strings.TrimSpace(v) != "axfuse 42" {
					t.Errorf("fill %s %q answered success, but the field holds %q", e.Ref, e.Name, v)
					continue
				}
				filled++
			}
		})
	}
	t.Logf("%d refs in view: %d marked [no pointer], %d unreachable without the mark; %d text fields, %d filled and read back, %d refused:\n%s",
		refs, marked, unmarked, fields, filled, len(refusals), strings.Join(refusals, "\n"))
	if refs > 0 && float64(unmarked) > 0.005*float64(refs) {
		t.Errorf("%d of %d refs in view (%.2f%%) are unreachable by a click and unmarked; want at most 0.5%%", unmarked, refs, 100*float64(unmarked)/float64(refs))
	}
}

// lineOf is the snapshot line holding [ref=REF].
func lineOf(snap, ref string) string {
	for _, l := range strings.Split(snap, "\n") {
		if strings.Contains(l, "[ref="+ref+"]") {
			return l
		}
	}
	return ""
}

// textLike: a field a person types a line of text into.
func textLike(e fuse.Element) bool {
	switch e.Role {
	case "textbox", "searchbox", "combobox":
		return e.Tag == "input" || e.Tag == "textarea"
	}
	return false
}

func domsnapKey(e fuse.Element) domsnap.Key {
	return domsnap.Key{Frame: e.Frame, Backend: e.BackendNodeID}
}

// TestChordAsTheFirstAction: a chord on a field that is not focused, as
// the first action in a browser nobody clicked in yet (the tab's document
// does not hold the focus), selects the field's text: the tab gets the
// focus, then the field, then the keys. Through the CLI's attached
// session (a new browser) and a new MCP server.
func TestChordAsTheFirstAction(t *testing.T) {
	url := serve(t, map[string]string{"/": `<!doctype html><title>Chord</title><h1>Chord</h1>
<input id=t aria-label="Name" value="abc"><pre id=log></pre>
<script>t.addEventListener('keydown', (e) => document.getElementById('log').textContent += (e.ctrlKey ? 'ctrl+' : '') + e.key + ' ');
function sel() { return t.selectionStart + '-' + t.selectionEnd + ' ' + (document.activeElement === t); }</script>`}).URL + "/"
	t.Run("CLI", func(t *testing.T) {
		endpoint := debugBrowser(t, needChromium(t), "about:blank")
		t.Setenv("XDG_CACHE_HOME", t.TempDir())
		snap := mustCLI(t, "open", "--cdp", endpoint, url)
		if _, err := runCLI(t, "act", "--cdp", endpoint, "press", refOf(t, snap, `textbox "Name"`), "Control+A"); err != nil {
			t.Fatalf("the chord was refused: %v", err)
		}
		if got := pageEval(t, endpoint, `sel()`); got != "0-3 true" {
			t.Errorf("selection and focus after Control+A: %q, want 0-3 true (keys: %s)", got, pageEval(t, endpoint, `document.getElementById('log').textContent`))
		}
	})
	t.Run("MCP", func(t *testing.T) {
		cs := mcpSession(t, "--caps", "evaluate")
		snap, _ := call(t, cs, "browser_navigate", map[string]any{"url": url}, false)
		call(t, cs, "browser_press_key", map[string]any{"ref": refOf(t, snap, `textbox "Name"`), "key": "Control+A"}, false)
		if got, _ := call(t, cs, "browser_evaluate", map[string]any{"function": `() => sel()`}, false); !strings.Contains(got, "0-3 true") {
			t.Errorf("selection and focus after Control+A: %s", got)
		}
	})
}
