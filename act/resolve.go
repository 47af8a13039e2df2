package act

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/axfuse/axfuse/fuse"
	"github.com/axfuse/axfuse/index"
)

// Target is a ref resolved to a point a click reaches it at.
type Target struct {
	Ref     string
	Key     domsnap.Key
	X, Y    int64
	Located fuse.Located
	// follow: a retry after the press missed an element that a hover
	// moved from under the pointer; the pointer follows it (see pointAt).
	follow bool
}

// Resolve finds a ref's element and checks, in order: the ref is known, its
// element is still there and looks as the agent saw it, it is (or can be
// scrolled) in view, nothing covers it, and the browser's own hit test at
// its clickable point reaches it. Any failure is an error naming why, and
// nothing is done.
func (s *Session) Resolve(ref string) (Target, error) { return s.resolveRef(ref, false, s.hitCheck) }

// confirm is the last check of a placed target, made with the browser:
// the hit test (hitCheck), or the hit test with the guard armed at once
// (armed). from is the stored observation the target was placed from, nil
// for a fresh one.
type confirm func(t Target, tree *fuse.Tree, from *Observed) error

// resolveRef is Resolve with its last check given; fresh skips the stored
// observation even in a Cache session (a retry after the guard stopped an
// action).
func (s *Session) resolveRef(ref string, fresh bool, check confirm) (Target, error) {
	// What the agent saw, read before observing refreshes the table.
	key, seen, ok := s.Refs.Lookup(ref)
	if !ok {
		return Target{}, fmt.Errorf("Ref %s not found in the current page snapshot", ref)
	}
	if last := s.last.Load(); s.Cache && !fresh && last != nil {
		if t, tree, err := s.place(ref, key, seen, last.Tree); err == nil {
			from := last
			if tree != last.Tree {
				from = nil // scrolled and observed afresh
			}
			t, err := confirmAt(t, tree, from, check)
			var miss *hitMiss
			if err == nil || !errors.As(err, &miss) {
				return t, err
			}
			// The stored observation is out of date where it matters:
			// observe afresh.
		}
	}
	t, err := s.resolveFresh(ref, key, seen, check)
	var miss *hitMiss
	if errors.As(err, &miss) {
		// The page was still moving between the capture and the hit test
		// (a smooth scroll a key started is still running as the next
		// action comes): once it has come to rest, a fresh observation
		// places the element where it is.
		time.Sleep(restAfterMiss)
		t, err = s.resolveFresh(ref, key, seen, check)
	}
	return t, err
}

// restAfterMiss is how long a resolve waits, after a hit test missed the
// element in a fresh observation, before it observes again: longer than
// Chrome's smooth scroll of a key or wheel.
const restAfterMiss = 250 * time.Millisecond

// resolveFresh places and confirms a ref in a fresh observation.
func (s *Session) resolveFresh(ref string, key domsnap.Key, seen index.Fingerprint, check confirm) (Target, error) {
	c, tree, err := s.observe()
	if err != nil {
		return Target{}, err
	}
	t, tree, err := s.place(ref, key, seen, tree)
	if errors.Is(err, errRefNotFound) && c.Mode == domsnap.CaptureViewport {
		// Off-screen elements are counted, not fetched, in a viewport
		// capture: the whole page decides whether the ref is gone.
		o, err := s.observeWith(s.options(), browser.CaptureOptions{Mode: domsnap.CaptureFull})
		if err != nil {
			return Target{}, err
		}
		if t, tree, err = s.place(ref, key, seen, o.Tree); err != nil {
			return t, err
		}
		return confirmAt(t, tree, nil, check)
	}
	if err != nil {
		return t, err
	}
	return confirmAt(t, tree, nil, check)
}

// confirmAt runs the last check at the target's point and, when the
// browser's hit test there reaches something else, at the other points of
// its uncovered part (Located.Others), keeping the first the check
// passes: the model can miss what paints over an element (an outside list
// marker a viewport capture has no box for). The first miss is the error
// when none passes.
func confirmAt(t Target, tree *fuse.Tree, from *Observed, check confirm) (Target, error) {
	err := check(t, tree, from)
	var miss *hitMiss
	if err == nil || !errors.As(err, &miss) {
		return t, err
	}
	for _, p := range t.Located.Others {
		alt := t
		alt.X, alt.Y = int64(math.Round(p[0])), int64(math.Round(p[1]))
		if alt.X == t.X && alt.Y == t.Y {
			continue
		}
		altErr := check(alt, tree, from)
		if altErr == nil {
			return alt, nil
		}
		if !errors.As(altErr, &miss) {
			return t, altErr
		}
	}
	return t, err
}

// errRefNotFound: the ref's element is not in the observation.
var errRefNotFound = errors.New("not found in the current page snapshot")

// place checks a ref against one observation's tree: there, as the agent
// saw it, in view (scrolled there if need be) and not covered. It returns
// the tree the target was placed in: after a scroll, the fresh one. The
// target's Located indexes that tree's capture and no other, so the hit
// test must be judged against it (judged against the tree from before
// the scroll, the element read as another one, and a top-of-page link
// clicked after scrolling down was refused as reaching itself).
func (s *Session) place(ref string, key domsnap.Key, seen index.Fingerprint, tree *fuse.Tree) (Target, *fuse.Tree, error) {
	loc, err := locate(tree, ref, key, seen)
	if err != nil {
		return Target{}, tree, err
	}
	if !loc.InViewport {
		if err := s.Tab.ScrollIntoView(key); err != nil {
			return Target{}, tree, err
		}
		if _, tree, err = s.observe(); err != nil {
			return Target{}, tree, err
		}
		if loc, err = locate(tree, ref, key, seen); err != nil {
			return Target{}, tree, err
		}
		if !loc.InViewport {
			return Target{}, tree, fmt.Errorf("ref %s could not be scrolled into view; nothing was done", ref)
		}
	}
	if loc.Occluded {
		return Target{}, tree, fmt.Errorf("ref %s is covered by %s; nothing was done", ref, orSomething(loc.Cover))
	}
	x, y := int64(math.Round(loc.Point[0])), int64(math.Round(loc.Point[1]))
	return Target{Ref: ref, Key: key, X: x, Y: y, Located: loc}, tree, nil
}

// Unreachable says err is a refusal because the browser's hit test at the
// target's point reached another element (a covering layer, or an element
// that takes no pointer events).
func Unreachable(err error) bool {
	var m *hitMiss
	return errors.As(err, &m)
}

// hitMiss: the browser's hit test at a target's point reaches another
// element.
type hitMiss struct {
	ref, what string
	x, y      int64
	noPointer bool // the element takes no pointer events
}

func (e *hitMiss) Error() string {
	if e.noPointer {
		return fmt.Sprintf("ref %s takes no pointer events (pointer-events: none): a click at (%d,%d) would reach %s instead; nothing was done", e.ref, e.x, e.y, orSomething(e.what))
	}
	return fmt.Sprintf("a click on ref %s at (%d,%d) would reach %s instead; nothing was done", e.ref, e.x, e.y, orSomething(e.what))
}

// hitCheck asks the browser which element a click at the target's point
// reaches.
func (s *Session) hitCheck(t Target, tree *fuse.Tree, _ *Observed) error {
	hit, err := s.Tab.HitTest(float64(t.X), float64(t.Y))
	if err != nil {
		return err
	}
	if ok, what := tree.Reaches(t.Located, hit.Target, hit.Backend); !ok {
		return &hitMiss{t.Ref, what, t.X, t.Y, t.Located.NoPointer}
	}
	return nil
}

func orSomething(s string) string {
	if s == "" {
		return "another element"
	}
	return s
}

// locate finds a ref's element in the current tree and checks that it is
// still what the agent saw.
func locate(tree *fuse.Tree, ref string, key domsnap.Key, seen index.Fingerprint) (fuse.Located, error) {
	loc, ok := tree.Locate(key)
	if !ok {
		return loc, fmt.Errorf("Ref %s %w", ref, errRefNotFound)
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
