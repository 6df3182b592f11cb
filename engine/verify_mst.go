package engine

import (
	"fmt"
	"sort"

	"github.com/gworkbench/gworkbench/graph"
)

// Minimum spanning forest conventions shared by every engine. An arc u->v is the undirected
// edge {u,v} (on a directed graph too); an unweighted graph weighs every edge 1. Edges are
// ordered strictly by the key (weight, min(u,v), max(u,v)); with that tie-break the minimum
// spanning forest is unique up to arcs that carry the same key (the two arcs of one undirected
// edge), so engines agree on the set of edges and exactly on the total weight.

// MSTKey is an edge's position in the order: weight, then the lower and the higher endpoint.
type MSTKey struct {
	W      int32
	Lo, Hi uint32
}

// Less orders keys by weight, then lower endpoint, then higher endpoint.
func (a MSTKey) Less(b MSTKey) bool {
	if a.W != b.W {
		return a.W < b.W
	}
	if a.Lo != b.Lo {
		return a.Lo < b.Lo
	}
	return a.Hi < b.Hi
}

// ArcSource returns the vertex whose out-list holds arc a (binary search of the offsets).
func ArcSource(g *graph.CSR, a int64) uint32 {
	n := g.NumVertices()
	// the last v with Offsets[v] <= a
	v := sort.Search(n, func(i int) bool { return g.Offsets[i+1] > a })
	return uint32(v)
}

// ArcWeight returns arc a's weight, 1 on an unweighted graph.
func ArcWeight(g *graph.CSR, a int64) int32 {
	if g.Weights == nil {
		return 1
	}
	return g.Weights[a]
}

// ArcKey returns the key of arc a, whose source is u.
func ArcKey(g *graph.CSR, u uint32, a int64) MSTKey {
	v := g.Neighbors[a]
	if v < u {
		u, v = v, u
	}
	return MSTKey{W: ArcWeight(g, a), Lo: u, Hi: v}
}

func init() { registerVerifier(MST, verifyMST) }

// verifyMST checks that got.Forest is a spanning forest of g (arcs exist, no cycle, one tree
// per component of the underlying undirected graph) of the minimum total weight want found.
func verifyMST(g *graph.CSR, got, want *Result) error {
	n := g.NumVertices()
	forest := graph.NewUnionFind(n)
	var total int64
	for i, a := range got.Forest {
		if a < 0 || a >= g.NumArcs() {
			return fmt.Errorf("mst: forest edge %d is arc %d, which does not exist (the graph has arcs 0..%d)", i, a, g.NumArcs()-1)
		}
		u, v := ArcSource(g, a), g.Neighbors[a]
		if !forest.Union(u, v) {
			return fmt.Errorf("mst: forest edge %d (arc %d, %d-%d) closes a cycle", i, a, g.IDs.ID(u), g.IDs.ID(v))
		}
		total += int64(ArcWeight(g, a))
	}
	// Components of the underlying undirected graph.
	cp := graph.NewUnionFind(n)
	for u := 0; u < n; u++ {
		for _, v := range g.Neigh(uint32(u)) {
			cp.Union(uint32(u), v)
		}
	}
	comps := 0
	for v := 0; v < n; v++ {
		if cp.Find(uint32(v)) == uint32(v) {
			comps++
		}
	}
	if len(got.Forest) != n-comps {
		return fmt.Errorf("mst: the forest has %d edges, a spanning forest of %d vertices in %d components has %d", len(got.Forest), n, comps, n-comps)
	}
	if got.Summary.TotalWeight != total || got.Summary.ForestEdges != int64(len(got.Forest)) || got.Summary.Components != int64(comps) {
		return fmt.Errorf("mst: summary says weight %d, %d edges, %d trees; the forest has weight %d, %d edges, %d trees",
			got.Summary.TotalWeight, got.Summary.ForestEdges, got.Summary.Components, total, len(got.Forest), comps)
	}
	if want != nil && total != want.Summary.TotalWeight {
		return fmt.Errorf("mst: got total weight %d, want %d (the %s engine's forest): the forest is spanning but not minimum", total, want.Summary.TotalWeight, want.Engine)
	}
	return nil
}
