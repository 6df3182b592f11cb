package cpu

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// SSSP by near-far (method=nearfar; Davidson et al. [1]): a worklist in two piles. The near
// pile holds the vertices closer than a threshold and is relaxed round after round until it
// is empty; then the threshold grows by delta and the far pile is split by it again.
//
// [1] Davidson, Baxter, Garland, Owens. Work-efficient parallel GPU methods for single-source
// shortest paths. IPDPS 2014.

// nearFar is the two-pile worklist: the near pile holds vertices below the threshold.
func (s *ssspState) nearFar(ctx context.Context, src uint32) error {
	delta := s.delta
	near, next := newSegQueue(s.Workers, 0), newSegQueue(s.Workers, 0)
	far := newSegQueue(s.Workers, 0)
	near.setOne(src)
	thr := delta
	dist := s.dist
	round := int64(0)
	for iter := 0; ; iter++ {
		if err := s.ctxErr(ctx); err != nil {
			return err
		}
		start := time.Now()
		in := near.len()
		if in == 0 {
			// Split the far pile by a raised threshold.
			clear(s.cnt)
			total := far.len()
			if total == 0 {
				return nil
			}
			minFar := int64(noBin)
			for _, seg := range far.seg {
				for _, v := range seg {
					minFar = min(minFar, int64(dist[v]))
				}
			}
			oldThr := thr
			thr = max(thr+delta, (minFar/delta+1)*delta)
			nextFar := newSegQueue(s.Workers, 0)
			near.reset()
			s.parallel(len(far.seg), func(w int) {
				for _, v := range far.seg[w] {
					d := int64(atomic.LoadInt32(&dist[v]))
					switch {
					case d < oldThr:
						s.cnt[w].d++ // settled below the old threshold: stale
					case d < thr:
						near.seg[w] = append(near.seg[w], v)
					default:
						nextFar.seg[w] = append(nextFar.seg[w], v)
					}
				}
			})
			near.seal()
			far = nextFar
			far.seal()
			s.emit(engine.Record{Iter: iter, Kind: engine.PhaseRecord, Phase: "split far pile",
				Note: fmt.Sprintf("threshold %d: %d near, %d far", thr, near.len(), far.len())})
			continue
		}
		round++
		next.reset()
		clear(s.cnt)
		s.forRange(in, ssspDataGrain, 1, func(w, lo, hi int) {
			c := &s.cnt[w]
			nseg, fseg := next.seg[w], far.seg[w]
			push := func(v uint32, nd int64) {
				near := nd < thr
				key := 2 * round // near and far piles dedup apart
				if !near {
					key++
				}
				if s.dedup && !s.claim(v, key) {
					return
				}
				c.c++
				if near {
					nseg = append(nseg, v)
				} else {
					fseg = append(fseg, v)
				}
			}
			for lo < hi {
				var items []uint32
				items, lo = near.piece(lo, hi)
				for _, u := range items {
					c.a++
					c.b += s.relax(w, u, int64(atomic.LoadInt32(&dist[u])), push)
				}
			}
			next.seg[w], far.seg[w] = nseg, fseg
		})
		if s.stopped() {
			return s.ctxErr(ctx)
		}
		next.seal()
		far.seal()
		s.commit()
		tot := sumCounters(s.cnt)
		s.emit(engine.Record{Iter: iter, Direction: engine.Push, Mode: engine.Data, InVertices: int64(in),
			InEdges: tot.b, OutVertices: tot.c, EdgesScanned: tot.b, Time: time.Since(start),
			Note: fmt.Sprintf("near pile below %d; far pile %d", thr, far.len())})
		near, next = next, near
	}
}
