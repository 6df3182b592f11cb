package session

import (
	"runtime/metrics"
	"testing"
)

var sink []byte

// TestGCGuardForgetsFirstRun: a first interval that allocates much (a row's first run builds
// what the later ones reuse) makes the guard collect before the next runs only while it is in
// the window; the runs after it, each allocating little, go without collections.
func TestGCGuardForgetsFirstRun(t *testing.T) {
	forced := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
		metrics.Read(s)
		if s[0].Value.Kind() != metrics.KindUint64 {
			t.Skip("this Go runtime does not count forced collections")
		}
		return s[0].Value.Uint64()
	}
	g := newGCGuard()
	sink = make([]byte, 256<<20) // the first run's one-time build
	sink = nil
	before := forced()
	const runs = 5 * guardWindow
	for i := 0; i < runs; i++ {
		g.beforeRun()
		sink = make([]byte, 16<<10)
	}
	if n := forced() - before; n > guardWindow+2 {
		t.Errorf("%d collections before %d runs of 16 KiB after one of 256 MiB, want at most %d", n, runs, guardWindow+2)
	}
}
