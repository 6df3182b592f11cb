package cpu

import (
	"slices"

	"github.com/gworkbench/gworkbench/engine"
)

// Triangle counting, step 1: the oriented graph. Each edge is kept once, as the arc from its
// lower- to its higher-ranked endpoint (by degree, ties by id; or by id), so that every
// triangle is found once, from its lowest-ranked vertex (Schank and Wagner's forward
// algorithm [1]). With relabel=on the vertices are first renumbered in degree order, as
// GAPBS's builder does for tc.cc [2], so that oriented lists are sorted by rank.
//
// [1] Schank, Wagner. Finding, counting and listing all triangles in large graphs. WEA 2005.
// [2] Beamer, Asanović, Patterson. The GAP benchmark suite. 2015.

// tcOrient builds the oriented graph and reports whether its lists are sorted by rank.
func tcOrient(r *Run, u *tcAdj, order engine.Order, relabel bool) (*tcAdj, bool) {
	if relabel {
		return tcOrientRelabelled(r, u), true
	}
	n := len(u.off) - 1
	var deg []uint32
	if order == engine.OrderDegree {
		deg = make([]uint32, n)
		r.forRange(n, 4096, 1, func(_, lo, hi int) {
			for v := lo; v < hi; v++ {
				deg[v] = uint32(u.off[v+1] - u.off[v])
			}
		})
	}
	// keep appends x's kept neighbours to dst (nil: only counts them) and returns the count.
	keep := func(dst []uint32, x uint32) int64 {
		l := u.list(x)
		switch order {
		case engine.OrderID: // lists are sorted: the suffix above x
			i := sortSearch32(l, x)
			if dst != nil {
				copy(dst, l[i:])
			}
			return int64(len(l) - i)
		case engine.OrderDegree:
			k := 0
			dx := deg[x]
			for _, y := range l {
				dy := deg[y]
				if dy > dx || (dy == dx && y > x) {
					if dst != nil {
						dst[k] = y
					}
					k++
				}
			}
			return int64(k)
		default:
			k := 0
			for _, y := range l {
				if y != x {
					if dst != nil {
						dst[k] = y
					}
					k++
				}
			}
			return int64(k)
		}
	}
	// 1. count, 2. prefix sum, 3. fill.
	off := make([]int64, n+1)
	r.forRange(n, 1024, 1, func(_, lo, hi int) {
		for x := lo; x < hi; x++ {
			off[x+1] = keep(nil, uint32(x))
		}
	})
	for x := 0; x < n; x++ {
		off[x+1] += off[x]
	}
	nb := make([]uint32, off[n])
	r.forRange(n, 1024, 1, func(_, lo, hi int) {
		for x := lo; x < hi; x++ {
			keep(nb[off[x]:off[x+1]], uint32(x))
		}
	})
	return &tcAdj{off: off, nb: nb}, order == engine.OrderID
}

// sortSearch32 returns the first index i with l[i] > x (l ascending).
func sortSearch32(l []uint32, x uint32) int {
	lo, hi := 0, len(l)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if l[mid] <= x {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// tcOrientRelabelled renumbers the vertices by (degree, id) ascending, a counting sort, and
// returns the oriented graph in the new numbering: x -> y for neighbours y > x, sorted.
func tcOrientRelabelled(r *Run, u *tcAdj) *tcAdj {
	n := len(u.off) - 1
	var maxDeg int64
	for v := 0; v < n; v++ {
		maxDeg = max(maxDeg, u.off[v+1]-u.off[v])
	}
	// 1. Counting sort by degree (stable, so ties go by id): orig[newID] and newID[orig].
	bucket := make([]int64, maxDeg+2)
	for v := 0; v < n; v++ {
		bucket[u.off[v+1]-u.off[v]+1]++
	}
	for d := int64(1); d < int64(len(bucket)); d++ {
		bucket[d] += bucket[d-1]
	}
	newID := make([]uint32, n)
	orig := make([]uint32, n)
	for v := 0; v < n; v++ {
		d := u.off[v+1] - u.off[v]
		p := bucket[d]
		bucket[d]++
		newID[v], orig[p] = uint32(p), uint32(v)
	}
	// 2. Oriented degrees, 3. prefix sum, 4. fill with renumbered neighbours and sort each list.
	off := make([]int64, n+1)
	r.forRange(n, 1024, 1, func(_, lo, hi int) {
		for x := lo; x < hi; x++ {
			c := int64(0)
			for _, y := range u.list(orig[x]) {
				if newID[y] > uint32(x) {
					c++
				}
			}
			off[x+1] = c
		}
	})
	for x := 0; x < n; x++ {
		off[x+1] += off[x]
	}
	nb := make([]uint32, off[n])
	r.forRange(n, 1024, 1, func(_, lo, hi int) {
		for x := lo; x < hi; x++ {
			k := off[x]
			for _, y := range u.list(orig[x]) {
				if y2 := newID[y]; y2 > uint32(x) {
					nb[k] = y2
					k++
				}
			}
			slices.Sort(nb[off[x]:k])
		}
	})
	return &tcAdj{off: off, nb: nb}
}
