package ref_test

import (
	"context"
	"math"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	_ "github.com/gworkbench/gworkbench/engine/ref"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

// Hand-checked answers of the reference tc, bc, mis and mst.

func moreRef(t *testing.T, g *graph.CSR, a engine.Algorithm, p engine.Params) *engine.Result {
	t.Helper()
	e, err := engine.Open("ref")
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: a, Params: p})
	if err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	return res
}

func moreEdges(t *testing.T, n int, directed bool, es ...[3]int) *graph.CSR {
	t.Helper()
	var edges []loader.Edge
	for _, e := range es {
		edges = append(edges, loader.Edge{U: uint32(e[0]), V: uint32(e[1]), W: int32(e[2])})
	}
	g, err := loader.FromEdges(n, edges, directed, true)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestRefTC(t *testing.T) {
	// K4 (4 triangles) plus a pendant vertex; as arcs in one direction only, directed.
	for _, dir := range []bool{false, true} {
		g := moreEdges(t, 5, dir, [3]int{0, 1, 1}, [3]int{0, 2, 1}, [3]int{0, 3, 1}, [3]int{1, 2, 1}, [3]int{1, 3, 1}, [3]int{3, 2, 1}, [3]int{3, 4, 1})
		if got := moreRef(t, g, engine.TC, engine.DefaultParams()).Triangles; got != 4 {
			t.Errorf("K4+1 directed=%v: got %d triangles, want 4", dir, got)
		}
	}
}

func TestRefBC(t *testing.T) {
	// Path 0-1-2-3-4: from every source, vertex i lies on i*(4-i) pairs' paths.
	g := moreEdges(t, 5, false, [3]int{0, 1, 1}, [3]int{1, 2, 1}, [3]int{2, 3, 1}, [3]int{3, 4, 1})
	p := engine.DefaultParams()
	p.Sources = -1
	got := moreRef(t, g, engine.BC, p).Centrality
	for i, want := range []float64{0, 3, 4, 3, 0} {
		if math.Abs(got[i]-want) > 1e-12 {
			t.Errorf("path bc[%d]: got %g, want %g", i, got[i], want)
		}
	}
	// Diamond 0->1->3, 0->2->3 directed, source 0: two shortest paths to 3, one through each.
	g = moreEdges(t, 4, true, [3]int{0, 1, 1}, [3]int{0, 2, 1}, [3]int{1, 3, 1}, [3]int{2, 3, 1})
	p = engine.DefaultParams()
	p.Src = 0
	got = moreRef(t, g, engine.BC, p).Centrality
	for i, want := range []float64{0, 0.5, 0.5, 0} {
		if math.Abs(got[i]-want) > 1e-12 {
			t.Errorf("diamond bc[%d]: got %g, want %g", i, got[i], want)
		}
	}
}

func TestRefMIS(t *testing.T) {
	// A star: the set is the centre alone, or every leaf, depending on the priorities.
	g := moreEdges(t, 6, false, [3]int{0, 1, 1}, [3]int{0, 2, 1}, [3]int{0, 3, 1}, [3]int{0, 4, 1}, [3]int{0, 5, 1})
	for seed := int64(1); seed <= 20; seed++ {
		p := engine.DefaultParams()
		p.Seed = seed
		res := moreRef(t, g, engine.MIS, p)
		centre := engine.MISPriority(seed, 0) > engine.MISPriority(seed, 1) &&
			engine.MISPriority(seed, 0) > engine.MISPriority(seed, 2) && engine.MISPriority(seed, 0) > engine.MISPriority(seed, 3) &&
			engine.MISPriority(seed, 0) > engine.MISPriority(seed, 4) && engine.MISPriority(seed, 0) > engine.MISPriority(seed, 5)
		want := int64(5)
		if centre {
			want = 1
		}
		if res.Summary.SetSize != want || res.InSet[0] != centre {
			t.Errorf("star seed %d: got size %d centre %v, want size %d centre %v", seed, res.Summary.SetSize, res.InSet[0], want, centre)
		}
		if err := engine.Verify(g, res, res); err != nil {
			t.Errorf("star seed %d: %v", seed, err)
		}
	}
}

func TestRefMST(t *testing.T) {
	// A 4-cycle with weights 1, 2, 3, 4 and a chord of 2, plus an isolated vertex and an
	// unweighted view of the same graph.
	g := moreEdges(t, 5, false, [3]int{0, 1, 1}, [3]int{1, 2, 2}, [3]int{2, 3, 3}, [3]int{3, 0, 4}, [3]int{0, 2, 2})
	res := moreRef(t, g, engine.MST, engine.DefaultParams())
	if res.Summary.TotalWeight != 1+2+3 || res.Summary.ForestEdges != 3 || res.Summary.Components != 2 {
		t.Errorf("weighted: got weight %d, %d edges, %d trees; want 6, 3, 2", res.Summary.TotalWeight, res.Summary.ForestEdges, res.Summary.Components)
	}
	if err := engine.Verify(g, res, res); err != nil {
		t.Error(err)
	}
	u := &graph.CSR{Offsets: g.Offsets, Neighbors: g.Neighbors}
	if res := moreRef(t, u, engine.MST, engine.DefaultParams()); res.Summary.TotalWeight != 3 {
		t.Errorf("unweighted: got weight %d, want 3", res.Summary.TotalWeight)
	}
}

func TestVerifiersSayWhatDiffers(t *testing.T) {
	g := moreEdges(t, 4, false, [3]int{0, 1, 5}, [3]int{1, 2, 1}, [3]int{2, 0, 1}, [3]int{2, 3, 1})
	for _, a := range []engine.Algorithm{engine.TC, engine.BC, engine.MIS, engine.MST} {
		want := moreRef(t, g, a, engine.DefaultParams())
		bad := *want
		switch a {
		case engine.TC:
			bad.Triangles++
		case engine.BC:
			bad.Centrality = append([]float64(nil), want.Centrality...)
			bad.Centrality[2] += 0.5
		case engine.MIS:
			bad.InSet = make([]bool, 4)
			bad.InSet[0], bad.InSet[1] = true, true
		case engine.MST:
			bad.Forest = []int64{0, 1, 2}
		}
		if err := engine.Verify(g, &bad, want); err == nil {
			t.Errorf("%s: a wrong result passed verification", a)
		} else {
			t.Logf("%s: %v", a, err)
		}
	}
}
