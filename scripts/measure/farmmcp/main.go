// Command farmmcp measures many agents at once (issue 42): N MCP client
// sessions over Streamable HTTP against one `axfuse mcp --port` server,
// each doing navigate → snapshot → click on a page of its own, first all
// at once, then one after another. It prints the wall time of each way
// and the median time of each step. Not a test: figures for notes and
// docs/farms.md, machine-dependent.
//
//	go run ./scripts/measure/farmmcp -endpoint http://127.0.0.1:PORT/mcp -pages URL1,URL2,...
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	endpoint := flag.String("endpoint", "", "the MCP server's HTTP endpoint")
	pages := flag.String("pages", "", "page URLs, separated by commas: one a session")
	flag.Parse()
	urls := strings.Split(*pages, ",")
	if *endpoint == "" || len(urls) == 0 {
		log.Fatal("give -endpoint and -pages")
	}
	for _, together := range []bool{true, false} {
		start := time.Now()
		steps := map[string][]float64{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i, u := range urls {
			one := func() {
				got, err := journey(*endpoint, u)
				if err != nil {
					log.Printf("session %d: %v", i, err)
				}
				mu.Lock()
				for k, v := range got {
					steps[k] = append(steps[k], v)
				}
				mu.Unlock()
			}
			if together {
				wg.Go(one)
			} else {
				one()
			}
		}
		wg.Wait()
		way := "one after another"
		if together {
			way = "all at once"
		}
		fmt.Printf("%d sessions %s: %.1f s wall;", len(urls), way, time.Since(start).Seconds())
		for _, k := range []string{"connect", "navigate", "snapshot", "click"} {
			fmt.Printf(" %s median %.0f ms;", k, median(steps[k]))
		}
		fmt.Println()
	}
}

var refOfLink = regexp.MustCompile(`(?:link|button) [^\n]*\[ref=(e\d+)\]`)

// journey runs one session: connect, navigate, snapshot, click the first
// link or button; it gives each step's milliseconds.
func journey(endpoint, url string) (map[string]float64, error) {
	ms := map[string]float64{}
	t := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "farmmcp", Version: "v0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}, nil)
	if err != nil {
		return ms, err
	}
	defer cs.Close()
	ms["connect"] = since(t)
	call := func(step, tool string, args map[string]any) (string, error) {
		t := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		ms[step] = since(t)
		if err != nil {
			return "", err
		}
		var sb strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				sb.WriteString(tc.Text)
			}
		}
		if res.IsError {
			return sb.String(), fmt.Errorf("%s: %.200s", tool, sb.String())
		}
		return sb.String(), nil
	}
	if _, err := call("navigate", "browser_navigate", map[string]any{"url": url}); err != nil {
		return ms, err
	}
	snap, err := call("snapshot", "browser_snapshot", map[string]any{})
	if err != nil {
		return ms, err
	}
	if m := refOfLink.FindStringSubmatch(snap); m != nil {
		_, err = call("click", "browser_click", map[string]any{"ref": m[1]})
	}
	return ms, err
}

func since(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}
