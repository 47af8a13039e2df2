package ci

import "testing"

func TestRunning(t *testing.T) {
	for v, want := range map[string]bool{"": false, "false": false, "0": false, " FALSE ": false,
		"true": true, "1": true, "yes": true, " True": true} {
		t.Setenv("CI", v)
		if got := Running(); got != want {
			t.Errorf("CI=%q: Running() = %v, want %v", v, got, want)
		}
	}
}
