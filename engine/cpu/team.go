package cpu

import (
	"runtime"
	"sync/atomic"
	"time"
)

// A team is the run's workers, started once and kept across the run's parallel loops, as an
// OpenMP team is kept across parallel regions (GAPBS's kernels): a loop costs a store per
// worker to start it and a count-down to join it, not a goroutine per worker. A loop of k
// workers signals workers 1..k-1 only, each on its own cache line, and waits for those alone,
// so a small loop (a road graph's BFS level of a few hundred vertices) does not wake the
// rest. Between loops a worker spins on its signal for a while (a level takes microseconds)
// and then parks on its own channel; the caller wakes the parked ones it needs.
//
// Only the run's goroutine starts loops; a loop started from inside another (or from another
// goroutine while one is running) gets goroutines of its own instead.
type team struct {
	// Written once per loop, before the workers' signals; read by the workers after them.
	job    func(w int)
	closed bool
	size   int
	spin   time.Duration // spinning before parking
	_      [64]byte      // (the heap aligns the team to 16 bytes only)

	left  atomic.Int32 // workers of the current loop yet to finish, the caller's excepted
	_     [60]byte
	busy  atomic.Bool // a loop is running
	slots []teamSlot  // workers 1..size-1; slot 0 is the caller's, for its own parking
}

// teamSlot is one worker's signal and parking place, on a cache line of its own.
type teamSlot struct {
	epoch  atomic.Uint64 // incremented to start this worker on the team's job
	parked atomic.Bool
	wake   chan struct{}
	_      [40]byte
}

// teamSpin is how long a waiting worker (or the caller, waiting for the others) polls before
// it parks: longer than the serial work between two loops of a run and than the imbalance
// at the end of a loop (a delta-stepping round's fused bins), far shorter than a run. Waking a
// parked worker costs tens of microseconds (road NE SSSP at 2 workers: 130 ms when the spin
// lasted ~0.2 ms, 105 with 1 ms). The clock is read every teamPollBatch polls. A poller does
// not offer its processor to other goroutines (runtime.Gosched) while it spins: each offer
// takes the scheduler's lock, and on the 16-core host 15 spinners offering every 1024 polls
// spent 16% of road NE SSSP's CPU time in that lock (pprof at 16 workers) and came back late
// to the next loop. The scheduler still preempts a spinner that another goroutine (the
// collector) waits for, and a spin lasts 1 ms at most. A team larger than GOMAXPROCS polls
// briefly: its spinning workers would hold the processors the others need.
const (
	teamSpin      = time.Millisecond
	teamPollBatch = 1024
)

func newTeam(size int) *team {
	t := &team{size: size, spin: teamSpin, slots: make([]teamSlot, size)}
	if size > runtime.GOMAXPROCS(0) || raceBuild {
		t.spin = 0
	}
	for w := range t.slots {
		t.slots[w].wake = make(chan struct{}, 1)
	}
	for w := 1; w < size; w++ {
		go t.work(w)
	}
	return t
}

// work is worker w's loop: wait for its signal, run its share, check in.
func (t *team) work(w int) {
	seen := uint64(0)
	for {
		seen = t.wait(w, seen)
		if t.closed {
			return
		}
		t.job(w)
		if t.left.Add(-1) == 0 {
			t.unpark(0) // the caller, if it parked
		}
	}
}

// wait returns worker w's first epoch after seen, spinning, then parking.
func (t *team) wait(w int, seen uint64) uint64 {
	s := &t.slots[w]
	var start time.Time
	for i := 1; ; i++ {
		if e := s.epoch.Load(); e != seen {
			return e
		}
		if i%teamPollBatch == 0 && !t.spinning(&start) {
			break
		}
	}
	for {
		s.parked.Store(true)
		if e := s.epoch.Load(); e != seen {
			if !s.parked.CompareAndSwap(true, false) {
				<-s.wake // the caller saw us parked and sent a token: take it
			}
			return e
		}
		<-s.wake
	}
}

// spinning reports whether a waiter that began polling at *start (zero: now) may go on.
func (t *team) spinning(start *time.Time) bool {
	if start.IsZero() {
		*start = time.Now()
	}
	return time.Since(*start) < t.spin
}

// unpark wakes slot w if it parked.
func (t *team) unpark(w int) {
	if s := &t.slots[w]; s.parked.Load() && s.parked.CompareAndSwap(true, false) {
		s.wake <- struct{}{}
	}
}

// run calls body(w) for w = 0 .. k-1 (k <= size), body(0) on the caller, and returns when all
// are done. It reports false, running nothing, when the team is busy.
func (t *team) run(k int, body func(w int)) bool {
	if !t.busy.CompareAndSwap(false, true) {
		return false
	}
	t.job = body
	t.left.Store(int32(k - 1))
	for w := 1; w < k; w++ {
		t.slots[w].epoch.Add(1)
		t.unpark(w)
	}
	body(0)
	t.join()
	t.job = nil
	t.busy.Store(false)
	return true
}

// join waits for the loop's workers 1..k-1 to check in: spinning, then parking in slot 0.
func (t *team) join() {
	var start time.Time
	spin := true
	for i := 1; t.left.Load() != 0; i++ {
		if spin {
			spin = i%teamPollBatch != 0 || t.spinning(&start)
			continue
		}
		s := &t.slots[0]
		s.parked.Store(true)
		if t.left.Load() == 0 {
			if !s.parked.CompareAndSwap(true, false) {
				<-s.wake
			}
			return
		}
		<-s.wake
	}
}

// close stops the workers. A team still running a loop (its caller is unwinding a panic) is
// left to finish it and park.
func (t *team) close() {
	if !t.busy.CompareAndSwap(false, true) {
		return
	}
	t.closed = true
	t.left.Store(int32(t.size - 1))
	for w := 1; w < t.size; w++ {
		t.slots[w].epoch.Add(1)
		t.unpark(w)
	}
}
