//go:build cuda

package gpu_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/enginetest"
	"github.com/gworkbench/gworkbench/engine/gpu"
	_ "github.com/gworkbench/gworkbench/engine/ref"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

var algs = []engine.Algorithm{engine.BFS, engine.SSSP, engine.CC, engine.PR}

// generate returns loader.Generate's graph of kind with parameters kv, failing the test on error.
func generate(t testing.TB, kind string, kv map[string]string) *graph.CSR {
	t.Helper()
	g, err := loader.Generate(context.Background(), kind, kv, nil)
	if err != nil {
		t.Fatalf("generate %s %v: %v", kind, kv, err)
	}
	return g
}

// openGPU returns the engine, or skips the test when this machine has no usable GPU.
func openGPU(t testing.TB) engine.Engine {
	t.Helper()
	e, err := engine.Open("gpu")
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	return e
}

func TestMain(m *testing.M) {
	if e, err := engine.Open("gpu"); err == nil {
		gpu.SetPoison(e, true)
	}
	os.Exit(m.Run())
}

// TestConformance runs every algorithm under every schedule of the engine's Space on the
// conformance matrix (generated kron, urand, grid and road graphs, corner cases with isolated
// vertices and a disconnected part, and the real graphs) against engine/ref.
func TestConformance(t *testing.T) {
	if e := openGPU(t); e != nil {
		t.Logf("device: %s", e.(interface{ Device() string }).Device())
	}
	enginetest.Logf(t)
	enginetest.Run(t, "gpu", algs...)
}

// hub is a graph with one vertex of more than 100,000 neighbours (a star joined to a kron
// graph and a path), so that the CTA paths of every load balancer and the overflow of the
// worklists are exercised.
func hub(t testing.TB, directed bool) *graph.CSR {
	t.Helper()
	const n = 125000
	var edges []loader.Edge
	w := int32(1)
	for v := uint32(1); v < 120001; v++ {
		edges = append(edges, loader.Edge{U: 0, V: v, W: w})
		w = w%97 + 1
	}
	for v := uint32(120001); v < n-1; v++ {
		edges = append(edges, loader.Edge{U: v, V: v + 1, W: int32(v%13 + 1)})
		if v%100 == 0 {
			edges = append(edges, loader.Edge{U: v, V: v - 119000, W: 5})
		}
	}
	g, err := loader.FromEdges(n+100, edges, directed, true) // 100 isolated vertices at the end
	if err != nil {
		t.Fatal(err)
	}
	if g.Properties().MaxDegree <= 100000 {
		t.Fatalf("hub: max degree %d, want > 100000", g.Properties().MaxDegree)
	}
	return g
}

// TestHighDegree runs every schedule of the Space on a graph with a vertex of 120,000
// neighbours, undirected and directed.
func TestHighDegree(t *testing.T) {
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	for _, directed := range []bool{false, true} {
		g := hub(t, directed)
		name := fmt.Sprintf("hub-directed=%v", directed)
		for _, a := range algs {
			want, err := ref.Run(context.Background(), engine.Request{Graph: g, GraphName: name, Algorithm: a, Params: refParams(a)})
			if err != nil {
				t.Fatal(err)
			}
			scheds, _ := enginetest.Schedules(e, a)
			for si, s := range scheds {
				// every lb value, and a rotating third of the rest (the conformance suite runs all)
				if si%3 != int(a[0])%3 && s.LB == engine.LBAuto {
					continue
				}
				got, err := e.Run(context.Background(), engine.Request{Graph: g, GraphName: name, Algorithm: a, Params: enginetest.Params(a), Schedule: s})
				if err != nil {
					t.Errorf("%s %s [%s]: %v", a, name, s, err)
					continue
				}
				if err := engine.Verify(g, got, want); err != nil {
					t.Errorf("%s %s [%s] (resolved %s): %v", a, name, s, got.Schedule, err)
				}
			}
		}
	}
}

func refParams(a engine.Algorithm) engine.Params {
	p := enginetest.Params(a)
	if a == engine.PR {
		p.Tolerance = 1e-10
	}
	return p
}

// TestTrace checks that iteration records carry kernels with names, grids and times, and that
// a direction-optimizing BFS on a kron graph traces its switches.
func TestTrace(t *testing.T) {
	e := openGPU(t)
	g, err := loader.Generate(context.Background(), "kron", map[string]string{"scale": "14", "degree": "16"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.BFS, Params: engine.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	switches := 0
	for _, rec := range res.Trace.Records {
		switch rec.Kind {
		case engine.SwitchRecord:
			switches++
			if rec.Switch == nil || rec.Switch.Lhs.Name == "" || rec.Switch.Rhs.Name == "" {
				t.Errorf("switch record without quantities: %+v", rec)
			}
		case engine.IterationRecord:
			if len(rec.Kernels) == 0 {
				t.Errorf("iteration %d has no kernels", rec.Iter)
			}
			for _, k := range rec.Kernels {
				if !strings.HasPrefix(k.Name, "bfs_") && !strings.HasPrefix(k.Name, "util_") || k.Grid < 1 || k.Block != 256 || k.Time <= 0 {
					t.Errorf("iteration %d: odd kernel %+v", rec.Iter, k)
				}
			}
		}
	}
	if switches == 0 {
		t.Errorf("direction-optimizing BFS on kron 14 traced no switch")
	}
	if res.Schedule.LB == engine.LBAuto || res.Schedule.Frontier == engine.FrontierAuto || res.Schedule.Update == engine.UpdateAuto {
		t.Errorf("resolved schedule still has auto knobs: %s", res.Schedule)
	}
}

// TestCancel checks that a cancelled context stops a run with ctx.Err().
func TestCancel(t *testing.T) {
	e := openGPU(t)
	g, err := loader.Generate(context.Background(), "road", map[string]string{"vertices": "200000"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	req := engine.Request{Graph: g, Algorithm: engine.BFS, Params: engine.DefaultParams(), Schedule: engine.Schedule{Fuse: engine.FuseOff},
		Observer: func(engine.Record) {
			if n++; n == 3 {
				cancel()
			}
		}}
	start := time.Now()
	_, err = e.Run(ctx, req)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancel took %v", d)
	}
}

// TestUnsupported checks that valid schedules the engine does not implement say so.
func TestUnsupported(t *testing.T) {
	e := openGPU(t)
	g := hub(t, false)
	for _, s := range []string{"fuse=on", "lb=etwc", "blocking=64"} {
		var sch engine.Schedule
		k, v, _ := strings.Cut(s, "=")
		if err := sch.Set(k, v); err != nil {
			t.Fatal(err)
		}
		if s == "blocking=64" {
			sch.Direction, sch.Driven = engine.Pull, engine.Topology
		}
		_, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.PR, Params: engine.DefaultParams(), Schedule: sch})
		if err != nil && !errors.Is(err, engine.ErrUnsupported) {
			t.Errorf("%s: got %v, want ErrUnsupported or success", s, err)
		}
	}
}
