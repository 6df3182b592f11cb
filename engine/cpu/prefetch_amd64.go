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

// The prefetches of delta-stepping's pipeline (relaxItemsFast), each a loop over popped
// vertices items in one call: prefetchVerts brings in each one's offsets and distance;
// prefetchArcs, for each one not stale (distance at least floor: it loads the distance and
// the offsets), its first arc (neighbour and weight); prefetchNbrDist, for each one not stale
// of at most most arcs (it loads the neighbours too), its neighbours' distances. The pointers
// are the arrays' first elements (nil for an empty array, never read then).

//go:noescape
func prefetchVerts(items []uint32, off *int64, dist *int32)

//go:noescape
func prefetchArcs(items []uint32, off *int64, nb *uint32, ws *int32, dist *int32, floor int64)

//go:noescape
func prefetchNbrDist(items []uint32, off *int64, nb *uint32, dist *int32, floor, most int64)

// prefetch2 is prefetch of two lines in one call: a loop that prefetches two lines a step pays
// one call's spills and reloads of its registers instead of two.
//
//go:noescape
func prefetch2(p, q unsafe.Pointer)
