package cpu

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// Minimum spanning forest, method=ecl: Boruvka over a worklist of edges that shrinks every
// round, the approach of ECL-MST (Fallin, Gonzalez, Seo and Burtscher, SC'23) as the GPU
// engine's method=ecl runs it (engine/gpu/mst_ecl.go):
//
//   - an edge {u,v} is its arc u->v with u < v, and its key (weight, arc index) packed in 64
//     bits orders edges as engine.MSTKey does (neighbour lists are sorted);
//   - a round takes each listed edge's endpoints' representatives in a union-find forest
//     (path halving), drops the edge when they are one, and otherwise keeps it, with the
//     representatives, for the next round and lowers both representatives' minimum key (a
//     compare-and-swap minimum);
//   - then every kept edge that is the minimum of either side joins its two sides (the
//     higher representative hooked under the lower with a compare-and-swap) and enters the
//     forest when its hook is the one that joined them (with the strict key order, two sides
//     that chose the same edge join once).
//
// The first round reads the edges from the graph's lists; later rounds read only the edges
// still between two components, where method=boruvka rescans every arc of every vertex that
// has one. Rounds keep their minima in two arrays by parity, and a round clears the other
// round's entries of its representatives as it goes, so no round sweeps every vertex.
// Undirected graphs with fewer than 2^32 arcs, as on the GPU.

// mstEdge is a worklist entry: the representatives of an edge's endpoints when it was listed,
// and its key.
type mstEdge struct {
	u, v uint32
	key  uint64
}

// mstKeyOf packs arc a's weight and index into a key of the same order as engine.MSTKey.
func mstKeyOf(g *graph.CSR, a int64) uint64 {
	return uint64(uint32(engine.ArcWeight(g, a))^0x80000000)<<32 | uint64(a)
}

type mstECLRun struct {
	r      *Run
	g      *graph.CSR
	parent []uint32
	minKey [2][]uint64
	kept   [][]mstEdge // per worker, this round's surviving edges
	list   []mstEdge   // the round's worklist (nil in the first round: the graph's lists)
	forest [][]int64   // per worker
}

func runMSTECL(ctx context.Context, r *Run) error {
	g := r.G
	if g.Directed {
		return fmt.Errorf("cpu: mst: method=ecl: %w (an edge worklist of arcs u->v with u < v needs an undirected graph; method=boruvka runs directed ones)", engine.ErrUnsupported)
	}
	if g.NumArcs() >= 1<<32 {
		return fmt.Errorf("cpu: mst: method=ecl: %w (the key packs the arc index in 32 bits: the graph has %d arcs)", engine.ErrUnsupported, g.NumArcs())
	}
	n := g.NumVertices()
	m := &mstECLRun{r: r, g: g, parent: make([]uint32, n), kept: make([][]mstEdge, r.Workers),
		forest: make([][]int64, r.Workers)}
	m.minKey[0], m.minKey[1] = make([]uint64, n), make([]uint64, n)
	r.forRange(n, 4096, 1, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			m.parent[v], m.minKey[0][v], m.minKey[1][v] = uint32(v), math.MaxUint64, math.MaxUint64
		}
	})
	note := "ECL-MST: Boruvka over a shrinking worklist of edges; ties broken by (weight, min(u,v), max(u,v))"
	if g.Weights == nil {
		note += "; unweighted graph: every edge weighs 1"
	}
	r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "ecl", Note: note})
	// ECL-MST's filter on graphs of average degree 4 or more: the light edges first (weights up
	// to the sampled weight that about 3 V arcs stay under), whose forest is part of the whole
	// one; then the heavy edges still between two components
	light := int32(math.MaxInt32)
	if g.Weights != nil && g.NumArcs() >= 4*int64(n) {
		light = mstLightWeight(g)
	}
	round := 0
	for phase := 0; phase < 2; phase++ {
		if phase == 1 {
			if light == math.MaxInt32 {
				break
			}
			m.flatten()
			r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "ecl", Note: fmt.Sprintf("the heavy edges (weight above %d) between two components", light)})
		} else if light != math.MaxInt32 {
			r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "ecl", Note: fmt.Sprintf("the light edges (weight up to %d) first", light)})
		}
		for first := true; ; first = false {
			if err := r.ctxErr(ctx); err != nil {
				return err
			}
			t := time.Now()
			in, scanned := int64(len(m.list)), int64(len(m.list))
			if first {
				// the phase reads every arc of the lists and takes each edge once
				in, scanned = g.NumArcs()/2, g.NumArcs()
			}
			left := m.filter(round, first, light, phase == 1)
			if r.stopped() {
				return r.ctxErr(ctx)
			}
			joined := m.join(round)
			r.emit(engine.Record{Iter: round, Phase: "ecl", Direction: engine.Push, Mode: engine.Data,
				InVertices: in, OutVertices: left, EdgesScanned: scanned, Time: time.Since(t),
				Note: fmt.Sprintf("%d edges in, %d between two components, %d joined", in, left, joined)})
			round++
			if left == 0 {
				break
			}
		}
	}
	finishForest(r, m.forest)
	return nil
}

// mstLightWeight is the weight that about 3 V of g's arcs stay at or under, from a sample of
// 4096 arcs spread over the lists.
func mstLightWeight(g *graph.CSR) int32 {
	const k = 4096
	m := g.NumArcs()
	w := make([]int32, 0, k)
	for i := int64(0); i < k; i++ {
		w = append(w, g.Weights[i*m/k])
	}
	slices.Sort(w)
	return w[min(k-1, 3*int64(g.NumVertices())*k/m)]
}

// flatten points every vertex straight at its representative and clears both rounds' minima,
// between the light and the heavy phase.
func (m *mstECLRun) flatten() {
	m.r.forRange(len(m.parent), 4096, 1, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			atomic.StoreUint32(&m.parent[v], m.find(uint32(v)))
			m.minKey[0][v], m.minKey[1][v] = math.MaxUint64, math.MaxUint64
		}
	})
}

// find returns x's representative, halving the path on the way (a vertex's parent only ever
// moves up its tree, so the halving's plain stores lose nothing).
func (m *mstECLRun) find(x uint32) uint32 {
	p := m.parent
	for {
		px := atomic.LoadUint32(&p[x])
		if px == x {
			return x
		}
		ppx := atomic.LoadUint32(&p[px])
		if ppx != px {
			atomic.StoreUint32(&p[x], ppx)
		}
		x = ppx
	}
}

// lower lowers a[i] to key (a compare-and-swap minimum).
func lower(a []uint64, i uint32, key uint64) {
	for {
		old := atomic.LoadUint64(&a[i])
		if key >= old || atomic.CompareAndSwapUint64(&a[i], old, key) {
			return
		}
	}
}

// filter is a round's first pass: it keeps the edges between two components, with their
// representatives, lowers both representatives' minimum key, and clears the other parity's
// entries of those representatives (set by the round before, whose joins are done). A
// phase's first round reads the graph's lists: the edges of weight up to light, or above it
// (heavy). It returns how many edges it kept, now in m.list.
func (m *mstECLRun) filter(round int, first bool, light int32, heavy bool) int64 {
	cur, prev := m.minKey[round&1], m.minKey[1-round&1]
	visit := func(w int, u, v uint32, key uint64) {
		ru, rv := m.find(u), m.find(v)
		if ru == rv {
			return
		}
		m.kept[w] = append(m.kept[w], mstEdge{ru, rv, key})
		if !first {
			atomic.StoreUint64(&prev[ru], math.MaxUint64)
			atomic.StoreUint64(&prev[rv], math.MaxUint64)
		}
		lower(cur, ru, key)
		lower(cur, rv, key)
	}
	for w := range m.kept {
		m.kept[w] = m.kept[w][:0]
	}
	g := m.g
	if first {
		m.r.forRange(g.NumVertices(), 1024, 1, func(w, lo, hi int) {
			for u := lo; u < hi; u++ {
				for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
					if v := g.Neighbors[a]; v > uint32(u) && (engine.ArcWeight(g, a) > light) == heavy {
						visit(w, uint32(u), v, mstKeyOf(g, a))
					}
				}
			}
		})
	} else {
		list := m.list
		m.r.forRange(len(list), 4096, 1, func(w, lo, hi int) {
			for _, e := range list[lo:hi] {
				visit(w, e.u, e.v, e.key)
			}
		})
	}
	// the next worklist: the workers' kept edges, each worker copying its own
	start := make([]int, len(m.kept)+1)
	for w, k := range m.kept {
		start[w+1] = start[w] + len(k)
	}
	total := start[len(m.kept)]
	if cap(m.list) < total {
		m.list = make([]mstEdge, total, max(total, int(g.NumArcs()/4)))
	}
	m.list = m.list[:total]
	m.r.parallel(m.r.Workers, func(w int) { copy(m.list[start[w]:], m.kept[w]) })
	return int64(total)
}

// join is a round's second pass: every listed edge that is the minimum key of either side
// joins the two sides, and enters the forest when its hook joined them. It returns the
// number of edges added.
func (m *mstECLRun) join(round int) int64 {
	cur := m.minKey[round&1]
	added := make([]int64, len(m.forest))
	list := m.list
	m.r.forRange(len(list), 4096, 1, func(w, lo, hi int) {
		for _, e := range list[lo:hi] {
			if e.key != atomic.LoadUint64(&cur[e.u]) && e.key != atomic.LoadUint64(&cur[e.v]) {
				continue
			}
			ru, rv := e.u, e.v
			for {
				ru, rv = m.find(ru), m.find(rv)
				if ru == rv {
					break
				}
				if ru > rv {
					ru, rv = rv, ru
				}
				if atomic.CompareAndSwapUint32(&m.parent[rv], rv, ru) {
					m.forest[w] = append(m.forest[w], int64(uint32(e.key)))
					added[w]++
					break
				}
			}
		}
	})
	var sum int64
	for _, a := range added {
		sum += a
	}
	return sum
}
