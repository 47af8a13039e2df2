package act

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/axfuse/axfuse/index"
)

// SessionPath is where the refs of a tab of a browser are kept.
func SessionPath(endpoint, target string) (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the ref session: %w", err)
	}
	sum := sha256.Sum256([]byte(endpoint + "|" + target))
	return filepath.Join(dir, "axfuse", "sessions", hex.EncodeToString(sum[:12])+".json"), nil
}

// LoadTable reads a session's table; a missing or damaged one starts afresh.
func LoadTable(path string) *index.Table {
	t := index.NewTable()
	if b, err := os.ReadFile(path); err == nil {
		if json.Unmarshal(b, t) != nil {
			t = index.NewTable()
		}
	}
	return t
}

// Save writes the session.
func (s *Session) Save() error { return SaveTable(s.path, s.Refs) }

// SaveTable writes a table atomically (temp file, then rename).
func SaveTable(path string, t *index.Table) error {
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	expireSessions(filepath.Dir(path), time.Now().Add(-SessionLifetime))
	return nil
}

// SessionLifetime is how long a ref session unused is kept: a tab's refs
// outlive one command, not a day.
const SessionLifetime = 24 * time.Hour

// expireSessions removes the session files (and stray temporaries) in dir
// last written before cutoff. Best effort: a file another process is
// writing at that moment is simply kept or rewritten.
func expireSessions(dir string, cutoff time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") && !strings.HasSuffix(e.Name(), ".json.tmp") {
			continue
		}
		if info, err := e.Info(); err == nil && info.ModTime().Before(cutoff) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
