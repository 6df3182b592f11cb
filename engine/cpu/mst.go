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

// Minimum spanning forest returns the arcs of a minimum spanning forest (one tree per connected
// component) in Result.Forest, ascending, with its total weight. It is Boruvka's algorithm, as
// IrGL's and Gunrock's MST run it, one round per iteration:
//
//  1. find-min: every vertex finds its lightest arc to another component and offers it to its
//     component's root (a compare-and-swap minimum on the arc index, ordered by
//     engine.MSTKey: weight, then lower endpoint, then higher endpoint; on a directed graph
//     the arc is offered to both endpoints' components, as an arc is an edge both ways).
//  2. hook: every root with an edge points at the component across it and the edge joins the
//     forest. With the strict key order the only cycles are two components that chose the
//     same edge; the lower root stays a root and the edge is added once.
//  3. compress: pointer jumping makes every root point at its tree's new root, and every
//     vertex takes its root's root as its component.
//
// driven=data (the default) keeps a worklist of the vertices that still have an arc leaving
// their component (a vertex whose arcs are all inside stays so) and of the live components
// (a component that found no edge is finished); driven=topology sweeps every vertex and every
// root each round. An unweighted graph weighs every edge 1. O(log V) rounds of O(E) work.

func init() {
	register(engine.MST, runMST)
	registerSpace(engine.MST, engine.Subspace{}, engine.Subspace{axis("driven", "data", "topology")})
}

type mstRun struct {
	r      *Run
	g      *graph.CSR
	n      int
	data   bool
	comp   []uint32 // vertex -> its component's root at the start of the round
	parent []uint32 // root -> the root it hooked to (itself if none)
	best   []int64  // root -> lightest arc leaving the component, -1 if none
	bestWL []uint64 // root -> the least (weight, lower endpoint) offered: a cheap first filter
	verts  []uint32 // data: vertices that may still have an arc leaving their component
	roots  []uint32 // data: live components
	next   *segQueue
	forest [][]int64 // per worker
	cnt    []counters
}

func runMST(ctx context.Context, r *Run) error {
	g := r.G
	s := &r.Res.Schedule
	if s.Method == engine.MethodAuto {
		// ECL-MST's edge worklist where it wins on this engine: undirected graphs that are
		// sparse (road networks: many rounds, few edges left after the first) or weighted
		// (its light-edge filter); an unweighted dense graph has no light edges to start
		// from, and the vertex rounds' cheap first test of a component's offers wins there
		s.Method = engine.Boruvka
		roundKnobs := s.Driven != engine.DrivenAuto || s.Frontier != engine.FrontierAuto || s.Update != engine.UpdateAuto
		sparse := g.NumArcs() < 4*int64(g.NumVertices())
		if !g.Directed && !roundKnobs && (sparse || g.Weights != nil) && g.NumArcs() < 1<<32 {
			s.Method = engine.ECL
		}
	}
	if s.Method == engine.ECL {
		return runMSTECL(ctx, r)
	}
	if s.Driven == engine.DrivenAuto {
		s.Driven = engine.Data
	}
	if s.Driven == engine.Hybrid {
		return fmt.Errorf("cpu: mst: driven=hybrid: %w (mst runs data- or topology-driven)", engine.ErrUnsupported)
	}
	if s.Frontier != engine.FrontierAuto && s.Frontier != engine.Queue {
		return fmt.Errorf("cpu: mst: frontier=%s: %w (the live vertices and components are compacted queues)", s.Frontier, engine.ErrUnsupported)
	}
	if s.Driven == engine.Data {
		s.Frontier = engine.Queue
	}
	if s.Update == engine.UpdateAuto {
		s.Update = engine.RMW
	}
	n := g.NumVertices()
	m := &mstRun{r: r, g: g, n: n, data: s.Driven == engine.Data,
		comp: make([]uint32, n), parent: make([]uint32, n), best: make([]int64, n), bestWL: make([]uint64, n),
		next: newSegQueue(r.Workers, 0), forest: make([][]int64, r.Workers), cnt: make([]counters, r.Workers)}
	r.forRange(n, 4096, 1, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			m.comp[v], m.parent[v], m.best[v], m.bestWL[v] = uint32(v), uint32(v), -1, math.MaxUint64
		}
	})
	if m.data {
		m.verts = make([]uint32, n)
		m.roots = make([]uint32, n)
		for v := range m.verts {
			m.verts[v], m.roots[v] = uint32(v), uint32(v)
		}
	}
	note := "Boruvka: find-min, hook, compress; ties broken by (weight, min(u,v), max(u,v))"
	if g.Weights == nil {
		note += "; unweighted graph: every edge weighs 1"
	}
	r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "boruvka", Note: note})
	live := int64(n)
	for iter := 0; ; iter++ {
		if err := r.ctxErr(ctx); err != nil {
			return err
		}
		t := time.Now()
		inVerts := int64(n)
		if m.data {
			inVerts = int64(len(m.verts))
		}
		scanned := m.findMin()
		hooked := m.hook()
		m.compress()
		if err := r.ctxErr(ctx); err != nil {
			return err
		}
		left := m.nextRound()
		r.emit(engine.Record{Iter: iter, Phase: "boruvka", Direction: engine.Push, Mode: modeOf(m.data),
			InVertices: inVerts, OutVertices: left, EdgesScanned: scanned, Time: time.Since(t),
			Note: fmt.Sprintf("%d live components, %d hooked, %d edges added", live, hooked, hooked)})
		live = left
		if hooked == 0 {
			break
		}
	}
	finishForest(r, m.forest)
	return nil
}

// finishForest gathers the workers' forest arcs into Result.Forest, ascending, with the
// summary: total weight, edges and components.
func finishForest(r *Run, parts [][]int64) {
	var forest []int64
	for _, f := range parts {
		forest = append(forest, f...)
	}
	slices.Sort(forest)
	var total int64
	for _, a := range forest {
		total += int64(engine.ArcWeight(r.G, a))
	}
	if forest == nil {
		forest = []int64{}
	}
	r.Res.Forest = forest
	r.Res.Summary.TotalWeight = total
	r.Res.Summary.ForestEdges = int64(len(forest))
	r.Res.Summary.Components = int64(r.G.NumVertices() - len(forest))
}

// key returns arc a's key (its source found by binary search).
func (m *mstRun) key(a int64) engine.MSTKey { return engine.ArcKey(m.g, engine.ArcSource(m.g, a), a) }

// offer makes a, of key k, root c's best arc if it is lighter than the current one. The key's
// first two fields, packed in 64 bits, go through an atomic minimum first: an offer beaten
// there is beaten by an arc already offered, and the comparison of whole keys (which finds
// the current arc's source by a binary search) is left to the few that tie or win.
func (m *mstRun) offer(c uint32, a int64, k engine.MSTKey) {
	wl := uint64(uint32(k.W)^1<<31)<<32 | uint64(k.Lo)
	q := &m.bestWL[c]
	for {
		cur := atomic.LoadUint64(q)
		if wl > cur {
			return
		}
		if wl == cur || atomic.CompareAndSwapUint64(q, cur, wl) {
			break
		}
	}
	p := &m.best[c]
	for {
		cur := atomic.LoadInt64(p)
		if cur >= 0 && !k.Less(m.key(cur)) {
			return
		}
		if atomic.CompareAndSwapInt64(p, cur, a) {
			return
		}
	}
}

// findMin offers each vertex's lightest outgoing arc to its root; data-driven, it drops the
// vertices with no arc leaving their component. It returns the arcs scanned.
func (m *mstRun) findMin() int64 {
	g := m.g
	clear(m.cnt)
	m.next.reset()
	directed := g.Directed
	visit := func(w int, v uint32) bool {
		cv := m.comp[v]
		ba := int64(-1)
		var bk engine.MSTKey
		lo, hi := g.Offsets[v], g.Offsets[v+1]
		m.cnt[w].c += hi - lo
		for a := lo; a < hi; a++ {
			u := g.Neighbors[a]
			cu := m.comp[u]
			if cu == cv {
				continue
			}
			k := engine.MSTKey{W: engine.ArcWeight(g, a), Lo: min(u, v), Hi: max(u, v)}
			if ba < 0 || k.Less(bk) {
				ba, bk = a, k
			}
			if directed {
				m.offer(cu, a, k)
			}
		}
		if ba < 0 {
			return false
		}
		m.offer(cv, ba, bk)
		return true
	}
	if m.data {
		verts := m.verts
		m.r.forRange(len(verts), 256, 1, func(w, lo, hi int) {
			for _, v := range verts[lo:hi] {
				if visit(w, v) {
					m.next.seg[w] = append(m.next.seg[w], v)
				}
			}
		})
		m.verts = m.verts[:0]
		for _, s := range m.next.seg {
			m.verts = append(m.verts, s...)
		}
	} else {
		m.r.forRange(m.n, 1024, 1, func(w, lo, hi int) {
			for v := lo; v < hi; v++ {
				visit(w, uint32(v))
			}
		})
	}
	return sumCounters(m.cnt).c
}

// eachRoot calls f for every root of the round: the live list (data) or a sweep.
func (m *mstRun) eachRoot(f func(w int, c uint32)) {
	if m.data {
		roots := m.roots
		m.r.forRange(len(roots), 256, 1, func(w, lo, hi int) {
			for _, c := range roots[lo:hi] {
				f(w, c)
			}
		})
		return
	}
	m.r.forRange(m.n, 1024, 1, func(w, lo, hi int) {
		for v := lo; v < hi; v++ {
			if m.comp[v] == uint32(v) {
				f(w, uint32(v))
			}
		}
	})
}

// hook points each root with a best arc at the component across it, adding the arc to the
// forest, except the lower root of a pair that chose the same edge. It returns the hooks.
func (m *mstRun) hook() int64 {
	clear(m.cnt)
	m.eachRoot(func(w int, c uint32) {
		a := m.best[c]
		if a < 0 {
			return
		}
		s := engine.ArcSource(m.g, a)
		other := m.comp[s]
		if other == c {
			other = m.comp[m.g.Neighbors[a]]
		}
		if c < other {
			if b := m.best[other]; b >= 0 && m.key(b) == m.key(a) {
				return // mutual choice of one edge: the higher root hooks onto c
			}
		}
		atomic.StoreUint32(&m.parent[c], other)
		m.forest[w] = append(m.forest[w], a)
		m.cnt[w].a++
	})
	return sumCounters(m.cnt).a
}

// compress jumps pointers until every root points at its tree's root, then relabels every
// vertex with its root's root.
func (m *mstRun) compress() {
	for {
		clear(m.cnt)
		m.eachRoot(func(w int, c uint32) {
			p := atomic.LoadUint32(&m.parent[c])
			if pp := atomic.LoadUint32(&m.parent[p]); pp != p {
				atomic.StoreUint32(&m.parent[c], pp)
				m.cnt[w].a++
			}
		})
		if sumCounters(m.cnt).a == 0 {
			break
		}
	}
	m.r.forRange(m.n, 4096, 1, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			m.comp[v] = m.parent[m.comp[v]]
		}
	})
}

// nextRound resets the best arcs and, data-driven, keeps the roots that are still roots and
// found an edge. It returns the live components.
func (m *mstRun) nextRound() int64 {
	clear(m.cnt)
	m.next.reset()
	if !m.data {
		m.r.forRange(m.n, 4096, 1, func(w, lo, hi int) {
			for v := lo; v < hi; v++ {
				if m.comp[v] == uint32(v) && m.best[v] >= 0 {
					m.cnt[w].a++
				}
				m.best[v], m.bestWL[v] = -1, math.MaxUint64
			}
		})
		return sumCounters(m.cnt).a
	}
	roots := m.roots
	m.r.forRange(len(roots), 1024, 1, func(w, lo, hi int) {
		for _, c := range roots[lo:hi] {
			if m.parent[c] == c && m.best[c] >= 0 {
				m.next.seg[w] = append(m.next.seg[w], c)
			}
		}
	})
	for _, c := range roots {
		m.best[c], m.bestWL[c] = -1, math.MaxUint64
	}
	m.roots = m.roots[:0]
	for _, s := range m.next.seg {
		m.roots = append(m.roots, s...)
	}
	return int64(len(m.roots))
}
