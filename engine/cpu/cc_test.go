package cpu_test

import (
	"context"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/cpu"
	"github.com/gworkbench/gworkbench/loader"
)

// TestAfforest checks Afforest against the reference on graphs of 2^16 vertices: kron (a giant
// component and many isolated vertices), a directed kron (the final links follow in-arcs
// too), urand of degree 2 (several components of some size) and a road graph (long paths to
// compress), each with pieces of the default size and of 64 vertices, both ways: GAPBS's
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
		for _, sched := range []string{"workers=2", "workers=2 chunk=64"} {
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
