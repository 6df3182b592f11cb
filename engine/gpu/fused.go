//go:build cuda

package gpu

import (
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gworkbench/gworkbench/engine"
)

// fuseChunk is how many iterations one cooperative launch may run; a longer loop relaunches.
const fuseChunk = 1024

// fusedState is what a fused loop carries between launches.
type fusedState struct {
	prefix     string
	cur, next  *frontier // input of the next iteration, and the other queue
	far, rest  *frontier // near-far piles (SSSP), or nil
	bound      int64
	delta      int64
	val, valIn buffer
	iter       int
}

// coopGrid is the cooperative grid for kernel name: every block resident at once.
func (r *run) coopGrid(name string) (cu.Function, int, error) {
	fn, err := r.dev.fn(name)
	if err != nil {
		return fn, 0, err
	}
	per, err := fn.MaxActiveBlocksPerMultiProcessor(block, 0)
	if err != nil {
		return fn, 0, check("cuOccupancyMaxActiveBlocksPerMultiprocessor", err)
	}
	if per < 1 {
		per = 1
	}
	return fn, per * r.dev.sms, nil
}

// fusedLoop runs a traversal's whole loop in cooperative launches of kernel
// <prefix>_<lb> (kernels/common.cuh fused_loop) and turns the per-iteration counters it wrote
// into trace records. An overflowing queue or far pile ends a launch early; the loop grows it,
// folds the spilled pushes in and launches again from the next iteration.
func (r *run) fusedLoop(st *fusedState) error {
	name := st.prefix + "_" + lbSuffix[r.s.LB]
	fn, grid, err := r.coopGrid(name)
	if err != nil {
		return err
	}
	n := int64(r.n)
	// Queues of at least V entries: a deduplicated step never overflows them.
	for _, f := range []*frontier{st.cur, st.next} {
		if r.qcap(f.name) < n+1024 {
			if _, err := r.buf(f.name, (n+1024)*4, true); err != nil {
				return err
			}
		}
	}
	lens, err := r.buf("lens", (fuseChunk+2)*4, false)
	if err != nil {
		return err
	}
	trace, err := r.buf("trace", (fuseChunk+1)*nCounters*8, false)
	if err != nil {
		return err
	}
	sp, err := r.buf("spill", n, false)
	if err != nil {
		return err
	}
	stamp, err := r.buf("stamp", n*4, false)
	if err != nil {
		return err
	}
	hlens := make([]uint32, fuseChunk+2)
	htrace := make([]uint64, (fuseChunk+1)*nCounters)
	for {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		if err := memset8(lens, 0, lens.bytes); err != nil {
			return err
		}
		if err := memset8(trace, 0, trace.bytes); err != nil {
			return err
		}
		if err := r.poke(lens, 0, []uint32{uint32(st.cur.count)}); err != nil {
			return err
		}
		qa, _ := r.storage(st.cur)
		qb, _ := r.storage(st.next)
		a := r.args(&r.dg.out)
		a.val, a.valIn, a.update = st.val.addr(), st.valIn.addr(), updateCode(r.s.Update)
		a.inKind, a.inQ, a.outQ, a.outKind = kQueue, qa.addr(), qb.addr(), kQueue
		a.outCap = min(r.qcap(st.cur.name), r.qcap(st.next.name))
		a.spill, a.stamp = sp.addr(), stamp.addr()
		a.tag = int64(r.eng.nextTags(fuseChunk + 2))
		switch r.s.Dedup {
		case engine.DedupAtomic:
			a.dedup = dAtomic
		case engine.DedupCull:
			a.dedup = dCullStamp // racy per-iteration stamps: culling that needs no clearing between steps
		}
		switch r.s.PushAgg {
		case engine.AggWarp:
			a.agg = aggWarp
		case engine.AggBlock:
			a.agg = aggBlock
		}
		a.iters, a.lens, a.trace, a.iter = fuseChunk, lens.addr(), trace.addr(), int64(st.iter)
		if st.far != nil {
			fa, _ := r.storage(st.far)
			fb, _ := r.storage(st.rest)
			a.farQ, a.farLen, a.farCap = fa.addr(), r.lenAddr(st.far.slot), min(r.qcap(st.far.name), r.qcap(st.rest.name))
			a.far2, a.farLen2 = fb.addr(), r.lenAddr(st.rest.slot)
			a.bound, a.delta = st.bound, st.delta
		} else {
			a.bound = 1 << 62
		}
		ev0, err := r.dev.event(r.nev)
		if err != nil {
			return err
		}
		ev1, err := r.dev.event(r.nev + 1)
		if err != nil {
			return err
		}
		if err := ev0.Record(cu.Stream{}); err != nil {
			return check("cuEventRecord", err)
		}
		if err := launch(fn, grid, block, unsafe.Pointer(&a), true); err != nil {
			return err
		}
		if err := ev1.Record(cu.Stream{}); err != nil {
			return check("cuEventRecord", err)
		}
		if err := check("cuMemcpyDtoH (fused lengths)", cu.MemcpyDtoH(unsafe.Pointer(&hlens[0]), lens.ptr, lens.bytes)); err != nil {
			return err
		}
		if err := check("cuMemcpyDtoH (fused trace)", cu.MemcpyDtoH(unsafe.Pointer(&htrace[0]), trace.ptr, trace.bytes)); err != nil {
			return err
		}
		if err := r.readCounters(); err != nil {
			return err
		}
		ms, err := ev0.Elapsed(ev1)
		if err != nil {
			return check("cuEventElapsedTime", err)
		}
		r.nev, r.pending = 0, r.pending[:0]
		// 1. One record per completed iteration.
		tr := func(k, c int) uint64 { return htrace[k*nCounters+c] }
		prev := tr(fuseChunk, cStop)
		inEdges := st.cur.edges
		done := 0
		for k := 0; k < fuseChunk && tr(k, cTime) != 0; k++ {
			t := tr(k, cTime)
			rec := engine.Record{Kind: engine.IterationRecord, Iter: r.iter, Direction: engine.Push, Mode: engine.Data,
				InVertices: int64(tr(k, cCount)), InEdges: inEdges, OutVertices: int64(hlens[k+1]), EdgesScanned: int64(tr(k, cEdges)),
				Duplicates: int64(tr(k, cCulled)), Time: time.Duration(t - prev)}
			if k == 0 {
				rec.Kernels = []engine.Kernel{{Name: name, Grid: grid, Block: block, Time: time.Duration(ms * 1e6)}}
				rec.Note = "fused: one cooperative launch"
			}
			if st.far != nil {
				rec.Note += " bound " + itoa(int64(tr(k, cBound)))
			}
			prev = t
			inEdges = int64(tr(k, cScout))
			r.iter++
			r.res.Trace.Records = append(r.res.Trace.Records, rec)
			r.req.Emit(rec)
			done = k + 1
		}
		st.iter += done
		// 2. Where the next input is, and whether the loop is over.
		over := done > 0 && tr(done-1, cOverflow) != 0
		last := done // the input of iteration `done` is queue (done even ? cur : next)
		if last%2 == 1 {
			st.cur, st.next = st.next, st.cur
		}
		st.cur.count, st.cur.edges = int64(hlens[last]), inEdges
		if st.far != nil {
			st.bound = int64(tr(fuseChunk, cBound))
			if tr(fuseChunk, cFarSel) == 1 {
				st.far, st.rest = st.rest, st.far
			}
			st.far.count = r.hlen(st.far.slot)
		}
		if over {
			// The queue holding iteration `done`'s input overflowed: fold the spill into it.
			if err := r.setLen(st.cur.slot, uint32(st.cur.count)); err != nil {
				return err
			}
			if err := r.readCounters(); err != nil {
				return err
			}
			r.hctl[cOverflow] = 1
			if err := r.grow(st.cur, st.far); err != nil {
				return err
			}
			if err := r.readCounters(); err != nil {
				return err
			}
			st.cur.count = r.hlen(st.cur.slot)
			if st.far != nil {
				st.far.count = r.hlen(st.far.slot)
			}
			// keep both queues, and both far piles, the same size
			if c := r.qcap(st.cur.name); r.qcap(st.next.name) < c {
				if _, err := r.buf(st.next.name, c*4, false); err != nil {
					return err
				}
			}
			if st.far != nil {
				if c := r.qcap(st.far.name); r.qcap(st.rest.name) < c {
					if _, err := r.buf(st.rest.name, c*4, false); err != nil {
						return err
					}
				}
			}
			continue
		}
		if st.cur.count == 0 && (st.far == nil || st.far.count == 0) {
			return nil
		}
		if done == 0 && st.cur.count == 0 {
			return nil // a near-far split found nothing left above the bound
		}
	}
}

func (e *Engine) nextTags(k int) uint32 {
	if e.epoch > 1<<29 {
		e.epoch = 0
	}
	t := e.epoch + 1
	e.epoch += uint32(k)
	return t
}

func itoa(v int64) string {
	if v == 0 {
		return "0"
	}
	neg := v < 0
	if neg {
		v = -v
	}
	var b [20]byte
	i := len(b)
	for v > 0 {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
