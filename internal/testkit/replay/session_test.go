package replay

import (
	"errors"
	"fmt"
	"testing"

	"github.com/axfuse/axfuse/browser"
)

// TestRecordedErrorsKeepTheirMeaning: an error played back is what
// errors.Is says it was when recorded, a gone context or document too;
// one recorded before kinds named those (Chrome's text only) means what
// the driver reads it as live.
func TestRecordedErrorsKeepTheirMeaning(t *testing.T) {
	for _, c := range []struct {
		err               error
		context, document bool
	}{
		{fmt.Errorf("read the input guard: %w", errors.Join(browser.ErrContextGone, browser.ErrDocumentGone)), true, true},
		{fmt.Errorf("read the input guard: %w", browser.ErrDocumentGone), false, true},
		{fmt.Errorf("read the input guard: %w", browser.ErrTabGone), false, false},
	} {
		got := recordError(c.err).err()
		if got.Error() != c.err.Error() || errors.Is(got, browser.ErrContextGone) != c.context || errors.Is(got, browser.ErrDocumentGone) != c.document {
			t.Errorf("%q played back as %q, context gone %v, document gone %v", c.err, got,
				errors.Is(got, browser.ErrContextGone), errors.Is(got, browser.ErrDocumentGone))
		}
	}
	for text, document := range map[string]bool{
		"read the input guard: Cannot find context with specified id (-32000)": true,
		"read the input guard: Execution context was destroyed. (-32000)":      true,
		"read the input guard: Could not find object with given id (-32000)":   true,
		"read the input guard: the tab is gone":                                false,
		"read the input guard: no answer within 20s":                           false,
	} {
		got := (&Error{Text: text}).err()
		if got.Error() != text || errors.Is(got, browser.ErrDocumentGone) != document {
			t.Errorf("%q played back as %q, document gone %v", text, got, errors.Is(got, browser.ErrDocumentGone))
		}
	}
}
