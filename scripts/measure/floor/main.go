// Command floor measures the least that any one-shot observer built on the
// DevTools protocol must spend on a tab: start a process, find the page
// target, dial its websocket, send the commands of a mode, exit. It prints
// nothing useful; scripts/measure/floor.js times it beside Playwright's
// ariaSnapshot, to tell what a whole axfuse process could reach at best.
//
//	floor --cdp http://127.0.0.1:PORT [MODE]
//
// MODE: connect (Runtime.evaluate "1"), ax (Accessibility.getFullAXTree),
// ax+dom (that and DOMSnapshot.captureSnapshot with the styles
// domsnap.StyleProperties lists).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/axfuse/axfuse/domsnap"
	"github.com/chromedp/cdproto"
	"github.com/chromedp/chromedp/remote"
)

var modes = map[string][]string{
	"connect": {`{"method":"Runtime.evaluate","params":{"expression":"1"}}`},
	"ax":      {`{"method":"Accessibility.getFullAXTree","params":{}}`},
	"ax+dom":  {`{"method":"Accessibility.getFullAXTree","params":{}}`, captureSnapshot()},
}

// captureSnapshot is the DOMSnapshot command axfuse's capture sends.
func captureSnapshot() string {
	b, _ := json.Marshal(map[string]any{"method": "DOMSnapshot.captureSnapshot", "params": map[string]any{
		"computedStyles": domsnap.StyleProperties, "includePaintOrder": true, "includeDOMRects": true}})
	return string(b)
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	endpoint, mode := "", "connect"
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--cdp" && i+1 < len(args):
			endpoint = args[i+1]
			i++
		case modes[args[i]] != nil:
			mode = args[i]
		}
	}
	if endpoint == "" {
		return errors.New("usage: floor --cdp http://HOST:PORT [connect|ax|ax+dom]")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ws, err := pageSocket(ctx, endpoint)
	if err != nil {
		return err
	}
	conn, err := remote.DialContext(ctx, ws)
	if err != nil {
		return err
	}
	// No conn.Close: its closing handshake waits up to a second for an
	// answer Chrome does not send; the exit closes the socket.
	for i, cmd := range modes[mode] {
		if err := send(ctx, conn, int64(i+1), cmd); err != nil {
			return err
		}
	}
	return nil
}

// pageSocket is the websocket of the first page target.
func pageSocket(ctx context.Context, endpoint string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint+"/json/list", nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var targets []struct{ Type, WebSocketDebuggerURL string }
	if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
		return "", err
	}
	for _, t := range targets {
		if t.Type == "page" {
			return t.WebSocketDebuggerURL, nil
		}
	}
	return "", errors.New("no page target")
}

// send writes one command and reads until its answer.
func send(ctx context.Context, conn *remote.Conn, id int64, cmd string) error {
	var m map[string]any
	if err := json.Unmarshal([]byte(cmd), &m); err != nil {
		return err
	}
	m["id"] = id
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	msg := &cdproto.Message{}
	if err := json.Unmarshal(b, msg); err != nil {
		return err
	}
	if err := conn.Write(ctx, msg); err != nil {
		return err
	}
	for {
		var r cdproto.Message
		if err := conn.Read(ctx, &r); err != nil {
			return err
		}
		if r.ID == id {
			if r.Error != nil {
				return fmt.Errorf("%s: %s", m["method"], r.Error.Message)
			}
			return nil
		}
	}
}
