package chrome

import (
	"context"
	"errors"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/browser/chrome/internal/cdpcall"
	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TargetID is the browser's id of the tab (stable while the tab lives).
func (t *Tab) TargetID() string {
	if t.target != "" {
		return t.target
	}
	if c := chromedp.FromContext(t.ctx); c != nil && c.Target != nil {
		return string(c.Target.TargetID)
	}
	return ""
}

// nodeAt asks one session which node a click at (x, y) of its frame's
// viewport reaches. DOM.getNodeForLocation takes document coordinates
// (whole CSS pixels), so the frame's scroll offset is added first.
func (t *Tab) nodeAt(session context.Context, x, y int64) (int64, error) {
	var backend int64
	err := t.callIn(session, "DOM.getNodeForLocation", func(ctx context.Context) error {
		m, err := cdpcall.Do(ctx, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return err
		}
		if lv := m.CSSLayoutViewport; lv != nil {
			x, y = x+lv.PageX, y+lv.PageY
		}
		res, err := cdpcall.Do(ctx, dom.GetNodeForLocation, dom.GetNodeForLocationParams{X: x, Y: y})
		backend = int64(res.BackendNodeID)
		return err
	})
	return backend, err
}

// ScrollIntoView scrolls a node into view if it is not (its frame and the
// frames around it).
func (t *Tab) ScrollIntoView(n domsnap.Key) error {
	return t.callIn(t.frames.sessionFor(n.Frame), "DOM.scrollIntoViewIfNeeded", func(ctx context.Context) error {
		_, err := cdpcall.Do(ctx, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{BackendNodeID: cdp.BackendNodeID(n.Backend)})
		return err
	})
}

// input runs an input command that can open a JavaScript dialog: the
// browser answers the command only once the dialog is answered, so an open
// dialog ends the wait (the action happened; the dialog is the new state).
func (t *Tab) input(step string, f func(ctx context.Context) error) error {
	t.armSettle()
	err, _ := t.unlessDialog(func() error { return t.callWith(t.ctx, step, throughDialog, f) })
	return err
}

// unlessDialog runs f and waits for it, or until a JavaScript dialog is
// open (dialog true, err nil): the page's script, and so f's call, waits
// for the dialog, and f may still be running.
func (t *Tab) unlessDialog(f func() error) (err error, dialog bool) {
	done := make(chan error, 1)
	go func() { done <- f() }()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return err, false
		case <-tick.C:
			if t.OpenDialog() != nil {
				return nil, true
			}
		}
	}
}

// Click dispatches real mouse events at (x, y): a move, then count presses
// and releases (count 2 is a double click).
func (t *Tab) Click(x, y float64, count int) error {
	if err := t.Hover(x, y); err != nil {
		return err
	}
	return t.Press(x, y, count)
}

// Press presses and releases the left button count times at (x, y), where
// the pointer already is.
func (t *Tab) Press(x, y float64, count int) error {
	for c := 1; c <= count; c++ {
		for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
			err := t.input("Input.dispatchMouseEvent", func(ctx context.Context) error {
				_, err := cdpcall.Do(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{
					Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: int64(c),
				})
				return err
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// Hover moves the mouse to (x, y).
func (t *Tab) Hover(x, y float64) error {
	return t.input("Input.dispatchMouseEvent", func(ctx context.Context) error {
		_, err := cdpcall.Do(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: x, Y: y})
		return err
	})
}

// InsertText types text into the focused element, as an IME would.
func (t *Tab) InsertText(text string) error {
	return t.input("Input.insertText", func(ctx context.Context) error {
		_, err := cdpcall.Do(ctx, input.InsertText, input.InsertTextParams{Text: text})
		return err
	})
}

// wheelEvent is Input.dispatchMouseEvent for a wheel: Chrome wants deltaX
// and deltaY both present, and cdproto's params leave a zero out.
type wheelEvent struct {
	Type   string  `json:"type"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	DeltaX float64 `json:"deltaX"`
	DeltaY float64 `json:"deltaY"`
}

var dispatchWheel = cdp.Command[wheelEvent, cdp.Empty]{Method: input.CommandDispatchMouseEvent}

// Wheel scrolls with the mouse wheel at (x, y) by dy CSS px.
func (t *Tab) Wheel(x, y, dy float64) error { return t.WheelXY(x, y, 0, dy) }

// WheelXY turns the mouse wheel at (x, y) by (dx, dy) CSS px.
func (t *Tab) WheelXY(x, y, dx, dy float64) error {
	return t.input("Input.dispatchMouseEvent", func(ctx context.Context) error {
		_, err := cdpcall.Do(ctx, dispatchWheel, wheelEvent{Type: string(input.DispatchMouseEventTypeMouseWheel), X: x, Y: y, DeltaX: dx, DeltaY: dy})
		return err
	})
}

// Drag presses at (x0, y0), moves in steps to (x1, y1), and releases. An
// HTML5 drag (a draggable element's dragstart) is intercepted, as
// Puppeteer does: Chrome hands over the drag's data instead of starting a
// native drag, and the drop end gets dragenter, dragover and drop from
// Input.dispatchDragEvent. html5 says which kind of drag it was.
func (t *Tab) Drag(x0, y0, x1, y1 float64) (html5 bool, err error) {
	d := htmlDrag{t: t}
	if err := d.intercept(true); err != nil {
		return false, err
	}
	defer d.intercept(false)
	ctx, cancel := context.WithCancel(t.ctx)
	defer cancel()
	d.listen(ctx)
	if err := t.mouse(input.DispatchMouseEventTypeMouseMoved, x0, y0, 0); err != nil {
		return false, err
	}
	if err := t.mouse(input.DispatchMouseEventTypeMousePressed, x0, y0, 1); err != nil {
		return false, err
	}
	data, err := d.moves(x0, y0, x1, y1)
	if err != nil {
		return false, err
	}
	if data != nil {
		if err := d.dropAt(x1, y1, data); err != nil {
			return true, err
		}
	}
	return data != nil, t.mouse(input.DispatchMouseEventTypeMouseReleased, x1, y1, 0)
}

// mouse sends one event of the left button (buttons: those held).
func (t *Tab) mouse(typ input.DispatchMouseEventType, x, y float64, buttons int64) error {
	return t.input("Input.dispatchMouseEvent", func(ctx context.Context) error {
		_, err := cdpcall.Do(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{
			Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, Buttons: buttons, ClickCount: 1,
		})
		return err
	})
}

// htmlDrag is one Drag under way: its tab, and the data of the HTML5
// drag the page started, once it does.
type htmlDrag struct {
	t       *Tab
	dragged chan *input.DragData
}

// intercept turns the browser's drag interception on or off.
func (d *htmlDrag) intercept(on bool) error {
	return d.t.call("Input.setInterceptDrags", func(ctx context.Context) error {
		_, err := cdpcall.Do(ctx, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: on})
		return err
	})
}

// listen keeps the data of the HTML5 drag the page starts, while ctx
// lives (the first one; the browser waits for it to be dropped).
func (d *htmlDrag) listen(ctx context.Context) {
	dragged := make(chan *input.DragData, 1)
	d.dragged = dragged
	events := chromedp.Events(ctx, input.DragIntercepted)
	go func() {
		for e, err := range events {
			if err != nil {
				return
			}
			select {
			case dragged <- e.Data:
			default:
			}
		}
	}()
}

// moves moves the pressed mouse from (x0, y0) to (x1, y1) in steps,
// and says whether the page started an HTML5 drag on the way (its data).
func (d *htmlDrag) moves(x0, y0, x1, y1 float64) (*input.DragData, error) {
	const steps = 10
	var data *input.DragData
	for i := 1; i <= steps && data == nil; i++ {
		f := float64(i) / steps
		if err := d.t.mouse(input.DispatchMouseEventTypeMouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, 1); err != nil {
			return nil, err
		}
		select {
		case data = <-d.dragged:
		default:
		}
	}
	if data == nil {
		// The event can trail the move that started the drag.
		select {
		case data = <-d.dragged:
		case <-time.After(50 * time.Millisecond):
		}
	}
	return data, nil
}

// dropAt ends an HTML5 drag at (x, y): enter, over, drop.
func (d *htmlDrag) dropAt(x, y float64, data *input.DragData) error {
	for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
		err := d.t.input("Input.dispatchDragEvent", func(ctx context.Context) error {
			_, err := cdpcall.Do(ctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: x, Y: y, Data: data})
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// InterceptFileChoosers stops file choosers from opening native dialogs;
// the page's request is kept for OpenedFileChooser instead.
func (t *Tab) InterceptFileChoosers() error {
	return t.call("Page.setInterceptFileChooserDialog", func(ctx context.Context) error {
		_, err := cdpcall.Do(ctx, page.SetInterceptFileChooserDialog, page.SetInterceptFileChooserDialogParams{Enabled: true})
		return err
	})
}

// OpenedFileChooser returns the file chooser an action opened, or nil.
func (t *Tab) OpenedFileChooser() *browser.FileChooser { return t.chooser.Load() }

// SetFiles gives a file input its files (absolute paths on the browser's
// machine).
func (t *Tab) SetFiles(n domsnap.Key, files []string) error {
	return t.callIn(t.frames.sessionFor(n.Frame), "DOM.setFileInputFiles", func(ctx context.Context) error {
		_, err := cdpcall.Do(ctx, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: files, BackendNodeID: cdp.BackendNodeID(n.Backend)})
		return err
	})
}

// AnswerFileChooser gives the file chooser an action opened its files
// (absolute paths on the browser's machine); it is then closed.
func (t *Tab) AnswerFileChooser(files []string) error {
	fc := t.chooser.Load()
	if fc == nil {
		return errors.New("no file chooser is open")
	}
	if err := t.SetFiles(domsnap.Key{Frame: fc.Frame, Backend: fc.Backend}, files); err != nil {
		return err
	}
	t.chooser.CompareAndSwap(fc, nil)
	return nil
}

// ForgetFileChooser drops the file chooser an earlier action opened (its
// answer is reported once).
func (t *Tab) ForgetFileChooser() { t.chooser.Store(nil) }
