package cpu

import (
	"math/rand/v2"
	"testing"
)

// TestBelowMask checks the bottom-up step's candidate masks (AVX2 where the processor has it)
// against the Go loop, on whole words and on short tails, around the skip values the step uses.
func TestBelowMask(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	d := make([]int32, 64)
	for trial := range 2000 {
		for k := range d {
			switch rng.IntN(4) {
			case 0:
				d[k] = int32(rng.IntN(100)) // visited
			case 1:
				d[k] = -1 - int32(rng.IntN(1<<30)) // unvisited, an encoded degree
			default:
				d[k] = int32(rng.IntN(3)) - 1 // -1, 0 or 1
			}
		}
		n := 64
		if trial%4 == 3 {
			n = rng.IntN(64)
		}
		for _, skip := range []int32{0, -1, 1} {
			var want uint64
			for k, x := range d[:n] {
				if x < skip {
					want |= 1 << k
				}
			}
			if got := belowMask(d[:n], skip); got != want {
				t.Fatalf("trial %d, %d depths, skip %d: mask %#x, want %#x", trial, n, skip, got, want)
			}
			if got := belowMaskGo(d[:n], skip); got != want {
				t.Fatalf("trial %d, %d depths, skip %d: Go mask %#x, want %#x", trial, n, skip, got, want)
			}
		}
	}
}
