package cpu

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// Label propagation for CC (method=labelprop): every vertex starts with its own id as label
// and takes the smallest label around it until no label changes. On a directed graph labels
// cross arcs both ways (out-arcs and in-arcs), which gives weakly connected components.
// See cc.go for the schedule space.

// atomicMinUint32 lowers *p to v if v is smaller and reports whether it did.
func atomicMinUint32(p *uint32, v uint32) bool {
	for {
		old := atomic.LoadUint32(p)
		if v >= old {
			return false
		}
		if atomic.CompareAndSwapUint32(p, old, v) {
			return true
		}
	}
}

// neighborLists returns u's out-neighbours and, on a directed graph, its in-neighbours.
func (c *ccState) neighborLists(u uint32) (out, in []uint32) {
	out = c.g.Neighbors[c.g.Offsets[u]:c.g.Offsets[u+1]]
	if c.t != nil {
		in = c.t.Neighbors[c.t.Offsets[u]:c.t.Offsets[u+1]]
	}
	return out, in
}

func (c *ccState) labelProp(ctx context.Context) error {
	s := &c.Res.Schedule
	if s.Direction == engine.DirAuto {
		s.Direction = engine.Push
	}
	if s.Driven == engine.DrivenAuto {
		s.Driven = engine.Data
		if s.Update == engine.RW && s.Direction == engine.Push {
			s.Driven = engine.Topology // the push form that retries a lost write
		}
	}
	if s.Sync == engine.SyncAuto {
		s.Sync = engine.Async
	}
	if s.Update == engine.UpdateAuto {
		s.Update = engine.RMW
	}
	pull := s.Direction == engine.Pull
	if pull && s.Driven == engine.Hybrid {
		return fmt.Errorf("cpu: cc labelprop driven=hybrid alternates push sweeps and push worklist rounds: use direction=push: %w", engine.ErrUnsupported)
	}
	if !pull && s.Update == engine.RW && s.Driven != engine.Topology {
		return fmt.Errorf("cpu: cc labelprop update=rw can lose a lower label to a racing higher one, which only a topology-driven sweep retries: use driven=topology: %w", engine.ErrUnsupported)
	}
	if s.Driven != engine.Topology {
		want := engine.Queue
		if pull {
			want = engine.Bitmap
		}
		if s.Frontier == engine.FrontierAuto {
			s.Frontier = want
		}
		if s.Frontier != want {
			return fmt.Errorf("cpu: cc labelprop direction=%s keeps its active set as frontier=%s: %w", s.Direction, want, engine.ErrUnsupported)
		}
		if !pull && s.Dedup == engine.DedupAuto {
			s.Dedup = engine.DedupAtomic
		}
		if s.Dedup == engine.DedupCull {
			return fmt.Errorf("cpu: cc labelprop dedup=cull: use dedup=none or atomic: %w", engine.ErrUnsupported)
		}
	}
	if s.Driven == engine.Hybrid && s.Threshold == 0 {
		s.Threshold = engine.DefaultThreshold
	}
	lp := &lpState{ccState: c, rmw: s.Update == engine.RMW, sync: s.Sync == engine.SyncDB, dedup: s.Dedup == engine.DedupAtomic}
	lp.wcomp = c.comp
	if lp.sync {
		lp.wcomp = append([]uint32(nil), c.comp...)
	}
	if pull && s.Driven == engine.Data {
		return lp.pullData(ctx)
	}
	return lp.rounds(ctx, pull)
}

type lpState struct {
	*ccState
	wcomp              []uint32 // written labels: comp itself, or the second buffer under sync=sync
	rmw, sync, dedup   bool
	stamp              []int32 // dedup: the round a vertex was last queued in
	round              int32
	cur, next          *segQueue
	active, nextActive bitmap
}

// lower sets v's written label to l if that is lower (atomic min, or a plain write under
// update=rw) and reports whether it did.
func (lp *lpState) lower(v, l uint32) bool {
	if lp.rmw {
		return atomicMinUint32(&lp.wcomp[v], l)
	}
	if l < atomic.LoadUint32(&lp.wcomp[v]) {
		atomic.StoreUint32(&lp.wcomp[v], l)
		return true
	}
	return false
}

// commit copies the written labels into the read ones under sync=sync.
func (lp *lpState) commit() {
	if lp.sync {
		lp.forRange(lp.n, 1<<14, 1, func(_, lo, hi int) { copy(lp.comp[lo:hi], lp.wcomp[lo:hi]) })
	}
}

// pushFrom lowers u's neighbours to u's label; improved neighbours go to buf when queue.
func (lp *lpState) pushFrom(u uint32, buf []uint32, queue bool) ([]uint32, int64, int64) {
	l := atomic.LoadUint32(&lp.comp[u])
	var scanned, changed int64
	out, in := lp.neighborLists(u)
	for _, list := range [2][]uint32{out, in} {
		scanned += int64(len(list))
		for _, v := range list {
			if lp.lower(v, l) {
				changed++
				if queue && (!lp.dedup || atomic.SwapInt32(&lp.stamp[v], lp.round) != lp.round) {
					buf = append(buf, v)
				}
			}
		}
	}
	return buf, scanned, changed
}

// pullInto gives u the lowest label among itself and its neighbours; it reports whether u's
// label changed.
func (lp *lpState) pullInto(u uint32) (bool, int64) {
	m := atomic.LoadUint32(&lp.comp[u])
	out, in := lp.neighborLists(u)
	for _, list := range [2][]uint32{out, in} {
		for _, v := range list {
			m = min(m, atomic.LoadUint32(&lp.comp[v]))
		}
	}
	scanned := int64(len(out) + len(in))
	if m < atomic.LoadUint32(&lp.wcomp[u]) {
		atomic.StoreUint32(&lp.wcomp[u], m)
		return true, scanned
	}
	return false, scanned
}

// rounds runs push or pull label propagation, topology-driven (every vertex every round),
// data-driven (push: a worklist of the vertices whose label changed) or the temporal hybrid.
func (lp *lpState) rounds(ctx context.Context, pull bool) error {
	s := lp.Res.Schedule
	lp.cur, lp.next = newSegQueue(lp.Workers, 0), newSegQueue(lp.Workers, 0)
	if lp.dedup {
		lp.stamp = make([]int32, lp.n)
	}
	mode := engine.Topology // the first data-driven round has every vertex active: a sweep
	thr := s.Threshold * float64(lp.n)
	dir := engine.Push
	if pull {
		dir = engine.Pull
	}
	inSize := int64(lp.n)
	for iter := 0; ; iter++ {
		if err := lp.ctxErr(ctx); err != nil {
			return err
		}
		lp.round = int32(iter + 1)
		switch s.Driven {
		case engine.Data:
			if iter > 0 {
				mode = engine.Data
			}
		case engine.Hybrid:
			if iter > 0 && mode == engine.Topology && float64(inSize) <= thr {
				lp.emit(switchRecord(iter, "mode", "topology", "data", engine.Quantity{Name: "worklist", Value: float64(inSize)}, "<=",
					engine.Quantity{Name: "threshold x V", Value: thr}))
				mode = engine.Data
			} else if mode == engine.Data && float64(inSize) > thr {
				lp.emit(switchRecord(iter, "mode", "data", "topology", engine.Quantity{Name: "worklist", Value: float64(inSize)}, ">",
					engine.Quantity{Name: "threshold x V", Value: thr}))
				mode = engine.Topology
			}
		}
		queue := s.Driven != engine.Topology
		start := time.Now()
		lp.next.reset()
		clear(lp.cnt)
		body := func(w int, u uint32) {
			cn := &lp.cnt[w]
			if pull {
				ch, sc := lp.pullInto(u)
				cn.b += sc
				if ch {
					cn.c++
				}
				return
			}
			var sc, ch int64
			lp.next.seg[w], sc, ch = lp.pushFrom(u, lp.next.seg[w], queue)
			cn.b += sc
			cn.c += ch
		}
		in := int64(lp.n)
		if mode == engine.Topology {
			lp.forRange(lp.n, 1024, 1, func(w, lo, hi int) {
				for u := lo; u < hi; u++ {
					body(w, uint32(u))
				}
			})
		} else {
			in = int64(lp.cur.len())
			lp.forRange(lp.cur.len(), 64, 1, func(w, lo, hi int) {
				for lo < hi {
					var items []uint32
					items, lo = lp.cur.piece(lo, hi)
					for _, u := range items {
						body(w, u)
					}
				}
			})
		}
		if lp.stopped() {
			return lp.ctxErr(ctx)
		}
		lp.commit()
		tot := sumCounters(lp.cnt)
		outV := int64(lp.next.seal())
		if !queue {
			outV = tot.c
		}
		lp.emit(engine.Record{Iter: iter, Direction: dir, Mode: mode, InVertices: in, InEdges: tot.b,
			OutVertices: outV, EdgesScanned: tot.b, Time: time.Since(start), Note: fmt.Sprintf("%d labels lowered", tot.c)})
		if tot.c == 0 {
			return nil
		}
		lp.cur, lp.next = lp.next, lp.cur
		inSize = outV
	}
}

// pullData is data-driven pull: only vertices next to a changed label pull. A vertex whose
// label changes marks its neighbours active for the next round in a bitmap.
func (lp *lpState) pullData(ctx context.Context) error {
	lp.active, lp.nextActive = newBitmap(lp.n), newBitmap(lp.n)
	for i := range lp.active {
		lp.active[i] = ^uint64(0)
	}
	inSize := int64(lp.n)
	for iter := 0; inSize > 0; iter++ {
		if err := lp.ctxErr(ctx); err != nil {
			return err
		}
		start := time.Now()
		clear(lp.cnt)
		act, nxt := lp.active, lp.nextActive
		lp.forRange(lp.n, 4096, 64, func(w, lo, hi int) {
			cn := &lp.cnt[w]
			for wi := lo >> 6; wi < (hi+63)>>6; wi++ {
				word := act[wi]
				act[wi] = 0
				for word != 0 {
					u := uint32(wi<<6 + trailingZeros(word))
					word &= word - 1
					if int(u) >= lp.n {
						break
					}
					ch, sc := lp.pullInto(u)
					cn.b += sc
					if ch {
						cn.c++
						out, in := lp.neighborLists(u)
						for _, list := range [2][]uint32{out, in} {
							for _, v := range list {
								if !nxt.load(v) && !nxt.testAndSet(v) {
									cn.d++
								}
							}
						}
					}
				}
			}
		})
		if lp.stopped() {
			return lp.ctxErr(ctx)
		}
		lp.commit()
		tot := sumCounters(lp.cnt)
		lp.emit(engine.Record{Iter: iter, Direction: engine.Pull, Mode: engine.Data, InVertices: inSize, InEdges: tot.b,
			OutVertices: tot.d, EdgesScanned: tot.b, Time: time.Since(start), Note: fmt.Sprintf("%d labels lowered", tot.c)})
		lp.active, lp.nextActive = nxt, act
		inSize = tot.d
	}
	return nil
}
