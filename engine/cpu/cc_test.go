package cpu_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/cpu"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

// TestAfforest checks Afforest against the reference on graphs of 2^16 vertices: kron (a giant
// component and many isolated vertices), a directed kron (the final links follow in-arcs
// too), urand of degree 2 (several components of some size) and a road graph (long paths to
// compress), each with pieces of the default size, of 64 vertices and of 7 (pieces that end
// inside a neighbour list's cache line and a label's).
func TestAfforest(t *testing.T) {
	for _, c := range []struct {
		kind string
		kv   map[string]string
	}{
		{"kron", map[string]string{"scale": "16", "degree": "4"}},
		{"urand", map[string]string{"scale": "16", "degree": "2"}}, // (several components)
		{"kron", map[string]string{"scale": "16", "degree": "4", "directed": "true"}},
		{"road", map[string]string{"vertices": "70000"}},
	} {
		g, err := loader.Generate(context.Background(), c.kind, c.kv, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := moreRun(t, "ref", g, engine.CC, engine.DefaultParams(), "")
		if err != nil {
			t.Fatal(err)
		}
		for _, sched := range []string{"workers=2", "workers=2 chunk=64", "workers=3 chunk=7"} {
			got, err := moreRun(t, "cpu", g, engine.CC, engine.DefaultParams(), sched)
			if err != nil {
				t.Fatalf("%s %v [%s]: %v", c.kind, c.kv, sched, err)
			}
			if err := engine.Verify(g, got, want); err != nil {
				t.Errorf("%s %v [%s]: %v", c.kind, c.kv, sched, err)
			}
		}
	}
}

// TestAfforestJunkLabels runs every CC method with labels allocated full of junk: Afforest's
// are not cleared (uninitUint32s, reused memory holds old words), so a label the fill missed
// would show as a wrong component.
func TestAfforestJunkLabels(t *testing.T) {
	defer cpu.SetJunkLabels()()
	g, err := loader.Generate(context.Background(), "urand", map[string]string{"scale": "16", "degree": "2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := moreRun(t, "ref", g, engine.CC, engine.DefaultParams(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, sched := range []string{"workers=2", "workers=3 chunk=7", "method=sv", "method=labelprop"} {
		got, err := moreRun(t, "cpu", g, engine.CC, engine.DefaultParams(), sched)
		if err != nil {
			t.Fatal(err)
		}
		if err := engine.Verify(g, got, want); err != nil {
			t.Errorf("[%s] labels allocated with junk: %v", sched, err)
		}
	}
}

// TestHighLow checks Afforest's branch-free higher and lower label against max and min, at
// the ends of the uint32 range and on random pairs.
func TestHighLow(t *testing.T) {
	check := func(a, b uint32) {
		if h, l := cpu.HighLow(a, b); h != max(a, b) || l != min(a, b) {
			t.Fatalf("highLow(%d, %d) = %d, %d; want %d, %d", a, b, h, l, max(a, b), min(a, b))
		}
	}
	ends := []uint32{0, 1, 2, 1<<31 - 1, 1 << 31, 1<<32 - 2, 1<<32 - 1}
	for _, a := range ends {
		for _, b := range ends {
			check(a, b)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		check(rng.Uint32(), rng.Uint32())
	}
}

// TestAfforestFirstArcs checks Afforest on neighbour lists in no order, with self-loops and
// repeated arcs: the first round (firstLinks) links only first arcs that lead down, to a vertex
// of its piece through that vertex's label, and leaves the others ("up", or a self-loop) to the
// second (linkSecond), also where the first arc is the only one. Half the vertices form a giant
// component (random arcs, three a vertex); most others hang from one of them by their first arc
// (up or down) alone, sometimes after a self-loop or twice, the giant vertex listing them after
// its own arcs or (directed) not at all: the final links skip the giant's vertices and the first
// two arcs of every other, so only the neighbour rounds join such a vertex. The rest are in
// components of two and four, which a label taken from the wrong vertex would join. 50,000
// vertices numbered at random, undirected and directed, in pieces of 3 vertices and up.
func TestAfforestFirstArcs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 50000
	for _, directed := range []bool{false, true} {
		adj := make([][]uint32, n)
		var core, hang, small []uint32
		for v := range uint32(n) {
			switch rng.IntN(8) {
			case 0, 1, 2, 3:
				core = append(core, v)
			case 4, 5, 6:
				hang = append(hang, v)
			default:
				small = append(small, v)
			}
		}
		for i := 0; i+1 < len(small); i += 2 { // pairs, some joined into fours
			u, v := small[i], small[i+1]
			if i%6 == 4 {
				v = small[i-2]
			}
			adj[u] = append(adj[u], v)
			if !directed {
				adj[v] = append(adj[v], u)
			}
		}
		for _, u := range core {
			for range 3 {
				v := core[rng.IntN(len(core))]
				adj[u] = append(adj[u], v)
				if !directed && u != v {
					adj[v] = append(adj[v], u)
				}
			}
		}
		for _, u := range hang {
			v := core[rng.IntN(len(core))]
			switch rng.IntN(8) {
			case 0:
				adj[u] = append(adj[u], u, v) // a self-loop first
			case 1:
				adj[u] = append(adj[u], v, v)
			default:
				adj[u] = append(adj[u], v)
			}
			if !directed {
				adj[v] = append(adj[v], u)
			}
		}
		g := &graph.CSR{Offsets: make([]int64, n+1), Directed: directed}
		for u, l := range adj {
			g.Neighbors = append(g.Neighbors, l...)
			g.Offsets[u+1] = int64(len(g.Neighbors))
		}
		want, err := moreRun(t, "ref", g, engine.CC, engine.DefaultParams(), "")
		if err != nil {
			t.Fatal(err)
		}
		scheds := []string{"workers=3 chunk=3", "workers=2", "workers=4 chunk=300"}
		if testing.Short() {
			scheds = scheds[:1] // (under -race)
		}
		for _, sched := range scheds {
			got, err := moreRun(t, "cpu", g, engine.CC, engine.DefaultParams(), sched)
			if err != nil {
				t.Fatal(err)
			}
			if err := engine.Verify(g, got, want); err != nil {
				t.Errorf("directed=%v [%s]: %v", directed, sched, err)
			}
		}
	}
}

// TestAfforestKeptLabels runs Afforest on graphs of growing and shrinking size in turn: each
// run works in the labels the one before kept (a larger array, or one holding another graph's
// labels) or, when those are too few, in new ones; the result is a copy, which the next run
// must not overwrite.
func TestAfforestKeptLabels(t *testing.T) {
	var gs []*graph.CSR
	for _, kv := range []map[string]string{
		{"scale": "16", "degree": "2"}, {"scale": "12", "degree": "2"}, {"scale": "16", "degree": "2"},
		{"scale": "17", "degree": "2"}, {"scale": "14", "degree": "3"},
	} {
		g, err := loader.Generate(context.Background(), "urand", kv, nil)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	var results []*engine.Result
	for i, g := range gs {
		got, err := moreRun(t, "cpu", g, engine.CC, engine.DefaultParams(), "workers=2")
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, got)
		for j := range i + 1 { // the earlier results are untouched
			want, err := moreRun(t, "ref", gs[j], engine.CC, engine.DefaultParams(), "")
			if err != nil {
				t.Fatal(err)
			}
			if err := engine.Verify(gs[j], results[j], want); err != nil {
				t.Errorf("graph %d after run %d: %v", j, i, err)
			}
		}
	}
}
