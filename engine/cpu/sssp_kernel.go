package cpu

import "unsafe"

// Delta-stepping's relaxation in assembly (amd64): Go keeps few of the loop's values in
// registers (the counters, the arrays' bases and the loop's index live on the stack, reloaded
// after every rare call), so the loop over popped vertices, its prefetch pipeline and the arc
// loop with its compare-and-swap and the bin's append are one assembly loop, every value in a
// register, with Go taking over only where a bin must grow. It executes little more than
// GAPBS's DeltaStep's instructions, the Go loops about twice as many (docs/cpu-notes.md).

// relaxKernel is what delta-stepping's relaxation in assembly (sssp_kernel_amd64.s) reads
// and counts into: the graph's and the distances' arrays, one worker's ring of bins, the
// bucket's floor, and where the loop stopped for Go to go on. The field offsets are the
// assembly's K_ constants (TestRelaxKernelLayout).
type relaxKernel struct {
	off     *int64
	nb      *uint32
	ws      *int32
	dist    *int32
	bins    *[]uint32 // the ring's bins (a power of two of them, or none)
	mask    int64     // len(bins)-1
	nbins   int64
	lo      int64 // the ring's current bucket
	m       uint64
	shift   uint64 // bucketDiv
	floor   int64  // the bucket's first distance: a popped vertex below it is stale
	hubArcs int64  // a popped vertex with this many arcs stops the loop (stopHub)

	relaxed, scanned, pushed, stale int64 // counters a, b, c, d
	neg                             int64 // a negative weight was seen

	stop int64 // why relaxItemsAsm stopped: stopNone, stopPush, stopHub
	v    int64 // stopPush: the improved vertex, its bucket, its arc, and the rest of its
	b    int64 // vertex's arcs (e+1 .. hi) to relax from du
	e    int64
	hi   int64
	du   int64

	end uintptr // the end of relaxItemsAsm's items, within which it prefetches
}

// relaxAsmMost is the most popped vertices relaxItemsAsm relaxes a call (MOST in the
// assembly): the Go scheduler cannot preempt an assembly loop, and a garbage collection's
// stop waits for it, so a call is kept to tens of microseconds however large a piece is
// (chunk=N: pieces of N vertices).
const relaxAsmMost = 4096

const (
	stopNone = iota // every item done, or relaxAsmMost of them
	stopPush        // an improved vertex whose bin is full or outside the ring
	stopHub         // a vertex of hubArcs arcs or more
)

// newKernel returns the kernel of ring's worker for the bucket whose first distance is floor.
func (s *ssspState) newKernel(ring *binRing, floor int64, hub bool) relaxKernel {
	g := s.g
	k := relaxKernel{off: unsafe.SliceData(g.Offsets), nb: unsafe.SliceData(g.Neighbors), ws: unsafe.SliceData(g.Weights),
		dist: unsafe.SliceData(s.dist), m: s.div.m, shift: uint64(s.div.shift), floor: floor, hubArcs: 1<<63 - 1}
	if hub {
		k.hubArcs = ssspHubArcs
	}
	k.setRing(ring)
	return k
}

// setRing reads ring's bins into k again after Go appended to it (binRing.push may grow it).
func (k *relaxKernel) setRing(ring *binRing) {
	k.bins, k.nbins, k.mask, k.lo = unsafe.SliceData(ring.bins), int64(len(ring.bins)), int64(len(ring.bins))-1, ring.lo
}

// slowPush appends the vertex the assembly stopped at, in Go.
func (k *relaxKernel) slowPush(ring *binRing) {
	ring.push(k.b, uint32(k.v))
	k.pushed++
	k.setRing(ring)
}

// relaxItemsKernel is relaxItemsFast by relaxItemsAsm, a vertex at a time instead of a block,
// with the same counts and the pipeline's first two stages only (offsets and distances 24
// vertices on, first arcs 16 on): the neighbours' distances of short lists, which the Go loop
// prefetches, cost the assembly more than they saved on an Intel processor and did not matter
// on an AMD one (docs/cpu-notes.md). Go takes over where the assembly stops: a hub (set aside
// for the hub phase), or an improved vertex whose bin must grow (the rest of its vertex's arcs
// then by relaxArcsKernel).
func (s *ssspState) relaxItemsKernel(items []uint32, floor int64, ring *binRing, c *counters, hub *[]uint32) {
	k := s.newKernel(ring, floor, hub != nil)
	po, pn, pw, pd := k.off, k.nb, k.ws, k.dist
	const B = ssspPrefetchBlock
	n := len(items)
	prefetchVerts(items[:min(3*B, n)], po, pd)
	prefetchArcs(items[:min(2*B, n)], po, pn, pw, pd, floor)
	for i := 0; i < n; {
		i += relaxItemsAsm(items[i:], &k)
		switch k.stop {
		case stopNone: // done, or relaxAsmMost done: an assembly loop cannot be preempted
			continue
		case stopHub:
			k.relaxed++
			*hub = append(*hub, items[i]) // its arcs are shared out in a hub phase (relaxHubPiece)
		default:
			k.slowPush(ring)
			s.relaxArcsKernel(k.e+1, k.hi, k.du, ring, &k)
		}
		i++
	}
	c.a += k.relaxed
	c.b += k.scanned
	c.c += k.pushed
	c.d += k.stale
	if k.neg != 0 {
		s.neg.Store(true)
	}
}

// relaxArcsKernel relaxes arcs [lo, hi) from distance du by relaxArcsAsm, counting the
// improved vertices in k.pushed.
func (s *ssspState) relaxArcsKernel(lo, hi, du int64, ring *binRing, k *relaxKernel) {
	for lo < hi {
		e := relaxArcsAsm(lo, hi, du, k)
		if e == hi {
			return
		}
		k.slowPush(ring)
		lo = e + 1
	}
}
