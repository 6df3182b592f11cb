package cpu_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	_ "github.com/gworkbench/gworkbench/engine/cpu"
	"github.com/gworkbench/gworkbench/engine/enginetest"
	_ "github.com/gworkbench/gworkbench/engine/ref"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

// moreGraph is one input of the tc, bc, mis and mst tests.
type moreGraph struct {
	name string
	g    *graph.CSR
}

var (
	moreOnce   sync.Once
	moreInputs []moreGraph
	moreErr    error
)

// moreGraphs returns small generated and hand-built graphs: skewed and uniform, directed and
// undirected, weighted and not, with isolated vertices and disconnected parts.
func moreGraphs(t testing.TB) []moreGraph {
	t.Helper()
	moreOnce.Do(func() {
		gen := []struct {
			name, kind string
			kv         map[string]string
		}{
			{"kron9", "kron", map[string]string{"scale": "9", "degree": "8"}},
			{"urand9", "urand", map[string]string{"scale": "9", "degree": "6", "weights": "uniform:1:20"}},
			{"kron8-directed", "kron", map[string]string{"scale": "8", "degree": "6", "directed": "true"}},
			{"grid", "grid", map[string]string{"rows": "12", "cols": "13"}},
			{"road", "road", map[string]string{"vertices": "300"}},
		}
		for _, c := range gen {
			g, err := loader.Generate(context.Background(), c.kind, c.kv, nil)
			if err != nil {
				moreErr = fmt.Errorf("%s: %v", c.name, err)
				return
			}
			moreInputs = append(moreInputs, moreGraph{c.name, g})
		}
		// Two cliques of 5 joined by a path, a triangle apart, a directed cycle's worth of
		// arcs, and isolated vertices 20..23.
		var es []loader.Edge
		for i := uint32(0); i < 5; i++ {
			for j := i + 1; j < 5; j++ {
				es = append(es, loader.Edge{U: i, V: j, W: int32(i + j)}, loader.Edge{U: 5 + i, V: 5 + j, W: 3})
			}
		}
		es = append(es, loader.Edge{U: 4, V: 10, W: 7}, loader.Edge{U: 10, V: 5, W: 2},
			loader.Edge{U: 11, V: 12, W: 1}, loader.Edge{U: 12, V: 13, W: 1}, loader.Edge{U: 13, V: 11, W: 1},
			loader.Edge{U: 14, V: 15, W: 5}, loader.Edge{U: 15, V: 16, W: 5}, loader.Edge{U: 16, V: 14, W: 5})
		for _, dir := range []bool{false, true} {
			g, err := loader.FromEdges(24, es, dir, true)
			if err != nil {
				moreErr = err
				return
			}
			moreInputs = append(moreInputs, moreGraph{fmt.Sprintf("cliques-directed=%v", dir), g})
		}
		g, _ := loader.FromEdges(1, nil, false, false)
		moreInputs = append(moreInputs, moreGraph{"single", g})
		g, _ = loader.FromEdges(6, nil, false, false)
		moreInputs = append(moreInputs, moreGraph{"no-edges", g})
	})
	if moreErr != nil {
		t.Fatalf("test graphs: %v", moreErr)
	}
	return moreInputs
}

// moreRun runs alg on the named engine with params and a schedule written as "k=v k=v".
func moreRun(t testing.TB, eng string, g *graph.CSR, alg engine.Algorithm, p engine.Params, sched string) (*engine.Result, error) {
	t.Helper()
	var s engine.Schedule
	for _, kv := range strings.Fields(sched) {
		k, v, _ := strings.Cut(kv, "=")
		if err := s.Set(k, v); err != nil {
			t.Fatalf("schedule %q: %v", sched, err)
		}
	}
	e, err := engine.Open(eng)
	if err != nil {
		t.Fatal(err)
	}
	return e.Run(context.Background(), engine.Request{Graph: g, Algorithm: alg, Params: p, Schedule: s})
}

// moreCheck runs alg on every graph with the reference engine and with the cpu engine under
// every schedule, and verifies each cpu result against the reference.
func moreCheck(t *testing.T, alg engine.Algorithm, p engine.Params, schedules []string) {
	moreCheckUpTo(t, alg, p, schedules, 1<<31)
}

// moreCheckUpTo is moreCheck on the graphs of at most maxV vertices.
func moreCheckUpTo(t *testing.T, alg engine.Algorithm, p engine.Params, schedules []string, maxV int) {
	for _, in := range moreGraphs(t) {
		if in.g.NumVertices() > maxV {
			continue
		}
		want, err := moreRun(t, "ref", in.g, alg, p, "")
		if err != nil {
			t.Fatalf("%s ref: %v", in.name, err)
		}
		for _, sched := range schedules {
			got, err := moreRun(t, "cpu", in.g, alg, p, sched)
			if err != nil {
				t.Errorf("%s %s [%s]: %v", in.name, alg, sched, err)
				continue
			}
			if err := engine.Verify(in.g, got, want); err != nil {
				t.Errorf("%s %s [%s]: %v", in.name, alg, sched, err)
			}
			if len(got.Trace.Records) == 0 {
				t.Errorf("%s %s [%s]: empty trace", in.name, alg, sched)
			}
		}
	}
}

// TestConformanceMore runs the engine conformance suite (every schedule of the engine's space
// on the shared graph matrix, against engine/ref) for tc, bc, mis and mst.
func TestConformanceMore(t *testing.T) {
	enginetest.Run(t, "cpu", engine.TC, engine.BC, engine.MIS, engine.MST)
}

func TestTC(t *testing.T) {
	var scheds []string
	for _, order := range []string{"auto", "degree", "id", "none"} {
		for _, relabel := range []string{"auto", "on", "off"} {
			if relabel == "on" && order != "auto" && order != "degree" {
				continue
			}
			for _, in := range []string{"merge", "binary", "hash"} {
				for _, lb := range []string{"vertex", "edge"} {
					scheds = append(scheds, fmt.Sprintf("order=%s relabel=%s intersect=%s lb=%s workers=2", order, relabel, in, lb))
				}
			}
		}
	}
	scheds = append(scheds, "workers=1", "split=blocked workers=2", "split=cyclic chunk=3 workers=2", "lb=edge chunk=5 workers=2")
	moreCheck(t, engine.TC, engine.DefaultParams(), scheds)
}

func TestTCKnownCounts(t *testing.T) {
	for _, in := range moreGraphs(t) {
		if !strings.HasPrefix(in.name, "cliques") {
			continue
		}
		got, err := moreRun(t, "cpu", in.g, engine.TC, engine.DefaultParams(), "")
		if err != nil {
			t.Fatal(err)
		}
		if want := uint64(10 + 10 + 1 + 1); got.Triangles != want { // two K5, two triangles
			t.Errorf("%s: got %d triangles, want %d", in.name, got.Triangles, want)
		}
	}
	g, _ := loader.FromEdges(3, []loader.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 0}}, false, false)
	got, err := moreRun(t, "cpu", g, engine.TC, engine.DefaultParams(), "relabel=on")
	if err != nil || got.Triangles != 1 {
		t.Errorf("triangle: got %v %v, want 1", got, err)
	}
	if _, err := moreRun(t, "cpu", g, engine.TC, engine.DefaultParams(), "relabel=on order=id"); err == nil {
		t.Errorf("relabel=on order=id: want a refusal")
	}
}

// TestCancelMore cancels tc, bc (all sources), mis and mst runs shortly after they start:
// each must return the context's error promptly (the contract says 50 ms; the bound here is
// loose because the test machine is shared).
func TestCancelMore(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a scale-15 graph")
	}
	g, err := loader.Generate(context.Background(), "kron", map[string]string{"scale": "15", "degree": "16"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := engine.Open("cpu")
	p := engine.DefaultParams()
	p.Sources = -1
	for _, a := range []engine.Algorithm{engine.TC, engine.BC, engine.MIS, engine.MST} {
		s := engine.Schedule{Workers: 2}
		if a == engine.TC {
			s.Intersect = engine.IntersectMerge // the slowest, so that the run is still going
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := e.Run(ctx, engine.Request{Graph: g, Algorithm: a, Params: p, Schedule: s})
			done <- err
		}()
		time.Sleep(5 * time.Millisecond)
		start := time.Now()
		cancel()
		err := <-done
		took := time.Since(start)
		t.Logf("%s: returned %v after %v", a, err, took)
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("%s: got %v, want context.Canceled", a, err)
		}
		if took > time.Second {
			t.Errorf("%s: took %v to stop after cancellation", a, took)
		}
	}
}

// TestTCRepeatedArcs counts a graph whose lists repeat neighbours and hold self-loops (as
// loading with duplicates=keep selfloops=keep leaves them) like its simple graph.
func TestTCRepeatedArcs(t *testing.T) {
	// K4 with arc 0->1 repeated and a self-loop on 2, symmetric.
	g := &graph.CSR{
		Offsets:   []int64{0, 4, 8, 12, 15},
		Neighbors: []uint32{1, 1, 2, 3, 0, 0, 2, 3, 0, 1, 2, 3, 0, 1, 2},
	}
	for _, sched := range []string{"", "order=id", "order=degree relabel=on", "order=none", "intersect=merge"} {
		got, err := moreRun(t, "cpu", g, engine.TC, engine.DefaultParams(), sched)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := moreRun(t, "ref", g, engine.TC, engine.DefaultParams(), "")
		if got.Triangles != 4 || want.Triangles != 4 {
			t.Errorf("[%s]: got %d triangles, ref %d, want 4", sched, got.Triangles, want.Triangles)
		}
	}
}

// TestTCMiddleVertex checks the middle-vertex formulation, which a skewed graph selects.
func TestTCMiddleVertex(t *testing.T) {
	g, err := loader.Generate(context.Background(), "kron", map[string]string{"scale": "11", "degree": "16"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := moreRun(t, "ref", g, engine.TC, engine.DefaultParams(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, sched := range []string{"", "relabel=on", "workers=3 chunk=1"} {
		got, err := moreRun(t, "cpu", g, engine.TC, engine.DefaultParams(), sched)
		if err != nil {
			t.Fatal(err)
		}
		middle := false
		for _, rec := range got.Trace.Records {
			middle = middle || strings.Contains(rec.Note, "middle vertex")
		}
		if !middle {
			t.Errorf("[%s]: the trace does not show the middle-vertex count", sched)
		}
		if err := engine.Verify(g, got, want); err != nil {
			t.Errorf("[%s]: %v", sched, err)
		}
	}
}

// TestMoreEmptyGraph runs tc, mis and mst on a graph without vertices, and bc, which refuses it.
func TestMoreEmptyGraph(t *testing.T) {
	g := &graph.CSR{Offsets: []int64{0}}
	for _, a := range []engine.Algorithm{engine.TC, engine.MIS, engine.MST, engine.BC} {
		for _, eng := range []string{"ref", "cpu"} {
			res, err := moreRun(t, eng, g, a, engine.DefaultParams(), "")
			if a == engine.BC {
				if err == nil {
					t.Errorf("%s %s: want a refusal of the empty graph", eng, a)
				}
				continue
			}
			if err != nil || res.Triangles != 0 || res.Summary.SetSize != 0 || res.Summary.ForestEdges != 0 {
				t.Errorf("%s %s: got %+v, %v", eng, a, res, err)
			}
		}
	}
}
