package cpu

import (
	"context"
	"fmt"
	"slices"
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

// deltaStep is delta-stepping with bucket fusion.
func (s *ssspState) deltaStep(ctx context.Context, src uint32) error {
	delta := s.delta
	front := newSegQueue(s.Workers, 0) // (its segments are the rings' detached bins: never pool it)
	s.rings[0].push(0, src)
	fuse := !s.sync
	fast := s.rmw && !s.sync && !s.dedup && s.g.Weights != nil
	dist := s.dist
	var hubs [][]uint32 // per worker: the popped vertices of ssspHubArcs arcs or more, relaxed after the round's join
	if fast && s.Workers > 1 {
		hubs = make([][]uint32, s.Workers)
	}
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
		body := func(w int, items []uint32) {
			ring := &s.rings[w]
			c := &s.cnt[w]
			if fast {
				var hub *[]uint32
				if hubs != nil {
					hub = &hubs[w]
				}
				s.relaxItemsFast(items, delta*cur, ring, c, hub)
				return
			}
			push := func(v uint32, nd int64) {
				b := nd / delta
				if s.dedup && !s.claim(v, dedupKey(b, iter, s.sync)) {
					return
				}
				ring.push(b, v)
				c.c++
			}
			for _, u := range items {
				du := int64(atomic.LoadInt32(&dist[u]))
				if du < delta*cur {
					c.d++ // stale: improved into an earlier bucket since it was queued
					continue
				}
				if s.dedup && !s.sync {
					// Unqueue, then read again: an improvement racing with this pop either
					// sees the vertex unqueued and queues it, or is read here.
					atomic.StoreInt64(&s.queued[u], -1)
					du = int64(atomic.LoadInt32(&dist[u]))
				}
				c.a++
				c.b += s.relax(w, u, du, push)
			}
		}
		s.forRangeThen(in, ssspDataGrain, 1, func(w, lo, hi int) {
			for lo < hi {
				var items []uint32
				items, lo = front.piece(lo, hi)
				body(w, items)
			}
		}, func(w int) {
			ring := &s.rings[w]
			// Bucket fusion: go on with this worker's own bin of the current bucket while it
			// is small, instead of waiting for a barrier round.
			for fuse && ring.size(cur) > 0 && ring.size(cur) < fusionMaxBin && !s.stopped() {
				items := ring.take(cur)
				body(w, items)
				ring.giveBack(items)
			}
		})
		if s.stopped() {
			return s.ctxErr(ctx)
		}
		if hubs != nil {
			s.relaxHubs(hubs)
		}
		s.commit()
		next := int64(noBin)
		for w := range s.rings {
			s.rings[w].giveBack(front.seg[w])
			next = min(next, s.rings[w].advance(cur))
		}
		tot := sumCounters(s.cnt)
		s.emit(engine.Record{Iter: iter, Direction: engine.Push, Mode: engine.Data, InVertices: int64(in),
			InEdges: tot.b, OutVertices: tot.c, Duplicates: tot.d, EdgesScanned: tot.b, Time: time.Since(start),
			Note: fmt.Sprintf("bucket %d (distances %d..%d), %d vertices relaxed", cur, cur*delta, (cur+1)*delta-1, tot.a)})
		cur = next
	}
	return nil
}

// binRing is one worker's buckets: a ring of bins indexed by bucket number modulo its size,
// grown so that every pending bucket (from the current one on) has its own slot, up to
// maxRing buckets ahead. A vertex further ahead (huge weights over a small delta: a bucket
// 2^31 ahead would need a 48 GB ring) waits in far with its bucket, and moves into the ring
// when the current bucket comes within maxRing of it.
type binRing struct {
	bins   [][]uint32
	spare  []uint32
	lo     int64 // the current bucket: no pending bucket is below it
	far    []farItem
	farMin int64    // the smallest bucket in far (noBin when far is empty)
	_      [40]byte // 128 bytes: workers' rings share no cache line (lo is written as neighbours read)
}

type farItem struct {
	b int64
	v uint32
}

// maxRing is the most buckets a ring spans.
const maxRing = 1 << 16

func (r *binRing) push(b int64, v uint32) {
	if b-r.lo >= int64(len(r.bins)) {
		if b-r.lo >= maxRing {
			if len(r.far) == 0 {
				r.farMin = noBin
			}
			r.far = append(r.far, farItem{b, v})
			r.farMin = min(r.farMin, b)
			return
		}
		r.grow(b)
	}
	p := &r.bins[b&int64(len(r.bins)-1)]
	*p = append(*p, v)
}

func (r *binRing) grow(b int64) {
	size := max(16, len(r.bins))
	for b-r.lo >= int64(size) {
		size *= 2
	}
	nb := make([][]uint32, size)
	for k := r.lo; k < r.lo+int64(len(r.bins)); k++ {
		nb[k&int64(size-1)] = r.bins[k&int64(len(r.bins)-1)]
	}
	r.bins = nb
}

// ringKeep keeps the workers' rings between runs, with their grown bins.
var ringKeep keep[[]binRing]

// getRings returns workers empty rings, reusing kept ones if any.
func getRings(workers int) []binRing {
	if p := ringKeep.get(); p != nil && len(*p) == workers {
		rs := *p
		for i := range rs {
			for b := range rs[i].bins {
				rs[i].bins[b] = rs[i].bins[b][:0]
			}
			rs[i].lo = 0
			rs[i].far = rs[i].far[:0]
		}
		return rs
	}
	return make([]binRing, workers)
}

// take detaches bucket b's bin (b >= lo), leaving an empty one in its place.
func (r *binRing) take(b int64) []uint32 {
	if len(r.far) > 0 && r.farMin-b < maxRing {
		r.lo = b // b is the lowest pending bucket of every ring
		r.pullFar()
	}
	if b-r.lo >= int64(len(r.bins)) || len(r.bins) == 0 {
		return nil
	}
	i := b & int64(len(r.bins)-1)
	out := r.bins[i]
	r.bins[i] = r.spare[:0]
	r.spare = nil
	return out
}

// giveBack returns a detached bin's memory for reuse.
func (r *binRing) giveBack(s []uint32) {
	if cap(s) > cap(r.spare) {
		r.spare = s[:0]
	}
}

func (r *binRing) size(b int64) int {
	if b-r.lo >= int64(len(r.bins)) || len(r.bins) == 0 {
		return 0
	}
	return len(r.bins[b&int64(len(r.bins)-1)])
}

// advance moves the ring's floor to b and returns its lowest non-empty bucket, or noBin.
func (r *binRing) advance(b int64) int64 {
	r.lo = b
	r.pullFar()
	for k := b; k < b+int64(len(r.bins)); k++ {
		if len(r.bins[k&int64(len(r.bins)-1)]) > 0 {
			return k
		}
	}
	if len(r.far) > 0 {
		return r.farMin
	}
	return noBin
}

// pullFar moves into the ring the far vertices within maxRing of the current bucket.
func (r *binRing) pullFar() {
	if len(r.far) == 0 || r.farMin-r.lo >= maxRing {
		return
	}
	keep := r.far[:0]
	r.farMin = noBin
	for _, it := range r.far {
		if it.b-r.lo < maxRing {
			r.push(it.b, it.v)
		} else {
			keep = append(keep, it)
			r.farMin = min(r.farMin, it.b)
		}
	}
	r.far = keep
}

// relaxFast is relax for the default delta-stepping schedule (update=rmw, sync=async,
// dedup=none, weighted): no callback, improved vertices go straight into the worker's bins.
func (s *ssspState) relaxFast(u uint32, du int64, ring *binRing, pushed *int64) int64 {
	g := s.g
	lo, hi := g.Offsets[u], g.Offsets[u+1]
	nb := g.Neighbors[lo:hi]
	ws := g.Weights[lo:hi]
	ws = ws[:len(nb)]
	for i, v := range nb {
		wt := int64(ws[i])
		if wt < 0 {
			s.neg.Store(true)
			continue
		}
		if s.relaxArc(v, min(du+wt, infDist-1), ring) {
			*pushed++
		}
	}
	return hi - lo
}

// relaxArc offers distance nd to v and bins v in the worker's ring when it took it. The test
// that most arcs fail is inlined into both relaxation loops; the compare-and-swap loop of an
// arc that improves v (lowerDist) is a call.
func (s *ssspState) relaxArc(v uint32, nd int64, ring *binRing) bool {
	if nd >= int64(atomic.LoadInt32(&s.dist[v])) {
		return false
	}
	return s.lowerDist(v, nd, ring)
}

// lowerDist lowers v's distance to nd with a compare-and-swap while nd is lower, and bins v.
func (s *ssspState) lowerDist(v uint32, nd int64, ring *binRing) bool {
	old := int64(atomic.LoadInt32(&s.dist[v]))
	for nd < old {
		if atomic.CompareAndSwapInt32(&s.dist[v], int32(old), int32(nd)) {
			ring.push(nd/s.delta, v)
			return true
		}
		old = int64(atomic.LoadInt32(&s.dist[v]))
	}
	return false
}

// relaxItemsFast is deltaStep's loop over popped vertices for the relaxFast schedule: it
// skips the stale ones (below the bucket's first distance, floor) and relaxes the others,
// counting into c as deltaStep's body does. Each step prefetches what later steps will miss
// on: the distance and the offsets of the vertex 8 on, and the first arc (neighbour and
// weight) of the vertex 4 on, whose offsets were prefetched 4 steps before; the misses then
// overlap with this vertex's work, compare-and-swaps included, instead of following it.
func (s *ssspState) relaxItemsFast(items []uint32, floor int64, ring *binRing, c *counters, hub *[]uint32) {
	g := s.g
	off, nb, ws, dist := g.Offsets, g.Neighbors, g.Weights, s.dist
	last := int64(len(nb) - 1)
	for i, u := range items {
		if i+8 < len(items) {
			a := items[i+8]
			prefetch(unsafe.Pointer(&off[a]))
			prefetch(unsafe.Pointer(&dist[a]))
		}
		if i+4 < len(items) && last >= 0 {
			e := min(off[items[i+4]], last)
			prefetch(unsafe.Pointer(&nb[e]))
			prefetch(unsafe.Pointer(&ws[e]))
		}
		du := int64(atomic.LoadInt32(&dist[u]))
		if du < floor {
			c.d++ // stale: improved into an earlier bucket since it was queued
			continue
		}
		c.a++
		lo, hi := off[u], off[u+1]
		if hi-lo >= ssspHubArcs && hub != nil {
			*hub = append(*hub, u) // its arcs are shared out after the join (relaxHubs)
			continue
		}
		c.b += hi - lo
		if hi-lo > ssspShortList {
			s.relaxFast(u, du, ring, &c.c)
			continue
		}
		// A short list (a road graph's every vertex), relaxed here: relaxFast's call costs
		// more than its few arcs.
		ns, wt := nb[lo:hi], ws[lo:hi]
		wt = wt[:len(ns)]
		for i, v := range ns {
			w := int64(wt[i])
			if w < 0 {
				s.neg.Store(true)
				continue
			}
			if s.relaxArc(v, min(du+w, infDist-1), ring) {
				c.c++
			}
		}
	}
}

// ssspShortList is the longest arc list relaxItemsFast relaxes inline.
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

// relaxHubs relaxes the arcs of the hubs the workers set aside this round (hubs[w], emptied
// after), in pieces of ssspHubGrain arcs over all of them: a piece's worker bins the improved
// vertices in its own ring, and counts them in its counters as relaxItemsFast does. Each hub
// is relaxed from its distance now, which is at most the one it was popped with (an
// improvement since queued it again: it is then relaxed twice, as it would be without this).
func (s *ssspState) relaxHubs(hubs [][]uint32) {
	var all []uint32
	for w := range hubs {
		all = append(all, hubs[w]...)
		hubs[w] = hubs[w][:0]
	}
	if len(all) == 0 {
		return
	}
	g := s.g
	off, nb, ws, dist := g.Offsets, g.Neighbors, g.Weights, s.dist
	start := make([]int64, len(all)+1) // start[i]: the first of hub i's arcs in the shared range
	for i, u := range all {
		start[i+1] = start[i] + off[u+1] - off[u]
	}
	s.forRange(int(start[len(all)]), ssspHubGrain, 1, func(w, lo, hi int) {
		ring, c := &s.rings[w], &s.cnt[w]
		i, _ := slices.BinarySearch(start, int64(lo)+1)
		for i--; lo < hi; i++ {
			u := all[i]
			a, b := off[u]+int64(lo)-start[i], off[u]+min(int64(hi), start[i+1])-start[i]
			du := int64(atomic.LoadInt32(&dist[u]))
			c.b += b - a
			for k := a; k < b; k++ {
				wt := int64(ws[k])
				if wt < 0 {
					s.neg.Store(true)
					continue
				}
				if s.relaxArc(nb[k], min(du+wt, infDist-1), ring) {
					c.c++
				}
			}
			lo = int(start[i+1])
		}
	})
}
