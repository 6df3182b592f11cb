//go:build cuda

package gpu

import (
	"context"
	"testing"

	"github.com/gworkbench/gworkbench/loader"
)

// TestBuildBlocked checks the EdgeBlocking layout on the host (no GPU needed): every in-edge
// of every vertex appears once, in the segment of its source, inside the entry of its vertex;
// entries of a segment ascend by vertex; and the segment bounds add up. One worker and many
// give the same layout.
func TestBuildBlocked(t *testing.T) {
	for _, directed := range []bool{false, true} {
		g, err := loader.Generate(context.Background(), "kron", map[string]string{"scale": "15", "degree": "8", "directed": boolStr(directed)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		in := g.Transpose()
		n := in.NumVertices()
		for _, size := range []int{1, 64, 1000, n, 2 * n} {
			rows, off, nbr, segStart, segEdges := buildBlocked(in, size, 7)
			segs := (n + size - 1) / size
			if len(segStart) != segs+1 || len(segEdges) != segs+1 || int64(len(nbr)) != in.NumArcs() || segEdges[segs] != in.NumArcs() {
				t.Fatalf("size %d: %d/%d segment bounds for %d segments, %d edges of %d", size, len(segStart), len(segEdges), segs, len(nbr), in.NumArcs())
			}
			seen := make([]int64, n+1) // per vertex: edges found, in source order
			for s := 0; s < segs; s++ {
				if off[segStart[s]] != segEdges[s] {
					t.Fatalf("size %d segment %d: first entry starts at edge %d, want %d", size, s, off[segStart[s]], segEdges[s])
				}
				for i := segStart[s]; i < segStart[s+1]; i++ {
					v := int(rows[i])
					if i > segStart[s] && rows[i-1] >= rows[i] {
						t.Fatalf("size %d segment %d: entries not ascending at %d", size, s, i)
					}
					if off[i+1] <= off[i] {
						t.Fatalf("size %d: empty entry %d", size, i)
					}
					for e := off[i]; e < off[i+1]; e++ {
						u := int(nbr[e])
						if u/size != s {
							t.Fatalf("size %d: source %d in segment %d", size, u, s)
						}
						want := in.Neighbors[in.Offsets[v]+seen[v]]
						if nbr[e] != want {
							t.Fatalf("size %d: vertex %d edge %d: source %d, want %d", size, v, seen[v], u, want)
						}
						seen[v]++
					}
				}
			}
			for v := 0; v < n; v++ {
				if seen[v] != in.Offsets[v+1]-in.Offsets[v] {
					t.Fatalf("size %d: vertex %d: %d in-edges in the layout, %d in the graph", size, v, seen[v], in.Offsets[v+1]-in.Offsets[v])
				}
			}
			r1, o1, n1, _, _ := buildBlocked(in, size, 1)
			if len(r1) != len(rows) || len(o1) != len(off) || len(n1) != len(nbr) {
				t.Fatalf("size %d: one worker built a different layout", size)
			}
			for i := range r1 {
				if r1[i] != rows[i] || o1[i] != off[i] {
					t.Fatalf("size %d: one worker built a different layout at entry %d", size, i)
				}
			}
		}
	}
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
