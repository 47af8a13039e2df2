package main

// The native-controls gallery: every kind of <input>, select, textarea,
// contenteditable, details, media, dialog and label, at several widths,
// in the main frame, a same-origin iframe, a cross-site iframe and an open
// shadow root; every verb that applies to each, through the CLI and the
// MCP server. Each action is judged by the page itself: the events it
// logged (none may reach another element) and the control's state after
// (the value, checked state, choice, focus the verb names). A refusal of
// one of these ordinary actions is a failure too.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser/chrome"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ctlState is one control's state as its page reads it.
type ctlState struct {
	Value   string `json:"value"`
	Checked bool   `json:"checked"`
	Open    bool   `json:"open"`
	Sel     [2]int `json:"sel"` // selection start, end; -1 where none
}

// galleryReport is what a gallery page says of itself.
type galleryReport struct {
	Controls map[string]ctlState `json:"controls"`
	Focus    string              `json:"focus"`  // the id of the deepest focused element
	Events   []string            `json:"events"` // "type id" of each trusted input event
}

// outcome judges a verb's result on control id: "" when right.
type outcome func(id string, before, after galleryReport) string

// gverb is one verb on a control and the outcome it must have.
type gverb struct {
	verb, arg string
	// to names the control a drag drops on (its id: c-…); its events are
	// the drag's own.
	to, toID string
	want     outcome
	// anyKeyup: the key moves the focus by default (Shift+Tab), so its
	// release lands on where it went.
	anyKeyup bool
}

// galleryControl is one control of the gallery.
// (testdata/pages/controls/gallery.html holds its markup.)
type galleryControl struct {
	id, name string // its element's id (c-…) and the name its ref prints
	verbs    []gverb
}

func same(id string, b, a galleryReport) string {
	if b.Controls[id].Value != a.Controls[id].Value {
		return fmt.Sprintf("its value went from %q to %q", b.Controls[id].Value, a.Controls[id].Value)
	}
	return ""
}

func focusedAndSame(id string, b, a galleryReport) string {
	if a.Focus != id {
		return fmt.Sprintf("the focus is on %q, not on it", a.Focus)
	}
	return same(id, b, a)
}

func valueIs(v string) outcome {
	return func(id string, _, a galleryReport) string {
		if got := a.Controls[id].Value; got != v {
			return fmt.Sprintf("its value is %q, want %q", got, v)
		}
		return ""
	}
}

func appended(s string) outcome {
	return func(id string, b, a galleryReport) string { return valueIs(b.Controls[id].Value+s)(id, b, a) }
}

func checkedIs(v bool) outcome {
	return func(id string, _, a galleryReport) string {
		if a.Controls[id].Checked != v {
			return fmt.Sprintf("checked is %v, want %v", a.Controls[id].Checked, v)
		}
		return ""
	}
}

func selectedAll(id string, b, a galleryReport) string {
	if msg := focusedAndSame(id, b, a); msg != "" {
		return msg
	}
	if s := a.Controls[id].Sel; s[0] >= 0 && (s[0] != 0 || s[1] != len([]rune(a.Controls[id].Value))) {
		return fmt.Sprintf("Control+A selected %v of %q", s, a.Controls[id].Value)
	}
	return ""
}

func openIs(id string, _, a galleryReport) string {
	if !a.Controls[id].Open {
		return "it is not open"
	}
	return ""
}

func clicked(id string, _, a galleryReport) string {
	if !slices.Contains(a.Events, "click "+id) {
		return fmt.Sprintf("no click reached it (events %v)", a.Events)
	}
	return ""
}

func noCheck(string, galleryReport, galleryReport) string { return "" }

// choice: the select holds the option among its choices.
func choice(label string) outcome {
	return func(id string, _, a galleryReport) string {
		if !slices.Contains(strings.Split(a.Controls[id].Value, ","), label) {
			return fmt.Sprintf("it holds %q, not %q", a.Controls[id].Value, label)
		}
		return ""
	}
}

// textVerbs are the verbs of a field one types into.
func textVerbs() []gverb {
	return []gverb{
		{verb: "click", want: focusedAndSame},
		{verb: "type", arg: "3", want: appended("3")},
		{verb: "fill", arg: "5", want: valueIs("5")},
		{verb: "press", arg: "Control+A", want: selectedAll},
		{verb: "press", arg: "Meta+A", want: focusedAndSame},
		{verb: "press", arg: "Alt+ArrowDown", want: noCheck},
		{verb: "press", arg: "Shift+Tab", want: same, anyKeyup: true},
		{verb: "hover", want: same},
	}
}

// valueVerbs are the verbs of an input that takes a value, not keys.
func valueVerbs(v string) []gverb {
	return []gverb{{verb: "type", arg: v, want: valueIs(v)}, {verb: "click", want: same}, {verb: "hover", want: same}}
}

func selectVerbs() []gverb {
	return []gverb{{verb: "select", arg: "Two", want: choice("Two")}, {verb: "hover", want: same}, {verb: "press", arg: "Shift+Tab", want: same, anyKeyup: true}}
}

// galleryControls is the gallery.
func galleryControls() []galleryControl {
	input := func(typ, name string, verbs []gverb) galleryControl {
		id := "c-" + typ
		return galleryControl{id: id, name: name, verbs: verbs}
	}
	cs := []galleryControl{
		input("text", "Text control", textVerbs()),
		input("search", "Search control", textVerbs()),
		input("email", "Email control", textVerbs()),
		input("url", "Url control", textVerbs()),
		input("tel", "Tel control", textVerbs()),
		input("password", "Password control", textVerbs()),
		input("number", "Number control", textVerbs()),
		input("range", "Range control", append(valueVerbs("70"), gverb{verb: "drag", to: "Range end", toID: "c-rangeend", want: valueIs("100")})),
		input("date", "Date control", valueVerbs("2024-05-06")),
		input("time", "Time control", valueVerbs("10:30")),
		input("datetime-local", "Local control", valueVerbs("2024-05-06T10:30")),
		input("month", "Month control", valueVerbs("2024-05")),
		input("week", "Week control", valueVerbs("2024-W19")),
		input("color", "Color control", valueVerbs("#00ff00")),
		{id: "c-file", name: "File control",
			verbs: []gverb{{verb: "upload", want: valueIs("gallery.txt")}, {verb: "hover", want: same}}},
		{id: "c-checkbox", name: "Checkbox control",
			verbs: []gverb{{verb: "check", want: checkedIs(true)}, {verb: "uncheck", want: checkedIs(false)}, {verb: "click", want: checkedIs(true)}, {verb: "hover", want: checkedIs(true)}}},
		{id: "c-radio", name: "Radio control",
			verbs: []gverb{{verb: "check", want: checkedIs(true)}, {verb: "click", want: checkedIs(true)}, {verb: "hover", want: checkedIs(true)}}},
		{id: "c-select", name: "Select control", verbs: selectVerbs()},
		{id: "c-multiple", name: "Multiple control", verbs: selectVerbs()},
		{id: "c-sized", name: "Sized control", verbs: selectVerbs()},
		{id: "c-grouped", name: "Grouped control", verbs: selectVerbs()},
		{id: "c-textarea", name: "Textarea control", verbs: textVerbs()},
		{id: "c-editable", name: "Editable control", verbs: textVerbs()},
		{id: "c-wrap", name: "Wrapped control", verbs: textVerbs()},
		{id: "c-for", name: "For control", verbs: textVerbs()},
		{id: "c-details", name: "Details control",
			verbs: []gverb{{verb: "click", want: func(_ string, b, a galleryReport) string { return openIs("c-details", b, a) }}, {verb: "hover", want: noCheck}}},
		{id: "c-audio", name: "Audio control",
			verbs: []gverb{{verb: "hover", want: noCheck}, {verb: "click", want: noCheck}}},
		{id: "c-video", name: "Video control",
			verbs: []gverb{{verb: "hover", want: noCheck}, {verb: "click", want: noCheck}}},
		{id: "c-dialogbtn", name: "Dialog button",
			verbs: []gverb{{verb: "click", want: clicked}, {verb: "hover", want: noCheck}}},
		{id: "c-button", name: "Button control",
			verbs: []gverb{{verb: "click", want: clicked}, {verb: "press", arg: "Enter", want: clicked}, {verb: "hover", want: noCheck}}},
	}
	return cs
}

// galleryScript logs the trusted input events of its document, reports
// the controls' state, and answers the top page's questions when framed.
const galleryScript = `<script>
window.__ev = [];
for (const t of ['pointerdown','pointerup','mousedown','mouseup','click','dblclick','contextmenu','keydown','keyup','keypress','beforeinput','input','change','dragstart','drop']) {
  addEventListener(t, (e) => {
    if (!e.isTrusted) return;
    const p = e.composedPath();
    let id = '';
    for (const n of p) if (n.id) { id = n.id; break; }
    __ev.push(e.type + ' ' + (id || (p[0].localName || 'document')));
  }, true);
}
window.__state = () => {
  const host = document.getElementById('host');
  const root = host && host.shadowRoot || document;
  const controls = {};
  for (const el of root.querySelectorAll('[id^=c-]')) {
    const s = { value: '', checked: false, open: false, sel: [-1, -1] };
    if (el.localName === 'select') s.value = [...el.selectedOptions].map((o) => o.label).join(',');
    else if (el.type === 'file') s.value = [...el.files].map((f) => f.name).join(',');
    else if ('value' in el && el.localName !== 'button') s.value = el.value;
    else if (el.isContentEditable) s.value = el.innerText;
    if (el.type === 'checkbox' || el.type === 'radio') s.checked = el.checked;
    if (el.localName === 'details') s.open = el.open;
    try { if (el.selectionStart !== null && el.selectionStart !== undefined) s.sel = [el.selectionStart, el.selectionEnd]; } catch (e) {}
    if (el.isContentEditable && root.getSelection) {
      const r = (root.getSelection ? root.getSelection() : getSelection());
      if (r && r.rangeCount && el.contains(r.anchorNode)) s.sel = [-1, -1];
    }
    controls[el.id] = s;
  }
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return { controls, focus: a && a !== document.body ? a.id : '', events: __ev.slice() };
};
// take: the state and the events since the last take, which it clears.
window.__do = (cmd) => { const r = __state(); if (cmd === 'take') __ev.length = 0; return r; };
addEventListener('message', (e) => {
  if (e.data && e.data.axfuseAsk) e.source.postMessage({ axfuseReply: __do(e.data.axfuseAsk) }, '*');
});
</script>`

// askScript, in the top page, asks the controls' document (itself, or
// the frame holding them) a question.
const askScript = `<script>
window.__ask = (cmd) => {
  const f = document.querySelector('iframe');
  if (!f) return Promise.resolve(__do(cmd));
  return new Promise((done) => {
    const on = (e) => { if (e.data && 'axfuseReply' in e.data) { removeEventListener('message', on); done(e.data.axfuseReply); } };
    addEventListener('message', on);
    f.contentWindow.postMessage({ axfuseAsk: cmd }, '*');
  });
};
</script>`

// serveGallery serves the gallery's pages: /main, /same, /cross and
// /shadow at ?w=WIDTH, the framed ones holding /inner; the server answers
// as 127.0.0.1 and as localhost, two sites.
func serveGallery(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "testdata", "pages", "controls")
	wav, err := os.ReadFile(filepath.Join(dir, "silence.wav"))
	if err != nil {
		t.Fatal(err)
	}
	gallery, err := os.ReadFile(filepath.Join(dir, "gallery.html"))
	if err != nil {
		t.Fatal(err)
	}
	galleryBody := func(width int) string { return strings.ReplaceAll(string(gallery), "WIDTH", fmt.Sprint(width)) }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/silence.wav" {
			w.Header().Set("Content-Type", "audio/wav")
			w.Write(wav)
			return
		}
		var width int
		fmt.Sscan(r.URL.Query().Get("w"), &width)
		_, port, _ := strings.Cut(r.Host, ":")
		head := `<!doctype html><html><head><meta charset=utf-8><title>Gallery</title></head><body style="margin:8px">`
		frame := func(host string) string {
			return fmt.Sprintf(`<h1>Controls %d</h1><iframe title="Controls frame" src="http://%s:%s/inner?w=%d" width=1250 height=560 style="border:0"></iframe>`, width, host, port, width)
		}
		var body string
		switch r.URL.Path {
		case "/main":
			body = fmt.Sprintf(`<h1>Controls %d</h1>`, width) + galleryBody(width) + galleryScript
		case "/inner":
			body = galleryBody(width) + galleryScript
		case "/same":
			body = frame("127.0.0.1") + askScript
		case "/cross":
			body = frame("localhost") + askScript
		case "/shadow":
			inner, _ := json.Marshal(galleryBody(width))
			body = fmt.Sprintf(`<h1>Controls %d</h1><div id=host></div><script>document.getElementById('host').attachShadow({mode:'open'}).innerHTML = %s;</script>`, width, inner) + galleryScript
		default:
			http.NotFound(w, r)
			return
		}
		if r.URL.Path != "/same" && r.URL.Path != "/cross" {
			body += askScript
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, head+body+`</body></html>`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// galleryTally counts the gallery's results over every run.
type galleryTally struct {
	actions, falseRefusals, changedByRefusal, wrongOutcome, elsewhere int
}

func (g *galleryTally) String() string {
	return fmt.Sprintf("%d actions: %d false refusals, %d refusals after which the page changed, %d successes with a wrong final state, %d with events on another element",
		g.actions, g.falseRefusals, g.changedByRefusal, g.wrongOutcome, g.elsewhere)
}

// galleryDriver is one way to act: the CLI or the MCP server.
type galleryDriver interface {
	open(t *testing.T, url string) string // loads url, returns its snapshot
	do(t *testing.T, verb, ref, arg string) (string, error)
	// ask reads the page's report; "take" also clears its events.
	ask(t *testing.T, cmd string) galleryReport
}

// cliGallery acts through the CLI on an attached browser, and reads the
// page through a client of its own.
type cliGallery struct {
	endpoint string
	tab      *chrome.Tab
	file     string
}

func (c *cliGallery) open(t *testing.T, url string) string {
	return mustCLI(t, "open", "--cdp", c.endpoint, url)
}

func (c *cliGallery) do(t *testing.T, verb, ref, arg string) (string, error) {
	args := []string{"act", "--cdp", c.endpoint}
	switch verb {
	case "click", "hover", "check", "uncheck":
		args = append(args, verb, ref)
	case "fill":
		args = append(args, verb, ref+"="+arg)
	case "upload":
		args = append(args, verb, ref, c.file)
	case "drag":
		args = append(args, verb, ref, arg)
	default:
		args = append(args, verb, ref, arg)
	}
	return runCLI(t, args...)
}

func (c *cliGallery) ask(t *testing.T, cmd string) galleryReport {
	t.Helper()
	raw, err := c.tab.Evaluate(fmt.Sprintf(`__ask(%q)`, cmd))
	if err != nil {
		t.Fatalf("asking the page: %v", err)
	}
	var r galleryReport
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		t.Fatalf("the page's report %q: %v", raw, err)
	}
	return r
}

// mcpGallery acts through the MCP server's tools; browser_evaluate reads
// the page.
type mcpGallery struct {
	cs   *mcp.ClientSession
	file string
}

func (m *mcpGallery) open(t *testing.T, url string) string {
	call(t, m.cs, "browser_navigate", map[string]any{"url": url}, false)
	text, _ := call(t, m.cs, "browser_snapshot", nil, false)
	return text
}

func (m *mcpGallery) do(t *testing.T, verb, ref, arg string) (string, error) {
	var name string
	args := map[string]any{"ref": ref}
	switch verb {
	case "click", "check", "uncheck":
		// The MCP tools have no check: browser_click toggles, and the
		// gallery's check, uncheck, click each change the state, so the
		// outcome wanted is the same.
		name = "browser_click"
	case "hover":
		name = "browser_hover"
	case "type":
		name, args["text"] = "browser_type", arg
	case "fill":
		name, args = "browser_fill_form", map[string]any{"fields": []any{map[string]any{"ref": ref, "value": arg}}}
	case "press":
		name, args["key"] = "browser_press_key", arg
	case "select":
		name, args["values"] = "browser_select_option", []string{arg}
	case "upload":
		name, args["paths"] = "browser_file_upload", []string{m.file}
	case "drag":
		name, args = "browser_drag", map[string]any{"startRef": ref, "endRef": arg}
	}
	text, res := callAny(t, m.cs, name, args)
	if res.IsError {
		return text, fmt.Errorf("%s", text)
	}
	return text, nil
}

func (m *mcpGallery) ask(t *testing.T, cmd string) galleryReport {
	t.Helper()
	text, _ := call(t, m.cs, "browser_evaluate", map[string]any{"function": fmt.Sprintf(`() => __ask(%q)`, cmd)}, false)
	var r galleryReport
	start, end := strings.Index(text, "{"), strings.LastIndex(text, "}")
	if start < 0 || end < start || json.Unmarshal([]byte(text[start:end+1]), &r) != nil {
		t.Fatalf("the page's report: %s", text)
	}
	return r
}

// runGallery acts with every verb on every control of one page.
func runGallery(t *testing.T, d galleryDriver, url string, tally *galleryTally) {
	t.Helper()
	snap := d.open(t, url)
	before := d.ask(t, "take")
	for _, c := range galleryControls() {
		ref := refByName(snap, c.name)
		if ref == "" {
			t.Errorf("%s: no ref for %q in:\n%s", url, c.name, snap)
			continue
		}
		for _, v := range c.verbs {
			arg := v.arg
			if v.to != "" {
				if arg = refByName(snap, v.to); arg == "" {
					t.Errorf("%s: no ref for %q", url, v.to)
					continue
				}
			}
			_, err := d.do(t, v.verb, ref, arg)
			after := d.ask(t, "take")
			judgeGallery(t, c, v, url, before, after, err, tally)
			before = after
		}
	}
}

// judgeGallery judges one action of the gallery by the page's report
// before and after it.
func judgeGallery(t *testing.T, c galleryControl, v gverb, url string, before, after galleryReport, err error, tally *galleryTally) {
	t.Helper()
	tally.actions++
	what := fmt.Sprintf("%s %s %s %s", url, v.verb, c.name, v.arg)
	if err != nil {
		tally.falseRefusals++
		t.Errorf("%s: refused: %v", what, err)
		if !sameState(before, after) || len(after.Events) > 0 {
			tally.changedByRefusal++
			t.Errorf("%s: the refusal changed the page: events %v", what, after.Events)
		}
		return
	}
	if msg := v.want(c.id, before, after); msg != "" {
		tally.wrongOutcome++
		t.Errorf("%s: %s", what, msg)
	}
	if other := elsewhere(c, v, before.Focus, after.Events); len(other) > 0 {
		tally.elsewhere++
		t.Errorf("%s: events on another element: %v", what, other)
	}
}

// refByName is the ref of the first line naming name, quoted or as a
// group's text ("group [expanded=false] [ref=e4]: Details control").
func refByName(snap, name string) string {
	for _, l := range strings.Split(snap, "\n") {
		if !strings.Contains(l, fmt.Sprintf("%q", name)) && !strings.HasSuffix(l, ": "+name) {
			continue
		}
		if ref := refIn(l, ""); ref != "" {
			return ref
		}
	}
	return ""
}

// sameState: the controls and the focus are as they were.
func sameState(b, a galleryReport) bool {
	if b.Focus != a.Focus || len(b.Controls) != len(a.Controls) {
		return false
	}
	for id, s := range b.Controls {
		if a.Controls[id].Value != s.Value || a.Controls[id].Checked != s.Checked || a.Controls[id].Open != s.Open {
			return false
		}
	}
	return true
}

// elsewhere lists the events that reached another element than the
// control (or its label, or the summary of its details). The field that
// had the focus before gets its change as it loses the focus: the
// browser's doing, not an event of the action.
func elsewhere(c galleryControl, v gverb, focused string, events []string) []string {
	allowed := map[string]bool{c.id: true, "l-" + strings.TrimPrefix(c.id, "c-"): true, v.toID: v.toID != ""}
	if c.id == "c-details" {
		allowed["c-summary"] = true
	}
	var out []string
	for _, e := range events {
		typ, id, _ := strings.Cut(e, " ")
		if allowed[id] || (v.anyKeyup && typ == "keyup") || (typ == "change" && id == focused) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// galleryFile is a file to upload.
func galleryFile(t *testing.T) string {
	dir := t.TempDir()
	file := filepath.Join(dir, "gallery.txt")
	if err := os.WriteFile(file, []byte("gallery"), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// galleryCLI is the CLI's driver on a browser started for it.
func galleryCLI(t *testing.T, base string) *cliGallery {
	endpoint := debugBrowser(t, needChromium(t), "about:blank")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	mustCLI(t, "open", "--cdp", endpoint, base+"/main?w=200")
	tab, done := attachedTab(t, ctx, endpoint)
	t.Cleanup(done)
	return &cliGallery{endpoint: endpoint, tab: tab, file: galleryFile(t)}
}

// galleryMCP is the MCP server's driver, with a browser of its own.
func galleryMCP(t *testing.T) *mcpGallery {
	file := galleryFile(t)
	cs := mcpSession(t, "--caps", "evaluate", "--upload-root", filepath.Dir(file))
	return &mcpGallery{cs: cs, file: file}
}

var galleryContexts = []string{"main", "same", "cross", "shadow"}

// TestNativeControls: every control and verb once in each context, at
// the width where a number field's spin buttons lie under its middle
// (30 px): main frame and cross-site frame through the CLI, same-origin
// frame and shadow root through the MCP server, the two side by side.
func TestNativeControls(t *testing.T) {
	base := serveGallery(t)
	tally := runGalleries(t, map[galleryDriver][]string{
		galleryCLI(t, base): {base + "/main?w=30", base + "/cross?w=30"},
		galleryMCP(t):       {base + "/same?w=30", base + "/shadow?w=30"},
	})
	t.Logf("native controls: %s", tally)
}

// TestNativeControlsInEveryWidth: the whole matrix, every width in every
// context through both the CLI and the MCP server (make test-long).
func TestNativeControlsInEveryWidth(t *testing.T) {
	base := serveGallery(t)
	var urls []string
	for _, ctx := range galleryContexts {
		for _, w := range []int{20, 30, 40, 60, 200} {
			urls = append(urls, fmt.Sprintf("%s/%s?w=%d", base, ctx, w))
		}
	}
	start := time.Now()
	tally := runGalleries(t, map[galleryDriver][]string{galleryCLI(t, base): urls, galleryMCP(t): urls})
	t.Logf("native controls, every width: %s (%s)", tally, time.Since(start).Round(time.Second))
}

// runGalleries runs each driver over its pages, the drivers side by side
// (each has a browser of its own), and adds up their tallies.
func runGalleries(t *testing.T, runs map[galleryDriver][]string) *galleryTally {
	tallies := make([]galleryTally, len(runs))
	t.Run("drivers", func(t *testing.T) {
		i := 0
		for d, urls := range runs {
			tally := &tallies[i]
			i++
			t.Run(fmt.Sprintf("%T", d), func(t *testing.T) {
				t.Parallel()
				for _, url := range urls {
					runGallery(t, d, url, tally)
				}
			})
		}
	})
	var sum galleryTally
	for _, g := range tallies {
		sum.actions += g.actions
		sum.falseRefusals += g.falseRefusals
		sum.changedByRefusal += g.changedByRefusal
		sum.wrongOutcome += g.wrongOutcome
		sum.elsewhere += g.elsewhere
	}
	return &sum
}
