package main

// The MCP server end to end: the SDK's own client spawns the real binary
// (this test binary re-executed as axfuse) over stdio, and the server
// drives real headless Chromium.

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpSession starts `axfuse mcp` and connects the SDK's client to it.
func mcpSession(t *testing.T, args ...string) *mcp.ClientSession {
	t.Helper()
	cs, _ := mcpServer(t, args...)
	return cs
}

// mcpServer is mcpSession, with the server's process.
func mcpServer(t *testing.T, args ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.Command(os.Args[0], append([]string{"mcp"}, args...)...)
	cmd.Env = append(os.Environ(), "AXFUSE_MAIN=1")
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "axfuse-test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to axfuse mcp: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, cmd
}

// call runs a tool and returns its text, failing on a tool error unless
// wantErr.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, wantErr bool) (string, *mcp.CallToolResult) {
	t.Helper()
	text, res := callAny(t, cs, name, args)
	if res.IsError != wantErr {
		t.Fatalf("%s %v: error %v, want %v:\n%s", name, args, res.IsError, wantErr, text)
	}
	return text, res
}

// callAny runs a tool whose answer may be an error result.
func callAny(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, *mcp.CallToolResult) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return toolText(res), res
}

// toolText is the text of a tool's answer.
func toolText(res *mcp.CallToolResult) string {
	var sb strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			sb.WriteString(tc.Text)
		}
	}
	return sb.String()
}

func metaInt(t *testing.T, res *mcp.CallToolResult, key string) int {
	t.Helper()
	v, ok := res.Meta[key].(float64)
	if !ok {
		t.Fatalf("no %s in the result's metadata: %v", key, res.Meta)
	}
	return int(v)
}

func TestMCPShop(t *testing.T) {
	cs := mcpSession(t)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, tl := range tools.Tools {
		have[tl.Name] = true
	}
	for _, name := range []string{"browser_navigate", "browser_navigate_back", "browser_tabs", "browser_snapshot", "browser_find",
		"browser_click", "browser_type", "browser_fill_form", "browser_select_option", "browser_hover", "browser_press_key",
		"browser_scroll", "browser_drag", "browser_screenshot", "browser_locate", "browser_handle_dialog", "browser_wait_for"} {
		if !have[name] {
			t.Errorf("tool %s missing", name)
		}
	}

	url := servePage(t, "shop.html")
	text, res := call(t, cs, "browser_navigate", map[string]any{"url": url}, false)
	full := metaInt(t, res, "fullTokens")
	if !strings.Contains(text, `clickable "Add to cart"`) || strings.Contains(text, "Privacy policy") {
		t.Fatalf("the shop's snapshot lacks its listener divs or shows the off-screen footer:\n%s", text)
	}
	add := refOf(t, text, `clickable "Add to cart"`)

	// A click that changes one card: the answer is what changed.
	text, res = call(t, cs, "browser_click", map[string]any{"element": "Add to cart", "ref": add}, false)
	delta := metaInt(t, res, "deltaTokens")
	if !strings.Contains(text, "Changes since your last snapshot") || !strings.Contains(text, "In cart") || !strings.Contains(text, "Cart: 1 item") {
		t.Fatalf("the click's delta does not show the change:\n%s", text)
	}
	t.Logf("shop: full snapshot %d tokens, delta after one click %d tokens (%.1f%%)", full, delta, 100*float64(delta)/float64(full))
	if float64(delta) >= 0.2*float64(full) {
		t.Errorf("delta %d tokens is not under 20%% of the full %d:\n%s", delta, full, text)
	}

	// The footer is collapsed off-screen; find reaches it, with a ref that
	// acts (the click scrolls it into view).
	text, _ = call(t, cs, "browser_find", map[string]any{"name": "Privacy"}, false)
	if !strings.Contains(text, `link "Privacy policy"`) || !strings.Contains(text, "where: off-screen below") || !strings.Contains(text, "path: ") {
		t.Fatalf("find did not reach the collapsed footer link:\n%s", text)
	}
	m := regexp.MustCompile(`ref: (e\d+)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("find gave the footer link no ref:\n%s", text)
	}
	text, _ = call(t, cs, "browser_hover", map[string]any{"ref": m[1]}, false)
	if !strings.Contains(text, `link "Privacy policy" [ref=`+m[1]+`]`) {
		t.Errorf("hovering %s did not bring the footer link into view:\n%s", m[1], text)
	}

	// A ref from before a navigation is stale: a clean error, nothing done.
	call(t, cs, "browser_navigate", map[string]any{"url": url}, false)
	text, _ = call(t, cs, "browser_click", map[string]any{"ref": add}, true)
	if !strings.Contains(text, "not found in the current page snapshot") {
		t.Errorf("stale ref error: %s", text)
	}
	text, _ = call(t, cs, "browser_locate", map[string]any{"x": 5, "y": 700}, false)
	if !strings.Contains(text, "(5,700)") {
		t.Errorf("locate: %s", text)
	}
	_, res = call(t, cs, "browser_screenshot", map[string]any{"annotated": true}, false)
	if img, ok := res.Content[0].(*mcp.ImageContent); !ok || img.MIMEType != "image/png" || len(img.Data) < 1000 {
		t.Errorf("screenshot: %+v", res.Content)
	}
}

// TestMCPBudget: the AX-only view of a 5,000-row table (about 400k tokens
// uncut) fits the budget, keeps the rows in view and says how to get the
// rest.
func TestMCPBudget(t *testing.T) {
	cs := mcpSession(t, "--max-tokens", "4000")
	page := `<!doctype html><title>Orders</title><table aria-label="Orders"><tbody id=b></tbody></table>
<script>const b = document.getElementById('b'); let h = '';
for (let i = 0; i < 5000; i++) h += '<tr><td>' + i + '</td><td>Order ' + i + '</td><td><button>Refund ' + i + '</button></td></tr>';
b.innerHTML = h;</script>`
	url := serve(t, map[string]string{"/": page}).URL + "/"
	call(t, cs, "browser_navigate", map[string]any{"url": url}, false)
	for _, args := range []map[string]any{{"mode": "ax"}, {"mode": "ax", "max_tokens": 1000}} {
		text, res := call(t, cs, "browser_snapshot", args, false)
		tokens, limit := metaInt(t, res, "fullTokens"), 4000
		if v, ok := args["max_tokens"]; ok {
			limit = v.(int)
		}
		if tokens > limit {
			t.Errorf("%v: %d tokens over the budget %d", args, tokens, limit)
		}
		if !strings.Contains(text, `button "Refund 0"`) || !strings.Contains(text, "left out; search the rest with browser_find") {
			t.Errorf("%v: the rows in view or the note on what was cut are missing:\n%s", args, text)
		}
	}
}

// TestMCPTools drives the other tools on the actions page: typing, forms,
// selects, keys, drag, a confirm dialog left open for the agent, waiting,
// tabs and history.
func TestMCPTools(t *testing.T) {
	outDir := t.TempDir()
	cs := mcpSession(t, "--output-dir", outDir)
	url := servePage(t, "actions.html")
	snap, _ := call(t, cs, "browser_navigate", map[string]any{"url": url}, false)
	q := refOf(t, snap, `textbox "Search"`)

	text, _ := call(t, cs, "browser_type", map[string]any{"ref": q, "text": "lanterns", "submit": true}, false)
	if !strings.Contains(text, "searched lanterns") {
		t.Fatalf("type+submit:\n%s", text)
	}
	text, _ = call(t, cs, "browser_fill_form", map[string]any{"fields": []map[string]any{{"ref": q, "value": "tents"}}}, false)
	if !strings.Contains(text, `textbox "Search" [ref=`+q+`]: tents`) {
		t.Fatalf("fill_form did not replace the field's text:\n%s", text)
	}
	text, _ = call(t, cs, "browser_press_key", map[string]any{"ref": q, "key": "Enter"}, false)
	if !strings.Contains(text, "searched tents") {
		t.Fatalf("fill_form then press_key Enter:\n%s", text)
	}
	text, _ = call(t, cs, "browser_select_option", map[string]any{"ref": refOf(t, snap, `combobox "Size"`), "values": []string{"Large"}}, false)
	if !strings.Contains(text, "size Large") {
		t.Fatalf("select_option:\n%s", text)
	}
	text, _ = call(t, cs, "browser_drag", map[string]any{"startRef": refOf(t, snap, `clickable "Drag me"`), "endRef": refOf(t, snap, `clickable "Drop here"`)}, false)
	if !strings.Contains(text, "dropped") {
		t.Fatalf("drag:\n%s", text)
	}

	// A confirm dialog stays open for the agent to answer.
	text, _ = call(t, cs, "browser_click", map[string]any{"ref": refOf(t, snap, `button "Delete all"`)}, false)
	if !strings.Contains(text, "confirm dialog is open") || !strings.Contains(text, `"Delete everything?"`) {
		t.Fatalf("the dialog was not reported:\n%s", text)
	}
	text, _ = call(t, cs, "browser_handle_dialog", map[string]any{"accept": true}, false)
	if !strings.Contains(text, "was accepted") || !strings.Contains(text, "confirmed") {
		t.Fatalf("handle_dialog:\n%s", text)
	}
	call(t, cs, "browser_handle_dialog", map[string]any{"accept": true}, true) // none open now

	// "confirmed" is already there (handle_dialog's answer showed it).
	text, _ = call(t, cs, "browser_wait_for", map[string]any{"text": "confirmed"}, false)
	if !strings.Contains(text, "note: nothing changed") {
		t.Errorf("wait_for a text already shown did not answer at once with nothing changed:\n%s", text)
	}
	text, _ = call(t, cs, "browser_wait_for", map[string]any{"textGone": "confirmed", "time": 1}, true)
	if !strings.Contains(text, "still there") {
		t.Errorf("wait_for textGone: %s", text)
	}

	// Tabs and history.
	call(t, cs, "browser_tabs", map[string]any{"action": "new", "url": servePage(t, "forms.html")}, false)
	text, _ = call(t, cs, "browser_tabs", map[string]any{"action": "list"}, false)
	if !strings.Contains(text, `* 1: "Checkout form"`) || !strings.Contains(text, `0: "Actions"`) {
		t.Fatalf("tabs list:\n%s", text)
	}
	text, _ = call(t, cs, "browser_tabs", map[string]any{"action": "select", "index": 0}, false)
	if !strings.Contains(text, `heading "Shop"`) {
		t.Fatalf("select tab 0:\n%s", text)
	}
	call(t, cs, "browser_tabs", map[string]any{"action": "close", "index": 1}, false)
	call(t, cs, "browser_tabs", map[string]any{"action": "select", "index": 5}, true)
	call(t, cs, "browser_navigate", map[string]any{"url": servePage(t, "links.html")}, false)
	text, _ = call(t, cs, "browser_navigate_back", nil, false)
	if !strings.Contains(text, `heading "Shop"`) {
		t.Fatalf("back:\n%s", text)
	}
	text, _ = call(t, cs, "browser_snapshot", map[string]any{"target": "form", "filename": "s.yaml"}, false)
	if b, err := os.ReadFile(filepath.Join(outDir, "s.yaml")); !strings.Contains(text, "written to") || err != nil || len(b) == 0 {
		t.Errorf("snapshot to a file under --output-dir: %s (%v)", text, err)
	}
}

// TestMCPCanvasScreenshot: on the demo page (a bar chart drawn on a canvas
// with a click listener and no accessible content) a look attaches the
// annotated screenshot, taken while the capture ran; a delta does not.
func TestMCPCanvasScreenshot(t *testing.T) {
	cs := mcpSession(t)
	demo, err := serveDemo()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(demo.Close)
	image := func(res *mcp.CallToolResult) *mcp.ImageContent {
		for _, c := range res.Content {
			if i, ok := c.(*mcp.ImageContent); ok {
				return i
			}
		}
		return nil
	}
	// The chart covers less than half the viewport: the picture is cut to
	// it, and the answer says where the cut lies; asked for always, it is
	// the whole viewport.
	clipped := regexp.MustCompile(`at x=(\d+), y=(\d+), (\d+)×(\d+) CSS px`)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{{"browser_navigate", map[string]any{"url": demo.URL}}, {"browser_snapshot", map[string]any{}}, {"browser_snapshot", map[string]any{"screenshot": "always"}}} {
		text, res := call(t, cs, tc.tool, tc.args, false)
		img := image(res)
		if img == nil || !strings.Contains(text, "Screenshot attached: canvas") {
			t.Fatalf("%s: no screenshot for the canvas:\n%s", tc.tool, text)
		}
		shot, err := png.Decode(bytes.NewReader(img.Data))
		if err != nil {
			t.Fatalf("%s: the attached image is not a PNG: %v", tc.tool, err)
		}
		w, h := 1280, 720
		if m := clipped.FindStringSubmatch(text); tc.args["screenshot"] == "always" {
			if m != nil {
				t.Errorf("screenshot always: cut to %s", m[0])
			}
		} else if m == nil {
			t.Fatalf("%s: the canvas screenshot is not cut to the chart:\n%s", tc.tool, text)
		} else {
			w, h = atoi(t, m[3]), atoi(t, m[4])
			if x, y := atoi(t, m[1]), atoi(t, m[2]); x+w > 1280 || y+h > 720 || w*h > 1280*720/2 {
				t.Errorf("%s: the cut %s is not a small part of the viewport", tc.tool, m[0])
			}
		}
		if shot.Bounds().Dx() != w || shot.Bounds().Dy() != h {
			t.Fatalf("%s: the attached image is %v, want %d×%d", tc.tool, shot.Bounds().Size(), w, h)
		}
	}
	// Nothing changes on a hover over the first link: the answer is a
	// delta, and a delta carries no screenshot.
	text, res := call(t, cs, "browser_hover", map[string]any{"ref": "e1"}, false)
	if !strings.Contains(text, "Changes since your last snapshot") {
		t.Fatalf("hover: not a delta:\n%s", text)
	}
	if image(res) != nil {
		t.Errorf("a delta carries a screenshot")
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
