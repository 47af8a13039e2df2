package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/axfuse/axfuse/act"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/internal/enum"
	"github.com/axfuse/axfuse/mcpserver"
)

// A command is one verb of the CLI: how it is called, what it does, the
// flags it takes and an example. `axfuse CMD --help` prints it; a flag a
// command does not take is an error, not ignored. Each is declared in the
// file that runs it (snapshot.go, tabs.go, ...).
type command struct {
	name, args, summary, detail, example string
	flags                                []string
	run                                  func(ctx context.Context, cfg *config, stdout io.Writer) error
	// check says what is wrong with the command's flags and arguments
	// taken together, once they are read (nil: nothing of its own to
	// check); the checks every command shares come after it
	// (sharedCombinations).
	check func(cfg *config) error
}

// commands are the CLI's verbs; `axfuse CMD --help` prints each.
var commands = map[string]*command{}

func init() {
	for _, c := range slices.Concat([]*command{snapshotCommand(), actCommand()}, tabCommands(),
		[]*command{findCommand(), locateCommand(), compareCommand(), captureCommand(), benchCommand(), batchCommand(), mcpCommand()}) {
		commands[c.name] = c
	}
}

// Flag groups shared by several commands.
var (
	launchFlags = []string{"cdp", "cdp-header", "tab", "browser", "viewport", "scale", "timeout", "frame-depth"}
	pageFlags   = append(append([]string(nil), launchFlags...), "wait")
	viewFlags   = []string{"mode", "offscreen", "margin", "scope", "depth", "max-tokens", "capture", "audit"}
)

func flagsOf(groups ...[]string) []string {
	var out []string
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// flagHelp is each flag's argument name and meaning, in one place.
var flagHelp = map[string][2]string{
	"cdp":             {"ENDPOINT", "attach to a running browser: http://host:port, ws://host:port/devtools/browser/ID, a tab's ws://host:port/devtools/page/ID, or a browser farm's ws:// or wss:// address with its query (Browserless: ws://host:3000/?token=…): each connection gets a browser of its own; batch and compare --batch take it more than once and spread the pages over them; its query's values are never printed"},
	"cdp-header":      {"'NAME: VALUE'", "with --cdp: send this header with every request to the endpoint (a farm that authenticates by header: 'Authorization: Bearer …'); repeatable; its value is never printed"},
	"tab":             {"TAB", "with --cdp: the tab to use, by target id, index (as `axfuse tabs` lists them) or a piece of its URL (default: the tab in use)"},
	"browser":         {"PATH", "Chromium executable to launch (default: chromium, chromium-browser, google-chrome on PATH); not with --cdp"},
	"viewport":        {"WxH", "viewport of a launched browser, 100 to 10000 each way (default 1280x720); not with --cdp"},
	"scale":           {"DPR", "device pixel ratio of a launched browser, 0.5 to 4 (default 1); not with --cdp"},
	"wait":            {"DURATION", "settle time after the load event, 0 to 10m (default 300ms)"},
	"settle":          {"DURATION", "the longest wait after an action for what it caused (a navigation it started, its requests, timers, DOM changes and animations; not the page's background activity), 0 to 10m (default 3s); a wait that reaches it says what was still pending"},
	"timeout":         {"DURATION", "deadline of each CDP call, 1ms to 10m (default 20s); a page still loading by then but parsed is observed with a warning"},
	"frame-depth":     {"N", "follow cross-site (out-of-process) iframes N deep, 1 to 64 (default 8); deeper ones print [too deep to capture]"},
	"format":          {"yaml|json", "output format (default yaml)"},
	"mode":            {"fused|ax", "the fused view (default) or the AX-only view (puppeteer-core 24's interestingOnly)"},
	"from":            {"FILE", "read a recorded capture instead of a browser"},
	"screenshot":      {"PATH", "also write the viewport as a PNG with every ref's box outlined and labelled"},
	"no-screenshot":   {"", "never attach a screenshot; by default one (a temporary file) is attached when a target has no node: an interactive canvas, svg, img, video, embed or object without accessible content, or an iframe that could not be captured"},
	"offscreen":       {"collapse|keep|drop", "off-screen subtrees: one counted line (default), all printed, or left out"},
	"margin":          {"PX", "grow the viewport by PX on every side, 0 to 100000 (default 0)"},
	"capture":         {"auto|full|viewport", "what a live snapshot fetches: the whole page (full), or only the nodes meeting the viewport, what lies outside counted, not fetched (viewport); auto (default) takes the viewport on pages of 400 elements or 30,000 characters of text or more, unless the nodes in view outnumber half the elements; --mode ax, --offscreen keep and --scope take the full page"},
	"scope":           {"SCOPE", "print one subtree: ROLE, ROLE:NAME or a ref (e12)"},
	"depth":           {"N", "print at most N levels, 0 (all, the default) to 512"},
	"audit":           {"", "(--format json) quote the start of each withheld text in the withheld list, for people auditing what was left out; without it the list gives kind, reason and box only (hidden text is an injection channel: never hand an --audit answer to a model)"},
	"max-tokens":      {"N", "cut the snapshot to about N tokens, 0 (no limit) or 200 to 10000000: the viewport first, then by distance and interactivity; counted lines say what was left out"},
	"role":            {"ROLE", "match this role (ARIA names or Chrome's: img or image)"},
	"name":            {"TEXT", "match names containing TEXT"},
	"text":            {"TEXT", "match any text (name, value, text, URL) containing TEXT"},
	"o":               {"FILE", "where to write the capture"},
	"batch":           {"FILE", "compare every URL or path in FILE (one a line) with --parallel tabs: one JSON line a page on stdout, then a summary line"},
	"html":            {"FILE", "also write an HTML report, openable offline: screenshots with each view's refs marked and the targets it misses outlined in red, both YAMLs, the measures; with --batch FILE is the index (summary, plots, sortable table) and each page is its own file in the folder beside it (FILE's name with -pages)"},
	"peer":            {"[NAME=]COMMAND", "also measure an outside observer of the same tab (needs --cdp): COMMAND, split on spaces with {cdp} and {target} replaced by the endpoint and the tab's target id, prints its YAML, or JSON {snapshot, elements: [{ref, box}]} to measure its refs by their boxes (scripts/peers/playwright-ai.cjs: Playwright's ai snapshot)"},
	"hits":            {"", "(capture) also record the browser's hit tests that compare measures the views with (a full capture)"},
	"clear":           {"", "(type) empty the field first"},
	"submit":          {"", "(type) press Enter after typing"},
	"dialog":          {"dismiss|accept|TEXT", "how to answer an alert, confirm or prompt the action opens (default dismiss; TEXT accepts a prompt with it)"},
	"runs":            {"N", "capture and fuse each page N times, 1 to 1000 (default 5)"},
	"parallel":        {"N", "pages at once, 1 to 64 (default 2; with several --cdp, one a --cdp): tabs of one browser, or a browser session each on a farm or several --cdp"},
	"ordered":         {"", "write the lines in the list's order (a finished page waits for those before it), not as pages finish"},
	"resume":          {"FILE", "finish an interrupted run: FILE is its output; the pages it has a line for are not run again, the others' lines are appended to it (nothing goes to stdout)"},
	"upload-root":     {"DIR", "browser_file_upload takes files from DIR only (default: the current folder)"},
	"allowed-origins": {"LIST", "the only origins pages may load from, separated by ; or , (https://example.com, example.com for http and https, *.example.com for subdomains; default: any)"},
	"blocked-origins": {"LIST", "origins pages may never load from, as --allowed-origins writes them; they win over it"},
	"allow-file-urls": {"", "let pages load file: URLs (refused by default: a file: page reads this machine's files to the agent)"},
	"caps":            {"LIST", "opt-in tools, separated by , : " + capsHelp()},
	"port":            {"N", "serve MCP over Streamable HTTP on port N (0 picks a free one, printed on stderr) instead of stdin/stdout; each client session gets a browser context of its own (with a farm's --cdp, a browser of its own from the farm), and the calls of different sessions run at once"},
	"host":            {"HOST", "the address --port listens on (default 127.0.0.1: this machine only)"},
	"max-sessions":    {"N", "with --port: client sessions open at once, 1 to 64 (default 8)"},
	"output-dir":      {"DIR", "the folder files the agent asks for are written to (browser_snapshot's filename), nowhere else; over HTTP each session writes in a folder of its own below it, session-N (default: axfuse-mcp-output in the temporary folder)"},
}

// binders define each flag on a flag set, writing into the config.
var binders = map[string]func(fs *flag.FlagSet, c *config, name string){
	"cdp": func(fs *flag.FlagSet, c *config, n string) {
		fs.Func(n, "", func(v string) error {
			if c.cdp == "" {
				c.cdp = v
			}
			c.cdpAll = append(c.cdpAll, v)
			return nil
		})
	},
	"cdp-header": func(fs *flag.FlagSet, c *config, n string) {
		fs.Func(n, "", func(v string) error { c.cdpHeaders = append(c.cdpHeaders, v); return nil })
	},
	"tab":         func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.tab, n, "", "") },
	"browser":     func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.browser, n, "", "") },
	"viewport":    func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.viewport, n, "1280x720", "") },
	"scale":       func(fs *flag.FlagSet, c *config, n string) { fs.Float64Var(&c.scale, n, 1, "") },
	"wait":        func(fs *flag.FlagSet, c *config, n string) { fs.DurationVar(&c.wait, n, 300*time.Millisecond, "") },
	"timeout":     func(fs *flag.FlagSet, c *config, n string) { fs.DurationVar(&c.timeout, n, 20*time.Second, "") },
	"settle":      func(fs *flag.FlagSet, c *config, n string) { fs.DurationVar(&c.settle, n, act.DefaultSettle, "") },
	"frame-depth": func(fs *flag.FlagSet, c *config, n string) { fs.IntVar(&c.frameDepth, n, defaultFrameDepth, "") },
	"format":      func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.format, n, "yaml", "") },
	"mode": func(fs *flag.FlagSet, c *config, n string) {
		fs.StringVar((*string)(&c.mode), n, string(fuse.ModeFused), "")
	},
	"from":          func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.from, n, "", "") },
	"screenshot":    func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.screenshot, n, "", "") },
	"no-screenshot": func(fs *flag.FlagSet, c *config, n string) { fs.BoolVar(&c.noScreenshot, n, false, "") },
	"offscreen": func(fs *flag.FlagSet, c *config, n string) {
		fs.StringVar((*string)(&c.offscreen), n, string(fuse.OffscreenCollapse), "")
	},
	"margin": func(fs *flag.FlagSet, c *config, n string) { fs.Float64Var(&c.margin, n, 0, "") },
	"capture": func(fs *flag.FlagSet, c *config, n string) {
		fs.StringVar((*string)(&c.capture), n, string(domsnap.CaptureAuto), "")
	},
	"scope":           func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.scope, n, "", "") },
	"depth":           func(fs *flag.FlagSet, c *config, n string) { fs.IntVar(&c.depth, n, 0, "") },
	"max-tokens":      func(fs *flag.FlagSet, c *config, n string) { fs.IntVar(&c.maxTokens, n, 0, "") },
	"audit":           func(fs *flag.FlagSet, c *config, n string) { fs.BoolVar(&c.audit, n, false, "") },
	"role":            func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.role, n, "", "") },
	"name":            func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.name, n, "", "") },
	"text":            func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.text, n, "", "") },
	"o":               func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.out, n, "", "") },
	"hits":            func(fs *flag.FlagSet, c *config, n string) { fs.BoolVar(&c.hits, n, false, "") },
	"batch":           func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.batchFile, n, "", "") },
	"html":            func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.html, n, "", "") },
	"peer":            func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.peer, n, "", "") },
	"clear":           func(fs *flag.FlagSet, c *config, n string) { fs.BoolVar(&c.clear, n, false, "") },
	"submit":          func(fs *flag.FlagSet, c *config, n string) { fs.BoolVar(&c.submit, n, false, "") },
	"dialog":          func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.dialog, n, "dismiss", "") },
	"runs":            func(fs *flag.FlagSet, c *config, n string) { fs.IntVar(&c.runs, n, 5, "") },
	"parallel":        func(fs *flag.FlagSet, c *config, n string) { fs.IntVar(&c.parallel, n, 2, "") },
	"ordered":         func(fs *flag.FlagSet, c *config, n string) { fs.BoolVar(&c.ordered, n, false, "") },
	"resume":          func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.resume, n, "", "") },
	"upload-root":     func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.uploadRoot, n, "", "") },
	"allowed-origins": func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.allowedOrigins, n, "", "") },
	"blocked-origins": func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.blockedOrigins, n, "", "") },
	"allow-file-urls": func(fs *flag.FlagSet, c *config, n string) { fs.BoolVar(&c.allowFileURLs, n, false, "") },
	"output-dir":      func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.outputDir, n, "", "") },
	"caps":            func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.caps, n, "", "") },
	"port":            func(fs *flag.FlagSet, c *config, n string) { fs.IntVar(&c.port, n, -1, "") },
	"host":            func(fs *flag.FlagSet, c *config, n string) { fs.StringVar(&c.host, n, "127.0.0.1", "") },
	"max-sessions":    func(fs *flag.FlagSet, c *config, n string) { fs.IntVar(&c.maxSessions, n, 8, "") },
}

// bind defines flag name on fs, writing into cfg.
func (cfg *config) bind(fs *flag.FlagSet, name string) {
	b, ok := binders[name]
	if !ok {
		panic("axfuse: no flag " + name) // a programming error: TestEveryCommandHasHelp
	}
	b(fs, cfg, name)
}

// check validates the flags that were given: every number in its range
// (NaN and infinities are not numbers), every word one of its choices,
// and no flag that the other flags make meaningless.
func (cfg *config) check(set map[string]bool) error {
	c := &checker{set: set}
	cfg.checkNumbers(c)
	cfg.checkWords(c)
	cfg.checkCombinations(c)
	if len(c.errs) > 0 {
		return errors.New(strings.Join(c.errs, "; "))
	}
	return nil
}

// checker collects what is wrong with the given flags.
type checker struct {
	set  map[string]bool
	errs []string
}

func (c *checker) bad(f, v, want string) {
	c.errs = append(c.errs, fmt.Sprintf("--%s %s: want %s", f, v, want))
}

func (c *checker) floatIn(f string, v, lo, hi float64, want string) {
	if c.set[f] && (math.IsNaN(v) || v < lo || v > hi) {
		c.bad(f, fmt.Sprint(v), want)
	}
}

func (c *checker) intIn(f string, v, lo, hi int, want string) {
	if c.set[f] && (v < lo || v > hi) {
		c.bad(f, fmt.Sprint(v), want)
	}
}

func (c *checker) durIn(f string, v, lo, hi time.Duration) {
	if c.set[f] && (v < lo || v > hi) {
		c.bad(f, v.String(), fmt.Sprintf("a duration from %v to %v", lo, hi))
	}
}

func (c *checker) oneOf(f, v string, choices ...string) {
	if c.set[f] && !slices.Contains(choices, v) {
		c.bad(f, fmt.Sprintf("%q", v), strings.Join(choices, ", "))
	}
}

func (cfg *config) checkNumbers(c *checker) {
	c.floatIn("scale", cfg.scale, 0.5, 4, "a device pixel ratio from 0.5 to 4")
	c.floatIn("margin", cfg.margin, 0, 100000, "0 to 100000 (CSS px)")
	c.intIn("frame-depth", cfg.frameDepth, 1, 64, "1 to 64")
	c.intIn("depth", cfg.depth, 0, 512, "0 (all levels) to 512")
	c.intIn("runs", cfg.runs, 1, 1000, "1 to 1000")
	c.intIn("parallel", cfg.parallel, 1, 64, "1 to 64")
	c.intIn("port", cfg.port, 0, 65535, "0 (any free port) to 65535")
	c.intIn("max-sessions", cfg.maxSessions, 1, 64, "1 to 64")
	if cfg.maxTokens != 0 {
		c.intIn("max-tokens", cfg.maxTokens, 200, 10_000_000, "0 (no limit) or 200 to 10000000")
	}
	c.durIn("wait", cfg.wait, 0, 10*time.Minute)
	c.durIn("settle", cfg.settle, 0, 10*time.Minute)
	c.durIn("timeout", cfg.timeout, time.Millisecond, 10*time.Minute)
}

func (cfg *config) checkWords(c *checker) {
	c.oneOf("format", cfg.format, "yaml", "json")
	c.oneOf("mode", string(cfg.mode), enum.Strings(fuse.Modes...)...)
	c.oneOf("offscreen", string(cfg.offscreen), enum.Strings(fuse.OffscreenPolicies...)...)
	c.oneOf("capture", string(cfg.capture), enum.Strings(domsnap.CaptureAuto, domsnap.CaptureFull, domsnap.CaptureViewport)...)
	if c.set["viewport"] {
		if _, _, err := parseViewport(cfg.viewport); err != nil {
			c.errs = append(c.errs, err.Error())
		}
	}
	names := capNames()
	for _, cp := range origins(cfg.caps) {
		if !slices.Contains(names, cp) {
			c.bad("caps", fmt.Sprintf("%q", cp), "a list of "+strings.Join(names, ", "))
		}
	}
}

// capNames are the names --caps takes: mcpserver's capabilities.
func capNames() []string {
	var names []string
	for _, c := range mcpserver.Capabilities() {
		names = append(names, c.Name)
	}
	return names
}

// capsHelp tells each capability --caps takes and what it enables.
func capsHelp() string {
	var parts []string
	for _, c := range mcpserver.Capabilities() {
		parts = append(parts, c.Name+" ("+c.Enables+")")
	}
	return strings.Join(parts, ", ")
}

// checkCombinations: flags that other flags make meaningless.
func (cfg *config) checkCombinations(c *checker) {
	var not []string
	switch {
	case cfg.cdp != "":
		not = filter([]string{"browser", "viewport", "scale"}, c.set)
		for _, f := range not {
			c.errs = append(c.errs, fmt.Sprintf("--%s applies to a launched browser, not to one attached with --cdp", f))
		}
	case c.set["tab"]:
		c.errs = append(c.errs, "--tab picks a tab of an attached browser: it needs --cdp")
	}
	if cfg.from != "" {
		for _, f := range filter(pageFlags, c.set) {
			c.errs = append(c.errs, fmt.Sprintf("--from replays a capture: --%s does not apply", f))
		}
	}
	if (c.set["host"] || c.set["max-sessions"]) && !c.set["port"] {
		c.errs = append(c.errs, "--host and --max-sessions apply to the HTTP transport: give --port")
	}
}

// combinations checks what depends on more than one flag or argument,
// once the arguments are read: first what the command itself needs (its
// check), then what holds for every command. (What one flag rules out of
// another, for every command, was checked before the arguments were
// read: checkCombinations.)
func (c *command) combinations(cfg *config) error {
	if c.check != nil {
		if err := c.check(cfg); err != nil {
			return err
		}
	}
	return cfg.sharedCombinations()
}

// sharedCombinations checks the flags any command may take together,
// after the command's own check: what that finds is said first (open
// --audit without --cdp needs --cdp).
func (cfg *config) sharedCombinations() error {
	if cfg.audit && cfg.format != "json" {
		return errors.New("--audit quotes withheld texts in the JSON answer's withheld list; give --format json too")
	}
	if cfg.screenshot != "" && cfg.from != "" {
		return errors.New("--screenshot needs a live snapshot, not --from")
	}
	if cfg.from != "" && (cfg.url != "" || cfg.cdp != "") {
		return errors.New("--from replays a capture; it takes no URL or --cdp")
	}
	return cfg.checkEndpoints()
}

// checkEndpoints: several --cdp only where pages are spread over them,
// and --cdp-header only with --cdp, each a well-formed header (whose
// value no error quotes).
func (cfg *config) checkEndpoints() error {
	spread := cfg.cmd == "batch" || cfg.cmd == "compare" && cfg.batchFile != ""
	if len(cfg.cdpAll) > 1 && !spread {
		return fmt.Errorf("--cdp is given %d times: only batch and compare --batch spread pages over several endpoints", len(cfg.cdpAll))
	}
	if len(cfg.cdpHeaders) > 0 && cfg.cdp == "" {
		return errors.New("--cdp-header goes with --cdp: it is sent to the endpoint")
	}
	for i, h := range cfg.cdpHeaders {
		if err := checkHeader(h); err != nil {
			return fmt.Errorf("--cdp-header #%d: %w", i+1, err)
		}
	}
	return nil
}

// filter keeps the flags of names that were given.
func filter(names []string, set map[string]bool) []string {
	var out []string
	for _, n := range names {
		if set[n] {
			out = append(out, n)
		}
	}
	return out
}

// version names the build the binary came from, in one line.
func version() string {
	info, _ := debug.ReadBuildInfo()
	return formatVersion(info)
}

// pseudoVersion matches the version the go command makes up for a commit
// (v0.0.0-20261206225152-5f6cc5a45176, possibly with +dirty), as opposed
// to a tagged release.
var pseudoVersion = regexp.MustCompile(`^v[0-9]+\.(0\.0-|[0-9]+\.[0-9]+-([^+]*\.)?0\.)[0-9]{14}-[A-Za-z0-9]+(\+.*)?$`)

// formatVersion is `axfuse --version` for a build: the module version of a
// tagged release (`go install ...@v1.2.3`), else the commit the binary was
// built from (its first 12 hex digits, +dirty with uncommitted changes,
// and the commit time), else (devel); then the Go version. A made-up
// pseudo-version yields to the commit when the build recorded one.
func formatVersion(info *debug.BuildInfo) string {
	gover := runtime.Version()
	if info == nil {
		return "axfuse (devel) " + gover
	}
	if info.GoVersion != "" {
		gover = info.GoVersion
	}
	var rev, when, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	v := info.Main.Version
	if v != "" && v != "(devel)" && (rev == "" || !pseudoVersion.MatchString(v)) {
		return "axfuse " + v + " " + gover
	}
	if rev == "" {
		return "axfuse (devel) " + gover
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	out := "axfuse " + rev + dirty
	if when != "" {
		out += " " + when
	}
	return out + " " + gover
}

// writeOverview prints `axfuse --help`: every command in a line.
func writeOverview(w io.Writer) {
	fmt.Fprint(w, "axfuse turns a live Chrome page into the observation an agent reads and acts on.\n\nUsage: axfuse COMMAND [flags] [args]\n\nCommands:\n")
	for _, c := range commandList() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun 'axfuse COMMAND --help' for a command's flags and an example; 'axfuse --version' for the version.\n")
}

// writeHelp prints `axfuse CMD --help`.
func writeHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "Usage: axfuse %s %s\n\n%s", c.name, c.args, wrap(c.detail, 76, ""))
	if len(c.flags) > 0 {
		fmt.Fprint(w, "\nFlags:\n")
		for _, f := range c.flags {
			h := flagHelp[f]
			left := "--" + f
			if len(f) == 1 {
				left = "-" + f
			}
			if h[0] != "" {
				left += " " + h[0]
			}
			if len(left) > 22 {
				fmt.Fprintf(w, "  %s\n%s", left, wrap(h[1], 76, strings.Repeat(" ", 25)))
			} else {
				fmt.Fprintf(w, "  %-22s %s", left, strings.TrimPrefix(wrap(h[1], 76, strings.Repeat(" ", 25)), strings.Repeat(" ", 25)))
			}
		}
	}
	fmt.Fprintf(w, "\nExample:\n%s", indentLines(c.example, "  "))
}

// wrap fills text to width columns, each line prefixed by indent.
func wrap(text string, width int, indent string) string {
	var sb strings.Builder
	for _, para := range strings.Split(text, "\n") {
		line := indent
		for _, word := range strings.Fields(para) {
			if len(line) > len(indent) && len(line)+1+len(word) > width {
				sb.WriteString(line + "\n")
				line = indent
			}
			if len(line) > len(indent) {
				line += " "
			}
			line += word
		}
		sb.WriteString(line + "\n")
	}
	return sb.String()
}

func indentLines(s, indent string) string {
	var sb strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		sb.WriteString(indent + l + "\n")
	}
	return sb.String()
}

// commandList is the commands in the order help lists them.
func commandList() []*command {
	out := make([]*command, 0, len(commands))
	for _, c := range commands {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].order() < out[j].order() })
	return out
}

var commandOrder = []string{"snapshot", "act", "open", "back", "forward", "reload", "tabs", "close", "find", "locate", "compare", "capture", "bench", "batch", "mcp"}

func (c *command) order() int {
	for i, n := range commandOrder {
		if n == c.name {
			return i
		}
	}
	return len(commandOrder)
}
