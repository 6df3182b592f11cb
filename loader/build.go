package loader

import (
	"context"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/gworkbench/gworkbench/graph"
)

// edgeBlock is a batch of input edges, as one parser chunk or one generator block produced
// them. Sources are stored per edge (src) or, when the input lists edges grouped by source as
// most files do, run-length encoded (runs), which halves the memory a parsed file holds.
type edgeBlock struct {
	src  []uint32 // per-edge sources; nil when runs is used
	runs []srcRun // runs[i].n consecutive edges leave runs[i].v
	dst  []uint32
	w    []int32 // nil when unweighted
}

type srcRun struct{ v, n uint32 }

// compactSources switches a block to run-length sources when that is smaller.
func (b *edgeBlock) compactSources() {
	if b.src == nil || len(b.src) == 0 {
		return
	}
	runs := 1
	for i := 1; i < len(b.src); i++ {
		if b.src[i] != b.src[i-1] {
			runs++
		}
	}
	if runs*2 > len(b.src) {
		return
	}
	r := make([]srcRun, 0, runs)
	for i, u := range b.src {
		if i > 0 && u == b.src[i-1] {
			r[len(r)-1].n++
			continue
		}
		r = append(r, srcRun{u, 1})
	}
	b.runs, b.src = r, nil
}

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
//  3. allocate the neighbour (and weight) arrays, exactly the size counted;
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
	var total int64
	for _, b := range blocks {
		total += int64(len(b.dst))
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
				sp.prog.add(int64(len(b.dst)))
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
	nb := make([]uint32, arcs)
	var wt []int32
	if sp.weighted {
		wt = make([]int32, arcs)
	}

	// 4. Scatter. off[v] is v's write cursor; afterwards it is the end of v's list.
	sp.prog.phase("scatter", total)
	owners := splitByArcs(off, w)
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
				sp.prog.add(int64(len(b.dst)))
			}
		}
		if bn != nil {
			bn.flushAll()
		}
	})
	clear(blocks)
	copy(off[1:], off[:n])
	off[0] = 0
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}

	// 5. Sort and squish.
	sp.prog.phase("sort", arcs)
	nb, wt, st.dupArcs = sortSquish(off, nb, wt, !sp.keepDups, w, sp.prog)
	g := &graph.CSR{Offsets: off, Neighbors: nb, Weights: wt, Directed: !sp.symmetrize}
	return g, st, ctx.Err()
}

// countBlock adds to deg the out-degrees, within [lo, lo+span), of the block's edges and
// returns the number of self-loops it dropped there.
func countBlock(b *edgeBlock, deg []int64, lo, span uint32, sym, keepLoops bool) int64 {
	var loops int64
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

// sortSquish sorts every neighbour list of the CSR (off, nb, wt) and, when dedup is set, drops
// repeated neighbours, keeping the lowest weight. It returns the (possibly shorter) arrays and
// the number of arcs dropped; off is rewritten in place.
func sortSquish(off []int64, nb []uint32, wt []int32, dedup bool, w int, prog *progress) ([]uint32, []int32, int64) {
	parts := splitByArcs(off, w*16)
	np := len(parts) - 1
	start := make([]int64, np)
	end := make([]int64, np)
	for p := 0; p < np; p++ {
		start[p] = off[parts[p]]
	}
	idBits := bits.Len(uint(len(off) - 2))
	parallelFor(np, w, func(p int) {
		var scratch []uint64
		s := start[p]
		at := s
		for v := parts[p]; v < parts[p+1]; v++ {
			e := off[v+1]
			list := nb[s:e]
			var ws []int32
			if wt != nil {
				ws = wt[s:e]
				scratch = sortWeighted(list, ws, scratch)
			} else if !slices.IsSorted(list) {
				if len(list) >= radixMin {
					scratch = radixSort(list, scratch, idBits)
				} else {
					slices.Sort(list)
				}
			}
			k := len(list)
			if dedup && k > 1 {
				k = 1
				for i := 1; i < len(list); i++ {
					if list[i] != list[k-1] {
						list[k] = list[i]
						if ws != nil {
							ws[k] = ws[i]
						}
						k++
					}
				}
			}
			if at != s {
				copy(nb[at:], list[:k])
				if ws != nil {
					copy(wt[at:], ws[:k])
				}
			}
			at += int64(k)
			off[v+1] = at
			s = e
		}
		end[p] = at
		prog.add(s - start[p])
	})
	// Close the gaps between parts.
	var shift int64
	for p := 0; p < np; p++ {
		if shift > 0 {
			copy(nb[start[p]-shift:], nb[start[p]:end[p]])
			if wt != nil {
				copy(wt[start[p]-shift:], wt[start[p]:end[p]])
			}
			lo, hi := parts[p], parts[p+1]
			for v := lo; v < hi; v++ {
				off[v+1] -= shift
			}
		}
		next := int64(len(nb))
		if p+1 < np {
			next = start[p+1]
		}
		shift += next - end[p]
	}
	m := int64(len(nb)) - shift
	if shift == 0 {
		return nb, wt, 0
	}
	// Give the slack back when it is worth a copy.
	if shift > int64(len(nb))/8 {
		nb = slices.Clone(nb[:m])
		if wt != nil {
			wt = slices.Clone(wt[:m])
		}
		return nb, wt, shift
	}
	nb = nb[:m:m]
	if wt != nil {
		wt = wt[:m:m]
	}
	return nb, wt, shift
}

// sortWeighted sorts list by neighbour and then weight, carrying ws along.
func sortWeighted(list []uint32, ws []int32, scratch []uint64) []uint64 {
	sorted := true
	for i := 1; i < len(list); i++ {
		if list[i] < list[i-1] || (list[i] == list[i-1] && ws[i] < ws[i-1]) {
			sorted = false
			break
		}
	}
	if sorted {
		return scratch
	}
	scratch = scratch[:0]
	for i, v := range list {
		scratch = append(scratch, uint64(v)<<32|uint64(uint32(ws[i])^0x80000000))
	}
	slices.Sort(scratch)
	for i, x := range scratch {
		list[i] = uint32(x >> 32)
		ws[i] = int32(uint32(x) ^ 0x80000000)
	}
	return scratch
}

// Propagation blocking: a binner buffers arcs in bins of binVertices consecutive source
// vertices and writes a bin out when it holds binCap arcs, so that a flush touches a few
// kilobytes of cursors and a small stretch of the neighbour array instead of the whole CSR.
const (
	binShift = 11 // 2048 vertices per bin
	binCap   = 256
)

// binMinVertices is the owned range from which scatter is binned (tests lower it).
var binMinVertices uint32 = 1 << 16

type binner struct {
	lo   uint32
	span uint32
	arcs [][]uint64 // per bin: source<<32 | neighbour
	ws   [][]int32  // per bin: weights, when weighted
	cur  []int64
	nb   []uint32
	wt   []int32
}

func newBinner(lo, span uint32, cur []int64, nb []uint32, wt []int32) *binner {
	k := int(span>>binShift) + 1
	bn := &binner{lo: lo, span: span, arcs: make([][]uint64, k), cur: cur, nb: nb, wt: wt}
	backing := make([]uint64, k*binCap)
	for i := range bn.arcs {
		bn.arcs[i] = backing[i*binCap : i*binCap : (i+1)*binCap]
	}
	if wt != nil {
		bn.ws = make([][]int32, k)
		wb := make([]int32, k*binCap)
		for i := range bn.ws {
			bn.ws[i] = wb[i*binCap : i*binCap : (i+1)*binCap]
		}
	}
	return bn
}

func (bn *binner) flush(k uint32) {
	a := bn.arcs[k]
	cur, nb := bn.cur, bn.nb
	if bn.wt != nil {
		ws := bn.ws[k]
		for i, e := range a {
			x := e >> 32
			p := cur[x]
			cur[x] = p + 1
			nb[p], bn.wt[p] = uint32(e), ws[i]
		}
		bn.ws[k] = ws[:0]
	} else {
		for _, e := range a {
			x := e >> 32
			p := cur[x]
			cur[x] = p + 1
			nb[p] = uint32(e)
		}
	}
	bn.arcs[k] = a[:0]
}

func (bn *binner) flushAll() {
	for k := range bn.arcs {
		bn.flush(uint32(k))
	}
}

// put bins the arc x->y (weight w).
func (bn *binner) put(x, y uint32, w int32) {
	k := (x - bn.lo) >> binShift
	a := append(bn.arcs[k], uint64(x)<<32|uint64(y))
	bn.arcs[k] = a
	if bn.wt != nil {
		bn.ws[k] = append(bn.ws[k], w)
	}
	if len(a) == binCap {
		bn.flush(k)
	}
}

// scatter bins the block's arcs that leave the binner's range, in input order.
func (bn *binner) scatter(b *edgeBlock, sym, keepLoops bool) {
	lo, span := bn.lo, bn.span
	var w int32
	if b.src != nil {
		src := b.src[:len(b.dst)]
		for i, v := range b.dst {
			u := src[i]
			if u == v && !keepLoops {
				continue
			}
			if b.w != nil {
				w = b.w[i]
			}
			if u-lo < span {
				bn.put(u, v, w)
			}
			if sym && v-lo < span && u != v {
				bn.put(v, u, w)
			}
		}
		return
	}
	i := 0
	for _, r := range b.runs {
		u := r.v
		for _, v := range b.dst[i : i+int(r.n)] {
			if u == v && !keepLoops {
				i++
				continue
			}
			if b.w != nil {
				w = b.w[i]
			}
			if u-lo < span {
				bn.put(u, v, w)
			}
			if sym && v-lo < span && u != v {
				bn.put(v, u, w)
			}
			i++
		}
	}
}

// radixMin is the list length from which unweighted lists are radix sorted.
const radixMin = 512

// radixSort sorts list (ids below 2^idBits) with an LSD radix sort of 8-bit digits, using
// scratch (grown as needed, and returned) as the second buffer.
func radixSort(list []uint32, scratch []uint64, idBits int) []uint64 {
	n := len(list)
	if cap(scratch)*2 < n {
		scratch = make([]uint64, (n+1)/2)
	}
	tmp := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(scratch[:cap(scratch)]))), n)
	src, dst := list, tmp
	for shift := 0; shift < idBits; shift += 8 {
		var count [256]int
		for _, x := range src {
			count[(x>>shift)&255]++
		}
		if count[(src[0]>>shift)&255] == n {
			continue // every id has this digit
		}
		sum := 0
		for d := range count {
			c := count[d]
			count[d] = sum
			sum += c
		}
		for _, x := range src {
			d := (x >> shift) & 255
			dst[count[d]] = x
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &list[0] {
		copy(list, src)
	}
	return scratch
}
