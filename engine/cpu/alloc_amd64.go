package cpu

import "unsafe"

// uninitUint32s returns n uint32s whose memory is not cleared, for an array the caller fills whole
// before reading it (on all workers: Afforest's labels). make clears a large array on the calling
// goroutine alone when the heap hands out memory it reuses, the workers waiting (GAPBS's pvector
// does not clear). Fresh memory from the operating system is zero and make does not clear it; then
// the fill takes the page faults either way.
//
// It allocates with the runtime's mallocgc (pointer-free memory, needzero false), which Go
// keeps reachable by linkname for the packages listed at its definition (go.dev/issue/67401);
// other architectures use make (alloc_other.go).
func uninitUint32s(n int) []uint32 {
	if n <= 0 {
		return []uint32{}
	}
	return unsafe.Slice((*uint32)(mallocgc(uintptr(n)*4, nil, false)), n)
}

//go:linkname mallocgc runtime.mallocgc
func mallocgc(size uintptr, typ unsafe.Pointer, needzero bool) unsafe.Pointer
