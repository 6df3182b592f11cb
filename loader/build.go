package loader

import (
	"context"
	"sync/atomic"

	"github.com/gworkbench/gworkbench/graph"
)

// buildSpec says how blocks of edges become a CSR.
type buildSpec struct {
	n          int  // vertices
	symmetrize bool // add the reverse of every arc (undirected output)
	keepLoops  bool
	keepDups   bool
	weighted   bool // blocks carry weights and the CSR keeps them
	prog       *progress
}

// buildStats says what the builder removed.
type buildStats struct {
	loops   int64 // self-loops dropped
	dupArcs int64 // arcs dropped as duplicates (after symmetrizing)
	arcsIn  int64 // input edges that were not dropped self-loops
}

// buildCSR turns blocks of edges into a CSR, in the manner of GAPBS's BuilderBase (builder.h):
//
//  1. count degrees: each goroutine owns a range of vertices and counts, over all the edges,
//     the arcs that leave its vertices (dropped self-loops are counted instead);
//  2. prefix sum: the counts become the start of each neighbour list;
//  3. allocate the neighbour (and weight) arrays, exactly the size counted, on transparent
//     huge pages (graph.AdviseHuge: random reads of a large graph are TLB-bound);
//  4. scatter: each goroutine owns a range of about equal arcs and, reading all the edges in
//     order, writes the arcs that leave its vertices (with the reverse arcs when symmetrizing);
//     ownership means no atomics, and lists come out in input order. On large graphs the
//     arcs are first buffered by target range (propagation blocking), so that the writes
//     hit a cache-sized part of the arrays at a time;
//  5. sort and squish: each list is sorted (by neighbour, then weight) and, unless duplicates
//     are kept, duplicates are dropped keeping the lowest weight; lists are compacted in place
//     and the offsets rebuilt (SquishCSR in builder.h).
//
// Every step runs on all cores. The result does not depend on the order of the edges, the
// number of blocks or the number of goroutines. blocks is consumed: its entries are set to nil.
func buildCSR(ctx context.Context, blocks []*edgeBlock, sp buildSpec) (*graph.CSR, buildStats, error) {
	n := sp.n
	w := workers()
	var st buildStats
	off := make([]int64, n+1)
	graph.AdviseHuge(off)
	var total int64
	for _, b := range blocks {
		total += int64(b.len())
	}

	if w > ownerMax {
		return buildShared(ctx, blocks, sp, off, total)
	}

	// 1. Count degrees.
	sp.prog.phase("count", total)
	ranges := splitRange(n, w)
	loops := make([]int64, len(ranges)-1)
	parallelFor(len(ranges)-1, w, func(p int) {
		lo, span := uint32(ranges[p]), uint32(ranges[p+1]-ranges[p])
		for bi, b := range blocks {
			if bi&15 == 0 && ctx.Err() != nil {
				return
			}
			loops[p] += countBlock(b, off, lo, span, sp.symmetrize, sp.keepLoops)
			if p == 0 {
				sp.prog.add(int64(b.len()))
			}
		}
	})
	for _, l := range loops {
		st.loops += l
	}
	st.arcsIn = total - st.loops
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}

	// 2. Prefix sum: off[v] becomes the start of v's list, off[n] the number of arcs.
	arcs := prefixSum(off, w)

	// 3. Allocate.
	nb, wt := allocArcs(arcs, sp.weighted)

	// 4. Scatter. off[v] is v's write cursor; afterwards it is the end of v's list.
	sp.prog.phase("scatter", total)
	owners := graph.SplitByArcs(off, w)
	parallelFor(len(owners)-1, w, func(p int) {
		lo, span := uint32(owners[p]), uint32(owners[p+1]-owners[p])
		var bn *binner
		if span >= binMinVertices {
			bn = newBinner(lo, span, off, nb, wt)
		}
		for bi, b := range blocks {
			if bi&15 == 0 && ctx.Err() != nil {
				return
			}
			if bn != nil {
				bn.scatter(b, sp.symmetrize, sp.keepLoops)
			} else {
				scatterBlock(b, off, nb, wt, lo, span, sp.symmetrize, sp.keepLoops)
			}
			if p == 0 {
				sp.prog.add(int64(b.len()))
			}
		}
		if bn != nil {
			bn.flushAll()
		}
	})
	clear(blocks)
	return squish(ctx, sp, off, nb, wt, st)
}

// squish turns the scatter's cursors back into offsets, then sorts and squishes (step 5).
func squish(ctx context.Context, sp buildSpec, off []int64, nb []uint32, wt []int32, st buildStats) (*graph.CSR, buildStats, error) {
	n := len(off) - 1
	copy(off[1:], off[:n])
	off[0] = 0
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}
	sp.prog.phase("sort", int64(len(nb)))
	nb, wt, st.dupArcs = sortSquish(ctx, off, nb, wt, !sp.keepDups, workers(), sp.prog)
	g := &graph.CSR{Offsets: off, Neighbors: nb, Weights: wt, Directed: !sp.symmetrize}
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}
	return g, st, nil
}

// ownerMax is the most goroutines that split the vertices among themselves, each reading
// every edge. With more cores than that, reading all edges once per core would cost more
// than it saves, and the builder shares the arrays with atomic increments instead
// (buildShared). Tests lower it.
var ownerMax = 8

// buildShared is steps 1 to 4 of buildCSR with every goroutine taking whole blocks and
// updating counts and cursors atomically. Lists come out in a scheduling-dependent order;
// the sort makes the result the same as buildCSR's.
func buildShared(ctx context.Context, blocks []*edgeBlock, sp buildSpec, off []int64, total int64) (*graph.CSR, buildStats, error) {
	var st buildStats
	w := workers()
	sp.prog.phase("count", total)
	var loops atomic.Int64
	parallelFor(len(blocks), w, func(bi int) {
		if ctx.Err() != nil {
			return
		}
		b := blocks[bi]
		var l int64
		b.each(func(t *edgeBlock) {
			t.forEach(func(_ int, u, v uint32) {
				if u == v && !sp.keepLoops {
					l++
					return
				}
				atomic.AddInt64(&off[u], 1)
				if sp.symmetrize && u != v {
					atomic.AddInt64(&off[v], 1)
				}
			})
		})
		loops.Add(l)
		sp.prog.add(int64(b.len()))
	})
	st.loops = loops.Load()
	st.arcsIn = total - st.loops
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}
	arcs := prefixSum(off, w)
	nb, wt := allocArcs(arcs, sp.weighted)
	sp.prog.phase("scatter", total)
	parallelFor(len(blocks), w, func(bi int) {
		if ctx.Err() != nil {
			return
		}
		b := blocks[bi]
		b.each(func(t *edgeBlock) {
			t.forEach(func(i int, u, v uint32) {
				if u == v && !sp.keepLoops {
					return
				}
				p := atomic.AddInt64(&off[u], 1) - 1
				nb[p] = v
				if wt != nil {
					wt[p] = t.w[i]
				}
				if sp.symmetrize && u != v {
					q := atomic.AddInt64(&off[v], 1) - 1
					nb[q] = u
					if wt != nil {
						wt[q] = t.w[i]
					}
				}
			})
		})
		blocks[bi] = nil
		sp.prog.add(int64(b.len()))
	})
	return squish(ctx, sp, off, nb, wt, st)
}

// countBlock adds to deg the out-degrees, within [lo, lo+span), of the block's edges and
// returns the number of self-loops it dropped there.
func countBlock(b *edgeBlock, deg []int64, lo, span uint32, sym, keepLoops bool) int64 {
	var loops int64
	if b.packed != nil {
		b.batches(func(t *edgeBlock) { loops += countBlock(t, deg, lo, span, sym, keepLoops) })
		return loops
	}
	if b.src != nil {
		src := b.src[:len(b.dst)]
		for i, v := range b.dst {
			u := src[i]
			if u == v && !keepLoops {
				if u-lo < span {
					loops++
				}
				continue
			}
			if u-lo < span {
				deg[u]++
			}
			if sym && v-lo < span && u != v {
				deg[v]++
			}
		}
		return loops
	}
	i := 0
	for _, r := range b.runs {
		u := r.v
		for _, v := range b.dst[i : i+int(r.n)] {
			if u == v && !keepLoops {
				if u-lo < span {
					loops++
				}
				continue
			}
			if u-lo < span {
				deg[u]++
			}
			if sym && v-lo < span && u != v {
				deg[v]++
			}
		}
		i += int(r.n)
	}
	return loops
}

// scatterBlock writes the block's arcs that leave [lo, lo+span) at the cursors cur.
func scatterBlock(b *edgeBlock, cur []int64, nb []uint32, wt []int32, lo, span uint32, sym, keepLoops bool) {
	if b.packed != nil {
		b.batches(func(t *edgeBlock) { scatterBlock(t, cur, nb, wt, lo, span, sym, keepLoops) })
		return
	}
	if b.src == nil {
		i := 0
		for _, r := range b.runs {
			u := r.v
			for k := uint32(0); k < r.n; k++ {
				v := b.dst[i]
				if u == v && !keepLoops {
					i++
					continue
				}
				if u-lo < span {
					p := cur[u]
					cur[u] = p + 1
					nb[p] = v
					if wt != nil {
						wt[p] = b.w[i]
					}
				}
				if sym && v-lo < span && u != v {
					p := cur[v]
					cur[v] = p + 1
					nb[p] = u
					if wt != nil {
						wt[p] = b.w[i]
					}
				}
				i++
			}
		}
		return
	}
	src := b.src[:len(b.dst)]
	if wt == nil {
		for i, v := range b.dst {
			u := src[i]
			if u == v && !keepLoops {
				continue
			}
			if u-lo < span {
				p := cur[u]
				cur[u] = p + 1
				nb[p] = v
			}
			if sym && v-lo < span && u != v {
				p := cur[v]
				cur[v] = p + 1
				nb[p] = u
			}
		}
		return
	}
	ws := b.w[:len(b.dst)]
	for i, v := range b.dst {
		u := src[i]
		if u == v && !keepLoops {
			continue
		}
		if u-lo < span {
			p := cur[u]
			cur[u] = p + 1
			nb[p], wt[p] = v, ws[i]
		}
		if sym && v-lo < span && u != v {
			p := cur[v]
			cur[v] = p + 1
			nb[p], wt[p] = u, ws[i]
		}
	}
}

// prefixSum turns counts into exclusive prefix sums in place (off[n] receives the total, its
// count is ignored) and returns the total, in parallel for large arrays.
func prefixSum(off []int64, w int) int64 {
	n := len(off) - 1
	if n < 1<<20 || w == 1 {
		var s int64
		for v := 0; v < n; v++ {
			c := off[v]
			off[v] = s
			s += c
		}
		off[n] = s
		return s
	}
	b := splitRange(n, w)
	sums := make([]int64, len(b)-1)
	parallelFor(len(sums), w, func(p int) {
		var s int64
		for _, c := range off[b[p]:b[p+1]] {
			s += c
		}
		sums[p] = s
	})
	var base int64
	for p := range sums {
		s := sums[p]
		sums[p] = base
		base += s
	}
	parallelFor(len(sums), w, func(p int) {
		s := sums[p]
		for v := b[p]; v < b[p+1]; v++ {
			c := off[v]
			off[v] = s
			s += c
		}
	})
	off[n] = base
	return base
}

// allocArcs makes the neighbour array and, for a weighted graph, the weight array of a CSR of
// arcs arcs, on transparent huge pages (graph.AdviseHuge) before the scatter fills them.
func allocArcs(arcs int64, weighted bool) ([]uint32, []int32) {
	nb := make([]uint32, arcs)
	graph.AdviseHuge(nb)
	var wt []int32
	if weighted {
		wt = make([]int32, arcs)
		graph.AdviseHuge(wt)
	}
	return nb, wt
}
