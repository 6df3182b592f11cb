package cpu

import (
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// bitmap is one bit per vertex in 64-bit words. set and testAndSet are atomic, so workers may
// mark any vertex concurrently; has is a plain read, for phases where nobody writes.
type bitmap []uint64

func newBitmap(n int) bitmap { return make(bitmap, (n+63)/64) }

func (b bitmap) has(v uint32) bool { return b[v>>6]&(1<<(v&63)) != 0 }

// load reads v's bit atomically, for phases where others may be marking.
func (b bitmap) load(v uint32) bool { return atomic.LoadUint64(&b[v>>6])&(1<<(v&63)) != 0 }

// set marks v atomically.
func (b bitmap) set(v uint32) { atomic.OrUint64(&b[v>>6], 1<<(v&63)) }

// testAndSet marks v atomically and reports whether it was already marked.
func (b bitmap) testAndSet(v uint32) bool {
	m := uint64(1) << (v & 63)
	return atomic.OrUint64(&b[v>>6], m)&m != 0
}

// count returns the number of marked bits in words [lo, hi).
func (b bitmap) count(lo, hi int) int64 {
	var c int
	for _, w := range b[lo:hi] {
		c += bits.OnesCount64(w)
	}
	return int64(c)
}

// boolmap is one byte per vertex (UGF's BOOLMAP). Concurrent marks go through an atomic OR on
// the aligned 32-bit word that holds the byte, since Go has no 8-bit atomics; plain reads
// are for phases where nobody writes.
type boolmap []uint8

// newBoolmap allocates n bytes rounded up to whole 32-bit words.
func newBoolmap(n int) boolmap {
	w := make([]uint32, (n+3)/4)
	if len(w) == 0 {
		return boolmap{}
	}
	return unsafe.Slice((*uint8)(unsafe.Pointer(&w[0])), len(w)*4)[:n]
}

func (b boolmap) has(v uint32) bool { return b[v] != 0 }

// set marks v atomically.
func (b boolmap) set(v uint32) {
	p := (*uint32)(unsafe.Pointer(&b[v&^3]))
	atomic.OrUint32(p, 1<<(8*(v&3)))
}

// takeWord returns the marks of vertices [64wi, 64wi+64) as a bit mask and clears them: the
// boolmap read as a bitmap word, for steps written once for both maps.
func (b boolmap) takeWord(wi int) uint64 {
	lo := wi << 6
	bs := b[lo:min(lo+64, len(b))]
	var m uint64
	for k, x := range bs {
		m |= uint64(x&1) << uint(k)
	}
	clear(bs)
	return m
}

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }
