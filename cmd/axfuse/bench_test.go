package main

import (
	"errors"
	"testing"
	"time"

	"github.com/axfuse/axfuse/domsnap"
)

// TestBenchGroupsFailedStepsByTheirName: a step that failed in some runs
// groups under its own name, marked failed, whatever each failure said;
// the name is read from the timing's fields, not cut out of its text.
func TestBenchGroupsFailedStepsByTheirName(t *testing.T) {
	start := time.Now()
	a := domsnap.FailedSince("listener discovery", errors.New("Cannot find context (-32000)"), start)
	b := domsnap.FailedSince("listener discovery", errors.New("no answer within 5s"), start)
	ok := domsnap.FailedSince("listener discovery", nil, start)
	if stepName(a) != stepName(b) || stepName(a) != "listener discovery (failed)" {
		t.Errorf("failed runs group as %q and %q", stepName(a), stepName(b))
	}
	if stepName(ok) != "listener discovery" || ok.Error != "" {
		t.Errorf("a run that did not fail: %q, error %q", stepName(ok), ok.Error)
	}
}
