//go:build cuda

package gpu

import (
	"testing"

	"context"
	"github.com/gworkbench/gworkbench/loader"
)

// TestAsyncOrder checks asyncOrder's relabeling: a permutation of the vertices (of a directed
// graph too, whose far vertices do not reach back), and on a road grid ranges that few arcs
// cross (a compact cut, unlike id ranges of a random order would be).
func TestAsyncOrder(t *testing.T) {
	dir, err := loader.Generate(context.Background(), "kron", map[string]string{"scale": "12", "degree": "4", "directed": "true"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, parts := range []int{1, 7, 132} {
		h := buildAsync(dir, parts, (dir.NumVertices()+parts-1)/parts, false)
		seen := make([]bool, dir.NumVertices())
		for _, v := range h.perm {
			if seen[v] {
				t.Fatalf("directed, parts %d: vertex %d placed twice", parts, v)
			}
			seen[v] = true
		}
		if len(h.perm) != dir.NumVertices() {
			t.Fatalf("directed, parts %d: %d vertices placed of %d", parts, len(h.perm), dir.NumVertices())
		}
	}
	g, err := loader.Generate(context.Background(), "road", map[string]string{"rows": "300", "cols": "300"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, parts := range []int{1, 7, 132} {
		per := (g.NumVertices() + parts - 1) / parts
		h := buildAsync(g, parts, per, false)
		seen := make([]bool, g.NumVertices())
		for _, v := range h.perm {
			if seen[v] {
				t.Fatalf("parts %d: vertex %d placed twice", parts, v)
			}
			seen[v] = true
		}
		if len(h.perm) != g.NumVertices() {
			t.Fatalf("parts %d: %d vertices placed of %d", parts, len(h.perm), g.NumVertices())
		}
		if frac := float64(h.cross) / float64(len(g.Neighbors)); frac > 0.1 {
			t.Errorf("parts %d: %.1f%% of the arcs cross ranges, want under 10%%", parts, 100*frac)
		}
		t.Logf("parts %d: %d of %d arcs cross ranges", parts, h.cross, len(g.Neighbors))
	}
}
