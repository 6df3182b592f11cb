package cpu

import (
	"runtime"
	"sync/atomic"
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
	spin   int      // polls before parking
	_      [64]byte // (the heap aligns the team to 16 bytes only)

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

// teamSpin is how many times a waiting worker (or the caller, waiting for the others) polls
// before it parks: a few hundred microseconds, longer than the serial work between two loops
// of a run, far shorter than a run. A team larger than GOMAXPROCS polls briefly: its spinning
// workers would hold the processors the others need.
const teamSpin = 1 << 15

func newTeam(size int) *team {
	t := &team{size: size, spin: teamSpin, slots: make([]teamSlot, size)}
	if size > runtime.GOMAXPROCS(0) || raceBuild {
		t.spin = 256
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
	for i := 0; i < t.spin; i++ {
		if e := s.epoch.Load(); e != seen {
			return e
		}
		if i&255 == 255 {
			runtime.Gosched()
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
	for i := 0; t.left.Load() != 0; i++ {
		if i < t.spin {
			if i&255 == 255 {
				runtime.Gosched()
			}
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
