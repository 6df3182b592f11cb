package cpu_test

import (
	"context"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/loader"
)

// TestAfforestBothWays checks Afforest's two ways of running its neighbour rounds against the
// reference: the small graphs of the conformance suite all have their labels near (fewer
// vertices than nearLabels's window), so they take GAPBS's rounds; kron and urand graphs of
// 2^16 vertices take the single pass with its prefetches, and a road graph the rounds again.
func TestAfforestBothWays(t *testing.T) {
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
				t.Fatalf("%s %v [%s]: %v", c.kind, c.kv, sched, err)
			}
			if err := engine.Verify(g, got, want); err != nil {
				t.Errorf("%s %v [%s]: %v", c.kind, c.kv, sched, err)
			}
		}
	}
}
