package loader

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gworkbench/gworkbench/graph"
)

// workers is the number of goroutines a load uses: one per core.
func workers() int {
	w := runtime.GOMAXPROCS(0)
	if w < 1 {
		w = 1
	}
	return w
}

// parallelFor calls fn(i) for i in [0, n) on up to w goroutines, handing out indices one at a
// time (callers make each index a sizeable piece of work).
func parallelFor(n, w int, fn func(i int)) {
	if n <= 0 {
		return
	}
	if w > n {
		w = n
	}
	if w <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// splitRange cuts [0, n) into about parts ranges and returns their boundaries.
func splitRange(n, parts int) []int {
	if parts < 1 {
		parts = 1
	}
	if parts > n && n > 0 {
		parts = n
	}
	b := make([]int, 0, parts+1)
	for p := 0; p <= parts; p++ {
		b = append(b, int(int64(n)*int64(p)/int64(parts)))
	}
	return b
}

// rng is SplitMix64 (graph.SplitMix64): small, fast, and good enough for graph generation.
// Each block of work seeds its own, so output does not depend on how many goroutines ran.
type rng struct{ s graph.SplitMix64 }

func newRNG(seed int64, stream uint64) rng {
	return rng{s: graph.SplitMix64(graph.Mix64(uint64(seed)) ^ graph.Mix64(stream*0x632be59bd9b4e019+1))}
}

func (r *rng) next() uint64 { return r.s.Next() }

// below returns a uniform value in [0, n).
func (r *rng) below(n uint64) uint64 {
	hi, _ := bits.Mul64(r.next(), n)
	return hi
}

// float returns a uniform value in [0, 1).
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }
