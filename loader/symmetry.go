package loader

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
)

// symmetryKeys key the arc sums of symmetric: random per process, so that no file can be
// crafted to make an asymmetric graph pass.
var symmetryKeys = func() (k [6]uint64) {
	for i := range k {
		k[i] = rand.Uint64() | 1
	}
	return k
}()

// symmetric reports whether every arc u->v (of weight w) has its reverse v->u (of weight w),
// as many times. Each arc adds F(u,v,w) = a(u)b(v) - b(u)a(v) + w(c(v) - c(u)), with a, b and
// c keyed mixes of the ids: F(v,u,w) = -F(u,v,w), so the sum over a symmetric graph is zero,
// and an asymmetric one sums to zero only by a chance of about 2^-64. One pass over the arcs
// on all cores, a few multiplications per arc; self-loops add zero.
func symmetric(off []int64, nb []uint32, wt []int32) bool {
	w := workers()
	vr := splitRange(len(off)-1, w*4)
	sums := make([]uint64, len(vr)-1)
	parallelFor(len(vr)-1, w, func(p int) { sums[p], _ = arcSum(off, nb, wt, vr[p], vr[p+1]) })
	var total uint64
	for _, s := range sums {
		total += s
	}
	return total == 0
}

func mixA(x uint64) uint64 { x = (x ^ symmetryKeys[0]) * symmetryKeys[1]; return x ^ x>>31 }
func mixB(x uint64) uint64 { x = (x ^ symmetryKeys[2]) * symmetryKeys[3]; return x ^ x>>29 }
func mixC(x uint64) uint64 { x = (x ^ symmetryKeys[4]) * symmetryKeys[5]; return x ^ x>>30 }

// arcSum returns the sum of F over the arcs of vertices lo..hi-1 (see symmetric) and the
// first of them whose list is not sorted (-1 if none), in one pass over the arcs.
func arcSum(off []int64, nb []uint32, wt []int32, lo, hi int) (uint64, int) {
	var total uint64
	for u := lo; u < hi; u++ {
		var sa, sb, sw, swc uint64
		list := nb[off[u]:off[u+1]]
		var prev uint32
		unsorted := false
		if wt == nil {
			for _, v := range list {
				unsorted = unsorted || v < prev
				prev = v
				sa += mixA(uint64(v))
				sb += mixB(uint64(v))
			}
		} else {
			ws := wt[off[u]:off[u+1]]
			for i, v := range list {
				unsorted = unsorted || v < prev
				prev = v
				sa += mixA(uint64(v))
				sb += mixB(uint64(v))
				w := uint64(uint32(ws[i]))
				sw += w
				swc += w * mixC(uint64(v))
			}
		}
		if unsorted {
			return 0, u
		}
		x := uint64(u)
		total += mixA(x)*sb - mixB(x)*sa + swc - sw*mixC(x)
	}
	return total, -1
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
