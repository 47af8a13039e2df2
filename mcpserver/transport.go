package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/axfuse/axfuse/fuse"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one inbound JSON-RPC line (a screenshot upload's base64
// fits; a runaway stream does not).
const maxLine = 64 << 20

// Stdio is the stdio transport that survives its client's mistakes: a
// line that is not JSON is answered with a JSON-RPC parse error (-32700),
// a JSON value that is not a JSON-RPC message with invalid request
// (-32600), and the server reads on. The SDK's own stdio transport ends
// the session on the first such line.
func Stdio(in io.Reader, out io.Writer) mcp.Transport {
	pr, pw := io.Pipe()
	w := &lockedWriter{w: out}
	go filterLines(in, pw, w)
	return &mcp.IOTransport{Reader: pr, Writer: nopCloser{w}}
}

// filterLines passes the JSON-RPC lines of in to pass and answers the
// others on out. It ends pass when in ends.
func filterLines(in io.Reader, pass *io.PipeWriter, out io.Writer) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		switch {
		case tooLong:
			reject(out, nil, jsonrpc.CodeParseError, "Parse error: a line of more than 64 MiB")
		case len(bytes.TrimSpace(line)) == 0:
		default:
			if ok, id, code, msg := classify(line); ok {
				if _, werr := pass.Write(append(line, '\n')); werr != nil {
					return
				}
			} else {
				reject(out, id, code, msg)
			}
		}
		if err != nil {
			pass.CloseWithError(err)
			if errors.Is(err, io.EOF) {
				pass.Close()
			}
			return
		}
	}
}

// readLine reads one line, dropping the rest of one longer than maxLine.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, err := r.ReadLine()
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxLine {
				line, tooLong = nil, true
			}
		}
		if err != nil || !isPrefix {
			return line, tooLong, err
		}
	}
}

// classify says whether a line is a JSON-RPC message (or a batch, which
// the SDK judges itself); if not, the id to answer and why.
func classify(line []byte) (ok bool, id any, code int64, msg string) {
	trimmed := bytes.TrimSpace(line)
	if !json.Valid(trimmed) {
		return false, nil, jsonrpc.CodeParseError, "Parse error: the line is not JSON"
	}
	if trimmed[0] == '[' {
		return true, nil, 0, ""
	}
	if _, err := jsonrpc.DecodeMessage(trimmed); err != nil {
		var probe struct {
			ID any `json:"id"`
		}
		if json.Unmarshal(trimmed, &probe) == nil {
			switch probe.ID.(type) {
			case string, float64:
				id = probe.ID
			}
		}
		return false, id, jsonrpc.CodeInvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message"
	}
	return true, nil, 0, ""
}

// reject writes a JSON-RPC error response (id null when unknown).
func reject(out io.Writer, id any, code int64, message string) {
	b, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	out.Write(append(b, '\n'))
}

// lockedWriter keeps the SDK's writes and the rejections whole lines,
// and passes each through the last JSON gate: no DEL, C1 or other
// character that draws nothing goes out raw (fuse.EscapeInvisibleJSON;
// the SDK writes each message whole).
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.w.Write(fuse.EscapeInvisibleJSON(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
