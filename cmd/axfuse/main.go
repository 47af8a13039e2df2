// Command axfuse turns a live Chrome page into the observation a
// browser-automation agent reads: the accessibility tree fused with the DOM
// snapshot and event listeners, pruned, with refs on interactive elements.
//
//	axfuse snapshot [URL]            fused YAML of a page (the demo page by default)
//	axfuse capture URL -o FILE       record a capture for replay
//	axfuse snapshot --from FILE      run the pure pipeline on a recorded capture
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/axfuse/axfuse/domsnap/chrome"
)

const usage = `axfuse turns a live Chrome page into the observation an agent reads.

Usage:
  axfuse snapshot [flags] [URL]     print the fused observation of URL; with no
                                    URL and no --cdp, of the embedded demo page;
                                    with --cdp and no URL, of the browser's
                                    current tab, without navigating it
  axfuse capture [flags] URL -o FILE
                                    record one capture (plain JSON) for replay
  axfuse snapshot --from FILE       fuse a recorded capture, no browser needed
  axfuse act --cdp ENDPOINT VERB ARGS...
                                    act on refs of the attached browser's current
                                    tab (refs from an earlier snapshot --cdp), then
                                    print the new snapshot; a stale, changed,
                                    covered, disabled or wrong kind of target
                                    fails, and input that would land on
                                    another element is stopped: nothing is done
      click REF | dblclick REF | hover REF | check REF | uncheck REF
      type REF TEXT [--clear] [--submit] (an editable field; TEXT verbatim,
      "-2" too) | press REF KEY (Playwright's names: Enter, Shift+Tab,
      Control+A, ArrowDown, a character) | select REF OPTION | fill REF=TEXT...
      scroll [REF] [down|up|PX] | scrollto REF | drag REF REF (HTML5 drag and
      drop for draggable elements, else a mouse drag)
      upload REF FILE...  (a file input, or what opens a file chooser; a
      click that opens one reports it instead of opening a native dialog)
      --dialog dismiss|accept|TEXT: how to answer an alert, confirm or prompt
      the action opens (default dismiss; TEXT accepts a prompt with it); the
      output's first line says which dialog came and what was answered
  axfuse locate X Y [URL]           what a click at viewport point (X,Y) reaches:
                                    a ref, a node, or "no node covers (X,Y)" with
                                    a cropped annotated screenshot around it
  axfuse compare [flags] [URL]      the AX-only view beside the fused view of one
                                    capture, a table of what differs, and the
                                    targets one view has that the other lacks
                                    (the demo page with no URL)
  axfuse bench [--runs N] [URL...]  capture and fuse each page N times (default
                                    5; the demo page with no URL) and print each
                                    stage's median: CDP calls, layout, fuse,
                                    serialize, the whole observation
  axfuse batch [--parallel N] FILE  snapshot every URL or path in FILE (one a
                                    line) with N tabs at once (default 2): one
                                    JSON object a page on stdout (errors too),
                                    a progress bar and a summary on stderr
  axfuse mcp [--cdp ENDPOINT] [--max-tokens N] [flags]
                                    serve the browser_* tools to an agent over
                                    MCP on stdin/stdout; launches a browser on
                                    first use unless --cdp; snapshots are cut
                                    to --max-tokens (default 8000, 0: none);
                                    browser_file_upload takes files from
                                    --upload-root DIR only (default: the
                                    current folder)
  axfuse find [flags] [URL] --role R --name TEXT --text QUERY
                                    search the whole fused tree, off-screen
                                    and covered nodes included: each match
                                    with its path, box and where it stands
                                    (--role takes ARIA names or Chrome's:
                                    img or image)

Flags (snapshot, capture):
  --cdp ENDPOINT     attach to a running browser (http://host:port or ws://...)
  --browser PATH     Chromium executable (default: chromium, chromium-browser,
                     google-chrome on PATH)
  --viewport WxH     viewport of a launched browser (default 1280x720)
  --scale DPR        device pixel ratio of a launched browser (default 1)
  --wait DURATION    settle time after the load event (default 300ms)
  --frame-depth N    follow cross-site (out-of-process) iframes N deep
                     (default 8); deeper ones print [too deep to capture]
  --timeout DURATION deadline of each CDP call (default 20s); a page still
                     loading by then but parsed is observed with a warning
  --format yaml|json output format (default yaml)
  --mode fused|ax    fused view (default) or the AX-only view
  --from FILE        read a recorded capture instead of a browser
  --screenshot PATH  (snapshot) also write the viewport as a PNG with every
                     ref's box outlined and labelled
  --no-screenshot    (snapshot) never attach one; by default a snapshot
                     attaches an annotated screenshot (a temporary file) when a
                     target has no node: an interactive canvas, svg, img,
                     video, embed or object without accessible content, or an
                     iframe that could not be captured
  --offscreen collapse|keep|drop
                     off-screen subtrees: one counted line (default), all
                     printed, or left out
  --margin PX        grow the viewport by PX on every side (default 0)
  --capture auto|full|viewport
                     what a live snapshot fetches: the whole page (full), or
                     only the nodes meeting the viewport, with what lies
                     outside counted in the page, not fetched (viewport);
                     auto (default) takes the viewport on pages of 400
                     elements or 30,000 characters of text or more, unless
                     the nodes in view outnumber half the elements.
                     find, compare, --mode ax, --offscreen
                     keep and --scope always take the full page; capture
                     records a full capture unless --capture says otherwise
  --scope SCOPE      print one subtree: ROLE, ROLE:NAME or a ref (e12)
  --depth N          print at most N levels (default: all)
  --max-tokens N     cut the snapshot to about N tokens: the viewport first,
                     then by distance and interactivity; counted lines say
                     what was left out (default: no limit)
  --role, --name, --text
                     (find) role, name substring, any-text substring
  -o FILE            (capture) where to write the capture
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintf(os.Stderr, "axfuse: %v\n\n%s", err, usage)
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "axfuse: %v\n", err)
		os.Exit(1)
	}
}

type usageError struct{ error }

// commands maps each command to what runs it once its flags are parsed.
var commands = map[string]func(ctx context.Context, cfg *config, stdout io.Writer) error{
	"snapshot": snapshot,
	"locate":   locate,
	"compare":  compare,
	"find":     find,
	"act":      runAct,
	"capture":  func(ctx context.Context, cfg *config, _ io.Writer) error { return capture(ctx, cfg) },
	"bench":    bench,
	"batch":    batch,
	"mcp":      func(ctx context.Context, cfg *config, _ io.Writer) error { return serveMCP(ctx, cfg) },
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{errors.New("missing command")}
	}
	switch args[0] {
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	command, ok := commands[args[0]]
	if !ok {
		return usageError{fmt.Errorf("unknown command %q", args[0])}
	}
	cfg, err := parseFlags(args[0], args[1:])
	if err != nil {
		return err
	}
	cfg.stderr = stderr
	return command(ctx, cfg, stdout)
}

// config is the parsed command line.
type config struct {
	cmd                string
	url                string
	cdp, browser, from string
	out, screenshot    string
	format, mode       string
	width, height      int
	wait, timeout      time.Duration
	offscreen, scope   string
	margin             float64
	depth              int
	role, name, text   string
	verb               string
	actArgv            []string
	clear, submit      bool
	dialog             string
	noScreenshot       bool
	x, y               float64
	scale              float64
	frameDepth         int
	maxTokens          int
	maxTokensSet       bool
	capture            string
	captureSet         bool
	urls               []string  // bench
	runs, parallel     int       // bench, batch
	listFile           string    // batch
	uploadRoot         string    // mcp
	stderr             io.Writer // warnings
}

func parseFlags(cmd string, args []string) (*config, error) {
	cfg := &config{cmd: cmd, stderr: io.Discard}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.cdp, "cdp", "", "")
	fs.StringVar(&cfg.browser, "browser", "", "")
	fs.StringVar(&cfg.from, "from", "", "")
	fs.StringVar(&cfg.out, "o", "", "")
	fs.StringVar(&cfg.screenshot, "screenshot", "", "")
	fs.BoolVar(&cfg.noScreenshot, "no-screenshot", false, "")
	fs.Float64Var(&cfg.scale, "scale", 1, "")
	fs.IntVar(&cfg.frameDepth, "frame-depth", chrome.DefaultFrameDepth, "")
	fs.StringVar(&cfg.format, "format", "yaml", "")
	fs.StringVar(&cfg.mode, "mode", "fused", "")
	viewport := fs.String("viewport", "1280x720", "")
	fs.StringVar(&cfg.offscreen, "offscreen", "collapse", "")
	fs.Float64Var(&cfg.margin, "margin", 0, "")
	fs.StringVar(&cfg.scope, "scope", "", "")
	fs.IntVar(&cfg.depth, "depth", 0, "")
	fs.IntVar(&cfg.maxTokens, "max-tokens", 0, "")
	fs.StringVar(&cfg.capture, "capture", chrome.CaptureAuto, "")
	fs.IntVar(&cfg.runs, "runs", 5, "")
	fs.IntVar(&cfg.parallel, "parallel", 2, "")
	fs.StringVar(&cfg.role, "role", "", "")
	fs.StringVar(&cfg.name, "name", "", "")
	fs.StringVar(&cfg.text, "text", "", "")
	fs.BoolVar(&cfg.clear, "clear", false, "")
	fs.BoolVar(&cfg.submit, "submit", false, "")
	fs.StringVar(&cfg.dialog, "dialog", "dismiss", "")
	fs.DurationVar(&cfg.wait, "wait", 300*time.Millisecond, "")
	fs.DurationVar(&cfg.timeout, "timeout", 20*time.Second, "")
	fs.StringVar(&cfg.uploadRoot, "upload-root", "", "")
	// Flags may come before or after the URL. After act's verb only a
	// flag's exact name is a flag: the rest is the action's text, which
	// may start with a dash ("-2").
	var positional []string
	if cmd == "act" {
		var err error
		if positional, err = parseActFlags(fs, args); err != nil {
			return nil, usageError{err}
		}
		args = nil
	}
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return nil, usageError{err}
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if cmd == "locate" {
		if len(positional) < 2 {
			return nil, usageError{errors.New("locate X Y [URL]")}
		}
		var err1, err2 error
		cfg.x, err1 = strconv.ParseFloat(positional[0], 64)
		cfg.y, err2 = strconv.ParseFloat(positional[1], 64)
		if err1 != nil || err2 != nil || cfg.x < 0 || cfg.y < 0 {
			return nil, usageError{fmt.Errorf("locate X Y: want viewport CSS px, not %q %q", positional[0], positional[1])}
		}
		positional = positional[2:]
	}
	if cmd == "act" {
		if err := cfg.actArgs(positional); err != nil {
			return nil, usageError{err}
		}
		positional = nil
	}
	if cmd == "bench" {
		cfg.urls, positional = positional, nil
	}
	if cmd == "batch" {
		if len(positional) != 1 {
			return nil, usageError{errors.New("batch FILE: a file of URLs or paths, one a line")}
		}
		cfg.listFile, positional = positional[0], nil
	}
	if cfg.runs < 1 || cfg.runs > 1000 || cfg.parallel < 1 || cfg.parallel > 64 {
		return nil, usageError{errors.New("--runs is from 1 to 1000 and --parallel from 1 to 64")}
	}
	if len(positional) > 1 || cmd == "mcp" && len(positional) > 0 {
		return nil, usageError{fmt.Errorf("too many arguments: %q", positional)}
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "max-tokens" {
			cfg.maxTokensSet = true
		}
		if f.Name == "capture" {
			cfg.captureSet = true
		}
	})
	if len(positional) == 1 {
		cfg.url = positional[0]
	}
	var err error
	if cfg.width, cfg.height, err = parseViewport(*viewport); err != nil {
		return nil, usageError{err}
	}
	if cfg.format != "yaml" && cfg.format != "json" {
		return nil, usageError{fmt.Errorf("--format %q: want yaml or json", cfg.format)}
	}
	if cfg.mode != "fused" && cfg.mode != "ax" {
		return nil, usageError{fmt.Errorf("--mode %q: want fused or ax", cfg.mode)}
	}
	if cfg.capture != chrome.CaptureAuto && cfg.capture != chrome.CaptureFull && cfg.capture != chrome.CaptureViewport {
		return nil, usageError{fmt.Errorf("--capture %q: want auto, full or viewport", cfg.capture)}
	}
	if cfg.offscreen != "collapse" && cfg.offscreen != "keep" && cfg.offscreen != "drop" {
		return nil, usageError{fmt.Errorf("--offscreen %q: want collapse, keep or drop", cfg.offscreen)}
	}
	if cfg.margin < 0 || cfg.margin > 100000 || cfg.depth < 0 {
		return nil, usageError{errors.New("--margin and --depth must be >= 0")}
	}
	if cfg.maxTokens != 0 && cfg.maxTokens < 200 {
		return nil, usageError{errors.New("--max-tokens is 0 (no limit) or at least 200")}
	}
	if cmd == "find" && cfg.role == "" && cfg.name == "" && cfg.text == "" {
		return nil, usageError{errors.New("find needs --role, --name or --text")}
	}
	if cfg.frameDepth < 1 || cfg.frameDepth > 64 {
		return nil, usageError{errors.New("--frame-depth is from 1 to 64")}
	}
	if cfg.scale < 0.5 || cfg.scale > 4 {
		return nil, usageError{errors.New("--scale is a device pixel ratio from 0.5 to 4")}
	}
	if cfg.wait < 0 || cfg.timeout <= 0 {
		return nil, usageError{errors.New("--wait must be >= 0 and --timeout > 0")}
	}
	if cmd == "capture" && (cfg.url == "" && cfg.cdp == "" || cfg.out == "") {
		return nil, usageError{errors.New("capture needs a URL (or --cdp) and -o FILE")}
	}
	if cfg.screenshot != "" && (cfg.from != "" || cmd != "snapshot") {
		return nil, usageError{errors.New("--screenshot needs a live snapshot (not --from, not capture)")}
	}
	if cfg.from != "" && (cfg.url != "" || cfg.cdp != "") {
		return nil, usageError{errors.New("--from replays a capture; it takes no URL or --cdp")}
	}
	return cfg, nil
}

var refPattern = regexp.MustCompile(`^e[0-9]+$`)

// parseActFlags reads act's command line: flags as usual up to the verb;
// after it an argument is a flag only when it is one's exact name
// (--submit, --dialog accept, --dialog=accept), and after "--" none is.
func parseActFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	var pos []string
	rest := fs.Args()
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" && len(pos) > 0 {
			return append(pos, rest[i+1:]...), nil
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if !strings.HasPrefix(a, "-") || f == nil || len(pos) == 0 {
			pos = append(pos, a)
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() && !hasValue {
			value = "true"
		} else if !hasValue {
			if i+1 >= len(rest) {
				return nil, fmt.Errorf("flag %s needs a value", a)
			}
			i++
			value = rest[i]
		}
		if err := fs.Set(name, value); err != nil {
			return nil, fmt.Errorf("%s: %v", a, err)
		}
	}
	return pos, nil
}

func parseViewport(s string) (int, int, error) {
	w, h, ok := strings.Cut(s, "x")
	wi, err1 := strconv.Atoi(w)
	hi, err2 := strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil || wi < 100 || hi < 100 || wi > 10000 || hi > 10000 {
		return 0, 0, fmt.Errorf("--viewport %q: want WxH, e.g. 1280x720", s)
	}
	return wi, hi, nil
}
