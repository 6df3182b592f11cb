package cpu

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
)

// SSSP by delta-stepping (method=deltastep, the default; Meyer and Sanders [1], GAPBS
// sssp.cc [2]). Vertices wait in buckets of width delta, by distance; each round relaxes
// the lowest non-empty bucket, whose improved vertices go to later buckets (or back to the
// current one). Every worker keeps its own bins (a binRing), so a round's frontier is the
// concatenation of the workers' bins for that bucket, with no shared queue. With bucket
// fusion (GAPBS's kBinSizeThreshold) a worker goes on relaxing its own bin of the current
// bucket while that stays small, without a barrier round. Stale entries (the vertex has
// since moved to an earlier bucket) are skipped when popped and counted as duplicates.
//
// [1] Meyer, Sanders. Delta-stepping: a parallelizable shortest path algorithm. J. Algorithms
// 2003. [2] Beamer, Asanović, Patterson. The GAP benchmark suite. 2015.

// deltaStep is delta-stepping: with bucket fusion in one parallel region under sync=async
// (deltaRegion), in rounds joined by the caller under sync=sync (deltaStepSync).
func (s *ssspState) deltaStep(ctx context.Context, src uint32) error {
	s.rings[0].push(0, src)
	if s.sync {
		return s.deltaStepSync(ctx)
	}
	return s.deltaRegion(ctx)
}

// deltaStepSync is delta-stepping under sync=sync: each round reads the distances of the
// previous one, so a round ends with a join and a commit, and there is no bucket fusion.
func (s *ssspState) deltaStepSync(ctx context.Context) error {
	delta := s.delta
	front := newSegQueue(s.Workers, 0) // (its segments are the rings' detached bins: never pool it)
	for cur, iter := int64(0), 0; cur != noBin; iter++ {
		if err := s.ctxErr(ctx); err != nil {
			return err
		}
		start := time.Now()
		for w := range s.rings {
			front.seg[w] = s.rings[w].take(cur)
		}
		in := front.seal()
		clear(s.cnt)
		s.forRange(in, ssspDataGrain, 1, func(w, lo, hi int) {
			push := s.binPush(w, iter)
			for lo < hi {
				var items []uint32
				items, lo = front.piece(lo, hi)
				s.relaxItems(w, items, delta*cur, push)
			}
		})
		if s.stopped() {
			return s.ctxErr(ctx)
		}
		s.commit()
		next := int64(noBin)
		for w := range s.rings {
			s.rings[w].giveBack(front.seg[w])
			next = min(next, s.rings[w].advance(cur))
		}
		tot := sumCounters(s.cnt)
		s.emit(bucketRecord(iter, cur, delta, int64(in), tot, time.Since(start)))
		cur = next
	}
	return nil
}

// bucketRecord is the trace record of a round that relaxed bucket cur.
func bucketRecord(iter int, cur, delta, in int64, tot counters, d time.Duration) engine.Record {
	return engine.Record{Iter: iter, Direction: engine.Push, Mode: engine.Data, InVertices: in,
		InEdges: tot.b, OutVertices: tot.c, Duplicates: tot.d, EdgesScanned: tot.b, Time: d,
		Note: fmt.Sprintf("bucket %d (distances %d..%d), %d vertices relaxed", cur, cur*delta, (cur+1)*delta-1, tot.a)}
}

// binPush returns worker w's push for relaxItems: bin v in the bucket of its new distance
// (under dedup=atomic, once per bucket, or per bucket and round under sync=sync).
func (s *ssspState) binPush(w, iter int) func(v uint32, nd int64) {
	ring, c := &s.rings[w], &s.cnt[w]
	return func(v uint32, nd int64) {
		b := nd / s.delta
		if s.dedup && !s.claim(v, dedupKey(b, iter, s.sync)) {
			return
		}
		ring.push(b, v)
		c.c++
	}
}

// relaxItems relaxes the popped vertices items with relax, skipping the stale ones (below
// floor, the bucket's first distance), for the schedules relaxItemsFast does not take.
func (s *ssspState) relaxItems(w int, items []uint32, floor int64, push func(v uint32, nd int64)) {
	c := &s.cnt[w]
	for _, u := range items {
		du := int64(atomic.LoadInt32(&s.dist[u]))
		if du < floor {
			c.d++ // stale: improved into an earlier bucket since it was queued
			continue
		}
		if s.dedup && !s.sync {
			// Unqueue, then read again: an improvement racing with this pop either
			// sees the vertex unqueued and queues it, or is read here.
			atomic.StoreInt64(&s.queued[u], -1)
			du = int64(atomic.LoadInt32(&s.dist[u]))
		}
		c.a++
		c.b += s.relax(w, u, du, push)
	}
}

// relaxArcs relaxes arcs [lo, hi) from distance du for the default delta-stepping schedule
// (update=rmw, sync=async, dedup=none, weighted): an improved vertex goes straight into the
// worker's ring, and it returns how many did. The loop makes no call but in its rare paths
// (a bin that grows, a bucket outside the ring: binRing.push), because Go spills and reloads
// every register live across a call: a call per improvement (a compare-and-swap helper, then
// the ring's push) made the relaxation execute far more instructions than this loop and
// relaxBlock's copy (docs/cpu-notes.md).
func (s *ssspState) relaxArcs(lo, hi, du int64, ring *binRing) (pushed int64) {
	nb, ws, dist := s.g.Neighbors[lo:hi], s.g.Weights[lo:hi], s.dist
	ws = ws[:len(nb)]
	for i, v := range nb {
		w := int64(ws[i])
		if w < 0 {
			s.neg.Store(true)
			continue
		}
		nd := min(du+w, infDist-1)
		old := int64(atomic.LoadInt32(&dist[v]))
		for nd < old {
			if atomic.CompareAndSwapInt32(&dist[v], int32(old), int32(nd)) {
				// Bin v: binRing.push's common case, inline (no call on this path).
				b := s.div.of(nd)
				if uint64(b-ring.lo) < uint64(len(ring.bins)) {
					p := &ring.bins[b&int64(len(ring.bins)-1)]
					if n := len(*p); n < cap(*p) {
						*p = (*p)[:n+1]
						(*p)[n] = v
						pushed++
						break
					}
				}
				ring.push(b, v)
				pushed++
				break
			}
			old = int64(atomic.LoadInt32(&dist[v]))
		}
	}
	return pushed
}

// relaxItemsFast is delta-stepping's loop over popped vertices for the relaxArcs schedule: it
// skips the stale ones (below the bucket's first distance, floor) and relaxes the others,
// counting into c as relaxItems does. It goes in blocks of ssspPrefetchBlock vertices, and
// before each block prefetches, one call a stage, what later blocks will miss on: the offsets
// and distances of the vertices three blocks on (prefetchVerts); the first arcs of those two
// blocks on that are not stale, whose distances and offsets have arrived (prefetchArcs); and
// the neighbours' distances of those of the next block that are not stale and have at most
// ssspShortList arcs, whose arcs have arrived (prefetchNbrDist). The misses then overlap with
// this block's work, compare-and-swaps included, instead of following it, and the loop pays
// three calls a block instead of a call a prefetch (a Go call spills and reloads the loop's
// registers). Stale vertices (on kron20 and urand20 at delta 4, most of those popped) and
// long lists get none of the later stages: prefetching the first 32 neighbours' distances of
// every popped vertex, a block's 256 lines at once on urand20, cost more than the misses it
// saved.
// On amd64 (without the race detector) relaxItemsKernel runs this loop, the pipeline and the
// arcs in assembly; the Go loops here are the other processors' and the tests' (SetRelaxAsm).
func (s *ssspState) relaxItemsFast(items []uint32, floor int64, ring *binRing, c *counters, hub *[]uint32) {
	if relaxAsm {
		s.relaxItemsKernel(items, floor, ring, c, hub)
		return
	}
	g := s.g
	po, pn, pw, pd := unsafe.SliceData(g.Offsets), unsafe.SliceData(g.Neighbors), unsafe.SliceData(g.Weights), unsafe.SliceData(s.dist)
	const B = ssspPrefetchBlock
	n := len(items)
	prefetchVerts(items[:min(3*B, n)], po, pd)
	prefetchArcs(items[:min(2*B, n)], po, pn, pw, pd, floor)
	prefetchNbrDist(items[:min(B, n)], po, pn, pd, floor, ssspShortList)
	for b := 0; b < n; b += B {
		if b+3*B < n {
			prefetchVerts(items[b+3*B:min(b+4*B, n)], po, pd)
		}
		if b+2*B < n {
			prefetchArcs(items[b+2*B:min(b+3*B, n)], po, pn, pw, pd, floor)
		}
		if b+B < n {
			prefetchNbrDist(items[b+B:min(b+2*B, n)], po, pn, pd, floor, ssspShortList)
		}
		s.relaxBlock(items[b:min(b+B, n)], floor, ring, c, hub)
	}
}

// ssspPrefetchBlock is the vertices of a block of relaxItemsFast's pipeline.
const ssspPrefetchBlock = 8

// relaxBlock relaxes one block of relaxItemsFast's vertices, counting in locals: a long list
// by relaxArcs, a short one (a road graph's every vertex) by a copy of relaxArcs's loop, as a
// call a vertex costs more than its few arcs.
func (s *ssspState) relaxBlock(items []uint32, floor int64, ring *binRing, c *counters, hub *[]uint32) {
	off, nb, ws, dist := s.g.Offsets, s.g.Neighbors, s.g.Weights, s.dist
	ws = ws[:len(nb)]
	var relaxed, scanned, pushed, stale int64
	for _, u := range items {
		du := int64(atomic.LoadInt32(&dist[u]))
		if du < floor {
			stale++ // improved into an earlier bucket since it was queued
			continue
		}
		relaxed++
		lo, hi := off[u], off[u+1]
		scanned += hi - lo
		if hi-lo > ssspShortList {
			if hi-lo >= ssspHubArcs && hub != nil {
				scanned -= hi - lo
				*hub = append(*hub, u) // its arcs are shared out in a hub phase (relaxHubPiece)
				continue
			}
			pushed += s.relaxArcs(lo, hi, du, ring)
			continue
		}
		// relaxArcs's loop, inline.
		for e := lo; e < hi; e++ {
			v, w := nb[e], int64(ws[e])
			if w < 0 {
				s.neg.Store(true)
				continue
			}
			nd := min(du+w, infDist-1)
			old := int64(atomic.LoadInt32(&dist[v]))
			for nd < old {
				if atomic.CompareAndSwapInt32(&dist[v], int32(old), int32(nd)) {
					b := s.div.of(nd)
					if uint64(b-ring.lo) < uint64(len(ring.bins)) {
						p := &ring.bins[b&int64(len(ring.bins)-1)]
						if n := len(*p); n < cap(*p) {
							*p = (*p)[:n+1]
							(*p)[n] = v
							pushed++
							break
						}
					}
					ring.push(b, v)
					pushed++
					break
				}
				old = int64(atomic.LoadInt32(&dist[v]))
			}
		}
	}
	c.a += relaxed
	c.b += scanned
	c.c += pushed
	c.d += stale
}

// ssspShortList is the longest arc list whose neighbours' distances relaxItemsFast prefetches.
const ssspShortList = 8

// ssspHubArcs is the arc count from which a popped vertex (a hub of a power-law graph) is not
// relaxed by the worker that popped it but after the round's join, its arcs shared among all
// workers (relaxHubs): a piece of 64 popped vertices holding a few hubs otherwise keeps one
// worker busy while the rest wait (kron20, 16 workers: the second bucket's 1,551 vertices hold
// 16 M arcs and took 18 ms, longer than the 14 M arcs of 104 K vertices two buckets later;
// with the split the run took 39.9 ms against 46.3, GAPBS 33.2, on the GPU machine's host).
const ssspHubArcs = 1024

// ssspHubGrain is the arcs a worker takes at a time from the hubs' arcs.
const ssspHubGrain = 2048
