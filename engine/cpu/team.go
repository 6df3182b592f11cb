package cpu

import (
	"runtime"
	"sync/atomic"
	"time"
)

// A team is the run's workers, started once and kept across the run's parallel loops, as an
// OpenMP team is kept across parallel regions (GAPBS's kernels): a loop costs a store to wake
// the team and a count-down to join it, not a goroutine per worker. Between loops a worker
// spins on the team's epoch for a while (a BFS level of a road graph takes microseconds) and
// then parks on its own channel; the caller wakes the parked ones.
//
// Only the run's goroutine starts loops; a loop started from inside another (or from another
// goroutine while one is running) gets goroutines of its own instead.
type team struct {
	// Read by the waiting workers, written once per loop: a cache line of their own.
	epoch   atomic.Uint64 // incremented to start a loop
	job     func(w int)
	jobSize int  // workers 0..jobSize-1 run job; the others only check in
	closed  bool // read by workers after they see a new epoch
	size    int
	short   bool     // poll teamShortSpin times before parking (else for teamSpin)
	_       [64]byte // (the heap aligns the team to 16 bytes only)

	left  atomic.Int32 // workers 1..size-1 yet to finish the current loop
	busy  atomic.Bool  // a loop is running
	slots []teamSlot   // workers 1..size-1; slot 0 is the caller's, for its own parking
}

// teamSlot is one worker's parking place, on a cache line of its own.
type teamSlot struct {
	parked atomic.Bool
	wake   chan struct{}
	_      [48]byte
}

// teamSpin is how long a waiting worker (or the caller, waiting for the others) polls before
// it parks: longer than the serial work between two loops of a run (a road graph's BFS has
// stretches of small levels that worker 0 runs alone), far shorter than a run. Parking is what
// costs: waking a parked worker goes through the Go scheduler (tens of microseconds on 16
// cores), so a team whose workers park between the levels of a road BFS pays that per level.
// OpenMP runtimes spin about as long (GOMP_SPINCOUNT). A team larger than GOMAXPROCS polls
// briefly (teamShortSpin times): its spinning workers would hold the processors the others
// need.
const (
	teamSpin      = 2 * time.Millisecond
	teamShortSpin = 256
	// teamYield is how many polls a spinning worker makes between two runtime.Gosched calls.
	// A yield takes the scheduler's global lock: at one every 256 polls, 15 spinning workers
	// of a 16-worker team queued on that lock and answered a new loop microseconds late.
	teamYield = 1 << 14
)

func newTeam(size int) *team {
	t := &team{size: size, slots: make([]teamSlot, size)}
	t.short = size > runtime.GOMAXPROCS(0) || raceBuild
	for w := range t.slots {
		t.slots[w].wake = make(chan struct{}, 1)
	}
	for w := 1; w < size; w++ {
		go t.work(w)
	}
	return t
}

// work is worker w's loop: wait for a new epoch, run its share, check in.
func (t *team) work(w int) {
	seen := uint64(0)
	for {
		seen = t.wait(w, seen)
		if t.closed {
			return
		}
		if w < t.jobSize {
			t.job(w)
		}
		if t.left.Add(-1) == 0 {
			t.unpark(0) // the caller, if it parked
		}
	}
}

// wait returns the first epoch after seen, spinning, then parking.
func (t *team) wait(w int, seen uint64) uint64 {
	for sp := t.spinner(); sp.more(); {
		if e := t.epoch.Load(); e != seen {
			return e
		}
	}
	s := &t.slots[w]
	for {
		s.parked.Store(true)
		if e := t.epoch.Load(); e != seen {
			if !s.parked.CompareAndSwap(true, false) {
				<-s.wake // the caller saw us parked and sent a token: take it
			}
			return e
		}
		<-s.wake
	}
}

// spinner counts a waiter's polls and says when to stop spinning and park.
type spinner struct {
	polls int
	short bool
	start time.Time // of the spin, taken at its first clock check
}

func (t *team) spinner() spinner { return spinner{short: t.short} }

// more reports whether the waiter should poll again. Every 1024 polls it yields the thread
// (on a machine busy with other processes, the thread it waits for may be waiting for this
// CPU: spinning through its time slice made a road BFS 8x slower on a loaded 2-core machine)
// and reads the clock; now and then it yields to the Go scheduler.
func (sp *spinner) more() bool {
	sp.polls++
	if sp.short {
		return sp.polls <= teamShortSpin
	}
	if sp.polls&1023 != 0 {
		return true
	}
	osYield()
	if sp.polls&(teamYield-1) == 0 {
		runtime.Gosched()
	}
	if sp.start.IsZero() {
		sp.start = time.Now()
		return true
	}
	return time.Since(sp.start) < teamSpin
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
	t.job, t.jobSize = body, k
	t.left.Store(int32(t.size - 1))
	t.epoch.Add(1)
	for w := 1; w < t.size; w++ {
		t.unpark(w)
	}
	body(0)
	t.join()
	t.job = nil
	t.busy.Store(false)
	return true
}

// join waits for workers 1..size-1 to check in: spinning, then parking in slot 0.
func (t *team) join() {
	for sp := t.spinner(); t.left.Load() != 0; {
		if sp.more() {
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
	t.epoch.Add(1)
	for w := 1; w < t.size; w++ {
		t.unpark(w)
	}
}
