package engine

import (
	"testing"

	"github.com/gworkbench/gworkbench/graph"
)

// TestResolveSourceSkipsProperties: engines resolve src=auto inside their timed region, so it
// must not compute g.Properties() (its diameter-estimating BFS sweeps once made an 8 ms BFS
// report 453 ms on a fresh graph).
func TestResolveSourceSkipsProperties(t *testing.T) {
	// 0-1, 1-2, 1-3, 2-3, 3-4: vertices 1 and 3 have degree 3; the lowest id wins.
	g := &graph.CSR{
		Offsets:   []int64{0, 1, 4, 6, 9, 10},
		Neighbors: []uint32{1, 0, 2, 3, 1, 3, 1, 2, 4, 3},
	}
	p := DefaultParams()
	src, err := ResolveSource(p, g)
	if err != nil || src != 1 {
		t.Fatalf("ResolveSource(auto) = %d, %v; want 1", src, err)
	}
	if g.HasProperties() {
		t.Error("ResolveSource(auto) computed the graph's properties")
	}
	if want := g.Properties().MaxDegreeVertex; src != want {
		t.Errorf("ResolveSource(auto) = %d, Properties().MaxDegreeVertex = %d", src, want)
	}
	p.Src = 5
	if _, err := ResolveSource(p, g); err == nil {
		t.Error("src=5 on 5 vertices accepted")
	}
}
