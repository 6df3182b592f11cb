//go:build cuda

package gpu_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/enginetest"
	"github.com/gworkbench/gworkbench/engine/gpu"
	"github.com/gworkbench/gworkbench/graph"
)

// TestBenchPRCC measures PageRank's EdgeBlocking (blocking=N) and fused sweeps (fuse=on), and
// CC's fused Shiloach-Vishkin rounds, against the unblocked, unfused schedules: set
// GW_PRBENCH=1 (GW_PRBENCH_GRAPHS=kron22,kron,urand,road,ny narrows the graphs, GW_PRBENCH_N
// lists more segment sizes, GW_PRBENCH_SCHEDS replaces PageRank's schedules by a
// comma-separated list, GW_PRBENCH_L1=1 prints each sweep's L1 change, GW_BENCH_REPS the runs). For each schedule it prints the median run
// time, the sweeps, the time per sweep, and the median per-sweep kernel time from the trace
// (the pull kernels, the blocked segments and pr_apply; the fused launch's sweeps by their
// device clock). Every result is checked: against engine/ref on the scale-20 graphs and road,
// and on kron22 against the GPU's own unblocked Jacobi ranks (L1 distance).
func TestBenchPRCC(t *testing.T) {
	if os.Getenv("GW_PRBENCH") == "" {
		t.Skip("set GW_PRBENCH=1 to run the PageRank/CC blocking and fusion benchmark")
	}
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	reps := 5
	fmt.Sscan(os.Getenv("GW_BENCH_REPS"), &reps)
	var sizes []string // more segment sizes to try, beside V/8, V/16 and V/32
	if v := os.Getenv("GW_PRBENCH_N"); v != "" {
		sizes = strings.Split(v, ",")
	}
	graphs := map[string]func() (*graph.CSR, error){
		"kron22": genFn("kron", map[string]string{"scale": "22", "degree": "16"}),
		"kron":   genFn("kron", map[string]string{"scale": "20", "degree": "16"}),
		"urand":  genFn("urand", map[string]string{"scale": "20", "degree": "16"}),
		"road":   genFn("road", map[string]string{"vertices": "1500000"}),
		"ny": func() (*graph.CSR, error) {
			p := enginetest.FindGraph("NY.gr")
			if p == "" {
				return nil, fmt.Errorf("NY.gr not found")
			}
			return enginetest.LoadGraph(p)
		},
	}
	names := []string{"kron22", "kron", "urand", "road", "ny"}
	if v := os.Getenv("GW_PRBENCH_GRAPHS"); v != "" {
		names = strings.Split(v, ",")
	}
	fmt.Printf("device: %s\n", e.(*gpu.Engine).Device())
	for _, name := range names {
		mk, ok := graphs[name]
		if !ok {
			t.Fatalf("unknown graph %s", name)
		}
		t0 := time.Now()
		g, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("# %s: %d vertices, %d arcs (built in %v)\n", name, g.NumVertices(), g.NumArcs(), time.Since(t0).Round(time.Millisecond))
		useRef := name != "kron22"
		var base []float64 // kron22: the unblocked Jacobi ranks
		v := g.NumVertices()
		prScheds := []string{"", "sync=sync lb=twc", fmt.Sprintf("blocking=%d lb=twc", (v+15)/16), fmt.Sprintf("blocking=%d lb=twc", (v+7)/8),
			fmt.Sprintf("blocking=%d lb=twc", (v+31)/32), fmt.Sprintf("fuse=on blocking=%d lb=twc", (v+15)/16),
			"sync=async lb=warp", "sync=sync lb=warp", "sync=async lb=twc fuse=off",
			"fuse=on", "fuse=off", "fuse=on sync=sync lb=twc", "fuse=on sync=async lb=twc", "fuse=on sync=async lb=warp", "fuse=on sync=sync lb=warp",
			"sync=async lb=edge", "sync=sync lb=edge", "fuse=on sync=async lb=edge", "fuse=on sync=sync lb=edge"}
		if sizes != nil {
			for _, n := range sizes {
				prScheds = append(prScheds, "blocking="+n+" lb=twc")
			}
		}
		if v := os.Getenv("GW_PRBENCH_SCHEDS"); v != "" {
			prScheds = strings.Split(v, ",")
		}

		for _, a := range []engine.Algorithm{engine.PR, engine.CC} {
			scheds := prScheds
			if a == engine.CC {
				scheds = []string{"", "method=sv", "fuse=on"}
			}
			var want *engine.Result
			if useRef {
				if want, err = ref.Run(context.Background(), engine.Request{Graph: g, Algorithm: a, Params: engine.DefaultParams()}); err != nil {
					t.Fatal(err)
				}
			}
			for _, ss := range scheds {
				sch, err := parseSched(ss)
				if err != nil {
					t.Fatal(err)
				}
				req := engine.Request{Graph: g, GraphName: name, Algorithm: a, Params: engine.DefaultParams(), Schedule: sch}
				var ds, sweeps []time.Duration
				var res *engine.Result
				var first time.Duration
				for i := 0; i < reps+1 && err == nil; i++ {
					t0 := time.Now()
					if res, err = e.Run(context.Background(), req); err == nil && i == 0 {
						first = time.Since(t0)
					}
					if err == nil && i > 0 {
						ds = append(ds, res.Summary.Time)
						sweeps = append(sweeps, sweepTimes(res)...)
					}
				}
				label := ss
				if label == "" {
					label = "auto"
				}
				if err != nil {
					fmt.Printf("%-7s %-4s %-40s error: %v\n", name, a, label, err)
					continue
				}
				note := ""
				switch {
				case want != nil:
					note = "verified"
					if err := engine.Verify(g, res, want); err != nil {
						note = "VERIFY FAILED: " + err.Error()
						t.Errorf("%s %s %s: %v", name, a, label, err)
					}
				case a == engine.PR && base == nil && ss == "sync=sync lb=twc":
					base = res.Rank
				case a == engine.PR && base != nil:
					l1 := 0.0
					for i, x := range res.Rank {
						l1 += math.Abs(x - base[i])
					}
					note = fmt.Sprintf("L1 to unblocked Jacobi %.2g", l1)
					if l1 > 1e-3 {
						t.Errorf("%s %s %s: %s", name, a, label, note)
					}
				}
				d := median(ds)
				it := max(res.Summary.Iterations, 1)
				fmt.Printf("%-7s %-4s %-40s %8.3f ms %4d it %7.3f ms/it  sweep(kernels) %7.3f ms  first run %v  [%s] %s\n", name, a, label, float64(d)/1e6, it,
					float64(d)/1e6/float64(it), float64(median(sweeps))/1e6, first.Round(time.Millisecond), res.Schedule.Relevant(a, "gpu"), note)
				if os.Getenv("GW_PRBENCH_L1") != "" && a == engine.PR {
					var l1 []string // the last run's L1 change per sweep
					for _, rec := range res.Trace.Records {
						if rec.Kind == engine.IterationRecord {
							_, x, _ := strings.Cut(rec.Note, "L1 change ")
							l1 = append(l1, x)
						}
					}
					fmt.Printf("        L1 per sweep: %s\n", strings.Join(l1, ", "))
				}
			}
		}
	}
}

// sweepTimes returns each iteration's kernel time (the fused launch's iterations: their
// device-clock time).
func sweepTimes(res *engine.Result) []time.Duration {
	var out []time.Duration
	for _, rec := range res.Trace.Records {
		if rec.Kind != engine.IterationRecord {
			continue
		}
		if strings.Contains(rec.Note, "fused") || len(rec.Kernels) == 0 {
			out = append(out, rec.Time)
			continue
		}
		var k time.Duration
		for _, x := range rec.Kernels {
			k += x.Time
		}
		out = append(out, k)
	}
	if len(out) == 0 {
		out = append(out, 0)
	}
	return out
}

// TestBenchPRBig measures PageRank where the contributions outgrow L2 (issue 19): set
// GW_PRBIG=1. For kron of each scale of GW_PRBIG_SCALES (default 25; degree 16) it measures the
// copy bandwidth with device-to-device copies of the arcs' size (read plus write, as
// CopyBandwidth counts), then runs each schedule of GW_PRBIG_SCHEDS (';'-separated; default
// auto, method=binned, method=dpb) GW_BENCH_REPS times after a warm-up, interleaved so that
// drift hits all alike, and prints per schedule the median time and its spread, the sweeps, ms a
// sweep, each kernel's median time a sweep, and the fraction of the copy bandwidth that the
// fewest bytes of the sweeps (minBytes: the CSR once and the per-vertex state, per sweep) reach.
// Every result is checked: against engine/ref up to scale GW_PRBIG_REF (default 22), and on
// larger graphs against the first schedule's ranks (L1 distance under 1e-3; engine/ref's serial
// sweeps would take minutes there).
func TestBenchPRBig(t *testing.T) {
	if os.Getenv("GW_PRBIG") == "" {
		t.Skip("set GW_PRBIG=1 to run the PageRank benchmark on graphs beyond L2")
	}
	e := openGPU(t)
	gp := e.(*gpu.Engine)
	defer gpu.SetPoison(e, gpu.SetPoison(e, false))
	ref, _ := engine.Open("ref")
	reps, refMax := 5, 22
	fmt.Sscan(os.Getenv("GW_BENCH_REPS"), &reps)
	fmt.Sscan(os.Getenv("GW_PRBIG_REF"), &refMax)
	scales := []string{"25"}
	if v := os.Getenv("GW_PRBIG_SCALES"); v != "" {
		scales = strings.Split(v, ",")
	}
	scheds := []string{"", "method=binned", "method=dpb"}
	if v := os.Getenv("GW_PRBIG_SCHEDS"); v != "" {
		scheds = strings.Split(v, ";")
	}
	fmt.Printf("device: %s\n", gp.Device())
	for _, sc := range scales {
		t0 := time.Now()
		g, err := genFn("kron", map[string]string{"scale": sc, "degree": "16"})()
		if err != nil {
			t.Fatal(err)
		}
		var scale int
		fmt.Sscan(sc, &scale)
		bw, err := gp.CopyBandwidth(g.NumArcs()*4, 5)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("# kron%s: %d vertices, %d arcs (built in %v); copy bandwidth (DtoD of the arcs' %d MB, read+write) %.0f GB/s\n",
			sc, g.NumVertices(), g.NumArcs(), time.Since(t0).Round(time.Millisecond), g.NumArcs()*4>>20, bw/1e9)
		var want *engine.Result
		if scale <= refMax {
			if want, err = ref.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.PR, Params: engine.DefaultParams()}); err != nil {
				t.Fatal(err)
			}
		}
		reqs := make([]engine.Request, len(scheds))
		for i, ss := range scheds {
			sch, err := parseSched(ss)
			if err != nil {
				t.Fatal(err)
			}
			reqs[i] = engine.Request{Graph: g, GraphName: "kron" + sc, Algorithm: engine.PR, Params: engine.DefaultParams(), Schedule: sch}
		}
		ds := make([][]time.Duration, len(scheds))
		last := make([]*engine.Result, len(scheds))
		failed := make([]error, len(scheds))
		for rep := 0; rep < reps+1; rep++ { // the first round warms up (and builds the layouts)
			for i := range scheds {
				if failed[i] != nil {
					continue
				}
				res, err := e.Run(context.Background(), reqs[i])
				if err != nil {
					failed[i] = err
					continue
				}
				if rep > 0 {
					ds[i] = append(ds[i], res.Summary.Time)
				}
				last[i] = res
			}
		}
		for i, ss := range scheds {
			label := ss
			if label == "" {
				label = "auto"
			}
			if failed[i] != nil {
				fmt.Printf("kron%s %-16s error: %v\n", sc, label, failed[i])
				continue
			}
			res := last[i]
			note := ""
			switch {
			case want != nil:
				note = "verified against engine/ref"
				if err := engine.Verify(g, res, want); err != nil {
					note = "VERIFY FAILED: " + err.Error()
					t.Errorf("kron%s %s: %v", sc, label, err)
				}
			case i > 0 && last[0] != nil:
				l1 := 0.0
				for v, x := range res.Rank {
					l1 += math.Abs(x - last[0].Rank[v])
				}
				note = fmt.Sprintf("L1 to the first row's ranks %.2g", l1)
				if l1 > 1e-3 {
					t.Errorf("kron%s %s: %s", sc, label, note)
				}
			}
			d := median(slices.Clone(ds[i]))
			it := max(res.Summary.Iterations, 1)
			frac := minBytes(engine.PR, g, it) / d.Seconds() / bw
			fmt.Printf("kron%s %-16s %9.2f ms [%.2f-%.2f] %3d sweeps %7.3f ms/sweep  bw %5.1f%%  kernels/sweep: %s  [%s] %s\n", sc, label,
				float64(d)/1e6, float64(slices.Min(ds[i]))/1e6, float64(slices.Max(ds[i]))/1e6, it, float64(d)/1e6/float64(it), 100*frac,
				kernelMedians(res), res.Schedule.Relevant(engine.PR, "gpu"), note)
			for _, rec := range res.Trace.Records {
				if rec.Kind == engine.PhaseRecord {
					fmt.Printf("        %s: %s\n", rec.Phase, rec.Note)
				}
			}
		}
	}
}

// kernelMedians lists each kernel's median time over the iterations of res, in ms.
func kernelMedians(res *engine.Result) string {
	by := map[string][]time.Duration{}
	var names []string
	for _, rec := range res.Trace.Records {
		for _, k := range rec.Kernels {
			if by[k.Name] == nil {
				names = append(names, k.Name)
			}
			by[k.Name] = append(by[k.Name], k.Time)
		}
	}
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %.3f", n, float64(median(by[n]))/1e6))
	}
	return strings.Join(parts, ", ")
}
