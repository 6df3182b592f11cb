package cpu_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/cpu"
	"github.com/gworkbench/gworkbench/loader"
)

// TestAfforest checks Afforest against the reference on graphs of 2^16 vertices: kron (a giant
// component and many isolated vertices), a directed kron (the final links follow in-arcs
// too), urand of degree 2 (several components of some size) and a road graph (long paths to
// compress), each with pieces of the default size, of 64 vertices and of 7 (pieces that end
// inside a neighbour list's cache line and a label's), both ways: GAPBS's
// neighbour rounds (every graph off AMD processors) and the single pass that kron and urand
// take on AMD processors (cpu.SetAfforestPass).
func TestAfforest(t *testing.T) {
	defer cpu.SetAfforestPass(cpu.SetAfforestPass(false))
	for _, pass := range []bool{false, true} {
		cpu.SetAfforestPass(pass)
		afforestCheck(t, pass)
	}
}

func afforestCheck(t *testing.T, pass bool) {
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
				t.Fatalf("%s %v [%s] pass=%v: %v", c.kind, c.kv, sched, pass, err)
			}
			if err := engine.Verify(g, got, want); err != nil {
				t.Errorf("%s %v [%s] pass=%v: %v", c.kind, c.kv, sched, pass, err)
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
