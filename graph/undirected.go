package graph

import (
	"sync"
	"sync/atomic"
)

// Undirected returns g's underlying undirected simple graph: the lists of every vertex are
// the sorted union of its out- and in-neighbours, without repeats and without the vertex
// itself (an arc either way is an edge). It is g itself when g is undirected and simple (no
// self-loop, no repeated neighbour: what the loader builds by default); otherwise it is built
// on first use, in parallel, and cached, as the transpose is. Weights are not carried.
// Safe for concurrent callers.
func (g *CSR) Undirected() *CSR {
	g.undirectedOnce.Do(func() {
		if !g.Directed && g.simple() {
			g.undirected = g
			return
		}
		g.undirected = buildUndirected(g, workersFor())
	})
	return g.undirected
}

// simple reports whether no list of g repeats a neighbour or holds its own vertex (sorted
// lists hold repeats next to each other).
func (g *CSR) simple() bool {
	var bad atomic.Bool
	forBlocks(SplitByArcs(g.Offsets, 4*workersFor()), func(lo, hi int) {
		for v := lo; v < hi && !bad.Load(); v++ {
			l := g.Neigh(uint32(v))
			for i, u := range l {
				if u == uint32(v) || i > 0 && u == l[i-1] {
					bad.Store(true)
					return
				}
			}
		}
	})
	return !bad.Load()
}

// buildUndirected merges each vertex's out- and in-list: 1. count each union, 2. prefix sum,
// 3. fill.
func buildUndirected(g *CSR, workers int) *CSR {
	n := g.NumVertices()
	in := func(uint32) []uint32 { return nil }
	if g.Directed {
		in = g.Transpose().Neigh
	}
	bounds := SplitByArcs(g.Offsets, 4*max(workers, 1))
	off := make([]int64, n+1)
	forBlocks(bounds, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			off[v+1] = int64(unionInto(nil, g.Neigh(uint32(v)), in(uint32(v)), uint32(v)))
		}
	})
	for v := 0; v < n; v++ {
		off[v+1] += off[v]
	}
	nb := make([]uint32, off[n])
	forBlocks(bounds, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			unionInto(nb[off[v]:off[v+1]], g.Neigh(uint32(v)), in(uint32(v)), uint32(v))
		}
	})
	u := &CSR{Offsets: off, Neighbors: nb, Origin: g.Origin}
	u.Origin.Symmetrized = u.Origin.Symmetrized || g.Directed
	u.undirectedOnce.Do(func() { u.undirected = u })
	return u
}

// unionInto merges the sorted lists a and b without repeats and without self, into dst when
// dst is not nil, and returns the union's length.
func unionInto(dst, a, b []uint32, self uint32) int {
	k := 0
	var last uint32
	have := false
	for len(a) > 0 || len(b) > 0 {
		var x uint32
		if len(b) == 0 || len(a) > 0 && a[0] <= b[0] {
			x, a = a[0], a[1:]
		} else {
			x, b = b[0], b[1:]
		}
		if have && x == last || x == self {
			continue
		}
		last, have = x, true
		if dst != nil {
			dst[k] = x
		}
		k++
	}
	return k
}

// forBlocks calls fn(lo, hi) for each block [bounds[i], bounds[i+1]) on its own goroutine.
func forBlocks(bounds []int, fn func(lo, hi int)) {
	var wg sync.WaitGroup
	for i := 0; i+1 < len(bounds); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(bounds[i], bounds[i+1])
		}()
	}
	wg.Wait()
}
