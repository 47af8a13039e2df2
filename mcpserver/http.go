package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
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
// storage, tabs and refs no other session sees.
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
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" && countSessions(srv) >= o.MaxSessions {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"the server holds %d sessions, its cap; close one or start the server with a higher --max-sessions"}}`, o.MaxSessions)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", o.Addr, err)
	}
	if o.Ready != nil {
		o.Ready(ln.Addr().String())
	}
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

func countSessions(srv *mcp.Server) int {
	n := 0
	for range srv.Sessions() {
		n++
	}
	return n
}
