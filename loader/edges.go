package loader

import (
	"fmt"
	"slices"

	"github.com/gworkbench/gworkbench/graph"
)

// Edge is one input edge (or arc) with an optional weight.
type Edge struct {
	U, V uint32
	W    int32
}

// FromEdges builds a CSR on n vertices from an edge list: undirected graphs are symmetrized,
// self-loops and duplicates are dropped (the lowest weight of duplicates is kept), neighbour
// lists are sorted. weighted says whether the W fields are meaningful. It is the simple path
// used by tests and small inputs; file loaders and generators use the parallel builder.
func FromEdges(n int, edges []Edge, directed, weighted bool) (*graph.CSR, error) {
	arcs := make([]Edge, 0, len(edges)*2)
	for i, e := range edges {
		if int(e.U) >= n || int(e.V) >= n {
			return nil, fmt.Errorf("loader: edge %d (%d,%d): vertex id out of range 0..%d", i, e.U, e.V, n-1)
		}
		if e.U == e.V {
			continue
		}
		arcs = append(arcs, e)
		if !directed {
			arcs = append(arcs, Edge{U: e.V, V: e.U, W: e.W})
		}
	}
	slices.SortFunc(arcs, func(a, b Edge) int {
		if a.U != b.U {
			return int(int64(a.U) - int64(b.U))
		}
		if a.V != b.V {
			return int(int64(a.V) - int64(b.V))
		}
		return int(int64(a.W) - int64(b.W))
	})
	arcs = slices.CompactFunc(arcs, func(a, b Edge) bool { return a.U == b.U && a.V == b.V })
	g := &graph.CSR{Offsets: make([]int64, n+1), Neighbors: make([]uint32, len(arcs)), Directed: directed}
	if weighted {
		g.Weights = make([]int32, len(arcs))
	}
	for i, a := range arcs {
		g.Offsets[a.U+1]++
		g.Neighbors[i] = a.V
		if weighted {
			g.Weights[i] = a.W
		}
	}
	for v := 0; v < n; v++ {
		g.Offsets[v+1] += g.Offsets[v]
	}
	g.Origin.Format = "edges"
	return g, nil
}
