//go:build cuda

package gpu

import (
	"context"
	"testing"

	"github.com/gworkbench/gworkbench/engine/enginetest"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

// TestAsyncOrder checks method=async's host layout (buildAsync) without a device: the
// relabeling is a permutation (of a directed graph too, whose far vertices do not reach back),
// the relabeled CSR holds every vertex's arcs and weights, the shared lists decode to the same
// neighbours and weights and are built exactly when they fit (u16 entries, byte weights), and
// on a road grid few arcs cross ranges (a compact cut, unlike id ranges of a random order).
func TestAsyncOrder(t *testing.T) {
	gen := func(kind string, p map[string]string) *graph.CSR {
		g, err := loader.Generate(context.Background(), kind, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	dir := enginetest.WithUniformWeights(gen("kron", map[string]string{"scale": "12", "degree": "4", "directed": "true"}), 0, 255, 3)
	road := enginetest.WithUniformWeights(gen("road", map[string]string{"rows": "300", "cols": "300", "weights": "drop"}), 1, 255, 5)
	heavy := enginetest.WithUniformWeights(gen("road", map[string]string{"rows": "40", "cols": "40", "weights": "drop"}), 1, 1000, 7)
	cases := []struct {
		name       string
		g          *graph.CSR
		weighted   bool
		parts      int
		shared     bool // the shared lists fit
		maxCrossed float64
	}{
		{"directed", dir, true, 1, true, 1},
		{"directed", dir, false, 7, true, 1},
		{"directed", dir, true, 132, true, 1},
		{"road", road, true, 1, false, 0.1}, // 90,000 vertices a range: over u16
		{"road", road, true, 7, true, 0.1},
		{"road", road, false, 132, true, 0.1},
		{"heavy weights", heavy, true, 7, false, 1}, // weights past a byte
		{"heavy weights", heavy, false, 7, true, 1}, // BFS: no weights
	}
	for _, c := range cases {
		n := c.g.NumVertices()
		per := (n + c.parts - 1) / c.parts
		h := buildAsync(c.g, c.parts, per, c.weighted)
		if len(h.perm) != n {
			t.Fatalf("%s, parts %d: %d vertices placed of %d", c.name, c.parts, len(h.perm), n)
		}
		seen := make([]bool, n)
		for _, v := range h.perm {
			if seen[v] {
				t.Fatalf("%s, parts %d: vertex %d placed twice", c.name, c.parts, v)
			}
			seen[v] = true
		}
		if h.shared != c.shared {
			t.Errorf("%s, parts %d, weighted %v: shared lists %v, want %v", c.name, c.parts, c.weighted, h.shared, c.shared)
		}
		for i, u := range h.perm {
			lo, hi := c.g.Offsets[u], c.g.Offsets[u+1]
			if h.off[i+1]-h.off[i] != hi-lo {
				t.Fatalf("%s, parts %d: new id %d has %d arcs, vertex %d has %d", c.name, c.parts, i, h.off[i+1]-h.off[i], u, hi-lo)
			}
			p := i / per
			for k := int64(0); k < hi-lo; k++ {
				a := h.off[i] + k
				want := c.g.Neighbors[lo+k]
				if got := h.perm[h.nbr[a]]; got != want {
					t.Fatalf("%s, parts %d: arc %d of vertex %d leads to %d, want %d", c.name, c.parts, k, u, got, want)
				}
				if c.weighted && h.wt[a] != c.g.Weights[lo+k] {
					t.Fatalf("%s, parts %d: arc %d of vertex %d weighs %d, want %d", c.name, c.parts, k, u, h.wt[a], c.g.Weights[lo+k])
				}
				if !h.shared {
					continue
				}
				e := int(h.snb[a])
				w := uint32(p*per + e)
				if e >= per {
					w = h.remote[int(h.remoteStart[p])+e-per]
				}
				if w != h.nbr[a] {
					t.Fatalf("%s, parts %d: shared entry %d of new id %d decodes to %d, want %d", c.name, c.parts, e, i, w, h.nbr[a])
				}
				if c.weighted && int32(h.wt8[a]) != h.wt[a] {
					t.Fatalf("%s, parts %d: shared weight %d, want %d", c.name, c.parts, h.wt8[a], h.wt[a])
				}
			}
		}
		if frac := float64(h.cross) / float64(len(c.g.Neighbors)); frac > c.maxCrossed {
			t.Errorf("%s, parts %d: %.1f%% of the arcs cross ranges, want under %.0f%%", c.name, c.parts, 100*frac, 100*c.maxCrossed)
		}
		t.Logf("%s, parts %d: %d of %d arcs cross ranges, shared lists %v (up to %d arcs a range)", c.name, c.parts, h.cross, len(c.g.Neighbors), h.shared, h.maxArcs)
	}
}

// TestMeanWeight checks the sampled mean both SSSP methods' auto deltas start from: exact on
// a short list, every step-th weight of a long one, and none for an unweighted graph.
func TestMeanWeight(t *testing.T) {
	if _, ok := meanWeight(nil); ok {
		t.Errorf("meanWeight(nil) reports weights")
	}
	if m, ok := meanWeight([]int32{1, 2, 3, 6}); !ok || m != 3 {
		t.Errorf("meanWeight(1 2 3 6) = %v, %v; want 3, true", m, ok)
	}
	long := make([]int32, 10000) // step 3: the sample is indices 0, 3, 6, ...
	for i := range long {
		if i%3 == 0 {
			long[i] = 10
		}
	}
	if m, ok := meanWeight(long); !ok || m != 10 {
		t.Errorf("meanWeight of a long list = %v, %v; want 10 (every third weight), true", m, ok)
	}
}
