//go:build cuda

package gpu_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/enginetest"
	"github.com/gworkbench/gworkbench/engine/gpu"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

// tiles is a graph whose second step mixes rows of every length: the source's 30,000
// neighbours have 3,000 out-edges (every 1,000th), one (a third) or none (directed; undirected,
// only the edge back), so lb=edge's tiles of 2,048 edges span one row, a few, or far more than
// a block's 256 rows of shared memory, with empty rows among them; the other 30,000 have 8
// out-edges each among themselves; 40 isolated vertices at the end.
func tiles(t testing.TB, directed bool) *graph.CSR {
	t.Helper()
	const k, n = 30000, 60000
	var edges []loader.Edge
	for v := uint32(1); v <= k; v++ {
		edges = append(edges, loader.Edge{U: 0, V: v, W: int32(v%61 + 1)})
		switch {
		case v%1000 == 0:
			for j := uint32(0); j < 3000; j++ {
				edges = append(edges, loader.Edge{U: v, V: k + 1 + (v/1000*7919+j*13)%(n-k-1), W: int32((v+j)%251 + 1)})
			}
		case v%3 == 1:
			edges = append(edges, loader.Edge{U: v, V: k + 1 + (v*31)%(n-k-1), W: int32(v%7 + 1)})
		}
	}
	for v := uint32(k + 1); v < n; v++ {
		for j := uint32(1); j <= 8; j++ { // average degree over 5: lb=auto is twc (skewed)
			edges = append(edges, loader.Edge{U: v, V: k + 1 + (v-k-1+j*j)%(n-k-1), W: int32((v+j)%5 + 1)})
		}
	}
	g, err := loader.FromEdges(n+40, edges, directed, true)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestSSSPEdgeTiles runs SSSP's host-driven steps under lb=edge (tiles of equal edges, rows
// found in shared memory) on tiles(), with the knobs that change what a relaxation writes,
// and under lb=auto with the big-step threshold lowered so that the second step is handed to
// lb=edge with its near output marked and folded into the queue (its trace must say so and
// launch sssp_push_edge and util_fold_marks; the fold overflows the first queue, 12,008
// entries, and spills). Each run must agree with
// engine/ref; BFS lb=edge and a topology-driven SSSP (the CSR's offsets as the scan) too.
func TestSSSPEdgeTiles(t *testing.T) {
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	defer gpu.SetSSSPBigStep(gpu.SetSSSPBigStep(20000))
	for _, directed := range []bool{false, true} {
		g := tiles(t, directed)
		for _, a := range []engine.Algorithm{engine.SSSP, engine.BFS} {
			p := enginetest.Params(a)
			want, err := ref.Run(context.Background(), engine.Request{Graph: g, Algorithm: a, Params: p})
			if err != nil {
				t.Fatal(err)
			}
			scheds := []string{"fuse=off lb=edge", "fuse=off lb=edge dedup=none", "fuse=off lb=edge direction=push"}
			if a == engine.SSSP {
				scheds = []string{"fuse=off lb=edge", "fuse=off lb=edge delta=16", "fuse=off lb=edge update=rw",
					"fuse=off lb=edge sync=sync dedup=cull", "fuse=off lb=edge push_agg=block", "fuse=off lb=edge driven=topology",
					"fuse=off", "fuse=tail delta=32"}
			}
			for _, ss := range scheds {
				name := string(a) + " " + ss
				if directed {
					name += " directed"
				}
				got, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: a, Params: p, Schedule: sched(t, ss)})
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if err := engine.Verify(g, got, want); err != nil {
					t.Errorf("%s: %v", name, err)
				}
				if a != engine.SSSP || strings.Contains(ss, "lb=") {
					continue
				}
				big := 0
				for _, rec := range got.Trace.Records {
					if !strings.Contains(rec.Note, "big step expanded edge-balanced") {
						continue
					}
					big++
					if !hasKernel(rec, "sssp_push_edge") || !hasKernel(rec, "util_fold_marks") {
						t.Errorf("%s: the big step launched %+v, want sssp_push_edge and util_fold_marks", name, rec.Kernels)
					}
				}
				if big == 0 {
					t.Errorf("%s: no step ran edge-balanced (schedule %s)", name, got.Schedule)
				}
			}
		}
	}
}

func hasKernel(rec engine.Record, name string) bool {
	for _, k := range rec.Kernels {
		if k.Name == name {
			return true
		}
	}
	return false
}
