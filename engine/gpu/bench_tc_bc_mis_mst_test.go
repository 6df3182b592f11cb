//go:build cuda

package gpu_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

// Benchmarks of triangle counting and betweenness centrality (one source) on kron and urand
// scale 20 (degree 16), the graphs of the CPU issue's bar (GAPBS, 2 threads: TC 8,400 ms on
// kron and 2,860 ms on urand; BC 408 ms and 706 ms). Each schedule is a sub-benchmark; the
// figures are the whole run (ns/op) and the kernels' event times of each phase (ms). The
// result is checked after the loop against the CPU engine's.
//
//	go test -c -tags cuda -o .gpu/a4.test ./engine/gpu
//	./.gpu/a4.test -test.run '^$' -test.bench 'TC|BC' -test.benchtime 5x

type fourAlgsGraph struct {
	name string
	once sync.Once
	g    *graph.CSR
	err  error
}

var fourAlgsGraphs = []*fourAlgsGraph{{name: "kron"}, {name: "urand"}}

func (bg *fourAlgsGraph) get(b *testing.B) *graph.CSR {
	bg.once.Do(func() {
		bg.g, bg.err = loader.Generate(context.Background(), bg.name, map[string]string{"scale": "20", "degree": "16"}, nil)
	})
	if bg.err != nil {
		b.Fatal(bg.err)
	}
	return bg.g
}

var fourAlgsBench = map[engine.Algorithm][]string{
	engine.TC: {"", "intersect=merge", "intersect=binary", "lb=edge", "lb=edge intersect=merge", "lb=thread",
		"order=degree relabel=off", "order=degree relabel=on intersect=binary"},
	engine.BC: {"", "direction=push", "direction=pull", "lb=thread", "driven=topology"},
}

// cpuWant caches the CPU engine's result per graph and algorithm, the check after each loop.
var cpuWant sync.Map

func BenchmarkTC(b *testing.B) { benchFourAlgs(b, engine.TC) }
func BenchmarkBC(b *testing.B) { benchFourAlgs(b, engine.BC) }

func benchFourAlgs(b *testing.B, a engine.Algorithm) {
	e := openGPU(b)
	for _, bg := range fourAlgsGraphs {
		for _, ss := range fourAlgsBench[a] {
			name := ss
			if name == "" {
				name = "auto"
			}
			b.Run(bg.name+"/"+name, func(b *testing.B) {
				g := bg.get(b)
				req := engine.Request{Graph: g, GraphName: bg.name, Algorithm: a, Params: engine.DefaultParams(), Schedule: sched(b, ss)}
				if _, err := e.Run(context.Background(), req); err != nil { // upload and warm-up
					b.Fatal(err)
				}
				var res *engine.Result
				phases := map[string]time.Duration{}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					var err error
					if res, err = e.Run(context.Background(), req); err != nil {
						b.Fatal(err)
					}
					for _, rec := range res.Trace.Records {
						for _, k := range rec.Kernels {
							phases[rec.Phase] += k.Time
						}
					}
				}
				b.StopTimer()
				for p, d := range phases {
					b.ReportMetric(float64(d.Microseconds())/1e3/float64(b.N), p+"-kernel-ms")
				}
				b.ReportMetric(float64(res.Summary.Time.Microseconds())/1e3, "run-ms")
				if a == engine.BC {
					res.SetTEPS(g)
					b.ReportMetric(res.Summary.GTEPS, "GTEPS")
				}
				if err := checkCPU(g, bg.name, res); err != nil {
					b.Fatal(err)
				}
				b.Logf("%s %s [%s] resolved %s: %s", a, bg.name, name, res.Schedule.Relevant(a, "gpu"), summary(res))
			})
		}
	}
}

func summary(res *engine.Result) string {
	if res.Algorithm == engine.TC {
		return fmt.Sprintf("%d triangles in %v", res.Triangles, res.Summary.Time)
	}
	return fmt.Sprintf("source %d, %d reached, %d records, %v", res.Params.Src, res.Summary.Reached, len(res.Trace.Records), res.Summary.Time)
}

// checkCPU verifies res against the CPU engine's default run on the same graph.
func checkCPU(g *graph.CSR, name string, res *engine.Result) error {
	key := name + "/" + string(res.Algorithm)
	w, ok := cpuWant.Load(key)
	if !ok {
		cpu, err := engine.Open("cpu")
		if err != nil {
			return err
		}
		want, err := cpu.Run(context.Background(), engine.Request{Graph: g, GraphName: name, Algorithm: res.Algorithm, Params: engine.DefaultParams()})
		if err != nil {
			return err
		}
		cpuWant.Store(key, want)
		w = want
	}
	return engine.Verify(g, res, w.(*engine.Result))
}
