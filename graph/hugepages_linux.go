//go:build linux

package graph

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of an x86-64 (and arm64 4K-granule) transparent huge page.
const hugePage = 2 << 20

// AdviseHuge asks the kernel to back the 2 MB-aligned interior of s's memory with
// transparent huge pages: one page fault instead of 512 when s is filled, and one TLB entry
// per 2 MB, which is what random reads into a graph's arrays (SSSP's and BFS's neighbour and
// distance reads) are bound by. With THP set to "madvise" (the common default) nothing gets
// huge pages without advice.
//
// s must hold only zeros: call it right after make, before the first write. The Go heap
// often hands out reused memory, which it has zeroed and so mapped with small pages, where
// MADV_HUGEPAGE alone would leave them; so the interior's pages are first dropped
// (MADV_DONTNEED: private anonymous memory reads back as zeros) and the faults that fill s
// map huge pages directly; that is far cheaper than collapsing filled memory (MADV_COLLAPSE
// copies it: 0.4-0.5 s per scale-20 graph). Errors (old kernels, THP off) are ignored: it is advice. Slices under 2 MB are left alone.
func AdviseHuge[T any](s []T) {
	p, n := unsafe.Pointer(unsafe.SliceData(s)), uintptr(len(s))*unsafe.Sizeof(*new(T))
	if madviseInterior(p, n, syscall.MADV_HUGEPAGE) == nil {
		madviseInterior(p, n, syscall.MADV_DONTNEED)
	}
}

// madviseInterior applies advice to the whole huge pages inside [p, p+n).
func madviseInterior(p unsafe.Pointer, n uintptr, advice int) error {
	lo := (uintptr(p) + hugePage - 1) &^ (hugePage - 1)
	hi := (uintptr(p) + n) &^ (hugePage - 1)
	if n < hugePage || hi <= lo {
		return syscall.EINVAL
	}
	b := unsafe.Slice((*byte)(unsafe.Add(p, lo-uintptr(p))), hi-lo)
	return syscall.Madvise(b, advice)
}
