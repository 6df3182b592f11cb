package cpu

import (
	"context"
	"slices"
	"sync/atomic"
	"time"
)

// Delta-stepping under sync=async (the default) in one parallel region, as GAPBS's sssp.cc
// runs it in one `omp parallel`: the workers stay in the region from the first bucket to the
// last, and a phase ends at a barrier whose last arrival plans the next phase. There is no
// serial hand-over through the run's caller between rounds: on road NE at 16 workers a round
// is tens of microseconds, and the caller's join, scan of every worker's ring and restart of
// the team were a large part of it.
//
// A round, for worker w:
//
//  1. Offer: the lowest non-empty bucket of its ring, with that bin detached (not yet taken:
//     the bucket is not known to be the next one), or a bucket in far.
//  2. Barrier. The last arrival takes the lowest offer as the next bucket; the frontier is the
//     concatenation of the offered bins of that bucket (segQueue: no copy), and a worker whose
//     offer was a later bucket puts its bin back. A bucket that some worker holds in far first
//     gets a refill phase (pull far into the rings, offer again).
//  3. The frontier in pieces (split and chunk knobs), then bucket fusion: the worker goes on
//     with its own bin of the bucket while that stays under fusionMaxBin, as in deltaStep.
//  4. If any worker set hubs aside (relaxItemsFast), a hub phase after a barrier shares their
//     arcs among all (relaxHubPiece), as relaxHubs did after the join.
//
// The trace keeps one record per round (a bucket phase and its hub phase), built by the last
// arrival from the workers' running counters and emitted by worker 0 (the run's goroutine)
// after the next barrier, off the round's critical path.

// The phases of deltaRegion.
const (
	phaseOffer  = iota // the first phase: offer only
	phaseBucket        // relax the frontier of bucket cur, then fuse
	phaseHubs          // relax the arcs of the hubs set aside in the bucket phase
	phaseRefill        // pull far vertices of bucket cur into the rings, offer again
	phaseDone
)

// deltaOffer is worker w's offer at a barrier, on a line of its own.
type deltaOffer struct {
	b    int64    // its lowest pending bucket, or noBin
	n    int      // the detached bin's length; -1 when bucket b is in far (not detached)
	hubs int      // hubs set aside this phase
	bin  []uint32 // the detached bin
	_    [16]byte
}

// deltaRegion is the shared state of one run's region: written by a barrier's last arrival
// (the plan) and read by all after it, or written by worker w in its own slot.
type deltaRegion struct {
	s      *ssspState
	bar    *barrier
	phase  int
	cur    int64
	front  *segQueue // the frontier: seg[w] is worker w's offered bin of bucket cur, or empty
	offers []deltaOffer
	next   atomic.Int64 // the frontier's (or the hubs') next piece under split=dynamic
	_      [56]byte

	hubs     [][]uint32 // per worker: its hubs set aside this phase
	hubAll   []uint32   // the hub phase's hubs, and the first of each one's arcs in hubStart
	hubStart []int64

	// The trace: the round being run, and the records planned and not yet emitted.
	iter       int
	roundStart time.Time
	roundIn    int64
	done       counters // the workers' counters at the end of the last round
	recs       []pendingRecord
}

// pendingRecord is a finished round's figures; worker 0 turns it into a trace record.
type pendingRecord struct {
	iter int
	cur  int64
	in   int64
	tot  counters
	d    time.Duration
}

// deltaRegion runs delta-stepping with fusion in one parallel region (see above).
func (s *ssspState) deltaRegion(ctx context.Context) error {
	W := s.Workers
	p := &deltaRegion{s: s, front: newSegQueue(W, 0), offers: make([]deltaOffer, W)}
	if s.rmw && !s.dedup && s.g.Weights != nil && W > 1 {
		p.hubs = make([][]uint32, W)
	}
	clear(s.cnt)
	p.roundStart = time.Now()
	var t *team
	if W > 1 {
		t = s.teamOf(W) // its spin policy is the barrier's
	}
	p.bar = newBarrier(W, t)
	s.parallel(W, p.work)
	p.emit()
	return s.ctxErr(ctx)
}

// work is worker w's part of the region.
func (p *deltaRegion) work(w int) {
	s := p.s
	ring, c := &s.rings[w], &s.cnt[w]
	fast := s.rmw && !s.dedup && s.g.Weights != nil
	var hub *[]uint32
	if p.hubs != nil {
		hub = &p.hubs[w]
	}
	push := s.binPush(w, 0)
	relax := func(items []uint32, floor int64) {
		if fast {
			s.relaxItemsFast(items, floor, ring, c, hub)
		} else {
			s.relaxItems(w, items, floor, push)
		}
	}
	chunk := s.chunkFor(ssspDataGrain)
	hubChunk := s.chunkFor(ssspHubGrain)
	var front []uint32 // this worker's bin in the frontier being relaxed, kept until the next barrier
	for {
		// 1. Offer.
		o := &p.offers[w]
		o.b, o.n, o.hubs = ring.advance(p.cur), 0, 0
		var offered []uint32
		if o.b != noBin {
			if ring.inRing(o.b) {
				offered = ring.detach(o.b)
				o.n = len(offered)
			} else {
				o.n = -1
			}
		}
		o.bin = offered
		if hub != nil {
			o.hubs = len(*hub)
		}
		// 2. Barrier and plan.
		p.bar.wait(p.plan)
		if front != nil {
			ring.giveBack(front) // no one reads the last frontier any more
			front = nil
		}
		if offered != nil && (p.phase != phaseBucket || o.b != p.cur) {
			ring.putBack(o.b, offered)
			offered = nil
		}
		if w == 0 {
			p.emit()
		}
		switch p.phase {
		case phaseDone:
			return
		case phaseRefill:
			continue // the offer's advance(cur) pulls far into the ring
		case phaseHubs:
			s.pieces(w, s.Workers, int(p.hubStart[len(p.hubAll)]), hubChunk, 1, &p.next, func(lo, hi int) {
				s.relaxHubPiece(p.hubAll, p.hubStart, lo, hi, ring, c)
			})
			continue
		}
		// 3. The frontier, then fusion.
		front = offered
		cur := p.cur
		floor := cur * s.delta
		s.pieces(w, s.Workers, p.front.len(), chunk, 1, &p.next, func(lo, hi int) {
			for lo < hi {
				var items []uint32
				items, lo = p.front.piece(lo, hi)
				relax(items, floor)
			}
		})
		for ring.size(cur) > 0 && ring.size(cur) < fusionMaxBin && !s.stopped() {
			items := ring.take(cur)
			relax(items, floor)
			ring.giveBack(items)
		}
	}
}

// plan runs at a barrier, on its last arrival: it closes the round's record when the round
// is over and chooses the next phase from the workers' offers.
func (p *deltaRegion) plan() {
	s := p.s
	if s.stopped() {
		p.phase = phaseDone
		return
	}
	p.next.Store(0)
	if p.phase == phaseBucket && p.hubs != nil {
		n := 0
		for w := range p.offers {
			n += p.offers[w].hubs
		}
		if n > 0 {
			p.planHubs()
			return
		}
	}
	if p.phase == phaseBucket || p.phase == phaseHubs {
		tot := sumCounters(s.cnt)
		now := time.Now()
		p.recs = append(p.recs, pendingRecord{iter: p.iter, cur: p.cur, in: p.roundIn,
			tot: counters{a: tot.a - p.done.a, b: tot.b - p.done.b, c: tot.c - p.done.c, d: tot.d - p.done.d},
			d:   now.Sub(p.roundStart)})
		p.done, p.roundStart = tot, now
		p.iter++
	}
	next, far := int64(noBin), false
	for w := range p.offers {
		if o := &p.offers[w]; o.b < next {
			next, far = o.b, o.n < 0
		} else if o.b == next && o.n < 0 {
			far = true
		}
	}
	p.cur = next
	switch {
	case next == noBin:
		p.phase = phaseDone
	case far:
		p.phase = phaseRefill
	default:
		p.phase = phaseBucket
		q := p.front
		for w := range p.offers {
			q.seg[w] = nil
			if o := &p.offers[w]; o.b == next {
				q.seg[w] = o.bin
			}
			q.start[w+1] = q.start[w] + len(q.seg[w])
		}
		p.roundIn = int64(q.len())
	}
}

// planHubs gathers the hubs the workers set aside into the hub phase's list.
func (p *deltaRegion) planHubs() {
	off := p.s.g.Offsets
	p.hubAll = p.hubAll[:0]
	for w := range p.hubs {
		p.hubAll = append(p.hubAll, p.hubs[w]...)
		p.hubs[w] = p.hubs[w][:0]
	}
	p.hubStart = append(p.hubStart[:0], 0)
	for i, u := range p.hubAll {
		p.hubStart = append(p.hubStart, p.hubStart[i]+off[u+1]-off[u])
	}
	p.phase = phaseHubs
}

// emit hands the finished rounds' records to the run's trace. Worker 0 calls it after a
// barrier, and the caller after the region.
func (p *deltaRegion) emit() {
	for _, r := range p.recs {
		p.s.emit(bucketRecord(r.iter, r.cur, p.s.delta, r.in, r.tot, r.d))
	}
	p.recs = p.recs[:0]
}

// relaxHubPiece relaxes arcs [lo, hi) of the hubs all, whose arcs are numbered one after the
// other (start[i]: the first of hub i's), binning the improved vertices in ring and counting
// into c as relaxItemsFast does. Each hub is relaxed from its distance now, which is at most
// the one it was popped with (an improvement since queued it again: it is then relaxed twice,
// as it would be without the hub phase).
func (s *ssspState) relaxHubPiece(all []uint32, start []int64, lo, hi int, ring *binRing, c *counters) {
	g := s.g
	off, dist := g.Offsets, s.dist
	var k relaxKernel
	if relaxAsm {
		k = s.newKernel(ring, 0, false)
	}
	i, _ := slices.BinarySearch(start, int64(lo)+1)
	for i--; lo < hi; i++ {
		u := all[i]
		a, b := off[u]+int64(lo)-start[i], off[u]+min(int64(hi), start[i+1])-start[i]
		du := int64(atomic.LoadInt32(&dist[u]))
		c.b += b - a
		if relaxAsm {
			s.relaxArcsKernel(a, b, du, ring, &k)
		} else {
			c.c += s.relaxArcs(a, b, du, ring)
		}
		lo = int(start[i+1])
	}
	c.c += k.pushed
	if k.neg != 0 {
		s.neg.Store(true)
	}
}
