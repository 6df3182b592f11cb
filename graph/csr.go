package graph

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// CSR is a graph in compressed sparse row form. Vertex ids are 0-based uint32; the out-neighbours
// of v are Neighbors[Offsets[v]:Offsets[v+1]], sorted ascending. An undirected graph is stored
// symmetric: every edge {u,v} appears as the arcs u->v and v->u.
type CSR struct {
	Offsets   []int64  // len V+1, Offsets[0] == 0, non-decreasing
	Neighbors []uint32 // len E (arcs)
	Weights   []int32  // nil, or len E: Weights[i] is the weight of arc i
	Directed  bool

	// IDs maps the vertices to the ids of the file they came from (the identity for generated
	// graphs); every id a person types or reads goes through it.
	IDs IDs

	// Origin says how the graph was made (file, format, generator, what the loader removed).
	Origin Origin

	transposeOnce sync.Once
	transpose     *CSR

	undirectedOnce sync.Once
	undirected     *CSR

	propsOnce sync.Once
	props     Properties
	propsDone atomic.Bool

	maxDegOnce   sync.Once
	maxDegVertex uint32

	arcVertsOnce sync.Once
	arcVerts     []uint32 // the vertices with an out-arc, ascending; nil when every vertex has one
	numArcVerts  int

	histOnce sync.Once
	hist     []int64

	fpOnce      sync.Once
	fingerprint string
}

// Origin records where a graph came from and what normalisation the loader applied, so that
// `info` can say it.
type Origin struct {
	Name              string // session name, if any
	Path              string // source file, "" for generated graphs
	Format            string // "mtx", "snap", "dimacs", "pace", "metis", "el", "wel", "gwg", "gen"
	Generator         string // for generated graphs: "kron scale=20 degree=16 seed=1"
	Base              int    // id base the file used (0 or 1; the first id when a sparse file was compacted)
	Compacted         int64  // ids the file skipped (sparse ids compacted to 0..V-1; IDs maps them back)
	DirectionAssumed  string // why the graph is (un)directed, e.g. "mtx symmetric", "told: undirected"
	Symmetrized       bool   // arcs were added to make a directed input undirected
	SelfLoopsRemoved  int64
	DuplicatesRemoved int64
	WeightsGenerated  string // e.g. "uniform:1:255 seed=1", "" when kept or absent
	FromCache         bool   // loaded from a .gwg cache
	Entries           int64  // data lines the input held (edges, arcs or matrix entries)
	Note              string // anything else the loader did, e.g. "header line 1 skipped"
}

// NumVertices returns V.
func (g *CSR) NumVertices() int { return len(g.Offsets) - 1 }

// NumArcs returns the number of stored arcs (for an undirected graph, twice the edges).
func (g *CSR) NumArcs() int64 { return int64(len(g.Neighbors)) }

// NumEdges returns the number of edges: arcs for a directed graph, arcs/2 for an undirected one.
func (g *CSR) NumEdges() int64 {
	if g.Directed {
		return g.NumArcs()
	}
	return g.NumArcs() / 2
}

// Weighted reports whether the graph carries edge weights.
func (g *CSR) Weighted() bool { return g.Weights != nil }

// Degree returns the out-degree of v.
func (g *CSR) Degree(v uint32) int64 { return g.Offsets[v+1] - g.Offsets[v] }

// Neigh returns the out-neighbours of v (a sub-slice; do not modify).
func (g *CSR) Neigh(v uint32) []uint32 { return g.Neighbors[g.Offsets[v]:g.Offsets[v+1]] }

// NeighWeights returns the weights of v's out-arcs, or nil for an unweighted graph.
func (g *CSR) NeighWeights(v uint32) []int32 {
	if g.Weights == nil {
		return nil
	}
	return g.Weights[g.Offsets[v]:g.Offsets[v+1]]
}

// Transpose returns the graph of in-edges (arc u->v becomes v->u), with weights carried along
// and neighbour lists sorted. It is built on first use, in parallel, and cached; an undirected
// graph is its own transpose. Safe for concurrent callers.
func (g *CSR) Transpose() *CSR {
	if !g.Directed {
		return g
	}
	g.transposeOnce.Do(func() { g.transpose = buildTranspose(g, runtime.GOMAXPROCS(0)) })
	return g.transpose
}

// buildTranspose counts in-degrees per worker over blocks of source vertices, prefix-sums them
// into per-worker write cursors, and scatters (through bins on large graphs, see
// scatterBinned). Because each worker owns a contiguous block of
// sources and writes its arcs into its own cursor range of every destination, each destination's
// list comes out sorted by source without a sort pass.
func buildTranspose(g *CSR, workers int) *CSR {
	n := g.NumVertices()
	if workers < 1 {
		workers = 1
	}
	if n < 1<<14 {
		workers = 1
	}
	// Each worker holds a count per vertex: keep those no larger than the neighbour array.
	if lim := len(g.Neighbors) / (2 * max(n, 1)); workers > lim {
		workers = max(lim, 1)
	}
	// 1. Split the sources into contiguous blocks of about equal arcs.
	bounds := SplitByArcs(g.Offsets, workers)
	workers = len(bounds) - 1
	// 2. Per-worker in-degree counts.
	counts := make([][]int64, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c := make([]int64, n)
			for _, u := range g.Neighbors[g.Offsets[bounds[w]]:g.Offsets[bounds[w+1]]] {
				c[u]++
			}
			counts[w] = c
		}(w)
	}
	wg.Wait()
	// 3. Offsets, and per-worker start cursors: worker w writes after workers < w.
	off := make([]int64, n+1)
	AdviseHuge(off)
	var sum int64
	for v := 0; v < n; v++ {
		off[v] = sum
		for w := 0; w < workers; w++ {
			c := counts[w][v]
			counts[w][v] = sum
			sum += c
		}
	}
	off[n] = sum
	// 4. Scatter.
	nb := make([]uint32, len(g.Neighbors))
	AdviseHuge(nb)
	var wt []int32
	if g.Weights != nil {
		wt = make([]int32, len(g.Weights))
		AdviseHuge(wt)
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			if n >= binMin {
				scatterBinned(g, bounds[w], bounds[w+1], counts[w], nb, wt)
				return
			}
			cur := counts[w]
			for v := bounds[w]; v < bounds[w+1]; v++ {
				for i := g.Offsets[v]; i < g.Offsets[v+1]; i++ {
					u := g.Neighbors[i]
					p := cur[u]
					cur[u] = p + 1
					nb[p] = uint32(v)
					if wt != nil {
						wt[p] = g.Weights[i]
					}
				}
			}
		}(w)
	}
	wg.Wait()
	t := &CSR{Offsets: off, Neighbors: nb, Weights: wt, Directed: true, IDs: g.IDs, Origin: g.Origin}
	t.transposeOnce.Do(func() { t.transpose = g })
	return t
}

// SplitByArcs returns vertex boundaries b[0]=0 < ... < b[k]=V splitting the arcs of the offsets
// off into at most parts blocks of about equal size (blocks with no vertices are merged away):
// the work split of every pass over a graph's arcs, here and in the loader.
func SplitByArcs(off []int64, parts int) []int {
	n := len(off) - 1
	b := []int{0}
	total := off[n]
	for p := 1; p < parts; p++ {
		target := total * int64(p) / int64(parts)
		lo, hi := b[len(b)-1], n
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if off[mid] < target {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo > b[len(b)-1] && lo < n {
			b = append(b, lo)
		}
	}
	return append(b, n)
}

// workersFor is the number of goroutines graph computations use.
func workersFor() int { return runtime.GOMAXPROCS(0) }
