package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/axfuse/axfuse/act"
)

// TestActHelpNamesEveryVerb: `act --help` lists exactly the verbs of
// act's verb table, each as the table's usage, and act takes every flag
// a verb does; verbList is the table's names in its order.
func TestActHelpNamesEveryVerb(t *testing.T) {
	c := commands["act"]
	_, list, ok := strings.Cut(c.detail, "\nVerbs: ")
	if !ok {
		t.Fatalf("act's help lists no verbs:\n%s", c.detail)
	}
	var listed []string
	for _, item := range strings.Split(list, " | ") {
		name, _, _ := strings.Cut(item, " ")
		v, ok := act.Lookup(name)
		if !ok {
			t.Errorf("act's help lists %q, which is no verb", item)
			continue
		}
		if !strings.HasPrefix(item, v.Usage()) {
			t.Errorf("act's help lists %q, want it to begin %q", item, v.Usage())
		}
		listed = append(listed, name)
	}
	for _, v := range act.Verbs() {
		if !slices.Contains(listed, v.Name) {
			t.Errorf("act's help does not list the verb %s", v.Usage())
		}
		for _, f := range v.Flags {
			if !slices.Contains(c.flags, f.Name) {
				t.Errorf("%s takes --%s, which act does not", v.Name, f.Name)
			}
		}
	}
	if got := verbList(); got != strings.Join(act.Names(), ", ") {
		t.Errorf("verbList() = %q", got)
	}
}
