package ref

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/loader"
)

func run(t *testing.T, n int, edges []loader.Edge, directed, weighted bool, a engine.Algorithm, src int64) *engine.Result {
	t.Helper()
	g, err := loader.FromEdges(n, edges, directed, weighted)
	if err != nil {
		t.Fatal(err)
	}
	p := engine.DefaultParams()
	p.Src = src
	p.Tolerance = 1e-12
	p.MaxIter = 1000
	var records int
	res, err := Engine{}.Run(context.Background(), engine.Request{Graph: g, Algorithm: a, Params: p,
		Observer: func(engine.Record) { records++ }})
	if err != nil {
		t.Fatal(err)
	}
	if records != len(res.Trace.Records) || records == 0 {
		t.Errorf("%s: %d records streamed, %d in the trace", a, records, len(res.Trace.Records))
	}
	return res
}

func TestBFSAndSSSP(t *testing.T) {
	// 0 -> 1 (5), 0 -> 2 (1), 2 -> 1 (1), 1 -> 3 (1), 4 unreached; directed.
	e := []loader.Edge{{U: 0, V: 1, W: 5}, {U: 0, V: 2, W: 1}, {U: 2, V: 1, W: 1}, {U: 1, V: 3, W: 1}, {U: 4, V: 0, W: 1}}
	bfs := run(t, 5, e, true, true, engine.BFS, 0)
	if want := []int32{0, 1, 1, 2, -1}; !slices.Equal(bfs.Depth, want) {
		t.Errorf("bfs depths %v, want %v", bfs.Depth, want)
	}
	if bfs.Summary.Reached != 4 || bfs.Summary.MaxDepth != 2 {
		t.Errorf("bfs summary %+v", bfs.Summary)
	}
	sssp := run(t, 5, e, true, true, engine.SSSP, 0)
	if want := []int32{0, 2, 1, 3, engine.InfDist}; !slices.Equal(sssp.Dist, want) {
		t.Errorf("sssp distances %v, want %v", sssp.Dist, want)
	}
	if sssp.Summary.Reached != 4 || sssp.Summary.MaxDist != 3 {
		t.Errorf("sssp summary %+v", sssp.Summary)
	}
	unweighted := run(t, 5, e, true, false, engine.SSSP, 0)
	if want := []int32{0, 1, 1, 2, engine.InfDist}; !slices.Equal(unweighted.Dist, want) {
		t.Errorf("unweighted sssp distances %v, want %v", unweighted.Dist, want)
	}
	g, _ := loader.FromEdges(2, []loader.Edge{{U: 0, V: 1, W: -1}}, true, true)
	if _, err := (Engine{}).Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.SSSP, Params: engine.DefaultParams()}); err == nil {
		t.Error("sssp accepted a negative weight")
	}
}

func TestCC(t *testing.T) {
	// {0,1,2} via a directed chain, {3,4}, {5} isolated.
	e := []loader.Edge{{U: 1, V: 0}, {U: 1, V: 2}, {U: 4, V: 3}}
	res := run(t, 6, e, true, false, engine.CC, -1)
	if err := engine.SamePartition(res.Comp, []uint32{0, 0, 0, 3, 3, 5}); err != nil {
		t.Error(err)
	}
	if res.Summary.Components != 3 || res.Summary.LargestComp != 3 {
		t.Errorf("cc summary %+v", res.Summary)
	}
}

func TestPR(t *testing.T) {
	cycle := run(t, 3, []loader.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 0}}, true, false, engine.PR, -1)
	for v, r := range cycle.Rank {
		if math.Abs(r-1.0/3) > 1e-9 {
			t.Errorf("cycle rank[%d] = %v, want 1/3", v, r)
		}
	}
	// 0 -> 1, 0 -> 2; 1 and 2 dangling. With b = rank 0, a = rank 1 = rank 2, d = 0.85:
	// a = 0.05 + 0.85*(b/2 + 2a/3), b = 0.05 + 0.85*(2a/3), so b = (0.05+0.85*2a/3) and
	// the ranks sum to 1.
	star := run(t, 3, []loader.Edge{{U: 0, V: 1}, {U: 0, V: 2}}, true, false, engine.PR, -1)
	r := star.Rank
	d := 0.85
	if math.Abs(r[1]-r[2]) > 1e-12 || math.Abs(r[0]+r[1]+r[2]-1) > 1e-9 ||
		math.Abs(r[0]-((1-d)/3+d*2*r[1]/3)) > 1e-9 || math.Abs(r[1]-((1-d)/3+d*(r[0]/2+2*r[1]/3))) > 1e-9 {
		t.Errorf("star ranks %v", r)
	}
	if math.Abs(star.Summary.RankSum-1) > 1e-9 {
		t.Errorf("rank sum %v", star.Summary.RankSum)
	}
}
