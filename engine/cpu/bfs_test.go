package cpu_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/cpu"
	"github.com/gworkbench/gworkbench/engine/enginetest"
	"github.com/gworkbench/gworkbench/loader"
)

// TestBFSReached checks the BFS summary's reached count against the depths, and that every
// unreached vertex holds exactly UnreachedDepth (unvisited vertices hold -1 - out-degree
// until the end), on the matrix's graphs, disconnected, directed and from an isolated
// source included, under schedules that take each step and frontier form.
func TestBFSReached(t *testing.T) {
	e, err := engine.Open("cpu")
	if err != nil {
		t.Fatal(err)
	}
	scheds := []string{"", "direction=push", "direction=pull", "update=rw", "update=rw dedup=cull",
		"frontier=bitmap", "driven=topology", "driven=hybrid", "chunk=64 split=cyclic"}
	for _, c := range enginetest.Graphs(t) {
		n := c.G.NumVertices()
		srcs := []int64{-1, 0, int64(n - 1)}
		for v := 0; v < n; v++ {
			if c.G.Degree(uint32(v)) == 0 {
				srcs = append(srcs, int64(v)) // an isolated source
				break
			}
		}
		for _, sc := range scheds {
			sched := engine.Schedule{Workers: 2}
			for _, kv := range strings.Fields(sc) {
				k, v, _ := strings.Cut(kv, "=")
				if err := sched.Set(k, v); err != nil {
					t.Fatal(err)
				}
			}
			for _, src := range srcs {
				p := engine.DefaultParams()
				p.Src = src
				name := fmt.Sprintf("%s/%q/src=%d", c.Name, sc, src)
				res, err := e.Run(context.Background(), engine.Request{Graph: c.G, Algorithm: engine.BFS, Params: p, Schedule: sched})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				var reached int64
				for v, d := range res.Depth {
					switch {
					case d >= 0:
						reached++
					case d != engine.UnreachedDepth:
						t.Fatalf("%s: depth[%d] = %d, want %d or >= 0", name, v, d, engine.UnreachedDepth)
					}
				}
				if res.Summary.Reached != reached {
					t.Errorf("%s: summary reached %d, depths say %d", name, res.Summary.Reached, reached)
				}
			}
		}
	}
}

// TestBFSHubEdgesShared runs BFS from a few hubs whose edges the workers share (a frontier of
// few vertices and many edges) on a graph where the hubs' neighbourhoods overlap, so that
// workers race for the same vertices, and checks the depths against the reference engine.
func TestBFSHubEdgesShared(t *testing.T) {
	const n = 30000
	var edges []loader.Edge
	for v := 4; v < n; v++ {
		edges = append(edges, loader.Edge{U: uint32(v % 3), V: uint32(v), W: 1}) // hubs 0, 1, 2
		if v%5 == 0 {
			edges = append(edges, loader.Edge{U: uint32((v + 1) % 3), V: uint32(v), W: 1})
		}
		if v%7 == 0 {
			edges = append(edges, loader.Edge{U: uint32(v), V: uint32(v - 3), W: 1})
		}
	}
	edges = append(edges, loader.Edge{U: 3, V: 0, W: 1}, loader.Edge{U: 3, V: 1, W: 1}, loader.Edge{U: 3, V: 2, W: 1})
	g := enginetest.FromEdges(n, edges, false, true)
	ref, err := engine.Open("ref")
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.Open("cpu")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []int64{0, 3} {
		p := engine.DefaultParams()
		p.Src = src
		want, err := ref.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.BFS, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{2, 4} {
			res, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.BFS, Params: p,
				Schedule: engine.Schedule{Workers: w, Direction: engine.Push}})
			if err != nil {
				t.Fatal(err)
			}
			for v := range want.Depth {
				if res.Depth[v] != want.Depth[v] {
					t.Fatalf("src %d, %d workers: depth[%d] = %d, want %d", src, w, v, res.Depth[v], want.Depth[v])
				}
			}
			if res.Summary.Reached != want.Summary.Reached {
				t.Errorf("src %d, %d workers: reached %d, want %d", src, w, res.Summary.Reached, want.Summary.Reached)
			}
		}
	}
}

// TestBFSRepeatNoGrowth checks that a BFS repeated from one source allocates the same at every run
// after the first (within a few bytes): its frontier queues, kept between runs, must come back in
// the roles they had, so that each one's segments have grown to the levels it holds. Traded between
// the two on alternate runs, the queue holding a big level grew again, allocating and faulting in
// its memory, in every other run. Levels of alternating sizes (one vertex, then thousands) make the
// two queues' sizes differ.
func TestBFSRepeatNoGrowth(t *testing.T) {
	e, err := engine.Open("cpu")
	if err != nil {
		t.Fatal(err)
	}
	for _, depth := range []int{1, 2, 3, 4} {
		// a chain of hubs: hub h's leaves are a level of 5000, and leaf 0 of each leads to the
		// next hub
		const leaves = 5000
		var edges []loader.Edge
		n := 0
		hub := 0
		for d := 0; d < depth; d++ {
			first := n + 1
			for i := 0; i < leaves; i++ {
				edges = append(edges, loader.Edge{U: uint32(hub), V: uint32(first + i), W: 1})
			}
			n = first + leaves - 1
			if d < depth-1 {
				edges = append(edges, loader.Edge{U: uint32(first), V: uint32(n + 1), W: 1})
				hub = n + 1
				n++
			}
		}
		g := enginetest.FromEdges(n+1, edges, false, true)
		p := engine.DefaultParams()
		p.Src = 0
		req := engine.Request{Graph: g, Algorithm: engine.BFS, Params: p,
			Schedule: engine.Schedule{Workers: 1, Direction: engine.Push}}
		var allocs []uint64
		cpu.DropKeptQueues()
		for run := 0; run < 6; run++ {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			res, err := e.Run(context.Background(), req)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if res.Summary.Reached != int64(n+1) {
				t.Fatalf("depth %d: reached %d, want %d", depth, res.Summary.Reached, n+1)
			}
			allocs = append(allocs, after.TotalAlloc-before.TotalAlloc)
		}
		// The runs after the first allocate their results and a few small values (a few bytes
		// more or less from run to run); a queue grown again is 20 KB at least.
		least := slices.Min(allocs[1:])
		for _, a := range allocs[1:] {
			if a > least+4096 {
				t.Errorf("depth %d: runs allocated %v bytes: want about the same at every run after the first", depth, allocs)
				break
			}
		}
	}
}
