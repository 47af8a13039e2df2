package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestTerminatedServerLeavesNothing stops `axfuse mcp`, with a browser
// launched, as MCP clients and process managers stop a server: SIGTERM.
// The server closes the browser and says why it stopped in one line, and
// its temporary directory is left empty (the default SIGTERM killed the
// server outright and left the browser's profile and singleton directory
// behind).
func TestTerminatedServerLeavesNothing(t *testing.T) {
	needChromium(t)
	// Short: Chromium's singleton socket goes below it, and a socket's
	// path must fit in 108 bytes.
	dir, err := os.MkdirTemp("", "t")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(os.Args[0], "mcp")
	cmd.Env = append(os.Environ(), "AXFUSE_MAIN=1", "TMPDIR="+dir)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "axfuse-test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to axfuse mcp: %v", err)
	}
	call(t, cs, "browser_navigate", map[string]any{"url": servePage(t, "shop.html")}, false)
	if entries, _ := os.ReadDir(dir); len(entries) == 0 {
		t.Fatal("the launched browser left nothing in TMPDIR while running: the test would not see a leak")
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	const said = "axfuse: stopped: terminated signal received"
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(stderr.String(), said) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	cs.Close()
	if got := strings.TrimSpace(stderr.String()); got != said {
		t.Errorf("stderr after SIGTERM: %q, want %q", got, said)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("%s left in the temporary directory", e.Name())
	}
}

// syncBuffer is a bytes.Buffer a process writes to while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
