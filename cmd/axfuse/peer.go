package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/axfuse/axfuse/layout"
	"github.com/axfuse/axfuse/truth"
)

// peerSpec is compare --peer's NAME=COMMAND: an outside observer run on
// the compared tab.
type peerSpec struct {
	name string
	argv []string
}

// parsePeer reads NAME=COMMAND (NAME optional). The command is split on
// spaces, never given to a shell; {cdp} and {target} in its words become
// the browser's endpoint and the tab's target id.
func parsePeer(s string) (peerSpec, error) {
	name, command, ok := strings.Cut(s, "=")
	if !ok || strings.ContainsAny(name, " \t") {
		name, command = "peer", s
	}
	argv := strings.Fields(command)
	if len(argv) == 0 || name == "" {
		return peerSpec{}, fmt.Errorf("--peer %q: want [NAME=]COMMAND, e.g. playwright=node scripts/peers/playwright-ai.cjs {cdp} {target}", s)
	}
	return peerSpec{name: name, argv: argv}, nil
}

// maxPeerOutput bounds what a peer may print.
const maxPeerOutput = 64 << 20

// peerOutput is what a peer prints when it gives boxes: the shape of
// axfuse's own JSON observation (snapshot, elements with ref and box).
type peerOutput struct {
	Snapshot string `json:"snapshot"`
	Elements []struct {
		Ref string      `json:"ref"`
		Box *[4]float64 `json:"box"`
	} `json:"elements"`
}

// runPeer runs the peer on a tab and reads its snapshot: plain YAML, or
// JSON with the boxes of its refs. A failure is the peer's error, never
// the page's.
func runPeer(ctx context.Context, spec peerSpec, endpoint, target string, deadline time.Duration) *truth.Peer {
	p := &truth.Peer{Name: spec.name}
	start := time.Now()
	defer func() { p.MS = msSince(start) }()
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	argv := make([]string, len(spec.argv))
	for i, a := range spec.argv {
		argv[i] = strings.NewReplacer("{cdp}", endpoint, "{target}", target).Replace(a)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.WaitDelay = 2 * time.Second
	var out, errOut boundedBuffer
	out.max, errOut.max = maxPeerOutput, 4096
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("no answer within %v", deadline)
		}
		p.Error = oneLine(fmt.Sprintf("%v: %s", err, strings.TrimSpace(errOut.String())))
		return p
	}
	if out.over {
		p.Error = fmt.Sprintf("printed more than %d MB", maxPeerOutput>>20)
		return p
	}
	text := strings.TrimSpace(out.String())
	if !strings.HasPrefix(text, "{") {
		p.Snapshot = text
		return p
	}
	var o peerOutput
	if err := json.Unmarshal([]byte(text), &o); err != nil {
		p.Error = "its JSON does not decode: " + oneLine(err.Error())
		return p
	}
	p.Snapshot = o.Snapshot
	for _, e := range o.Elements {
		if e.Box != nil && finite(e.Box[0]) && finite(e.Box[1]) && finite(e.Box[2]) && finite(e.Box[3]) && e.Box[2] >= 0 && e.Box[3] >= 0 {
			p.Boxes = append(p.Boxes, truth.BoxRef{Ref: e.Ref, Box: layout.Box{X: e.Box[0], Y: e.Box[1], W: e.Box[2], H: e.Box[3]}})
		}
	}
	return p
}

// boundedBuffer keeps at most max bytes and says when more came.
type boundedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.over = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

var errPeerNeedsCDP = errors.New("--peer runs an outside observer on the same tab: it needs --cdp (a browser both can reach)")
