package cpu

import "unsafe"

// gsLeanAsm is gsLean's loop over the n vertices whose arc ends are at ends (the first
// vertex's arcs start at arc e, its contribution is own), in assembly so that its arc loops
// start on 32-byte boundaries. The same Go loop ran urand20's sweep markedly slower on an AMD
// processor when the compiler's layout put its 5-instruction arc loop across a 64-byte line,
// as it did in the engine's build, than where the line held it whole; the Go compiler aligns
// no loop without a profile (-pgo). docs/cpu-notes.md has the figures. The arithmetic is gsLean's,
// in its order.
//
//go:noescape
func gsLeanAsm(cf *float32, nb *uint32, ends *int64, n int, e int64, own *float32, c0, d float32, four bool) (change, sum float64)

// gsLeanFast runs the piece [lo, hi) of gsLean in assembly (see gsLeanAsm), gsAsmMost vertices
// a call at most. The caller has checked the piece's arcs against nb and cf's length against
// hi, and that hi > lo.
func gsLeanFast(cf []float32, off []int64, nb []uint32, lo, hi int, c0, d float32, four bool) (change, sum float64) {
	for lo < hi {
		h := min(hi, lo+gsAsmMost)
		c, s := gsLeanAsm(unsafe.SliceData(cf), unsafe.SliceData(nb), &off[lo+1], h-lo, off[lo], &cf[lo], c0, d, four)
		change, sum, lo = change+c, sum+s, h
	}
	return change, sum
}

// gsAsmMost is the most vertices gsLeanAsm sweeps a call: the Go scheduler cannot preempt an
// assembly loop, and a garbage collection's stop waits for it (see relaxAsmMost), so a call
// is kept to a default piece (gsChunk) however large the chunk knob makes one.
const gsAsmMost = 4096

// gsAsm is whether gsLean runs gsLeanAsm: always on amd64, but for tests of the Go loop.
var gsAsm = true
