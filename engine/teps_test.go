package engine_test

import (
	"context"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	_ "github.com/gworkbench/gworkbench/engine/ref"
	"github.com/gworkbench/gworkbench/loader"
)

// TestTEPSEdges counts the edges of the reached component (Graph500), not of the graph and not
// the edges scanned: a triangle reached from 0 beside an unreached path of 3 edges.
func TestTEPSEdges(t *testing.T) {
	edges := []loader.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 0, W: 1}, {U: 3, V: 4, W: 1}, {U: 4, V: 5, W: 1}, {U: 5, V: 6, W: 1}}
	for _, c := range []struct {
		name     string
		directed bool
		alg      engine.Algorithm
		src      int64
		sources  int
		want     int64
	}{
		{"undirected bfs from the triangle", false, engine.BFS, 0, 0, 3},
		{"undirected sssp from the path", false, engine.SSSP, 4, 0, 3},
		{"undirected bc from the triangle", false, engine.BC, 1, 0, 3},
		{"undirected bc from every vertex (components labelled once)", false, engine.BC, 0, -1, 3*3 + 4*3},
		{"directed bc from every vertex (a search each)", true, engine.BC, 0, -1, 3*3 + 3 + 2 + 1 + 0},
		{"directed bfs from the path's middle", true, engine.BFS, 4, 0, 2},
		{"undirected cc: the whole graph", false, engine.CC, 0, 0, 6},
	} {
		g, err := loader.FromEdges(7, edges, c.directed, true)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := engine.Open("ref")
		p := engine.DefaultParams()
		p.Src, p.Sources = c.src, c.sources
		r, err := ref.Run(context.Background(), engine.Request{Graph: g, Algorithm: c.alg, Params: p})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := engine.TEPSEdges(g, r); got != c.want {
			t.Errorf("%s: TEPSEdges got %d want %d", c.name, got, c.want)
		}
		r.SetTEPS(g)
		if r.Summary.Time > 0 && r.Summary.GTEPS*1e9*r.Summary.Time.Seconds() < float64(c.want)*0.999 {
			t.Errorf("%s: GTEPS %g x time %v is not %d edges", c.name, r.Summary.GTEPS, r.Summary.Time, c.want)
		}
	}
}

// TestSampleSources: sources with an edge, reproducible from the seed, and src=random resolves
// to the first of them in every engine.
func TestSampleSources(t *testing.T) {
	g, err := loader.FromEdges(10, []loader.Edge{{U: 2, V: 3}, {U: 5, V: 7}, {U: 7, V: 8}}, false, false)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := engine.SampleSources(g, 7, 3)
	b, _ := engine.SampleSources(g, 7, 3)
	if len(a) != 3 || a[0] != b[0] || a[1] != b[1] || a[2] != b[2] {
		t.Fatalf("seed 7: %v then %v, want the same 3", a, b)
	}
	for _, v := range a {
		if g.Degree(v) == 0 {
			t.Errorf("source %d has no edge", v)
		}
	}
	p := engine.DefaultParams()
	p.Src, p.Seed = engine.SrcRandom, 7
	if s, err := engine.ResolveSource(p, g); err != nil || s != a[0] {
		t.Errorf("src=random seed=7: %d %v, want %d", s, err, a[0])
	}
	empty, _ := loader.FromEdges(3, nil, false, false)
	if _, err := engine.SampleSources(empty, 1, 1); err == nil {
		t.Errorf("a graph without edges: no error")
	}
}
