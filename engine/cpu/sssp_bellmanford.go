package cpu

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// SSSP by topology-driven Bellman-Ford (driven=topology): every vertex every sweep, until a
// sweep lowers no distance. Push relaxes each reached vertex's out-arcs; pull takes, for
// each vertex, the minimum over its in-arcs, so only the vertex's owner writes it and
// update=rw is safe (Nasre et al. [1]).
//
// [1] Nasre, Burtscher, Pingali. Data-driven versus topology-driven irregular computations on
// GPUs. IPDPS 2013.

// bellmanFord sweeps every vertex until a sweep changes nothing. Push: every reached vertex
// relaxes its out-arcs. Pull: every vertex takes the minimum over its in-arcs, and only its
// owner writes it.
func (s *ssspState) bellmanFord(ctx context.Context, pull bool) error {
	g := s.g
	t := g
	if pull {
		t = g.Transpose()
	}
	dist, wd := s.dist, s.wdist
	for iter := 0; ; iter++ {
		if err := s.ctxErr(ctx); err != nil {
			return err
		}
		start := time.Now()
		clear(s.cnt)
		var dir engine.Direction
		if pull {
			dir = engine.Pull
			s.forRange(s.n, ssspSweepGrain, 1, func(w, lo, hi int) {
				c := &s.cnt[w]
				for v := lo; v < hi; v++ {
					a, b := t.Offsets[v], t.Offsets[v+1]
					best := int64(atomic.LoadInt32(&wd[v]))
					c.b += b - a
					for i := a; i < b; i++ {
						du := int64(atomic.LoadInt32(&dist[t.Neighbors[i]]))
						if du == infDist {
							continue
						}
						w := int64(1)
						if t.Weights != nil {
							if w = int64(t.Weights[i]); w < 0 {
								s.neg.Store(true)
								continue
							}
						}
						best = min(best, du+w, infDist-1) // saturated: see engine.MaxDist
					}
					if best < int64(atomic.LoadInt32(&wd[v])) {
						atomic.StoreInt32(&wd[v], int32(best))
						c.c++
					}
				}
			})
		} else {
			dir = engine.Push
			s.forRange(s.n, ssspSweepGrain, 1, func(w, lo, hi int) {
				c := &s.cnt[w]
				push := func(uint32, int64) { c.c++ }
				for u := lo; u < hi; u++ {
					du := int64(atomic.LoadInt32(&dist[u]))
					if du == infDist {
						continue
					}
					c.a++
					c.b += s.relax(w, uint32(u), du, push)
				}
			})
		}
		if s.stopped() {
			return s.ctxErr(ctx)
		}
		if s.sync {
			s.change.reset() // the sweep copies everything instead
			s.forRange(s.n, 1<<14, 1, func(_, lo, hi int) { copy(dist[lo:hi], wd[lo:hi]) })
		}
		tot := sumCounters(s.cnt)
		s.emit(engine.Record{Iter: iter, Direction: dir, Mode: engine.Topology, InVertices: int64(s.n),
			InEdges: g.NumArcs(), OutVertices: tot.c, EdgesScanned: tot.b, Time: time.Since(start),
			Note: fmt.Sprintf("%d distances lowered", tot.c)})
		if tot.c == 0 || s.neg.Load() {
			return nil
		}
	}
}
