package cpu

import (
	"sync"
	"sync/atomic"

	"github.com/gworkbench/gworkbench/engine"
)

// Parallel helpers shared by every algorithm of the CPU engine. The knobs workers, chunk and
// split are honoured here, so an algorithm file only says what one piece of work does.

// parallel runs body(w) for w = 0 .. workers-1 concurrently, worker 0 on the calling
// goroutine, and returns when all are done. Each w is one worker: per-worker buffers indexed
// by w need no locking. The run's team does it (see team.go), started on first use.
func (r *Run) parallel(workers int, body func(w int)) {
	if workers <= 1 {
		body(0)
		return
	}
	if t := r.teamOf(workers); t != nil && t.run(workers, body) {
		return
	}
	spawn(workers, body)
}

// teamOf returns the run's team, started on first use, when a loop of workers (two or more)
// fits in it; nil when it does not.
func (r *Run) teamOf(workers int) *team {
	if r.team == nil && workers <= r.Workers {
		r.team = newTeam(r.Workers, r.hot)
	}
	if r.team != nil && workers <= r.team.size {
		return r.team
	}
	return nil
}

// spawn is parallel with a goroutine per worker, for a loop the team cannot take.
func spawn(workers int, body func(w int)) {
	var wg sync.WaitGroup
	wg.Add(workers - 1)
	for w := 1; w < workers; w++ {
		go func() {
			defer wg.Done()
			body(w)
		}()
	}
	body(0)
	wg.Wait()
}

// serialBelow is the loop length under which, with chunk=auto, forRange runs on one worker.
// Above it, a loop with chunk=auto takes one worker per piece and per serialBelow items (two
// at least), up to the run's workers, so that a small loop does not signal workers that would
// get no piece (the team signals only those it uses). A chunk set by hand keeps every worker
// busy, so that tests on small graphs still run the parallel paths.
//
// It is 32 with a hot team and 128 with a polite one (team.go). A polite team's idle workers
// give their processor away: on the 16-core host, road NE's BFS levels of a few hundred
// vertices ran on a few workers at 128 and the rest went cold. With workers that stay hot, 32
// lets such a level use a dozen: road NE at 16 workers, BFS ~28 ms -> ~20 (GAPBS ~24.5), SSSP
// ~26 -> ~21.6, with either change alone no faster (.dev/cpu4 call 2). On a small shared
// machine every worker woken is a wake-up the operating system may delay: 128 there.
func (r *Run) serialBelow() int {
	if r.hot && (r.team == nil || r.team.hot.Load()) {
		return 32
	}
	return 128
}

// chunkFor returns the piece size for a loop: the chunk knob if set, else grain.
func (r *Run) chunkFor(grain int) int {
	c := r.Req.Schedule.Chunk
	if c <= 0 {
		c = grain
	}
	return max(c, 1)
}

// forRange splits the index range [0, n) among the run's workers according to the split knob
// and calls body(w, lo, hi) for each piece [lo, hi) on worker w:
//
//   - blocked: worker w owns one contiguous block [w*n/W, (w+1)*n/W), visited in pieces of
//     grain so that cancellation is noticed;
//   - cyclic: pieces of the chunk size dealt round-robin, piece i to worker i mod W;
//   - dynamic: pieces of the chunk size taken from a shared counter (the default).
//
// The chunk knob, when set, replaces grain; with chunk=auto a range under serialBelow runs on
// worker 0 alone, and a longer one on at most one worker per piece and per serialBelow items.
// With align > 1 every piece boundary is a multiple of align (bitmap words: align 64), so
// pieces never share a word. Pieces not yet started when the run is cancelled are skipped:
// check r.stopped() after forRange returns.
func (r *Run) forRange(n, grain, align int, body func(w, lo, hi int)) {
	r.forRangeThen(n, grain, align, body, nil)
}

// forRangeThen is forRange with a last step: each worker calls then(w) once it has no more
// pieces (delta-stepping's bucket fusion and per-worker summaries go there). With then set,
// every worker runs, even when n is small.
func (r *Run) forRangeThen(n, grain, align int, body func(w, lo, hi int), then func(w int)) {
	if n <= 0 && then == nil {
		return
	}
	chunk := r.chunkFor(grain)
	if align > 1 {
		chunk = (chunk + align - 1) / align * align
	}
	workers := r.Workers
	if then == nil {
		workers = r.loopWorkers(n, chunk)
	}
	done := func(w int) {
		if then != nil && !r.stopped() {
			then(w)
		}
	}
	var next atomic.Int64
	r.parallel(workers, func(w int) {
		defer done(w)
		r.pieces(w, workers, n, chunk, align, &next, func(lo, hi int) { body(w, lo, hi) })
	})
}

// pieces calls body(lo, hi) for worker w's pieces of [0, n), of chunk items (a multiple of
// align), shared among workers as the split knob says (see forRange); next is the pieces'
// shared counter under split=dynamic, zero before the first worker starts. It returns when
// the worker has no more pieces, or when the run is stopped.
func (r *Run) pieces(w, workers, n, chunk, align int, next *atomic.Int64, body func(lo, hi int)) {
	switch r.split() {
	case engine.Blocked:
		lo, hi := w*n/workers, (w+1)*n/workers
		if align > 1 {
			lo, hi = roundUp(lo, align, n), roundUp(hi, align, n)
		}
		for lo < hi && !r.stopped() {
			e := min(lo+chunk, hi)
			body(lo, e)
			lo = e
		}
	case engine.Cyclic:
		for lo := w * chunk; lo < n && !r.stopped(); lo += workers * chunk {
			body(lo, min(lo+chunk, n))
		}
	default:
		for !r.stopped() {
			lo := int(next.Add(int64(chunk))) - chunk
			if lo >= n {
				return
			}
			body(lo, min(lo+chunk, n))
		}
	}
}

// loopWorkers is how many of the run's workers a loop of n items in pieces of chunk gets: one
// when the loop is too small to share, else a worker a piece and at least serialBelow items a
// worker past the second (with chunk=auto): at 16 workers a road level of a few hundred
// vertices woke a dozen workers, each costing more than its piece saves.
func (r *Run) loopWorkers(n, chunk int) int {
	workers := r.Workers
	if workers > 1 {
		serialBelow := r.serialBelow()
		switch {
		case n <= chunk || n < serialBelow && r.Req.Schedule.Chunk <= 0:
			workers = 1 // too little work to share
		case r.Req.Schedule.Chunk <= 0:
			workers = min(workers, (n+chunk-1)/chunk, max(2, n/serialBelow))
		}
	}
	return workers
}

func roundUp(x, a, limit int) int { return min((x+a-1)/a*a, limit) }

// split returns the resolved split knob (auto is dynamic).
func (r *Run) split() engine.Split {
	if s := r.Req.Schedule.Split; s != engine.SplitAuto {
		return s
	}
	return engine.Dynamic
}

// stopped reports whether the run's context has been cancelled: one atomic load, cheap
// enough for every chunk of every loop.
func (r *Run) stopped() bool { return r.stop.Load() }

// counters are per-worker tallies, padded to a cache line each so that workers incrementing
// their own never share a line (false sharing).
type counters struct {
	a, b, c, d int64
	_          [32]byte
}

// sumCounters adds up the workers' tallies.
func sumCounters(cs []counters) (s counters) {
	for i := range cs {
		s.a += cs[i].a
		s.b += cs[i].b
		s.c += cs[i].c
		s.d += cs[i].d
	}
	return s
}

// segQueue is a worklist made of per-worker segments: worker w appends to seg[w] without
// atomics, and the queue is the concatenation of the segments in worker order, indexed
// through the prefix sum of their lengths (start). The merge is that prefix sum: no copy.
type segQueue struct {
	seg   [][]uint32
	start []int // len(seg)+1
}

func newSegQueue(workers, capHint int) *segQueue {
	q := &segQueue{seg: make([][]uint32, workers), start: make([]int, workers+1)}
	for w := range q.seg {
		q.seg[w] = make([]uint32, 0, capHint)
	}
	return q
}

// segQueues keeps queues between runs: a benchmark or a session repeating a run reuses their
// grown segments instead of allocating and faulting in new memory each time.
var segQueues keep[segQueue]

// getSegQueue returns an empty queue of workers segments, reusing a kept one if any.
func getSegQueue(workers int) *segQueue {
	if q := segQueues.get(); q != nil && len(q.seg) == workers {
		q.reset()
		return q
	}
	return newSegQueue(workers, 1024)
}

// putSegQueue keeps a queue for a later run; the caller must not use it again.
func putSegQueue(q *segQueue) { segQueues.put(q) }

// reset empties every segment, keeping the memory.
func (q *segQueue) reset() {
	for w := range q.seg {
		q.seg[w] = q.seg[w][:0]
	}
	clear(q.start)
}

// seal computes the prefix sum after the workers' appends and returns the total length.
func (q *segQueue) seal() int {
	for w, s := range q.seg {
		q.start[w+1] = q.start[w] + len(s)
	}
	return q.start[len(q.seg)]
}

// len returns the length computed by the last seal.
func (q *segQueue) len() int { return q.start[len(q.seg)] }

// piece returns the entries of [lo, hi) that lie in one segment, and the index after them.
// Loop with: for lo < hi { items, lo = q.piece(lo, hi); ... }.
func (q *segQueue) piece(lo, hi int) ([]uint32, int) {
	s := 0
	for q.start[s+1] <= lo {
		s++
	}
	a := lo - q.start[s]
	b := min(hi, q.start[s+1]) - q.start[s]
	return q.seg[s][a:b], q.start[s] + b
}

// setOne makes the queue hold the single vertex v (in segment 0).
func (q *segQueue) setOne(v uint32) {
	q.reset()
	q.seg[0] = append(q.seg[0], v)
	q.seal()
}

// keep holds a few values between runs for whichever goroutine asks next: a run's scratch
// arrays, which cost a clear of their whole size to allocate anew. A sync.Pool does not do it
// here: a value put on one processor waits in that processor's private slot, where a Get on
// another does not look, and the session collects garbage between the runs that allocate
// much, after which a pooled value survives one more collection only. Road NE BC (2 workers)
// missed its 30 MB of scratch on 3 runs of 7 that way, each miss 2.5 to 11 ms of a ~90 ms
// run. What is kept stays allocated until the next run takes it (or the process ends).
type keep[T any] struct {
	mu sync.Mutex
	xs []*T
}

// keepMax is how many values a keep holds; more are dropped.
const keepMax = 4

// get returns a kept value, nil when none.
func (k *keep[T]) get() *T {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.xs) == 0 {
		return nil
	}
	x := k.xs[len(k.xs)-1]
	k.xs[len(k.xs)-1] = nil
	k.xs = k.xs[:len(k.xs)-1]
	return x
}

// put keeps x for a later get; the caller must not use it again.
func (k *keep[T]) put(x *T) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.xs) < keepMax {
		k.xs = append(k.xs, x)
	}
}
