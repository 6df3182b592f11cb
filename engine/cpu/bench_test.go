package cpu_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/enginetest"
	"github.com/gworkbench/gworkbench/graph"
)

// Benchmarks of the default (auto) schedule with 2 workers, on the graphs: kron and
// urand scale 20 degree 16 (undirected, weights uniform 1..255) and the NY road graph
// (testdata/graphs/NY.gr, or ../shared/data/NY.gr; unweighted in its PACE form, so weights
// uniform 1..255 are added for SSSP), and the NE road graph of the performance bars (NE.gr.gz,
// found the same way; 1.5 M vertices, 1,849 BFS levels). Run with `make bench-cpu`. Each benchmark reports
// ms/op and GTEPS (the engine's count of edges examined per second, in 1e9).

type fixture struct {
	once sync.Once
	g    *graph.CSR
	err  error
	make func() (*graph.CSR, error)
}

func (f *fixture) get(b *testing.B) *graph.CSR {
	b.Helper()
	f.once.Do(func() { f.g, f.err = f.make() })
	if f.err != nil {
		b.Skip(f.err)
	}
	return f.g
}

func generated(spec enginetest.Spec) *fixture {
	return &fixture{make: func() (*graph.CSR, error) {
		g, _, err := enginetest.Build(spec)
		return g, err
	}}
}

var (
	kron20  = generated(enginetest.Spec{Kind: "kron", Scale: 20, Degree: 16, Weights: "uniform:1:255", Seed: 1})
	urand20 = generated(enginetest.Spec{Kind: "urand", Scale: 20, Degree: 16, Weights: "uniform:1:255", Seed: 1})
	ny      = &fixture{make: func() (*graph.CSR, error) {
		path := enginetest.FindGraph("NY.gr")
		if path == "" {
			return nil, errSkip("NY.gr not found in testdata/graphs or ../shared/data")
		}
		g, err := enginetest.LoadGraph(path)
		if err != nil {
			return nil, err
		}
		return enginetest.WithUniformWeights(g, 1, 255, 1), nil
	}}
	ne = &fixture{make: func() (*graph.CSR, error) {
		path := enginetest.FindGraph("NE.gr.gz")
		if path == "" {
			return nil, errSkip("NE.gr.gz not found in testdata/graphs or ../shared/data")
		}
		g, err := enginetest.LoadGraph(path)
		if err != nil {
			return nil, err
		}
		return enginetest.WithUniformWeights(g, 1, 255, 1), nil
	}}
)

type errSkip string

func (e errSkip) Error() string { return string(e) }

func benchRun(b *testing.B, f *fixture, a engine.Algorithm) { benchRunWith(b, f, a, "") }

// benchRunWith is benchRun with knobs ("knob=value ...") set on the default schedule.
func benchRunWith(b *testing.B, f *fixture, a engine.Algorithm, knobs string) {
	g := f.get(b)
	e, err := engine.Open("cpu")
	if err != nil {
		b.Fatal(err)
	}
	sched := engine.Schedule{Workers: 2}
	// GWORKBENCH_SCHEDULE="knob=value ..." runs another schedule (for exploring; the
	// recorded figures use the default).
	for _, kv := range strings.Fields(knobs + " " + os.Getenv("GWORKBENCH_SCHEDULE")) {
		k, v, _ := strings.Cut(kv, "=")
		if err := sched.Set(k, v); err != nil {
			b.Fatal(err)
		}
	}
	req := engine.Request{Graph: g, Algorithm: a, Params: engine.DefaultParams(), Schedule: sched}
	if _, err := e.Run(context.Background(), req); err != nil { // warm: transpose, page faults
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	var total time.Duration
	var edges int64
	var res *engine.Result
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res, err = e.Run(context.Background(), req)
		total += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		edges += res.Summary.EdgesTraversed
	}
	b.StopTimer()
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(total.Microseconds())/1e3/float64(b.N), "ms/op")
	// CPU time of the process per run, summed over threads: on a shared machine it tells
	// the work done from the time spent waiting for a core.
	b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(edges)/total.Seconds()/1e9, "GTEPS")
	if b.N > 0 && res.Summary.Iterations == 0 && g.NumVertices() > 1 {
		b.Fatalf("%s: no iterations recorded", a)
	}
	b.Logf("%s on %d vertices, %d edges: schedule %s; %d iterations", a, g.NumVertices(), g.NumEdges(),
		res.Schedule.Relevant(a, "cpu"), res.Summary.Iterations)
}

// benchGraphs runs algorithm a's benchmark on each of the graphs, as sub-benchmarks.
func benchGraphs(b *testing.B, a engine.Algorithm) {
	for _, c := range []struct {
		name string
		f    *fixture
	}{{"kron20", kron20}, {"urand20", urand20}, {"NY", ny}, {"NE", ne}} {
		b.Run(c.name, func(b *testing.B) { benchRun(b, c.f, a) })
	}
}

func BenchmarkBFS(b *testing.B)  { benchGraphs(b, engine.BFS) }
func BenchmarkSSSP(b *testing.B) { benchGraphs(b, engine.SSSP) }
func BenchmarkCC(b *testing.B)   { benchGraphs(b, engine.CC) }
func BenchmarkPR(b *testing.B)   { benchGraphs(b, engine.PR) }

// BenchmarkMST runs the vertex rounds and ECL-MST's edge worklist side by side on each graph
// (auto picks ecl on all four: they are weighted).
func BenchmarkMST(b *testing.B) {
	for _, c := range []struct {
		name string
		f    *fixture
	}{{"kron20", kron20}, {"urand20", urand20}, {"NY", ny}, {"NE", ne}} {
		for _, m := range []string{"boruvka", "ecl"} {
			b.Run(c.name+"/"+m, func(b *testing.B) { benchRunWith(b, c.f, engine.MST, "method="+m) })
		}
	}
}

// cpuTime returns the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BC (one source) and TC on the NE road graph; kron, urand and NY are in bench_tc_bc_test.go.
func BenchmarkBCNE(b *testing.B) { benchRun(b, ne, engine.BC) }
func BenchmarkTCNE(b *testing.B) { benchRun(b, ne, engine.TC) }
