package cpu

import (
	"runtime"
	"sync/atomic"
	"time"
)

// A team is the run's workers, started once and kept across the run's parallel loops, as an
// OpenMP team is kept across parallel regions (GAPBS's kernels): a loop costs one store to
// start it and a flag per worker to join it, not a goroutine per worker. The caller starts a
// loop of k workers by storing the loop's number and k in one word that every idle worker
// polls (one line, read by all at once); workers k and up see it and go on waiting, so a small
// loop (a road graph's BFS level of a few hundred vertices) runs on a few. Each worker of the
// loop checks in by storing the loop's number in its own slot, and the caller reads the slots,
// their loads overlapping. A signal per worker on lines of their own and a shared count-down
// cost a store and a locked add per worker, one after another: on the 16-core host those
// came to microseconds a loop, thousands of loops a road graph run. Between loops a worker
// spins for a while (a level takes microseconds) and then parks on its own channel; the caller
// wakes the parked ones it needs.
//
// Only the run's goroutine starts loops; a loop started from inside another (or from another
// goroutine while one is running) gets goroutines of its own instead.
type team struct {
	// Written once per loop, before the signal; read by the loop's workers after it.
	job   func(w int)
	size  int
	spin  time.Duration // spinning before parking
	yield time.Duration // a hot team's pollers offer their processor after this much polling
	seq   uint64        // the current loop's number (the caller's)
	_     [64]byte      // (the heap aligns the team to 16 bytes only)

	hot atomic.Bool // offer the processor every yield, not every batch (see teamSpin)
	_   [63]byte

	signal atomic.Uint64 // loop number << 32 | its worker count (0 workers: the team closes)
	_      [56]byte
	parked atomic.Bool // the caller parked in slot 0, waiting for check-ins
	busy   atomic.Bool // a loop is running
	slots  []teamSlot  // workers 1..size-1; slot 0 is the caller's, for its own parking
}

// teamSlot is one worker's check-in and parking place, on cache lines of their own: the caller
// reads parked as it starts a loop, and the worker's check-in should not wait for that line.
type teamSlot struct {
	done   atomic.Uint64 // the number of the last loop this worker finished
	_      [56]byte
	parked atomic.Bool
	wake   chan struct{}
	_      [48]byte
}

// teamSpin is how long a waiting worker (or the caller, waiting for the others) polls before
// it parks: longer than the serial work between two loops of a run and than the imbalance
// at the end of a loop (a delta-stepping round's fused bins), far shorter than a run. Waking a
// parked worker costs tens of microseconds (road NE SSSP at 2 workers: 130 ms when the spin
// lasted ~0.2 ms, 105 with 1 ms). The clock is read every teamPollBatch polls (each with a
// PAUSE), in a call the scheduler can preempt at.
//
// How often a poller offers its processor to other goroutines (runtime.Gosched) is the team's
// policy, and no one value is right on both kinds of machine:
//
//   - hot, on a host of teamHotProcs processors or more: once it has polled for teamYield,
//     and never when the team leaves processors idle (fewer workers than GOMAXPROCS): other
//     goroutines run there. Each offer takes the scheduler's lock; on the 16-core host 15
//     spinners offering every 1024 polls (a microsecond or two) spent 16% of road NE SSSP's
//     CPU time in that lock and came back late to the next loop, while a level step waits a
//     few microseconds. With idle processors an offered goroutine may also resume on another
//     thread: 2 workers of 16 offering every teamYield ran road NE BFS and BC 10-20% slower
//     than never offering (.dev/cputeam call 1 against .dev/cpu4 call 4).
//   - polite, on a smaller machine: every batch, as the team did before there was a hot one.
//     On the shared 2-core machine (load 3, other processes' builds) a poller holding its
//     processor for teamYield kept the goroutines it waits for (and the collector's) from
//     running: road NE BFS at 2 workers took 330-520 ms against 200-300, and never offering
//     made the package's tests twice as slow beside another test binary.
//
// A hot team turns polite for the rest of its run when a poller finds it was off its processor
// for teamStall between two clock reads (a batch takes microseconds): the operating system
// gave its thread's core to another process, so the machine is oversubscribed. A team larger
// than GOMAXPROCS does not spin at all: its spinning workers would hold the processors the
// others need.
const (
	teamSpin      = time.Millisecond
	teamYield     = 20 * time.Microsecond
	teamStall     = 200 * time.Microsecond
	teamPollBatch = 64
	teamHotProcs  = 8
)

// hotTeam reports whether a run of the given workers gets a hot team (see teamSpin): on a
// machine of teamHotProcs processors or more, with no more workers than processors. A
// variable so that tests can run the hot policy on a small machine.
var hotTeam = func(workers int) bool {
	p := runtime.GOMAXPROCS(0)
	return p >= teamHotProcs && workers <= p && !raceBuild
}

// newTeam starts a team of size workers (the caller's included), hot or polite (see teamSpin).
func newTeam(size int, hot bool) *team {
	t := &team{size: size, spin: teamSpin, slots: make([]teamSlot, size)}
	t.hot.Store(hot)
	t.yield = teamYield
	if size < runtime.GOMAXPROCS(0) {
		t.yield = 1<<63 - 1 // never: the idle processors run other goroutines
	}
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

// work is worker w's loop: wait for a signal, run its share if the loop includes it, check in.
func (t *team) work(w int) {
	seen := uint64(0)
	for {
		seen = t.wait(w, seen)
		if k := int(uint32(seen)); k == 0 {
			return
		} else if w >= k {
			continue // a loop of fewer workers
		}
		t.job(w)
		t.slots[w].done.Store(seen >> 32)
		if t.parked.Load() && t.parked.CompareAndSwap(true, false) {
			t.slots[0].wake <- struct{}{} // the caller parked before this check-in
		}
	}
}

// wait returns the first signal after seen, spinning, then parking.
func (t *team) wait(w int, seen uint64) uint64 {
	s := &t.slots[w]
	var start, last, yielded time.Time
	for i := 1; t.spin > 0; i++ {
		if e := t.signal.Load(); e != seen {
			return e
		}
		cpuRelax()
		if i%teamPollBatch == 0 && !t.spinning(&start, &last, &yielded) {
			break
		}
	}
	for {
		s.parked.Store(true)
		if e := t.signal.Load(); e != seen {
			if !s.parked.CompareAndSwap(true, false) {
				<-s.wake // the caller saw us parked and sent a token: take it
			}
			return e
		}
		<-s.wake
	}
}

// spinning reports whether a waiter that began polling at *start (zero: now) may go on, and
// offers the processor to other goroutines as the team's policy says (*last: the waiter's last
// clock read or offer). Not inlined: its call is where the scheduler can preempt a poller.
//
//go:noinline
func (t *team) spinning(start, last, yielded *time.Time) bool {
	now := time.Now()
	if start.IsZero() {
		*start, *last, *yielded = now, now, now
	}
	hot := t.hot.Load()
	if hot && now.Sub(*last) >= teamStall {
		t.hot.Store(false) // off the processor between two reads: the machine is oversubscribed
		hot = false
	}
	*last = now
	if now.Sub(*start) >= t.spin {
		return false
	}
	if !hot || now.Sub(*yielded) >= t.yield {
		runtime.Gosched()
		*yielded = time.Now()
		*last = *yielded // the time other goroutines ran is not a stall
	}
	return true
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
	t.seq++
	t.signal.Store(t.seq<<32 | uint64(k))
	for w := 1; w < k; w++ {
		t.unpark(w)
	}
	body(0)
	t.join(k)
	t.job = nil
	t.busy.Store(false)
	return true
}

// checkedIn reports whether workers 1..k-1 have finished the current loop. The loads do not
// depend on each other, so their misses overlap.
func (t *team) checkedIn(k int) bool {
	all := true
	for w := 1; w < k; w++ {
		all = all && t.slots[w].done.Load() == t.seq
	}
	return all
}

// join waits for the loop's workers 1..k-1 to check in: spinning, then parking in slot 0.
func (t *team) join(k int) {
	var start, last, yielded time.Time
	polls := 0
	for !t.checkedIn(k) {
		if t.spin == 0 {
			polls = teamPollBatch // park at once: a spinning caller holds a processor a worker needs
		}
		cpuRelax()
		// A poll reads k-1 slots: count them as as many polls of one word.
		if polls += k - 1; polls < teamPollBatch {
			continue
		}
		polls = 0
		if t.spinning(&start, &last, &yielded) {
			continue
		}
		// Park: a worker checking in after this store sees it and wakes us; one that
		// checked in before it is seen by the check below.
		t.parked.Store(true)
		if t.checkedIn(k) {
			if !t.parked.CompareAndSwap(true, false) {
				<-t.slots[0].wake // a worker saw us parked and sent a token: take it
			}
			return
		}
		<-t.slots[0].wake
		start = time.Time{}
	}
}

// close stops the workers. A team still running a loop (its caller is unwinding a panic) is
// left to finish it and park.
func (t *team) close() {
	if !t.busy.CompareAndSwap(false, true) {
		return
	}
	t.seq++
	t.signal.Store(t.seq << 32)
	for w := 1; w < t.size; w++ {
		t.unpark(w)
	}
}
