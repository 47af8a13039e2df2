package mcpserver

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/axfuse/axfuse/internal/textcut"
)

// Policy is what the server lets an agent reach: the origins it may load,
// file: URLs, and the folder it may write files to. The agent is driven by
// page content, which is untrusted: these hold whatever a page tells it.
type Policy struct {
	// AllowedOrigins, when not empty, are the only origins pages may be
	// loaded from: "https://example.com", "example.com" (http and https),
	// "*.example.com" (any subdomain), "http://localhost:8080".
	AllowedOrigins []string
	// BlockedOrigins are never loaded (they win over AllowedOrigins).
	BlockedOrigins []string
	// AllowFileURLs lets file: URLs load (off by default: a file: page
	// reads the server's disk to the agent).
	AllowFileURLs bool
	// OutputDir is where written files go (browser_snapshot's filename);
	// "" is a folder of the temporary directory.
	OutputDir string
}

// CheckURL says why the agent may not load u, or nil.
func (p *Policy) CheckURL(raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme == "" {
		return fmt.Errorf("url %q: want an absolute URL such as https://example.com", textcut.Bytes(raw, 100))
	}
	switch scheme := strings.ToLower(u.Scheme); scheme {
	case "http", "https":
	case "about", "data":
		if len(p.AllowedOrigins) > 0 && raw != "about:blank" {
			return fmt.Errorf("url %q: only the allowed origins may load (the server's allowed origins: %s)", textcut.Bytes(raw, 100), strings.Join(p.AllowedOrigins, ", "))
		}
		return nil
	case "file":
		if !p.AllowFileURLs {
			return errors.New("file: URLs are refused (they read the server's files); the server allows them only when started with --allow-file-urls")
		}
		return nil
	default:
		return fmt.Errorf("url %q: %s: URLs are refused; load http or https pages", textcut.Bytes(raw, 100), scheme)
	}
	host := strings.ToLower(u.Hostname())
	for _, o := range p.BlockedOrigins {
		if originMatches(o, u.Scheme, host, u.Port()) {
			return fmt.Errorf("url %q: its origin is blocked on this server (%s)", textcut.Bytes(raw, 100), o)
		}
	}
	if len(p.AllowedOrigins) == 0 {
		return nil
	}
	for _, o := range p.AllowedOrigins {
		if originMatches(o, u.Scheme, host, u.Port()) {
			return nil
		}
	}
	return fmt.Errorf("url %q: its origin is not among the server's allowed origins (%s)", textcut.Bytes(raw, 100), strings.Join(p.AllowedOrigins, ", "))
}

// NamesOrigins: the policy allows or blocks origins, so the browser must
// gate its requests.
func (p *Policy) NamesOrigins() bool { return len(p.AllowedOrigins) > 0 || len(p.BlockedOrigins) > 0 }

// AllowsRequest says whether the browser may send a request for raw, as
// the network gate asks it of every request of every tab, frame and popup:
// http(s) and ws(s) requests go only to origins the policy allows; other
// schemes make no request to an origin (data:, blob:) or are decided when
// a page is loaded (file:).
func (p *Policy) AllowsRequest(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "ws":
		scheme = "http"
	case "wss":
		scheme = "https"
	case "http", "https":
	default:
		return scheme != "" && scheme != "ftp"
	}
	host := strings.ToLower(u.Hostname())
	for _, o := range p.BlockedOrigins {
		if originMatches(o, scheme, host, u.Port()) {
			return false
		}
	}
	if len(p.AllowedOrigins) == 0 {
		return true
	}
	for _, o := range p.AllowedOrigins {
		if originMatches(o, scheme, host, u.Port()) {
			return true
		}
	}
	return false
}

// originMatches: pattern is [scheme://]host[:port], the host maybe
// "*.domain" (any subdomain of domain, not domain itself).
func originMatches(pattern, scheme, host, port string) bool {
	pattern = strings.ToLower(strings.TrimSpace(pattern))
	if s, rest, ok := strings.Cut(pattern, "://"); ok {
		if s != strings.ToLower(scheme) {
			return false
		}
		pattern = rest
	}
	pattern = strings.TrimSuffix(pattern, "/")
	ph, pp := pattern, ""
	if i := strings.LastIndex(pattern, ":"); i >= 0 && !strings.Contains(pattern[i:], "]") {
		ph, pp = pattern[:i], pattern[i+1:]
	}
	if pp != "" && pp != port {
		return false
	}
	ph = strings.Trim(ph, "[]")
	if d, ok := strings.CutPrefix(ph, "*."); ok {
		return strings.HasSuffix(host, "."+d)
	}
	return host == ph
}

// outputPath confines name to the output folder: a relative path below
// it (no "..", no absolute path elsewhere, no symbolic link out of it).
func (p *Policy) outputPath(name string) (string, error) {
	dir := p.outputDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("the output folder %s: %w", dir, err)
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	clean := filepath.Clean(name)
	if filepath.IsAbs(clean) {
		rel, err := filepath.Rel(root, clean)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("filename %q: files are written under the server's output folder %s only; give a name relative to it", textcut.Bytes(name, 100), root)
		}
		clean = rel
	}
	if clean == "." || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("filename %q: files are written under the server's output folder %s only", textcut.Bytes(name, 100), root)
	}
	full := filepath.Join(root, clean)
	// The folder it lands in must still be inside once links are followed.
	parent := filepath.Dir(full)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(parent)
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("filename %q: it leads out of the output folder %s", textcut.Bytes(name, 100), root)
	}
	if fi, err := os.Lstat(full); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return "", fmt.Errorf("filename %q: it is a symbolic link; files are written under %s only", textcut.Bytes(name, 100), root)
	}
	return filepath.Join(real, filepath.Base(full)), nil
}

// outputDir is the output folder, by default axfuse-mcp-output in the
// temporary folder.
func (p *Policy) outputDir() string {
	if p.OutputDir == "" {
		return filepath.Join(os.TempDir(), "axfuse-mcp-output")
	}
	return p.OutputDir
}
