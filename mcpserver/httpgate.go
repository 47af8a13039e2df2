package mcpserver

import (
	"net/http"
	"sync"
	"unicode/utf8"

	"github.com/axfuse/axfuse/fuse"
)

// gateJSON passes every body byte h writes through the last JSON gate
// (fuse.EscapeInvisibleJSON), as lockedWriter does on stdio: no DEL, C1
// or other character that draws nothing leaves the server raw, whatever
// string it slipped into (issue 50).
func gateJSON(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g := &jsonGate{ResponseWriter: w}
		defer g.close()
		h.ServeHTTP(g, r)
	})
}

// jsonGate is the gate on one answer. The SDK writes each message whole:
// as application/json, or as one server-sent event whose framing
// (event:, id:, data: lines) is ASCII and whose data is one line of JSON,
// so every escape lands in a JSON string and reads the same. The SDK's
// plain-text errors (http.Error) pass the gate too; there an escape is
// the visible spelling of what would draw nothing.
//
// It has no Unwrap: http.ResponseController finds Flush on it, and
// nothing reaches the connection around the gate (Hijack).
type jsonGate struct {
	http.ResponseWriter
	mu sync.Mutex
	// tail is an incomplete rune the last Write ended in: escaped with the
	// rest of it, not as two invalid halves the gate would pass raw.
	tail []byte
	// sent: the header is out, or going; too late to change it.
	sent bool
}

// start drops a Content-Length set before the header goes out: it would
// count the bytes before their escapes. (Neither the SDK nor http.Error
// sets one; net/http counts an unflushed short answer itself, after the
// gate.) The caller holds g.mu.
func (g *jsonGate) start() {
	if !g.sent {
		g.sent = true
		g.Header().Del("Content-Length")
	}
}

func (g *jsonGate) WriteHeader(code int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.start()
	g.ResponseWriter.WriteHeader(code)
}

func (g *jsonGate) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.start()
	b := p
	if len(g.tail) > 0 {
		b = append(g.tail, p...)
	}
	n := len(b) - incompleteTail(b)
	g.tail = append([]byte(nil), b[n:]...)
	if _, err := g.ResponseWriter.Write(fuse.EscapeInvisibleJSON(b[:n])); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush keeps server-sent events streaming through the gate. An
// incomplete rune waits for the rest of it.
func (g *jsonGate) Flush() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.start()
	if f, ok := g.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// close writes an incomplete rune the answer ended in as it is: invalid
// UTF-8, which EscapeInvisibleJSON leaves as it is too.
func (g *jsonGate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.tail) > 0 {
		g.ResponseWriter.Write(g.tail)
		g.tail = nil
	}
}

// incompleteTail is the length of the start of a rune b ends in, 0 when
// b ends in a whole rune or in bytes no rune could complete.
func incompleteTail(b []byte) int {
	for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if utf8.FullRune(b[len(b)-i:]) {
				return 0
			}
			return i
		}
	}
	return 0
}
