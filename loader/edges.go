package loader

import (
	"context"
	"fmt"

	"github.com/gworkbench/gworkbench/graph"
)

// Edge is one input edge (or arc) with an optional weight.
type Edge struct {
	U, V uint32
	W    int32
}

// FromEdges builds a CSR on n vertices from an edge list: undirected graphs are symmetrized,
// self-loops and duplicates are dropped (the lowest weight of duplicates is kept), neighbour
// lists are sorted. weighted says whether the W fields are meaningful. It uses the same
// parallel builder as the file loaders and generators.
func FromEdges(n int, edges []Edge, directed, weighted bool) (*graph.CSR, error) {
	if n < 0 || n > maxVertices {
		return nil, fmt.Errorf("loader: %d vertices: expected 0..%d", n, int64(maxVertices))
	}
	var blocks []*edgeBlock
	for lo := 0; lo < len(edges); lo += genBlock {
		part := edges[lo:min(lo+genBlock, len(edges))]
		b := &edgeBlock{src: make([]uint32, len(part)), dst: make([]uint32, len(part))}
		if weighted {
			b.w = make([]int32, len(part))
		}
		for i, e := range part {
			if int64(e.U) >= int64(n) || int64(e.V) >= int64(n) {
				return nil, fmt.Errorf("loader: edge %d (%d,%d): vertex id out of range 0..%d", lo+i, e.U, e.V, n-1)
			}
			b.src[i], b.dst[i] = e.U, e.V
			if weighted {
				b.w[i] = e.W
			}
		}
		blocks = append(blocks, b)
	}
	g, st, err := buildCSR(context.Background(), blocks, buildSpec{n: n, symmetrize: !directed, weighted: weighted})
	if err != nil {
		return nil, err
	}
	g.Directed = directed
	g.Origin.Format = "edges"
	g.Origin.Entries = int64(len(edges))
	g.Origin.SelfLoopsRemoved = st.loops
	g.Origin.DuplicatesRemoved = st.dupArcs
	if !directed {
		g.Origin.DuplicatesRemoved /= 2
	}
	return g, nil
}
