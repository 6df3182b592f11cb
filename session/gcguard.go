package session

import (
	"runtime"
	"runtime/metrics"
)

// gcGuard keeps the garbage collector out of timed runs without collecting before every run.
// A collection inside a run would land in some runs and not others; a collection before every
// run (as testing.B does once before a benchmark) empties the allocator's per-processor caches,
// so every run's first allocations refill them, several microseconds on a run of tens
// (docs/gpu-notes.md has the figures). So the guard collects before a run only when that run,
// allocating twice the most any of the last guardWindow iterations did, could use up half the
// room the last collection left before the collector's goal (the collector starts its cycle
// before the heap reaches the goal). The window forgets a row's first run, which builds what
// the later ones reuse (a transposed graph, the device's copy): remembered, it would have the
// guard collect before every run.
type gcGuard struct {
	samples [3]metrics.Sample
	last    uint64              // bytes allocated since the process started, at the previous check
	recent  [guardWindow]uint64 // the bytes allocated between the last checks (a run and the session's work after it)
	next    int                 // where the next interval goes in recent
	limit   uint64              // the heap past which the next run could start a collection
}

// guardWindow is how many of the last iterations the guard's estimate of a run's allocation
// looks back over.
const guardWindow = 8

// newGCGuard starts a guard with a collection, so that the first run starts from a clean heap.
func newGCGuard() *gcGuard {
	g := &gcGuard{}
	g.samples[0].Name = "/gc/heap/allocs:bytes"
	g.samples[1].Name = "/gc/heap/goal:bytes"
	g.samples[2].Name = "/memory/classes/heap/objects:bytes"
	g.collect()
	return g
}

// beforeRun is called right before each timed run.
func (g *gcGuard) beforeRun() {
	metrics.Read(g.samples[:])
	allocs, goal, heap := g.value(0), g.value(1), g.value(2)
	g.recent[g.next] = allocs - g.last
	g.next = (g.next + 1) % guardWindow
	g.last = allocs
	most := uint64(0)
	for _, b := range g.recent {
		most = max(most, b)
	}
	if heap+2*most >= min(g.limit, goal) {
		g.collect()
	}
}

func (g *gcGuard) collect() {
	runtime.GC()
	metrics.Read(g.samples[:])
	g.last = g.value(0)
	goal, heap := g.value(1), g.value(2)
	g.limit = heap + (goal-min(goal, heap))/2
}

// value reads sample i, 0 when this Go runtime does not report it (the guard then collects
// before every run, the safe side).
func (g *gcGuard) value(i int) uint64 {
	if g.samples[i].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return g.samples[i].Value.Uint64()
}
