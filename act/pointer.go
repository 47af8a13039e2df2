package act

import (
	"math"

	"github.com/axfuse/axfuse/browser"
)

// clickOn clicks a target count times at its point, or, on a retry that
// follows the element (see pointAt), where the element went.
//
// The move and the press are sent apart, and what the move caused is
// judged between them (Guard.Peek: the browser's hit test at the point
// now): a page that slides a frame or a clear link over the point as the
// pointer arrives would take the press there, and events inside a frame
// the guard does not watch cannot be stopped, only not sent.
func (s *Session) clickOn(t Target, g browser.Guard, count int) error {
	if a := g.Armed(); a.Aim != nil && !t.follow {
		off := t.Located.FrameOffset
		t.X, t.Y = int64(math.Round(a.Aim[0]+off[0])), int64(math.Round(a.Aim[1]+off[1]))
	}
	x, y, err := s.pointAt(t, g)
	if err != nil {
		return err
	}
	if err := s.Tab.Hover(x, y); err != nil {
		return err
	}
	if v, err := g.Peek(); err != nil || v.Blocked != nil {
		return err // a stop is read by Finish
	}
	return s.Tab.Press(x, y, count)
}

// hoverOn moves the pointer onto a target, following it as clickOn does.
func (s *Session) hoverOn(t Target, g browser.Guard) error {
	x, y, err := s.pointAt(t, g)
	if err != nil {
		return err
	}
	return s.Tab.Hover(x, y)
}

// followSteps bounds how often the pointer follows an element that
// keeps moving from under it.
const followSteps = 3

// pointAt is where the press goes. Usually that is the target's point.
// On a retry after the press missed (Target.follow), the pointer is moved
// there first and watched for a few frames: an element that a hover
// moves from under the pointer (aria-practices' "Skip To Content" strip
// slides down when hovered, and its hover flickers on and off every
// frame) is followed to the middle of its part in view, as a person's
// hand follows it. The guard still stops a press that would not reach
// the element.
func (s *Session) pointAt(t Target, g browser.Guard) (float64, float64, error) {
	x, y := float64(t.X), float64(t.Y)
	if !t.follow {
		return x, y, nil
	}
	off := t.Located.FrameOffset
	for range followSteps {
		if err := s.Tab.Hover(x, y); err != nil {
			return 0, 0, err
		}
		var next []float64
		if err := g.Run("follow the element", followJS, &next, x-off[0], y-off[1]); err != nil {
			return 0, 0, err
		}
		if len(next) != 2 {
			break // it stayed under the pointer, or nothing of it is in view
		}
		x, y = math.Round(next[0]+off[0]), math.Round(next[1]+off[1])
	}
	return x, y, nil
}

// followJS watches the element for three animation frames with the
// pointer at (x, y) in its frame's viewport. When the element is no
// longer under the pointer it returns the middle of the element's part in
// view (null: it stayed, or nothing of it is in view). A hidden tab runs
// no frames; timers stand in for them there.
var followJS = pageFunction("follow.js")
