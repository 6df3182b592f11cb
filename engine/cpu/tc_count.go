package cpu

import (
	"github.com/gworkbench/gworkbench/engine"
)

// Triangle counting, step 2: for every oriented arc u->v, add |N+(u) ∩ N+(v)|, vertex- or
// arc-parallel, by merge, binary search or a per-worker bitmap (intersect=merge|binary|hash;
// Shun and Tangwongsan [1], GAPBS tc.cc's OrderedCount [2]).
//
// [1] Shun, Tangwongsan. Multicore triangle computations without tuning. ICDE 2015.
// [2] Beamer, Asanović, Patterson. The GAP benchmark suite. 2015.

// tcBatch is how many oriented lists a hash intersection fetches at once.
const tcBatch = 8

// tcSearchRatio: a hash intersection searches the shorter list in the longer instead of
// probing the longer when the longer is this many times longer.
const tcSearchRatio = 64

// tcCount sums |N+(x) ∩ N+(v)| over the oriented arcs x->v, returning the sum and the number
// of list entries the intersections were given.
func tcCount(r *Run, h *tcAdj, byRank bool, how engine.Intersect, lb engine.LoadBalance) (uint64, int64) {
	n := len(h.off) - 1
	cnt := make([]counters, r.Workers)
	var marks [][]uint64
	if how == engine.IntersectHash {
		marks = make([][]uint64, r.Workers)
	}
	stamp := func(w int) []uint64 {
		if marks == nil {
			return nil
		}
		if marks[w] == nil {
			marks[w] = make([]uint64, (n+63)/64)
		}
		return marks[w]
	}
	if lb == engine.LBEdge {
		r.forRange(len(h.nb), 4096, 1, func(w, lo, hi int) {
			x := uint32(sortSearch64(h.off[1:], int64(lo))) // the vertex whose list holds arc lo
			t, sc := tcArcs(h, x, int64(lo), int64(hi), byRank, how, stamp(w))
			cnt[w].a += int64(t)
			cnt[w].b += sc
		})
	} else {
		r.forRange(n, 64, 1, func(w, lo, hi int) {
			t, sc := tcArcs(h, uint32(lo), h.off[lo], h.off[hi], byRank, how, stamp(w))
			cnt[w].a += int64(t)
			cnt[w].b += sc
		})
	}
	s := sumCounters(cnt)
	return uint64(s.a), s.b
}

// tcArcs counts the triangles closed by the oriented arcs [e, end), the first of which lies in
// x's list or a later one. bm is the worker's bitmap for intersect=hash, all zero between calls.
func tcArcs(h *tcAdj, x uint32, e, end int64, byRank bool, how engine.Intersect, bm []uint64) (tri uint64, scanned int64) {
	off, nb := h.off, h.nb
	for e < end {
		for off[x+1] <= e {
			x++
		}
		xe := min(off[x+1], end)
		a := nb[off[x]:off[x+1]]
		i := e - off[x]
		switch how {
		case engine.IntersectHash:
			for _, y := range a {
				bm[y>>6] |= 1 << (y & 63)
			}
			scanned += 2 * int64(len(a))
			// In batches: first every list's bounds, then every list's first entry, then the
			// probes, so that the cache misses of a batch overlap instead of queueing.
			var los, his [tcBatch]int64
			for e < xe {
				k := int(min(tcBatch, xe-e))
				for j := 0; j < k; j++ {
					v := nb[e+int64(j)]
					los[j], his[j] = off[v], off[v+1]
				}
				var touch uint32
				for j := 0; j < k; j++ {
					if los[j] < his[j] {
						touch |= nb[los[j]]
					}
				}
				for j := 0; j < k; j++ {
					b := nb[los[j]:his[j]]
					if byRank {
						// Only N+(u) after v can meet N+(v): when that suffix is much the
						// shorter, search its entries in N+(v) instead of probing all of it.
						if suf := a[e+int64(j)-off[x]+1:]; len(suf)*tcSearchRatio < len(b) {
							tri += tcBinary(suf, b)
							scanned += int64(len(suf))
							continue
						}
					}
					for _, y := range b {
						tri += bm[y>>6] >> (y & 63) & 1
					}
					scanned += int64(len(b))
				}
				if touch == 0xfeedface { // never in practice; keeps the touching loads alive
					scanned++
				}
				e += int64(k)
			}
			for _, y := range a {
				bm[y>>6] = 0
			}
		case engine.IntersectBinary:
			for ; e < xe; e, i = e+1, i+1 {
				v := nb[e]
				b, aa := nb[off[v]:off[v+1]], a
				if byRank {
					aa = a[i+1:]
				}
				tri += tcBinary(aa, b)
				scanned += int64(len(aa) + len(b))
			}
		default:
			for ; e < xe; e, i = e+1, i+1 {
				v := nb[e]
				b, aa := nb[off[v]:off[v+1]], a
				if byRank {
					aa = a[i+1:]
				}
				tri += tcMerge(aa, b)
				scanned += int64(len(aa) + len(b))
			}
		}
	}
	return tri, scanned
}

// sortSearch64 returns the first index i with s[i] > x (s non-decreasing).
func sortSearch64(s []int64, x int64) int {
	lo, hi := 0, len(s)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if s[mid] <= x {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// tcMerge counts the common entries of two sorted lists.
func tcMerge(a, b []uint32) uint64 {
	var c uint64
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x, y := a[i], b[j]
		if x == y {
			c++
		}
		if x <= y {
			i++
		}
		if y <= x {
			j++
		}
	}
	return c
}

// tcBinary counts the common entries of two sorted lists by searching each entry of the shorter
// in the longer, from where the previous search ended.
func tcBinary(a, b []uint32) uint64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	var c uint64
	for _, x := range a {
		lo, hi := 0, len(b)
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if b[mid] < x {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo == len(b) {
			break
		}
		if b[lo] == x {
			c++
			lo++
		}
		b = b[lo:]
	}
	return c
}
