package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// TestBadLinesAreAnsweredAndTheServerGoesOn: a line that is not JSON, a
// JSON value that is not JSON-RPC and an over-long line each get their
// JSON-RPC error, and the session still initializes and lists tools.
func TestBadLinesAreAnsweredAndTheServerGoesOn(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- New(Options{}).Run(ctx, Stdio(inR, outW)) }()
	answers := bufio.NewScanner(outR)
	answers.Buffer(make([]byte, 1<<20), 1<<20)
	next := func() map[string]any {
		t.Helper()
		got := make(chan map[string]any, 1)
		go func() {
			var m map[string]any
			if answers.Scan() {
				json.Unmarshal(answers.Bytes(), &m)
			}
			got <- m
		}()
		select {
		case m := <-got:
			return m
		case <-time.After(10 * time.Second):
			t.Fatal("no answer within 10s")
			return nil
		}
	}
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	code := func(m map[string]any) float64 {
		e, _ := m["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}
	send("this is not json")
	if m := next(); code(m) != -32700 || m["id"] != nil {
		t.Fatalf("non-JSON line: got %v, want a -32700 error with id null", m)
	}
	send(`{"id": 7, "hello": "world"}`)
	if m := next(); code(m) != -32600 || m["id"] != float64(7) {
		t.Fatalf("not JSON-RPC: got %v, want -32600 for id 7", m)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if m := next(); m["id"] != float64(1) || m["result"] == nil {
		t.Fatalf("initialize after bad lines: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send("{" + strings.Repeat(" ", maxLine) + "}x")
	if m := next(); code(m) != -32700 {
		t.Fatalf("an over-long line: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	m := next()
	res, _ := m["result"].(map[string]any)
	if tools, _ := res["tools"].([]any); len(tools) < 10 {
		t.Fatalf("tools/list after bad lines: %v", m)
	}
	inW.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not end with its input")
	}
}

// TestStdioEscapesWhatDrawsNothing: a message the SDK writes with a raw
// DEL, C1 or zero-width character in a string goes out escaped, whole,
// and reads the same.
func TestStdioEscapesWhatDrawsNothing(t *testing.T) {
	var out strings.Builder
	w := &lockedWriter{w: &out}
	msg := `{"text":"del` + "\x7f c1\u0085 zw\u200b tag\U000e0041" + `"}` + "\n"
	if n, err := w.Write([]byte(msg)); err != nil || n != len(msg) {
		t.Fatalf("wrote %d of %d: %v", n, len(msg), err)
	}
	got := out.String()
	if strings.ContainsAny(got, "\x7f\u0085\u200b\U000e0041") || !strings.Contains(got, `\u007f`) {
		t.Fatalf("raw in %q", got)
	}
	var a, b map[string]string
	if json.Unmarshal([]byte(msg), &a) != nil || json.Unmarshal([]byte(got), &b) != nil || a["text"] != b["text"] {
		t.Fatalf("%q reads %q, want %q", got, b["text"], a["text"])
	}
}
