package cpu_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/enginetest"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

// Benchmarks of tc and bc (one source) with the default schedule and 2 workers, on the
// inputs of the GAP Benchmark Suite bar: kron and urand at scale 20 with degree 16, and the
// NY road graph. Fixtures are built once, on first use.

type moreFixture struct {
	once sync.Once
	g    *graph.CSR
	err  error
	make func() (*graph.CSR, error)
}

func (f *moreFixture) get(b *testing.B) *graph.CSR {
	b.Helper()
	f.once.Do(func() {
		if f.g, f.err = f.make(); f.err == nil {
			f.g.Properties() // computed once per graph (bc's default source), not in the loop
		}
	})
	if f.err != nil {
		b.Skip(f.err)
	}
	return f.g
}

func moreGen(kind string, kv map[string]string) func() (*graph.CSR, error) {
	return func() (*graph.CSR, error) { return loader.Generate(context.Background(), kind, kv, nil) }
}

func moreRoad() (*graph.CSR, error) {
	path := enginetest.FindGraph("NY.gr") // testdata/graphs, else ../shared/data
	if path == "" {
		return nil, fmt.Errorf("NY.gr is in neither testdata/graphs nor ../shared/data")
	}
	return enginetest.LoadGraph(path)
}

var (
	moreKron20  = &moreFixture{make: moreGen("kron", map[string]string{"scale": "20", "degree": "16"})}
	moreURand20 = &moreFixture{make: moreGen("urand", map[string]string{"scale": "20", "degree": "16"})}
	moreNY      = &moreFixture{make: moreRoad}
)

func moreBench(b *testing.B, f *moreFixture, alg engine.Algorithm) {
	g := f.get(b)
	e, err := engine.Open("cpu")
	if err != nil {
		b.Fatal(err)
	}
	// GW_BENCH_SCHED="k=v k=v,k=v ..." runs each listed schedule as a sub-benchmark instead.
	scheds := []string{""}
	if env := os.Getenv("GW_BENCH_SCHED"); env != "" {
		scheds = strings.Split(env, ",")
	}
	for _, sched := range scheds {
		s := engine.Schedule{Workers: 2}
		for _, kv := range strings.Fields(sched) {
			k, v, _ := strings.Cut(kv, "=")
			if err := s.Set(k, v); err != nil {
				b.Fatal(err)
			}
		}
		req := engine.Request{Graph: g, Algorithm: alg, Params: engine.DefaultParams(), Schedule: s}
		if len(scheds) == 1 {
			moreBenchOne(b, g, e, req)
			continue
		}
		b.Run(strings.ReplaceAll(sched, " ", "/"), func(b *testing.B) { moreBenchOne(b, g, e, req) })
	}
}

func moreBenchOne(b *testing.B, g *graph.CSR, e engine.Engine, req engine.Request) {
	alg := req.Algorithm
	cpu0 := moreCPUTime()
	b.ResetTimer()
	var res *engine.Result
	var err error
	for i := 0; i < b.N; i++ {
		if res, err = e.Run(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	// CPU time per run: on a shared machine, a steadier figure than wall time.
	b.ReportMetric(float64((moreCPUTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/run")
	if alg == engine.TC && res.Triangles == 0 {
		b.Fatalf("no triangles")
	}
	if alg == engine.BC && res.Summary.Reached < 2 {
		b.Fatalf("bc reached %d vertices", res.Summary.Reached)
	}
	// GTEPS: the graph's edges (tc) or the edges the run examined (bc), per second.
	edges := float64(g.NumEdges())
	if alg == engine.BC {
		edges = float64(res.Summary.EdgesTraversed)
	}
	b.ReportMetric(edges*float64(b.N)/b.Elapsed().Seconds()/1e9, "GTEPS")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/run")
}

func BenchmarkTCKron20(b *testing.B)  { moreBench(b, moreKron20, engine.TC) }
func BenchmarkTCURand20(b *testing.B) { moreBench(b, moreURand20, engine.TC) }
func BenchmarkTCRoadNY(b *testing.B)  { moreBench(b, moreNY, engine.TC) }
func BenchmarkBCKron20(b *testing.B)  { moreBench(b, moreKron20, engine.BC) }
func BenchmarkBCURand20(b *testing.B) { moreBench(b, moreURand20, engine.BC) }
func BenchmarkBCRoadNY(b *testing.B)  { moreBench(b, moreNY, engine.BC) }

// moreCPUTime returns the process's user plus system CPU time.
func moreCPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
