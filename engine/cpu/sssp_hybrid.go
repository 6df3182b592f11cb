package cpu

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// SSSP by the temporal hybrid of Nasre et al. [1] (driven=hybrid): a worklist Bellman-Ford
// whose round becomes a topology sweep while the worklist exceeds threshold x V.
//
// [1] Nasre, Burtscher, Pingali. Data-driven versus topology-driven irregular computations on
// GPUs. IPDPS 2013.

// hybrid is the temporal hybrid of Nasre et al.: a worklist Bellman-Ford whose round becomes a
// topology sweep (every reached vertex relaxes) while the worklist exceeds threshold x V. A
// sweep's improved vertices form the next worklist, so either kind of round can follow.
func (s *ssspState) hybrid(ctx context.Context, src uint32) error {
	cur, next := newSegQueue(s.Workers, 0), newSegQueue(s.Workers, 0)
	cur.setOne(src)
	dist := s.dist
	thr := s.Res.Schedule.Threshold * float64(s.n)
	mode := engine.Data
	for iter := 0; cur.len() > 0; iter++ {
		if err := s.ctxErr(ctx); err != nil {
			return err
		}
		in := cur.len()
		if mode == engine.Data && float64(in) > thr {
			s.emit(switchRecord(iter, "mode", "data", "topology", engine.Quantity{Name: "worklist", Value: float64(in)}, ">",
				engine.Quantity{Name: "threshold x V", Value: thr}))
			mode = engine.Topology
		} else if mode == engine.Topology && float64(in) <= thr {
			s.emit(switchRecord(iter, "mode", "topology", "data", engine.Quantity{Name: "worklist", Value: float64(in)}, "<=",
				engine.Quantity{Name: "threshold x V", Value: thr}))
			mode = engine.Data
		}
		start := time.Now()
		next.reset()
		clear(s.cnt)
		round := int64(iter)
		mk := func(w int) func(v uint32, nd int64) {
			c := &s.cnt[w]
			return func(v uint32, nd int64) {
				if s.dedup && !s.claim(v, round) {
					return
				}
				c.c++
				next.seg[w] = append(next.seg[w], v)
			}
		}
		if mode == engine.Topology {
			s.forRange(s.n, ssspSweepGrain, 1, func(w, lo, hi int) {
				c, push := &s.cnt[w], mk(w)
				for u := lo; u < hi; u++ {
					du := int64(atomic.LoadInt32(&dist[u]))
					if du == infDist {
						continue
					}
					c.a++
					c.b += s.relax(w, uint32(u), du, push)
				}
			})
		} else {
			s.forRange(in, ssspDataGrain, 1, func(w, lo, hi int) {
				c, push := &s.cnt[w], mk(w)
				for lo < hi {
					var items []uint32
					items, lo = cur.piece(lo, hi)
					for _, u := range items {
						c.a++
						c.b += s.relax(w, u, int64(atomic.LoadInt32(&dist[u])), push)
					}
				}
			})
		}
		if s.stopped() {
			return s.ctxErr(ctx)
		}
		next.seal()
		s.commit()
		tot := sumCounters(s.cnt)
		s.emit(engine.Record{Iter: iter, Direction: engine.Push, Mode: mode, InVertices: int64(in),
			InEdges: tot.b, OutVertices: tot.c, EdgesScanned: tot.b, Time: time.Since(start)})
		cur, next = next, cur
	}
	return nil
}
