//go:build cuda

package gpu_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	_ "github.com/gworkbench/gworkbench/engine/cpu"
	"github.com/gworkbench/gworkbench/engine/enginetest"
	"github.com/gworkbench/gworkbench/engine/gpu"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

// The GPU benchmark: set GW_BENCH=1 (GW_BENCH_GRAPHS=kron,urand,ny,road and GW_BENCH_ALGS to
// narrow it, GW_BENCH_SCHEDS="auto;lb=np;..." to replace the schedule list). For each graph
// of the bar and each algorithm it runs a few schedules on the GPU (the median of GW_BENCH_REPS runs after one warm-up) and the CPU engine's default,
// and prints time, GTEPS and the fraction of the measured copy bandwidth that the run's
// minimal bytes represent (median of GW_BENCH_REPS runs after GW_BENCH_WARMUP warm-up runs,
// 5 and 3 by default). The auto schedule's result is verified against engine/ref.

type benchGraph struct {
	name string
	make func() (*graph.CSR, error)
}

func genFn(kind string, kv map[string]string) func() (*graph.CSR, error) {
	return func() (*graph.CSR, error) { return loader.Generate(context.Background(), kind, kv, nil) }
}

var benchGraphs = []benchGraph{
	{"kron", genFn("kron", map[string]string{"scale": "20", "degree": "16", "weights": "uniform:1:255"})},
	{"urand", genFn("urand", map[string]string{"scale": "20", "degree": "16", "weights": "uniform:1:255"})},
	{"ny", func() (*graph.CSR, error) {
		p := enginetest.FindGraph("NY.gr")
		if p == "" {
			return nil, errors.New("NY.gr not found")
		}
		return enginetest.LoadGraph(p)
	}},
	{"road", genFn("road", map[string]string{"vertices": "1500000"})},
}

// The GAPBS 16-core bar from issue 7, in ms: BFS, SSSP, CC, PR (road: USA-road NE, 1.5M).
var gapbs = map[string][4]float64{
	"kron": {2.29, 38.9, 4.22, 29.6}, "urand": {2.69, 20.6, 4.60, 9.73}, "road": {21.1, 82.5, 4.27, 11.6},
}

var benchScheds = map[engine.Algorithm][]string{
	engine.BFS:  {"", "direction=push", "push_agg=warp", "push_agg=atomic", "fuse=on", "fuse=block", "fuse=off", "fuse=on direction=push", "lb=thread", "lb=warp", "lb=edge", "frontier=bitmap", "driven=topology", "lb=np", "lb=np np=tb+warp", "lb=etwc"},
	engine.SSSP: {"", "fuse=on", "fuse=block", "fuse=off", "fuse=tail", "lb=twc", "lb=warp", "delta=64", "delta=1024", "delta=4096", "fuse=on delta=100000", "fuse=on lb=twc", "driven=topology", "lb=np", "lb=np np=tb+warp", "lb=etwc", "fuse=on lb=etwc"},
	engine.CC:   {"", "method=afforest lb=thread", "method=afforest lb=warp", "method=sv", "method=sv lb=thread", "method=sv lb=warp", "method=labelprop"},
	engine.PR:   {"", "lb=thread", "lb=warp", "lb=edge", "sync=async", "sync=async lb=warp", "direction=push", "driven=data", "lb=np"},
}

func parseSched(s string) (engine.Schedule, error) {
	var sch engine.Schedule
	for _, kv := range strings.Fields(s) {
		k, v, _ := strings.Cut(kv, "=")
		if err := sch.Set(k, v); err != nil {
			return sch, err
		}
	}
	return sch, nil
}

// minBytes is the fewest bytes a run must move: the CSR (and weights) read once and the
// per-vertex values written once; PageRank per iteration.
func minBytes(a engine.Algorithm, g *graph.CSR, iters int) float64 {
	n, m := float64(g.NumVertices()), float64(g.NumArcs())
	switch a {
	case engine.SSSP:
		return 8*n + 8*m + 4*n
	case engine.PR:
		return float64(max(iters, 1)) * (8*n + 4*m + 8*n)
	}
	return 8*n + 4*m + 4*n
}

func median(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

func TestBench(t *testing.T) {
	if os.Getenv("GW_BENCH") == "" {
		t.Skip("set GW_BENCH=1 to run the GPU benchmark")
	}
	e := openGPU(t)
	gp := e.(*gpu.Engine)
	// the tests poison every value buffer (an extra memset inside the timed run); not here
	defer gpu.SetPoison(e, gpu.SetPoison(e, false))
	bw, err := gp.CopyBandwidth(1<<30, 5)
	if err != nil {
		t.Fatal(err)
	}
	reps := 5
	fmt.Sscan(os.Getenv("GW_BENCH_REPS"), &reps)
	// warm-up runs per schedule (excluded): enough for the GPU's clocks to settle after the
	// host-only work between schedules (the first schedule measured ~10% slow after one)
	warm := 3
	fmt.Sscan(os.Getenv("GW_BENCH_WARMUP"), &warm)
	want := func(env, name string) bool {
		v := os.Getenv(env)
		return v == "" || strings.Contains(","+v+",", ","+name+",")
	}
	var out strings.Builder
	logf := func(format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		fmt.Print(s)
		out.WriteString(s)
	}
	logf("device: %s; copy bandwidth (DtoD, read+write) %.0f GB/s; host %d cores\n", gp.Device(), bw/1e9, runtime.NumCPU())
	logf("%-6s %-5s %-36s %9s %8s %6s %5s %s\n", "graph", "alg", "schedule (resolved knobs differ)", "ms", "GTEPS", "bw%", "iters", "note")
	cpu, _ := engine.Open("cpu")
	ref, _ := engine.Open("ref")
	for _, bg := range benchGraphs {
		if !want("GW_BENCH_GRAPHS", bg.name) {
			continue
		}
		t0 := time.Now()
		g, err := bg.make()
		if err != nil {
			logf("%s: %v\n", bg.name, err)
			continue
		}
		p := g.Properties()
		logf("# %s: %d vertices, %d arcs, max degree %d, diameter >= %d, weighted %v (built in %v)\n",
			bg.name, g.NumVertices(), g.NumArcs(), p.MaxDegree, p.Diameter, g.Weighted(), time.Since(t0).Round(time.Millisecond))
		for ai, a := range algs {
			if !want("GW_BENCH_ALGS", string(a)) {
				continue
			}
			best := time.Duration(1 << 62)
			bestS := ""
			scheds := benchScheds[a]
			if v := os.Getenv("GW_BENCH_SCHEDS"); v != "" {
				// ';'-separated schedules, the first in the auto slot (verified, traced)
				scheds = strings.Split(v, ";")
				if scheds[0] == "auto" {
					scheds[0] = ""
				}
			}
			var refRes *engine.Result
			for si, ss := range scheds {
				var kept []string
				for _, kv := range strings.Fields(ss) {
					if kv != "auto" { // an auto schedule repeated later in the list
						kept = append(kept, kv)
					}
				}
				sch, err := parseSched(strings.Join(kept, " "))
				if err != nil {
					t.Fatal(err)
				}
				req := engine.Request{Graph: g, GraphName: bg.name, Algorithm: a, Params: engine.DefaultParams(), Schedule: sch}
				var ds []time.Duration
				var res *engine.Result
				for i := 0; i < reps+warm; i++ {
					if res, err = e.Run(context.Background(), req); err != nil {
						break
					}
					if i >= warm {
						ds = append(ds, res.Summary.Time)
					}
				}
				label := ss
				if label == "" {
					label = "auto"
				}
				if err != nil {
					logf("%-6s %-5s %-36s error: %v\n", bg.name, a, label, err)
					continue
				}
				note := ""
				if si == 0 {
					label = "auto: " + res.Schedule.Relevant(a, "gpu")
					label = strings.NewReplacer("direction=", "", "driven=", "", "fuse=off ", "", "np=auto ", "").Replace(label)
				}
				if si == 0 || os.Getenv("GW_BENCH_VERIFY") == "all" {
					if refRes == nil {
						refRes, _ = ref.Run(context.Background(), engine.Request{Graph: g, Algorithm: a, Params: engine.DefaultParams()})
					}
					if want := refRes; want != nil {
						if err := engine.Verify(g, res, want); err != nil {
							note = "VERIFY FAILED: " + err.Error()
						} else {
							note = "verified"
						}
					}
				}
				if (si == 0 || os.Getenv("GW_BENCH_TRACE") == "each") && os.Getenv("GW_BENCH_TRACE") != "" {
					logTrace(logf, res, g.NumArcs())
				}
				d := median(ds)
				iters := res.Summary.Iterations
				edges := float64(g.NumArcs())
				if a == engine.PR {
					edges *= float64(iters)
				}
				gteps := edges / d.Seconds() / 1e9
				frac := minBytes(a, g, iters) / d.Seconds() / bw
				if bar, ok := gapbs[bg.name]; ok && ai < len(bar) {
					note += fmt.Sprintf(" gapbs %.2fms (x%.1f)", bar[ai], bar[ai]/(float64(d)/1e6))
				}
				logf("%-6s %-5s %-36s %9.3f %8.2f %5.1f%% %5d %s\n", bg.name, a, label, float64(d)/1e6, gteps, 100*frac, iters, note)
				if d < best {
					best, bestS = d, label
				}
			}
			if cpu != nil {
				req := engine.Request{Graph: g, GraphName: bg.name, Algorithm: a, Params: engine.DefaultParams()}
				var ds []time.Duration
				var err error
				for i := 0; i < 3; i++ {
					var res *engine.Result
					if res, err = cpu.Run(context.Background(), req); err != nil {
						break
					}
					ds = append(ds, res.Summary.Time)
				}
				if err != nil {
					logf("%-6s %-5s %-36s cpu: %v\n", bg.name, a, "cpu engine", err)
				} else {
					c := median(ds)
					logf("%-6s %-5s %-36s %9.3f  (gpu best %.3f ms = x%.1f faster: %s)\n", bg.name, a, "cpu engine default", float64(c)/1e6, float64(best)/1e6, float64(c)/float64(best), bestS)
				}
			}
		}
	}
	if p := os.Getenv("GW_BENCH_OUT"); p != "" {
		os.WriteFile(p, []byte(out.String()), 0o644)
	}
}

// logTrace prints a run's iterations with their kernels (for finding where the time goes).
func logTrace(logf func(string, ...any), res *engine.Result, arcs int64) {
	shown := 0
	full := os.Getenv("GW_BENCH_TRACE") == "all" || os.Getenv("GW_BENCH_TRACE") == "each"
	var scanned, pushes int64
	var tSmall, tAll time.Duration
	nSmall := 0
	for _, rec := range res.Trace.Records {
		if rec.Kind != engine.IterationRecord {
			continue
		}
		scanned += rec.EdgesScanned
		tAll += rec.Time
		if rec.InVertices <= 4096 {
			tSmall += rec.Time
			nSmall++
		}
		pushes += rec.OutVertices
	}
	logf("    totals: %d edges scanned (%.2f x arcs), %d pushed; iteration time %.0f us, of it %.0f us in %d iterations of <= 4096 rows\n",
		scanned, float64(scanned)/float64(max(arcs, 1)), pushes, float64(tAll)/1e3, float64(tSmall)/1e3, nSmall)
	for _, rec := range res.Trace.Records {
		if rec.Kind != engine.IterationRecord {
			if rec.Switch != nil {
				logf("    switch %s %s->%s: %s\n", rec.Switch.What, rec.Switch.From, rec.Switch.To, rec.Switch.Reason)
			}
			continue
		}
		if shown++; shown > 12 && !full {
			continue
		}
		var ks []string
		var kt time.Duration
		for _, k := range rec.Kernels {
			ks = append(ks, fmt.Sprintf("%s[%d]=%.0fus", k.Name, k.Grid, float64(k.Time)/1e3))
			kt += k.Time
		}
		logf("    it %d %s/%s in %d (%d edges) out %d scanned %d | %.0fus (kernels %.0fus) %s %s\n", rec.Iter, rec.Direction, rec.Mode,
			rec.InVertices, rec.InEdges, rec.OutVertices, rec.EdgesScanned, float64(rec.Time)/1e3, float64(kt)/1e3, strings.Join(ks, " "), rec.Note)
	}
	if shown > 12 {
		logf("    ... %d iterations\n", shown)
	}
}
