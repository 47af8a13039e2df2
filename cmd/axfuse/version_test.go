package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestFormatVersion: `axfuse --version` names a release by its version, a
// build from a checkout by its commit, and anything else as (devel).
func TestFormatVersion(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	const rev, when = "5f6cc5a45176a20e7138c827317b26e69bc84885", "2026-12-06T22:51:52Z"
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.0"}},
			"axfuse v0.3.0 go1.26.8"},
		{"release with commit", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.0"},
			Settings: vcs("vcs.revision", rev, "vcs.time", when, "vcs.modified", "false")},
			"axfuse v0.3.0 go1.26.8"},
		{"commit", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs", "git", "vcs.revision", rev, "vcs.time", when, "vcs.modified", "false")},
			"axfuse 5f6cc5a45176 2026-12-06T22:51:52Z go1.26.8"},
		{"modified", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs.revision", rev, "vcs.time", when, "vcs.modified", "true")},
			"axfuse 5f6cc5a45176+dirty 2026-12-06T22:51:52Z go1.26.8"},
		{"pseudo-version yields to the commit", &debug.BuildInfo{GoVersion: "go1.26.8",
			Main:     debug.Module{Version: "v0.0.0-20261206225152-5f6cc5a45176+dirty"},
			Settings: vcs("vcs.revision", rev, "vcs.time", when, "vcs.modified", "true")},
			"axfuse 5f6cc5a45176+dirty 2026-12-06T22:51:52Z go1.26.8"},
		{"pseudo-version alone", &debug.BuildInfo{GoVersion: "go1.26.8",
			Main: debug.Module{Version: "v0.0.0-20261206225152-5f6cc5a45176"}},
			"axfuse v0.0.0-20261206225152-5f6cc5a45176 go1.26.8"},
		{"nothing", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"axfuse (devel) go1.26.8"},
		{"no build info", nil, "axfuse (devel) " + runtime.Version()},
	} {
		if got := formatVersion(tc.info); got != tc.want {
			t.Errorf("%s: formatVersion = %q, want %q", tc.name, got, tc.want)
		}
	}
}
