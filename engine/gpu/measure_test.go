//go:build cuda

package gpu_test

import (
	"context"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

// refRun is the reference engine's run of alg on g from the default source.
func refRun(t *testing.T, g *graph.CSR, alg engine.Algorithm) *engine.Result {
	t.Helper()
	ref, err := engine.Open("ref")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ref.Run(context.Background(), engine.Request{Graph: g, Algorithm: alg, Params: engine.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestKernelTime: a GPU run reports its kernels' time (CUDA events, summed over the trace's
// kernels) and the device's time from its start to its end beside its end-to-end time, each
// within the next; the session shows and exports them. TEPS counts the reached component's edges, whatever the schedule scanned.
func TestKernelTime(t *testing.T) {
	e := openGPU(t)
	g, err := loader.Generate(context.Background(), "kron", map[string]string{"scale": "14", "degree": "16"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		alg   engine.Algorithm
		sched map[string]string
	}{
		{engine.BFS, map[string]string{"direction": "push"}},
		{engine.BFS, map[string]string{"direction": "auto"}},
		{engine.BFS, map[string]string{"direction": "push", "fuse": "on"}},
		{engine.SSSP, nil},
		{engine.PR, nil},
	} {
		var sc engine.Schedule
		for k, v := range c.sched {
			if err := sc.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		// The second run is checked: the first builds what is built once per graph (layouts),
		// outside the end-to-end time.
		var res *engine.Result
		for range 2 {
			var err error
			res, err = e.Run(context.Background(), engine.Request{Graph: g, GraphName: "k", Algorithm: c.alg, Params: engine.DefaultParams(), Schedule: sc})
			if err != nil {
				t.Fatalf("%s %v: %v", c.alg, c.sched, err)
			}
		}
		sm := res.Summary
		if sm.KernelTime <= 0 || sm.KernelTime > sm.Time+sm.Time/100+20*time.Microsecond {
			t.Errorf("%s %v: kernels %v, end to end %v; want 0 < kernels <= end to end", c.alg, c.sched, sm.KernelTime, sm.Time)
		}
		// the device's span holds every kernel and lies within the host's clock
		if sm.DeviceTime <= 0 || sm.DeviceTime+20*time.Microsecond < sm.KernelTime || sm.DeviceTime > sm.Time+sm.Time/100+20*time.Microsecond {
			t.Errorf("%s %v: device %v, kernels %v, end to end %v; want kernels <= device <= end to end", c.alg, c.sched, sm.DeviceTime, sm.KernelTime, sm.Time)
		}
		res.SetTEPS(g)
		if c.alg == engine.BFS || c.alg == engine.SSSP {
			want := engine.TEPSEdges(g, refRun(t, g, c.alg))
			if sm := res.Summary; sm.TEPSEdges != want || want <= 0 || want > g.NumEdges() {
				t.Errorf("%s %v: TEPS edges %d, want the reached component's %d (of %d), as the reference engine's", c.alg, c.sched, sm.TEPSEdges, want, g.NumEdges())
			}
		}
	}
}
