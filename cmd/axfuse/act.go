package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/domsnap/chrome"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/index"
	"github.com/axfuse/axfuse/layout"
)

// A session keeps a tab's ref table between processes, so that `snapshot
// --cdp` then `act --cdp` in another process act on the refs the agent saw.
// It lives in the user's cache directory, keyed by endpoint and tab.
func sessionPath(endpoint, target string) (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the ref session: %w", err)
	}
	sum := sha256.Sum256([]byte(endpoint + "|" + target))
	return filepath.Join(dir, "axfuse", "sessions", hex.EncodeToString(sum[:12])+".json"), nil
}

func loadTable(path string) *index.Table {
	t := index.NewTable()
	if b, err := os.ReadFile(path); err == nil {
		if json.Unmarshal(b, t) != nil {
			t = index.NewTable() // a damaged session starts afresh
		}
	}
	return t
}

// saveTable writes the session atomically (temp file, then rename).
func saveTable(path string, t *index.Table) error {
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// documentID names the top-level document of a capture.
func documentID(c *domsnap.Capture) string {
	if len(c.Frames) == 0 {
		return ""
	}
	return c.Frames[0].FrameID + "/" + c.Frames[0].LoaderID
}

// observe captures the tab and fuses it with the session's refs.
func observe(tab *chrome.Tab, table *index.Table, cfg *config) (*domsnap.Capture, *fuse.Tree, error) {
	c, err := tab.Capture()
	if err != nil {
		return nil, nil, err
	}
	table.Document(documentID(c))
	opts := cfg.fuseOptions()
	opts.Refs = table
	return c, fuse.Build(c, layout.Compute(c), opts), nil
}

var actVerbs = map[string]bool{"click": true, "dblclick": true, "hover": true, "type": true, "press": true}

// act acts on a ref of the attached browser's current tab, then prints the
// new snapshot. It never acts on another element than the one the agent saw.
func act(ctx context.Context, cfg *config, stdout io.Writer) error {
	b, err := chrome.Open(ctx, chrome.Options{Endpoint: cfg.cdp, CallTimeout: cfg.timeout})
	if err != nil {
		return err
	}
	defer b.Close()
	tab, err := b.CurrentTab()
	if err != nil {
		return err
	}
	defer tab.Close()
	path, err := sessionPath(cfg.cdp, tab.TargetID())
	if err != nil {
		return err
	}
	table := loadTable(path)
	x, y, err := aim(tab, table, cfg)
	if err != nil {
		return err
	}
	if err := perform(tab, cfg, x, y); err != nil {
		return err
	}
	tab.Settle(300*time.Millisecond, cfg.timeout)
	c, _, err := observe(tab, table, cfg)
	if err != nil {
		return err
	}
	obs := fuse.Snapshot(c, withRefs(cfg, table))
	if err := saveTable(path, table); err != nil {
		return err
	}
	return writeObservation(stdout, cfg, obs)
}

func withRefs(cfg *config, t *index.Table) fuse.Options {
	o := cfg.fuseOptions()
	o.Refs = t
	return o
}

// aim finds the ref's element, checks it is the one the agent saw and that a
// click at its clickable point reaches it, and returns that point.
func aim(tab *chrome.Tab, table *index.Table, cfg *config) (int64, int64, error) {
	// What the agent saw, read before observing refreshes the table.
	key, seen, ok := table.Lookup(cfg.ref)
	if !ok {
		return 0, 0, fmt.Errorf("Ref %s not found in the current page snapshot", cfg.ref)
	}
	_, tree, err := observe(tab, table, cfg)
	if err != nil {
		return 0, 0, err
	}
	loc, err := locate(tree, cfg.ref, key, seen)
	if err != nil {
		return 0, 0, err
	}
	if !loc.InViewport {
		if err := tab.ScrollIntoView(key.Backend); err != nil {
			return 0, 0, err
		}
		if _, tree, err = observe(tab, table, cfg); err != nil {
			return 0, 0, err
		}
		if loc, err = locate(tree, cfg.ref, key, seen); err != nil {
			return 0, 0, err
		}
		if !loc.InViewport {
			return 0, 0, fmt.Errorf("ref %s could not be scrolled into view; nothing was done", cfg.ref)
		}
	}
	if loc.Occluded {
		return 0, 0, fmt.Errorf("ref %s is covered by %s; nothing was done", cfg.ref, orSomething(loc.Cover))
	}
	x, y := int64(math.Round(loc.Point[0])), int64(math.Round(loc.Point[1]))
	hit, err := tab.NodeAt(x, y)
	if err != nil {
		return 0, 0, err
	}
	if ok, what := tree.Reaches(loc, hit); !ok {
		return 0, 0, fmt.Errorf("a click on ref %s at (%d,%d) would reach %s instead; nothing was done", cfg.ref, x, y, orSomething(what))
	}
	return x, y, nil
}

func orSomething(s string) string {
	if s == "" {
		return "another element"
	}
	return s
}

// locate finds a ref's element in the current tree and checks that it is
// still what the agent saw.
func locate(tree *fuse.Tree, ref string, key index.Key, seen index.Fingerprint) (fuse.Located, error) {
	loc, ok := tree.Locate(key)
	if !ok {
		return loc, fmt.Errorf("Ref %s not found in the current page snapshot", ref)
	}
	if loc.Fingerprint != seen {
		return loc, fmt.Errorf("Ref %s changed since the snapshot: was %s, now %s; nothing was done", ref, describe(seen), describe(loc.Fingerprint))
	}
	return loc, nil
}

func describe(f index.Fingerprint) string {
	s := fuse.Key(&fuse.Node{Role: f.Role, Name: f.Name})
	if f.Tag != "" {
		s += " <" + f.Tag + ">"
	}
	return s
}

// keyNames maps `act press` key names to what chromedp's KeyEvent sends.
var keyNames = map[string]string{"Enter": "\r", "Tab": "\t", "Backspace": "\b", "Escape": "\u001b", "Space": " "}

func perform(tab *chrome.Tab, cfg *config, x, y int64) error {
	fx, fy := float64(x), float64(y)
	switch cfg.verb {
	case "click":
		return tab.Click(fx, fy, 1)
	case "dblclick":
		return tab.Click(fx, fy, 2)
	case "hover":
		return tab.Hover(fx, fy)
	case "press":
		if err := tab.Click(fx, fy, 1); err != nil {
			return err
		}
		k, ok := keyNames[cfg.text]
		if !ok {
			k = cfg.text
		}
		return tab.Keys(k)
	case "type":
		if err := tab.Click(fx, fy, 1); err != nil {
			return err
		}
		if cfg.clear {
			if err := tab.SelectAll(); err != nil {
				return err
			}
		}
		if err := tab.InsertText(cfg.text); err != nil {
			return err
		}
		if cfg.submit {
			return tab.Keys("\r")
		}
		return nil
	}
	return errors.New("unknown action " + cfg.verb)
}

func writeObservation(w io.Writer, cfg *config, obs *fuse.Observation) error {
	if cfg.format == "json" {
		return obs.WriteJSON(w)
	}
	_, err := io.WriteString(w, obs.Snapshot)
	return err
}
