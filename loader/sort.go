package loader

import (
	"context"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/gworkbench/gworkbench/graph"
)

// sortSquish sorts every neighbour list of the CSR (off, nb, wt) and, when dedup is set, drops
// repeated neighbours, keeping the lowest weight. It returns the (possibly shorter) arrays and
// the number of arcs dropped; off is rewritten in place.
func sortSquish(ctx context.Context, off []int64, nb []uint32, wt []int32, dedup bool, w int, prog *progress) ([]uint32, []int32, int64) {
	parts := graph.SplitByArcs(off, w*16)
	np := len(parts) - 1
	start := make([]int64, np)
	end := make([]int64, np)
	for p := 0; p < np; p++ {
		start[p] = off[parts[p]]
	}
	idBits := bits.Len(uint(len(off) - 2))
	parallelFor(np, w, func(p int) {
		if ctx.Err() != nil {
			return
		}
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
	if ctx.Err() != nil {
		return nb, wt, 0 // the caller returns the error
	}
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
		nb = cloneHuge(nb[:m])
		if wt != nil {
			wt = cloneHuge(wt[:m])
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

// cloneHuge is slices.Clone onto memory advised for huge pages (graph.AdviseHuge).
func cloneHuge[T any](s []T) []T {
	c := make([]T, len(s))
	graph.AdviseHuge(c)
	copy(c, s)
	return c
}
