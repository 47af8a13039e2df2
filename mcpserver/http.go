package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configure the Streamable HTTP transport.
type HTTPOptions struct {
	// Addr is where to listen, host:port (loopback unless said otherwise).
	Addr string
	// MaxSessions caps the client sessions open at once (default 8): each
	// holds a browser context with its tabs.
	MaxSessions int
	// IdleTimeout closes a session that sent nothing for this long
	// (default 30 minutes), with its tabs.
	IdleTimeout time.Duration
	// Ready, when set, receives the address listened on (port 0 picks one).
	Ready func(addr string)
}

// ServeHTTP serves MCP over Streamable HTTP until ctx ends. Every client
// session gets a browser context of its own on the one browser: cookies,
// storage, tabs and refs no other session sees. Every answer passes the
// last JSON gate, as on stdio (gateJSON).
func (s *Server) ServeHTTP(ctx context.Context, o HTTPOptions) error {
	if o.MaxSessions <= 0 {
		o.MaxSessions = 8
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 30 * time.Minute
	}
	s.ctx = ctx
	s.isolate = true
	defer s.close()
	srv := s.MCP()
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{SessionTimeout: o.IdleTimeout})
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", o.Addr, err)
	}
	if o.Ready != nil {
		o.Ready(ln.Addr().String())
	}
	handler := gateJSON(capSessions(srv, mcpHandler, o.MaxSessions))
	hs := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// capSessions answers an initialize beyond limit open sessions with 503 and
// a JSON-RPC error; it passes every other request to h.
func capSessions(srv *mcp.Server, h http.Handler, limit int) http.Handler {
	var cap sessionCap
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
			h.ServeHTTP(w, r)
			return
		}
		if cap.open(srv) >= limit {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"the server holds %d sessions, its cap; close one or start the server with a higher --max-sessions"}}`, limit)
			return
		}
		h.ServeHTTP(&issuing{ResponseWriter: w, cap: &cap}, r)
	})
}

// sessionCap counts the client sessions the server issued that are still
// open: the ids its initialize answers gave, less those the SDK no longer
// holds. (The SDK's own session list also holds short-lived internal ones.)
type sessionCap struct {
	mu     sync.Mutex
	issued map[string]bool
}

func (c *sessionCap) open(srv *mcp.Server) int {
	live := map[string]bool{}
	for ss := range srv.Sessions() {
		live[ss.ID()] = true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range c.issued {
		if !live[id] {
			delete(c.issued, id)
		}
	}
	return len(c.issued)
}

func (c *sessionCap) issue(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.issued == nil {
		c.issued = map[string]bool{}
	}
	c.issued[id] = true
}

// issuing notes the session id an initialize answer gives.
type issuing struct {
	http.ResponseWriter
	cap  *sessionCap
	seen bool
}

func (w *issuing) note() {
	if !w.seen {
		w.seen = true
		if id := w.Header().Get("Mcp-Session-Id"); id != "" {
			w.cap.issue(id)
		}
	}
}

func (w *issuing) WriteHeader(code int) { w.note(); w.ResponseWriter.WriteHeader(code) }

func (w *issuing) Write(b []byte) (int, error) { w.note(); return w.ResponseWriter.Write(b) }

// Flush keeps server-sent events streaming through the wrapper.
func (w *issuing) Flush() {
	w.note()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
