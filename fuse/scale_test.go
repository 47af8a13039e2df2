package fuse

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"strconv"
	"testing"
	"time"

	"github.com/axfuse/axfuse/domsnap"
)

// scaledTable returns the recorded 1,200-row table capture (made by axfuse
// from testdata/pages/big.html) resized to rows rows: every row is a copy
// of its first row, one row height lower, with fresh backend and AX ids.
// Benchmarks get tool-made structure at any size.
func scaledTable(tb testing.TB, rows int) *domsnap.Capture {
	tb.Helper()
	c := load(tb, "../testdata/captures/big.capture.json")
	doc := &c.Documents[0]
	nodes := doc.Nodes
	body := -1
	for i := range nodes {
		if nodes[i].Name == "TBODY" {
			body = i
			break
		}
	}
	if body < 0 {
		tb.Fatal("no TBODY in the big capture")
	}
	first := body + 1
	rowLen := 1
	for first+rowLen < len(nodes) && int(nodes[first+rowLen].Parent) != body {
		rowLen++
	}
	end := body
	for end+1 < len(nodes) && insideOf(nodes, end+1, body) {
		end++
	}
	rowH := nodes[first+rowLen].Layout.Bounds.Y - nodes[first].Layout.Bounds.Y
	var maxBackend int64
	for _, n := range nodes {
		maxBackend = max(maxBackend, n.Backend)
	}
	template := nodes[first : first+rowLen]
	backendAt := map[int64]int{}
	for j, n := range template {
		backendAt[n.Backend] = j
	}
	out := append([]domsnap.Node(nil), nodes[:first]...)
	for k := range rows {
		base := len(out)
		for j, t := range template {
			n := t
			n.Backend = maxBackend + 1 + int64(k*rowLen+j)
			n.Parent = int32(body)
			if j > 0 {
				n.Parent = int32(base + int(t.Parent) - first)
			}
			if t.Layout != nil {
				l := *t.Layout
				l.Bounds.Y += float64(k) * rowH
				l.Fragments = nil
				for _, f := range t.Layout.Fragments {
					f.Y += float64(k) * rowH
					l.Fragments = append(l.Fragments, f)
				}
				n.Layout = &l
			}
			out = append(out, n)
		}
	}
	shift := len(out) - (end + 1)
	for _, n := range nodes[end+1:] {
		if int(n.Parent) > end {
			n.Parent += int32(shift)
		}
		out = append(out, n)
	}
	doc.Nodes = out
	doc.ContentHeight += float64(rows-(end-body)/rowLen) * rowH
	scaleAX(&c.Frames[0], nodes, body, template, backendAt, maxBackend, rows)
	if err := c.Validate(); err != nil {
		tb.Fatalf("scaled capture: %v", err)
	}
	return c
}

func insideOf(nodes []domsnap.Node, i, anc int) bool {
	for p := int(nodes[i].Parent); p >= 0; p = int(nodes[p].Parent) {
		if p == anc {
			return true
		}
	}
	return false
}

// scaleAX replaces the table body's AX rows with copies of the first.
func scaleAX(f *domsnap.Frame, nodes []domsnap.Node, body int, template []domsnap.Node, backendAt map[int64]int, maxBackend int64, rows int) {
	byID := map[string]int{}
	byBackend := map[int64]int{}
	for i, a := range f.AXNodes {
		byID[a.ID] = i
		byBackend[a.Backend] = i
	}
	bodyAX, ok := byBackend[nodes[body].Backend]
	if !ok {
		return
	}
	rowAX := byBackend[template[0].Backend]
	var subtree []int
	var walk func(i int)
	walk = func(i int) {
		subtree = append(subtree, i)
		for _, ch := range f.AXNodes[i].Children {
			if k, ok := byID[ch]; ok {
				walk(k)
			}
		}
	}
	walk(rowAX)
	drop := map[string]bool{}
	var dropWalk func(id string)
	dropWalk = func(id string) {
		drop[id] = true
		if k, ok := byID[id]; ok {
			for _, ch := range f.AXNodes[k].Children {
				dropWalk(ch)
			}
		}
	}
	for _, ch := range f.AXNodes[bodyAX].Children {
		dropWalk(ch)
	}
	var out []domsnap.AXNode
	for _, a := range f.AXNodes {
		if !drop[a.ID] {
			out = append(out, a)
		}
	}
	bodyID := f.AXNodes[bodyAX].ID
	var rowIDs []string
	rowLen := len(template)
	// Chrome's AX ids are decimal numbers; the copies' ids continue them.
	maxID := 0
	pos := map[string]int{}
	for j, i := range subtree {
		pos[f.AXNodes[i].ID] = j
	}
	for _, a := range f.AXNodes {
		if n, err := strconv.Atoi(a.ID); err == nil {
			maxID = max(maxID, n)
		}
	}
	for k := range rows {
		id := func(old string) string { return strconv.Itoa(maxID + 1 + k*len(subtree) + pos[old]) }
		for _, i := range subtree {
			a := f.AXNodes[i]
			a.ID = id(a.ID)
			if i == rowAX {
				a.Parent = bodyID
				rowIDs = append(rowIDs, a.ID)
			} else {
				a.Parent = id(a.Parent)
			}
			if j, ok := backendAt[a.Backend]; ok {
				a.Backend = maxBackend + 1 + int64(k*rowLen+j)
			}
			kids := make([]string, len(a.Children))
			for c, ch := range a.Children {
				kids[c] = id(ch)
			}
			a.Children = kids
			out = append(out, a)
		}
	}
	for i := range out {
		if out[i].ID == bodyID {
			out[i].Children = rowIDs
		}
	}
	f.AXNodes = out
}

func domNodes(c *domsnap.Capture) int {
	n := 0
	for _, d := range c.Documents {
		n += len(d.Nodes)
	}
	return n
}

// BenchmarkPipeline runs every pure stage after the capture (layout, paint
// order, fuse, refs, serialize) on tables of about 1k, 10k and 100k DOM
// nodes, and reports nodes per second and bytes allocated and peak live
// heap per node. The pipeline runs on one goroutine: measure it on one
// core too (-cpu 1), where the garbage collector shares that core.
func BenchmarkPipeline(b *testing.B) {
	for _, rows := range []int{80, 900, 9090} {
		c := scaledTable(b, rows)
		nodes := domNodes(c)
		b.Run(fmt.Sprintf("%dk_nodes", (nodes+500)/1000), func(b *testing.B) {
			peak := peakHeap(func() { pipeline(c) })
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				pipeline(c)
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(nodes), "domnodes")
			b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(nodes), "allocB/node")
			b.ReportMetric(float64(peak)/float64(nodes), "peakB/node")
		})
	}
}

func pipeline(c *domsnap.Capture) {
	t := FromCapture(c, Options{})
	_ = YAML(t.Roots)
}

// peakHeap runs f once and returns the largest live heap above the
// starting point seen while it ran (sampled every 200µs).
func peakHeap(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak uint64
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				peak = max(peak, read())
			}
		}
	}()
	f()
	peak = max(peak, read())
	close(done)
	if peak < base {
		return 0
	}
	return peak - base
}

// TestScaledTable checks the benchmark's input: a valid capture whose
// snapshot shows copied rows with refs and counts the rest.
func TestScaledTable(t *testing.T) {
	c := scaledTable(t, 300)
	obs := Snapshot(c, Options{})
	if obs.Stats.Refs < 20 || obs.Stats.Offscreen == 0 {
		t.Errorf("scaled table: %d refs, %d off-screen:\n%s", obs.Stats.Refs, obs.Stats.Offscreen, obs.Snapshot)
	}
	if n := domNodes(c); n < 300*11 {
		t.Errorf("%d DOM nodes for 300 rows", n)
	}
}
