package engine

import (
	"time"

	"github.com/gworkbench/gworkbench/graph"
)

// TEPSEdges returns the edges that the traversed-edges-per-second figure counts for r on g,
// as Graph500 and GAPBS define it for a search: for bfs and sssp, the edges of the component
// reached from the source (an undirected edge once; on a directed graph the arcs leaving the
// reached vertices); for bc, the same summed over its sources. The other algorithms process the
// whole graph: cc, tc, mis and mst count the graph's edges once, pr once per iteration. The
// edges the run scanned, its work, are Summary.EdgesTraversed; a direction-optimizing BFS
// scans fewer than it counts here, a pull BFS more. A result without per-vertex values (a
// restored one), and a directed BC whose sources' searches would pass maxTEPSWork, count -1.
func TEPSEdges(g *graph.CSR, r *Result) int64 {
	switch r.Algorithm {
	case BFS:
		if r.Depth == nil {
			return -1
		}
		return componentEdges(g, func(v int) bool { return r.Depth[v] != UnreachedDepth })
	case SSSP:
		if r.Dist == nil {
			return -1
		}
		return componentEdges(g, func(v int) bool { return r.Dist[v] != InfDist })
	case BC:
		srcs, err := BCSources(r.Params, g)
		if err != nil {
			return -1
		}
		if !g.Directed && len(srcs) > 1 {
			return undirectedSourceEdges(g, srcs)
		}
		if int64(len(srcs))*(int64(g.NumVertices())+g.NumArcs()) > maxTEPSWork {
			return -1 // a directed graph's many searches would take the host longer than the run
		}
		var sum int64
		seen := make([]bool, g.NumVertices())
		var queue []uint32
		for _, s := range srcs {
			clear(seen)
			queue = append(queue[:0], s)
			seen[s] = true
			for i := 0; i < len(queue); i++ {
				for _, w := range g.Neigh(queue[i]) {
					if !seen[w] {
						seen[w] = true
						queue = append(queue, w)
					}
				}
			}
			sum += componentEdges(g, func(v int) bool { return seen[v] })
		}
		return sum
	case PR:
		return g.NumEdges() * int64(max(r.Summary.Iterations, 1))
	}
	return g.NumEdges()
}

// maxTEPSWork bounds the vertices and arcs that counting a directed BC's TEPS edges may visit
// (a search from every source); past it the count is -1, as for a restored result.
const maxTEPSWork = 1 << 31

// undirectedSourceEdges sums, over the sources, the edges of each one's component of an
// undirected graph: the components are labelled once (union-find over the arcs) instead of a
// search from every source, which for sources=all or a few dozen sources of a large graph
// would take the host longer than the run.
func undirectedSourceEdges(g *graph.CSR, srcs []uint32) int64 {
	n := g.NumVertices()
	uf := graph.NewUnionFind(n)
	for v := 0; v < n; v++ {
		for _, w := range g.Neigh(uint32(v)) {
			if uint32(v) < w {
				uf.Union(uint32(v), w)
			}
		}
	}
	arcs := make([]int64, n) // arcs of each component, at its root
	for v := 0; v < n; v++ {
		arcs[uf.Find(uint32(v))] += g.Offsets[v+1] - g.Offsets[v]
	}
	var sum int64
	for _, s := range srcs {
		sum += arcs[uf.Find(s)] / 2
	}
	return sum
}

// componentEdges counts the arcs leaving the vertices in, halved on an undirected graph (every
// edge is two arcs, both inside the component).
func componentEdges(g *graph.CSR, in func(v int) bool) int64 {
	var arcs int64
	for v := 0; v < g.NumVertices(); v++ {
		if in(v) {
			arcs += g.Offsets[v+1] - g.Offsets[v]
		}
	}
	if !g.Directed {
		arcs /= 2
	}
	return arcs
}

// SetTEPS fills Summary.TEPSEdges (TEPSEdges) and Summary.GTEPS from Summary.Time.
func (r *Result) SetTEPS(g *graph.CSR) {
	r.Summary.TEPSEdges = TEPSEdges(g, r)
	r.Summary.GTEPS = GTEPS(r.Summary.TEPSEdges, r.Summary.Time)
}

// GTEPS is edges / t in 1e9 per second (0 when either is not positive).
func GTEPS(edges int64, t time.Duration) float64 {
	if t > 0 && edges > 0 {
		return float64(edges) / t.Seconds() / 1e9
	}
	return 0
}
