package cpu

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// below64avx2 returns the mask of the 64 depths at d that are below skip (bit k: d[k] < skip),
// eight at a time with AVX2's compare and sign-bit gather.
//
//go:noescape
func below64avx2(d *int32, skip int32) uint64

// haveAVX2 is whether below64avx2 can run here.
var haveAVX2 = cpu.X86.HasAVX2

// belowMask returns the mask of the depths in dd (at most 64) below skip: bit k is dd[k] <
// skip. A bottom-up step builds one for every 64 vertices of every step, and in Go a vertex
// cost a load, a compare and a shift into the mask, a third of a kron graph's bottom-up step
// (docs/cpu-notes.md). A whole word of depths goes to AVX2 where the processor has
// it (the race detector's builds keep the Go loop: it cannot see the assembly's loads).
func belowMask(dd []int32, skip int32) uint64 {
	if len(dd) == 64 && haveAVX2 && !raceBuild {
		return below64avx2((*int32)(unsafe.Pointer(unsafe.SliceData(dd))), skip)
	}
	return belowMaskGo(dd, skip)
}
