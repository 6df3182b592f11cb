package cpu

import (
	"sync"
	"sync/atomic"
	"time"
)

// A barrier holds the workers of one parallel region (one team loop that runs a whole
// algorithm, as GAPBS's `#pragma omp parallel` does) until all n have arrived. The last to
// arrive runs the serial step between two phases (a reduction over the workers' offers, the
// next phase's plan) and then releases the others by bumping the generation every waiter
// polls: a phase costs one locked add per worker and one line read by all, and no goroutine
// hand-over through the run's caller.
//
// Waiters poll with the team's policy (team.spinning: spin, offer the processor as the team
// does, then park); a parked waiter sleeps on the generation's channel, which the releaser
// closes. Without a team (one worker) or with a team that does not spin, waiters park at once.
type barrier struct {
	t       *team
	n       int32
	_       [60]byte
	arrived atomic.Int32 // arrivals in the current generation
	_       [60]byte
	gen     atomic.Uint32 // bumped by each release; what the waiters poll
	_       [60]byte
	mu      sync.Mutex    // guards ch
	ch      chan struct{} // closed by the release of the generation its parked waiters wait for
}

func newBarrier(n int, t *team) *barrier { return &barrier{t: t, n: int32(n)} }

// wait returns once all n workers have called it in this generation. The last to arrive
// calls last (if not nil) before releasing the others, which see all its writes, as it sees
// every worker's writes made before its call.
func (b *barrier) wait(last func()) {
	g := b.gen.Load()
	if b.arrived.Add(1) == b.n {
		b.arrived.Store(0) // no one arrives again before the release below
		if last != nil {
			last()
		}
		b.mu.Lock()
		b.gen.Store(g + 1)
		ch := b.ch
		b.ch = nil
		b.mu.Unlock()
		if ch != nil {
			close(ch)
		}
		return
	}
	if t := b.t; t != nil && t.spin > 0 {
		var start, lastRead, yielded time.Time
		for i := 1; ; i++ {
			if b.gen.Load() != g {
				return
			}
			cpuRelax()
			if i%teamPollBatch == 0 && !t.spinning(&start, &lastRead, &yielded) {
				break
			}
		}
	}
	b.mu.Lock()
	if b.gen.Load() != g {
		b.mu.Unlock()
		return
	}
	if b.ch == nil {
		b.ch = make(chan struct{})
	}
	ch := b.ch
	b.mu.Unlock()
	<-ch
}
