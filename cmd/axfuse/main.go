// Command axfuse turns a live Chrome page into the observation a
// browser-automation agent reads and acts on: the accessibility tree fused
// with the DOM snapshot and event listeners, pruned, with refs on
// interactive elements.
//
//	axfuse snapshot [URL]            fused YAML of a page (the demo page by default)
//	axfuse act --cdp EP click e12    act by ref on an attached tab
//	axfuse open|back|reload --cdp EP drive the attached tab
//	axfuse mcp [--port N]            the browser_* tools over MCP
//
// Each command is declared in the file that runs it, with its own checks
// of its flags: snapshot.go, act.go, tabs.go (open, back, forward, reload,
// tabs, close), find.go, locate.go, compare.go, capture.go, bench.go,
// batch.go and mcp.go; shared.go holds what they share. cli.go holds the
// command type and the list of commands, the flag table and the checks
// that hold for every command; main.go reads a command line into a
// config. `axfuse CMD --help` prints a command's declaration, and the
// command reference (docs/cli.md) is that output.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, context.Canceled) && context.Cause(ctx) != nil {
		// Stopped by a signal, everything closed: say which, not
		// "context canceled".
		err = fmt.Errorf("stopped: %w", context.Cause(ctx))
	}
	stop()
	if err != nil {
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintf(os.Stderr, "axfuse: %v\n", err)
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "axfuse: %s\n", oneLine(err.Error()))
		os.Exit(1)
	}
}

// usageError is a command line that cannot run: one line, with where to
// read more.
type usageError struct{ error }

func usageErr(cmd string, err error) usageError {
	if cmd == "" {
		return usageError{fmt.Errorf("%v (run 'axfuse --help')", err)}
	}
	return usageError{fmt.Errorf("%s: %v (run 'axfuse %s --help')", cmd, err, cmd)}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageErr("", errors.New("missing command"))
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				writeHelp(stdout, c)
				return nil
			}
			return usageErr("", fmt.Errorf("unknown command %q", args[1]))
		}
		writeOverview(stdout)
		return nil
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, version())
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		return usageErr("", fmt.Errorf("unknown command %q", args[0]))
	}
	cfg, err := parseFlags(c, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		writeHelp(stdout, c)
		return nil
	}
	if err != nil {
		return usageErr(c.name, err)
	}
	cfg.stderr = stderr
	return cfg.scrubSecrets(c.run(ctx, cfg, stdout))
}

// config is the parsed command line.
type config struct {
	cmd              string
	url              string
	cdp, tab         string
	cdpAll           []string // every --cdp, in order (batch, compare --batch)
	cdpHeaders       []string // --cdp-header, "Name: value"
	browser, from    string
	out, screenshot  string
	format           string
	mode             fuse.Mode
	viewport         string
	width, height    int
	wait, timeout    time.Duration
	settle           time.Duration
	offscreen        fuse.Offscreen
	scope            string
	margin           float64
	depth            int
	role, name, text string
	verb             string
	actArgv          []string
	clear, submit    bool
	dialog           string
	noScreenshot     bool
	hits             bool
	batchFile        string // compare --batch
	html             string // compare --html
	peer             string // compare --peer
	x, y             float64
	scale            float64
	frameDepth       int
	maxTokens        int
	audit            bool
	maxTokensSet     bool
	capture          domsnap.CaptureMode
	captureSet       bool
	parallelSet      bool
	formatSet        bool
	urls             []string  // bench
	runs, parallel   int       // bench, batch
	listFile         string    // batch
	ordered          bool      // batch, compare --batch
	resume           string    // batch, compare --batch
	uploadRoot       string    // mcp
	allowedOrigins   string    // mcp
	blockedOrigins   string    // mcp
	allowFileURLs    bool      // mcp
	outputDir        string    // mcp
	caps             string    // mcp
	port             int       // mcp: -1 for stdio
	host             string    // mcp
	maxSessions      int       // mcp
	stderr           io.Writer // warnings
}

// defaults are the values of flags a command does not take.
func defaults(cmd string) *config {
	return &config{cmd: cmd, stderr: io.Discard, viewport: "1280x720", scale: 1, frameDepth: defaultFrameDepth,
		format: "yaml", mode: fuse.ModeFused, offscreen: fuse.OffscreenCollapse, capture: domsnap.CaptureAuto, runs: 5, parallel: 2,
		dialog: "dismiss", wait: 300 * time.Millisecond, timeout: 20 * time.Second, port: -1, host: "127.0.0.1", maxSessions: 8}
}

// parseFlags reads a command's flags (before or after its arguments) and
// its arguments.
func parseFlags(c *command, args []string) (*config, error) {
	cfg := defaults(c.name)
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, f := range c.flags {
		cfg.bind(fs, f)
	}
	positional, err := parseArgs(c, fs, args)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	cfg.maxTokensSet, cfg.captureSet, cfg.parallelSet = set["max-tokens"], set["capture"], set["parallel"]
	cfg.formatSet = set["format"]
	// First each flag on its own and what one flag rules out of another,
	// for every command; then the arguments; last what the command and
	// every command need of flags and arguments together.
	if err := cfg.check(set); err != nil {
		return nil, err
	}
	if cfg.width, cfg.height, err = parseViewport(cfg.viewport); err != nil {
		return nil, err
	}
	if err := cfg.positional(positional); err != nil {
		return nil, err
	}
	return cfg, c.combinations(cfg)
}

// parseArgs separates flags from arguments. After act's verb only a
// flag's exact name is a flag: the rest is the action's text, which may
// start with a dash ("-2"). A flag another command takes is named as such.
func parseArgs(c *command, fs *flag.FlagSet, args []string) ([]string, error) {
	explain := func(err error) error {
		var unknown *unknownFlagError
		if errors.As(err, &unknown) {
			name := unknown.name
			dash := "--"
			if len(name) == 1 {
				dash = "-"
			}
			if _, known := flagHelp[name]; known {
				return fmt.Errorf("does not take %s%s", dash, name)
			}
			return fmt.Errorf("unknown flag %s%s", dash, name)
		}
		return err
	}
	if c.name == "act" {
		pos, err := parseActFlags(fs, args)
		if err != nil {
			return nil, explain(err)
		}
		return pos, nil
	}
	var positional []string
	for len(args) > 0 {
		if err := parseSet(fs, args); err != nil {
			return nil, explain(err)
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return positional, nil
}

// unknownFlagError is a flag the command's flag set does not define.
type unknownFlagError struct{ name string }

func (e *unknownFlagError) Error() string { return "flag provided but not defined: -" + e.name }

// parseSet is fs.Parse(args), except that a flag fs does not define is an
// *unknownFlagError: the flags before it are parsed as Parse parses them,
// and it is found by fs.Lookup, not read out of Parse's message.
func parseSet(fs *flag.FlagSet, args []string) error {
	if k, name := firstUnknownFlag(fs, args); k >= 0 {
		if err := fs.Parse(args[:k]); err != nil {
			return err
		}
		return &unknownFlagError{name}
	}
	return fs.Parse(args)
}

// firstUnknownFlag walks args as fs.Parse does (flags up to the first
// argument or "--", a flag's value after it unless it is a bool flag or
// has "=value") and gives the index and name of the first flag fs does not
// define; -1 for none. -h and -help are Parse's (flag.ErrHelp), and a
// flag of bad syntax is left to Parse to say.
func firstUnknownFlag(fs *flag.FlagSet, args []string) (int, string) {
	for i := 0; i < len(args); i++ {
		s := args[i]
		if len(s) < 2 || s[0] != '-' || s == "--" {
			return -1, ""
		}
		name := strings.TrimPrefix(s[1:], "-")
		if name == "" || name[0] == '-' || name[0] == '=' {
			return -1, ""
		}
		name, _, hasValue := strings.Cut(name, "=")
		f := fs.Lookup(name)
		if f == nil {
			if name == "help" || name == "h" {
				return -1, ""
			}
			return i, name
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !(ok && b.IsBoolFlag()) && !hasValue {
			i++ // its value
		}
	}
	return -1, ""
}

// positional reads the command's arguments.
func (cfg *config) positional(pos []string) error {
	switch cfg.cmd {
	case "locate":
		if len(pos) < 2 {
			return errors.New("want X Y [URL]: a viewport point in CSS px")
		}
		x, err1 := strconv.ParseFloat(pos[0], 64)
		y, err2 := strconv.ParseFloat(pos[1], 64)
		if err1 != nil || err2 != nil || !finite(x) || !finite(y) || x < 0 || y < 0 || x > 100000 || y > 100000 {
			return fmt.Errorf("X Y %q %q: want a viewport point, two numbers from 0 to 100000 (CSS px)", pos[0], pos[1])
		}
		cfg.x, cfg.y, pos = x, y, pos[2:]
	case "act":
		return cfg.actArgs(pos)
	case "bench":
		cfg.urls = pos
		return nil
	case "batch":
		if len(pos) != 1 {
			return errors.New("want FILE: a file of URLs or paths, one a line")
		}
		cfg.listFile = pos[0]
		return nil
	case "mcp", "back", "forward", "reload", "tabs", "close":
		if len(pos) > 0 {
			return fmt.Errorf("takes no arguments, not %q", pos)
		}
		return nil
	case "open":
		if len(pos) != 1 {
			return errors.New("want one URL")
		}
	}
	if len(pos) > 1 {
		return fmt.Errorf("too many arguments: %q", pos)
	}
	if len(pos) == 1 {
		cfg.url = pos[0]
	}
	return nil
}

// oneLine folds an error's lines (a library's, a browser's output) into
// one, so that every failure is one line on stderr.
func oneLine(s string) string {
	var parts []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.TrimSuffix(strings.Join(parts, " "), ":")
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func parseViewport(s string) (int, int, error) {
	w, h, ok := strings.Cut(s, "x")
	wi, err1 := strconv.Atoi(w)
	hi, err2 := strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil || wi < 100 || hi < 100 || wi > 10000 || hi > 10000 {
		return 0, 0, fmt.Errorf("--viewport %q: want WxH, e.g. 1280x720", s)
	}
	return wi, hi, nil
}
