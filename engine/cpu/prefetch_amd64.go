package cpu

import "unsafe"

// prefetch asks the processor to bring the cache line holding *p into its caches, and goes on
// without waiting for it (PREFETCHT0). Unlike a load, it is not ordered with the locked
// instructions of a compare-and-swap: a loop that loads ahead what later steps will miss on
// makes each compare-and-swap wait for those misses (x86 completes every earlier load first),
// one step at a time; prefetched lines arrive while the swaps go on. Go has no prefetch
// intrinsic, hence the assembly: a call costs a few nanoseconds, a miss a hundred.
//
//go:noescape
func prefetch(p unsafe.Pointer)
