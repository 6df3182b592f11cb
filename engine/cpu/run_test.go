package cpu_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/enginetest"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

// longPath is a path of n vertices: level-synchronous traversals take n rounds on it.
func longPath(n int) *graph.CSR {
	edges := make([]loader.Edge, n-1)
	for i := range edges {
		edges[i] = loader.Edge{U: uint32(i), V: uint32(i + 1), W: 1}
	}
	return enginetest.FromEdges(n, edges, false, true)
}

// backPath is the path 0, n-1, n-2, ..., 1: from vertex 0, a value travels down the ids, so
// every in-order sweep (Bellman-Ford, label propagation) moves it one step only.
func backPath(n int) *graph.CSR {
	edges := []loader.Edge{{U: 0, V: uint32(n - 1), W: 1}}
	for i := n - 1; i > 1; i-- {
		edges = append(edges, loader.Edge{U: uint32(i), V: uint32(i - 1), W: 1})
	}
	return enginetest.FromEdges(n, edges, false, true)
}

// TestCancel cancels long runs and expects ctx.Err() back promptly. The bound is generous
// (the contract is 50 ms; a loaded CI machine can stall any goroutine for longer).
func TestCancel(t *testing.T) {
	e, err := engine.Open("cpu")
	if err != nil {
		t.Fatal(err)
	}
	path, back := longPath(1<<17), backPath(1<<15)
	kron, _, err := enginetest.Build(enginetest.Spec{Kind: "kron", Scale: 14, Degree: 8, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	slowPR := engine.DefaultParams()
	slowPR.Tolerance, slowPR.MaxIter = 0, 1<<30
	pathSrc := engine.DefaultParams()
	pathSrc.Src = 0
	for _, tc := range []struct {
		name  string
		g     *graph.CSR
		a     engine.Algorithm
		p     engine.Params
		sched string
	}{
		{"bfs-path", path, engine.BFS, pathSrc, "direction=push"},
		{"bfs-topology", path, engine.BFS, pathSrc, "driven=topology"},
		{"sssp-path", path, engine.SSSP, pathSrc, "delta=1"}, // one bucket per vertex: a long run
		{"sssp-bellman-ford", back, engine.SSSP, pathSrc, "driven=topology"},
		{"cc-labelprop", back, engine.CC, engine.DefaultParams(), "method=labelprop driven=topology"},
		{"pr-pull", kron, engine.PR, slowPR, ""},
		{"pr-push", kron, engine.PR, slowPR, "direction=push"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s engine.Schedule
			if tc.sched != "" {
				for _, kv := range splitFields(tc.sched) {
					if err := s.Set(kv[0], kv[1]); err != nil {
						t.Fatal(err)
					}
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := e.Run(ctx, engine.Request{Graph: tc.g, Algorithm: tc.a, Params: tc.p, Schedule: s})
				done <- err
			}()
			time.Sleep(100 * time.Millisecond)
			cancelled := time.Now()
			cancel()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("Run returned %v, want context.Canceled", err)
				}
				if d := time.Since(cancelled); d > 200*time.Millisecond {
					t.Logf("slow to stop: %v after cancel (contract: 50 ms; the machine may be loaded)", d)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Run did not return within 5 s of cancellation")
			}
		})
	}
}

func splitFields(s string) [][2]string {
	var out [][2]string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if kv := s[start:i]; kv != "" {
				for j := 0; j < len(kv); j++ {
					if kv[j] == '=' {
						out = append(out, [2]string{kv[:j], kv[j+1:]})
					}
				}
			}
			start = i + 1
		}
	}
	return out
}

// TestObserverStreams shows that records reach the observer while the run goes on: the
// observer cancels the run after its third record, which could not stop the run if records
// were only delivered at the end.
func TestObserverStreams(t *testing.T) {
	e, _ := engine.Open("cpu")
	kron, _, err := enginetest.Build(enginetest.Spec{Kind: "kron", Scale: 12, Degree: 8, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	p := engine.DefaultParams()
	p.Tolerance, p.MaxIter = 0, 1<<30
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got []engine.Record
	_, err = e.Run(ctx, engine.Request{Graph: kron, Algorithm: engine.PR, Params: p, Observer: func(r engine.Record) {
		got = append(got, r)
		if len(got) == 3 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v, want context.Canceled after the observer cancelled", err)
	}
	if len(got) < 3 || len(got) > 5 {
		t.Fatalf("observer saw %d records, want 3 (and at most the iteration in flight)", len(got))
	}
	for i, r := range got {
		if r.Kind != engine.IterationRecord || r.Iter != i || r.Time <= 0 || r.EdgesScanned == 0 {
			t.Errorf("record %d: %+v", i, r)
		}
	}
}

// TestTraceAndSummary checks what a direction-optimizing BFS reports: switch records with
// the quantities compared, a resolved schedule, and the summary.
func TestTraceAndSummary(t *testing.T) {
	e, _ := engine.Open("cpu")
	g, _, err := enginetest.Build(enginetest.Spec{Kind: "kron", Scale: 14, Degree: 16, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.BFS, Params: engine.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Schedule
	if s.Direction != engine.DirAuto || s.Alpha != engine.DefaultAlpha || s.Beta != engine.DefaultBeta || s.Driven != engine.Data ||
		s.Frontier != engine.Queue || s.Update != engine.RMW || s.Workers < 1 {
		t.Errorf("resolved schedule %s", s)
	}
	var switches int
	for _, r := range res.Trace.Records {
		if r.Kind == engine.SwitchRecord {
			switches++
			if r.Switch == nil || r.Switch.What != "direction" || r.Switch.Lhs.Name == "" || r.Switch.Rhs.Name == "" || r.Switch.Reason == "" {
				t.Errorf("switch record %+v", r.Switch)
			}
		}
	}
	if switches == 0 {
		t.Errorf("no direction switch on a kron graph: %d records", len(res.Trace.Records))
	}
	if res.Summary.Reached < int64(g.NumVertices())/4 || res.Summary.MaxDepth < 2 || res.Summary.EdgesTraversed == 0 ||
		res.Summary.Iterations == 0 || res.Params.Src < 0 {
		t.Errorf("summary %+v, src %d", res.Summary, res.Params.Src)
	}
	ref, _ := engine.Open("ref")
	want, err := ref.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.BFS, Params: engine.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Reached != want.Summary.Reached || res.Summary.MaxDepth != want.Summary.MaxDepth {
		t.Errorf("reached %d max depth %d, ref says %d and %d", res.Summary.Reached, res.Summary.MaxDepth, want.Summary.Reached, want.Summary.MaxDepth)
	}
	for _, a := range []engine.Algorithm{engine.CC, engine.SSSP, engine.PR} {
		got, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: a, Params: engine.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		want, err := ref.Run(context.Background(), engine.Request{Graph: g, Algorithm: a, Params: engine.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		gs, ws := got.Summary, want.Summary
		switch a {
		case engine.CC:
			if gs.Components != ws.Components || gs.LargestComp != ws.LargestComp {
				t.Errorf("cc: %d components, largest %d; ref %d, %d", gs.Components, gs.LargestComp, ws.Components, ws.LargestComp)
			}
		case engine.SSSP:
			if gs.Reached != ws.Reached || gs.MaxDist != ws.MaxDist {
				t.Errorf("sssp: reached %d max %d; ref %d, %d", gs.Reached, gs.MaxDist, ws.Reached, ws.MaxDist)
			}
		case engine.PR:
			if d := gs.RankSum - 1; d > 1e-6 || d < -1e-6 {
				t.Errorf("pr: rank sum %v", gs.RankSum)
			}
		}
	}
}

// TestUnsupported: a valid schedule the CPU engine does not run is refused with
// ErrUnsupported and a reason, never run as something else.
func TestUnsupported(t *testing.T) {
	e, _ := engine.Open("cpu")
	g := longPath(10)
	var s engine.Schedule
	_ = s.Set("sync", "async")
	_, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.BFS, Params: engine.DefaultParams(), Schedule: s})
	if !errors.Is(err, engine.ErrUnsupported) {
		t.Fatalf("bfs sync=async: %v, want ErrUnsupported", err)
	}
	for _, a := range []engine.Algorithm{engine.BFS, engine.SSSP} {
		_, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: a, Params: engine.DefaultParams(), Schedule: engine.Schedule{Method: engine.AsyncRanges}})
		if !errors.Is(err, engine.ErrUnsupported) {
			t.Errorf("%s method=async: %v, want ErrUnsupported", a, err)
		}
	}
}

// TestAutoResolvesCompatibly: an auto knob resolves to a value that works with the knobs set
// by hand (dedup=none makes BFS's update rw, not an rmw that could never duplicate).
func TestAutoResolvesCompatibly(t *testing.T) {
	e, _ := engine.Open("cpu")
	g := longPath(50)
	for _, kv := range [][2]string{{"dedup", "none"}, {"dedup", "cull"}, {"frontier", "bitmap"}, {"driven", "hybrid"}, {"direction", "pull"}} {
		var s engine.Schedule
		if err := s.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.BFS, Params: engine.DefaultParams(), Schedule: s})
		if err != nil {
			t.Errorf("bfs %s=%s: %v", kv[0], kv[1], err)
			continue
		}
		if res.Schedule.Update == engine.UpdateAuto || res.Schedule.Driven == engine.DrivenAuto {
			t.Errorf("bfs %s=%s: resolved schedule %s still has auto update or driven", kv[0], kv[1], res.Schedule)
		}
	}
	for _, a := range []engine.Algorithm{engine.SSSP, engine.CC} {
		var s engine.Schedule
		_ = s.Set("update", "rw")
		if _, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: a, Params: engine.DefaultParams(), Schedule: s}); err != nil {
			t.Errorf("%s update=rw: %v", a, err)
		}
		_ = s.Set("direction", "push")
		if a == engine.CC {
			_ = s.Set("method", "labelprop")
		}
		if _, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: a, Params: engine.DefaultParams(), Schedule: s}); err != nil {
			t.Errorf("%s %s: %v", a, s, err)
		}
	}
}

// TestLBRefused: a GPU load-balancing mapping is refused, not ignored.
func TestLBRefused(t *testing.T) {
	e, _ := engine.Open("cpu")
	var s engine.Schedule
	_ = s.Set("lb", "warp")
	for _, a := range []engine.Algorithm{engine.BFS, engine.SSSP, engine.CC, engine.PR} {
		_, err := e.Run(context.Background(), engine.Request{Graph: longPath(10), Algorithm: a, Params: engine.DefaultParams(), Schedule: s})
		if !errors.Is(err, engine.ErrUnsupported) {
			t.Errorf("%s lb=warp: %v, want ErrUnsupported", a, err)
		}
	}
}
