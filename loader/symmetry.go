package loader

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
)

// symmetryKeys key the arc hash of symmetric: random per process, so that no file can be
// crafted to make an asymmetric graph pass.
var symmetryKeys = [3]uint64{rand.Uint64() | 1, rand.Uint64() | 1, rand.Uint64() | 1}

// symmetric reports whether every arc u->v (of weight w) has its reverse v->u (of weight w),
// as many times: the keyed hashes of the arcs with u < v, summed, must equal those of the arcs
// with u > v, taken reversed. One pass over the arcs on all cores; self-loops don't count.
func symmetric(off []int64, nb []uint32, wt []int32) bool {
	w := workers()
	vr := splitRange(len(off)-1, w*4)
	sums := make([]uint64, len(vr)-1)
	parallelFor(len(vr)-1, w, func(p int) { sums[p] = arcHashSum(off, nb, wt, vr[p], vr[p+1]) })
	var total uint64
	for _, s := range sums {
		total += s
	}
	return total == 0
}

// arcHashSum returns the signed sum of the arc hashes of vertices lo..hi-1 (see symmetric).
// Lists are sorted, so each splits into the arcs to lower ids, then those to higher ones.
func arcHashSum(off []int64, nb []uint32, wt []int32, lo, hi int) uint64 {
	var plus, minus uint64
	k0, k1, k2 := symmetryKeys[0], symmetryKeys[1], symmetryKeys[2]
	hash := func(a, b uint64, i int64) uint64 {
		x := (a<<32 | b) * k0
		if wt != nil {
			x ^= uint64(uint32(wt[i])) * k1
		}
		x ^= x >> 29
		x *= k2
		return x ^ x>>32
	}
	for u := lo; u < hi; u++ {
		uu := uint64(u)
		a, b := off[u], off[u+1]
		i := a
		for i < b && uint64(nb[i]) < uu {
			minus += hash(uint64(nb[i]), uu, i)
			i++
		}
		for i < b && uint64(nb[i]) == uu {
			i++
		}
		for ; i < b; i++ {
			plus += hash(uu, uint64(nb[i]), i)
		}
	}
	return plus - minus
}

// firstAsymmetric returns the first arc u->v (by u, then v) of a CSR with sorted lists whose
// reverse v->u is missing or has another weight; ok is false when there is none.
func firstAsymmetric(off []int64, nb []uint32, wt []int32) (u, v uint32, w int32, ok bool) {
	n := len(off) - 1
	vr := splitRange(n, workers()*4)
	found := make([]int64, len(vr)-1)
	var stop atomic.Int64
	stop.Store(int64(n))
	parallelFor(len(vr)-1, workers(), func(p int) {
		found[p] = -1
		for x := vr[p]; x < vr[p+1] && int64(x) < stop.Load(); x++ {
			for i := off[x]; i < off[x+1]; i++ {
				y := nb[i]
				list := nb[off[y]:off[y+1]]
				j, hit := slices.BinarySearch(list, uint32(x))
				if hit && wt != nil {
					hit = false
					for k := j; k < len(list) && list[k] == uint32(x); k++ {
						hit = hit || wt[off[y]+int64(k)] == wt[i]
					}
				}
				if !hit {
					found[p] = i
					for old := stop.Load(); int64(x) < old && !stop.CompareAndSwap(old, int64(x)); old = stop.Load() {
					}
					return
				}
			}
		}
	})
	for p, i := range found {
		if i >= 0 {
			x := uint32(vr[p])
			for off[x+1] <= i {
				x++
			}
			var ww int32
			if wt != nil {
				ww = wt[i]
			}
			return x, nb[i], ww, true
		}
	}
	return 0, 0, 0, false
}

// asymmetryMsg describes the arc firstAsymmetric found, with ids as the file numbers them.
func asymmetryMsg(u, v uint32, w int32, weighted bool, base int) string {
	if weighted {
		return fmt.Sprintf("vertex %d lists %d with weight %d, but vertex %d does not list %d with that weight", int64(u)+int64(base), int64(v)+int64(base), w, int64(v)+int64(base), int64(u)+int64(base))
	}
	return fmt.Sprintf("vertex %d lists %d as a neighbour, but vertex %d does not list %d", int64(u)+int64(base), int64(v)+int64(base), int64(v)+int64(base), int64(u)+int64(base))
}
