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

// fuse=block (kernels/block_loop.cuh): one block of blockThreads threads runs the loop while
// the frontier has at most blockMax vertices (the shared-memory worklist's size); the grid
// takes over above it and hands the loop back when the frontier falls to blockMax/4.
const blockThreads = 1024

var blockMax int64 = 4096

// fusedState is what a fused loop carries between launches.
type fusedState struct {
	prefix     string
	block      string    // fuse=block: the one-block kernel (kernels/block_loop.cuh), else ""
	cur, next  *frontier // input of the next iteration, and the other queue
	far, rest  *frontier // near-far piles (SSSP), or nil
	bound      int64
	delta      int64
	val, valIn buffer
	iter       int
}

// coopOcc holds the occupancy of each cooperative kernel, asked of the driver once (only the
// device's goroutine touches it).
var coopOcc = map[cu.Function]int{}

// coopGrid is the cooperative grid for kernel name: every block resident at once, at most
// perSM blocks per SM when perSM > 0.
func (r *run) coopGrid(name string, perSM int) (cu.Function, int, error) {
	fn, err := r.dev.fn(name)
	if err != nil {
		return fn, 0, err
	}
	per, ok := coopOcc[fn]
	if !ok {
		if per, err = fn.MaxActiveBlocksPerMultiProcessor(block, 0); err != nil {
			return fn, 0, check("cuOccupancyMaxActiveBlocksPerMultiprocessor", err)
		}
		coopOcc[fn] = per
	}
	if perSM > 0 {
		per = min(per, perSM)
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
	fn, grid, err := r.coopGrid(name, 0)
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
	pin, err := r.dev.staging()
	if err != nil {
		return err
	}
	hlens, htrace := pin.lens, pin.trace
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
		if err := r.setWord(lens, 0, uint32(st.cur.count)); err != nil {
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
		r.fusedKnobs(&a)
		a.iters, a.lens, a.trace, a.iter = fuseChunk, lens.addr(), trace.addr(), int64(st.iter)
		kname, kfn, kgrid, kblock := name, fn, grid, block
		if st.block != "" {
			a.small = blockMax / 4
			if st.cur.count <= blockMax {
				a.small, kname, kgrid, kblock = blockMax, st.block, 1, blockThreads
				if kfn, err = r.dev.fn(kname); err != nil {
					return err
				}
			}
		}
		a.doScout = st.cur.edges // the first input's edges, for twc/etwc/np's rules (-1: unknown)
		if st.far != nil {
			fa, _ := r.storage(st.far)
			fb, _ := r.storage(st.rest)
			a.farQ, a.farLen, a.farCap = fa.addr(), r.lenAddr(st.far.slot), min(r.qcap(st.far.name), r.qcap(st.rest.name))
			a.far2, a.farLen2 = fb.addr(), r.lenAddr(st.rest.slot)
			a.bound, a.delta = st.bound, st.delta
		} else {
			a.bound = 1 << 62
		}
		ev0, ev1, err := r.timed(func() error { return launch(kfn, kgrid, kblock, unsafe.Pointer(&a), kgrid > 1) })
		if err != nil {
			return err
		}
		// the lengths, the trace rows and the counters in one wait: page-locked, the copies
		// queue behind the launch and the host waits once
		if err := check("cuMemcpyDtoHAsync (fused lengths)", cu.MemcpyDtoHAsync(unsafe.Pointer(&hlens[0]), lens.ptr, int64(len(hlens))*4, cu.Stream{})); err != nil {
			return err
		}
		if err := check("cuMemcpyDtoHAsync (fused trace)", cu.MemcpyDtoHAsync(unsafe.Pointer(&htrace[0]), trace.ptr, int64(len(htrace))*8, cu.Stream{})); err != nil {
			return err
		}
		if err := check("cuMemcpyDtoHAsync (counters)", cu.MemcpyDtoHAsync(unsafe.Pointer(&r.hostCtl[0]), r.ctl.ptr, ctlWords*8, cu.Stream{})); err != nil {
			return err
		}
		if err := r.sync(); err != nil {
			return err
		}
		ms, err := ev0.Elapsed(ev1)
		if err != nil {
			return check("cuEventElapsedTime", err)
		}
		r.nextEvent, r.pending = 0, r.pending[:0]
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
				rec.Kernels = []engine.Kernel{{Name: kname, Grid: kgrid, Block: kblock, Time: time.Duration(ms * 1e6)}}
				rec.Note = "fused: one cooperative launch"
				if kgrid == 1 {
					rec.Note = "fused: one block while the frontier has at most " + itoa(blockMax) + " vertices"
				}
			}
			if st.far != nil {
				rec.Note += " bound " + itoa(int64(tr(k, cBound)))
				if f := tr(k, cFar); f != 0 {
					rec.Note += ", split a far pile of " + itoa(int64(f))
				}
			}
			sc := inEdges
			if tr(k, cMinFar) != 0 {
				// refilled by a far split, which counts the near items' edges
				sc = int64(tr(k, cCountEdges))
				rec.InEdges = sc
			}
			if note := fusedRule(r.s.LB, int64(tr(k, cCount)), sc, st.far != nil); note != "" && kgrid > 1 {
				rec.Note = joinNote(rec.Note, note)
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
			st.far.count = r.queueLen(st.far.slot)
		}
		if over {
			// The queue holding iteration `done`'s input overflowed: fold the spill into it.
			if err := r.foldFused(st.cur, st.next, st.far, st.rest); err != nil {
				return err
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

// fusedKnobs sets the dedup, aggregation and lb=np fields of a fused launch's arguments.
func (r *run) fusedKnobs(a *kargs) {
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
	if r.s.LB == engine.LBNP {
		a.rowsPerBlock = int64(r.s.NP) // lb_np's enabled schedulers
	}
}

// foldFused grows a fused loop's overflowed input queue cur (and far pile, when far is not
// nil) to hold every push attempted into it and folds the spilled pushes in; the other queue
// (and pile) is kept the same size, since the next launch alternates between them.
func (r *run) foldFused(cur, next, far, rest *frontier) error {
	if err := r.setLen(cur.slot, uint32(cur.count)); err != nil {
		return err
	}
	if err := r.readCounters(); err != nil {
		return err
	}
	r.hostCtl[cOverflow] = 1
	if err := r.grow(cur, far); err != nil {
		return err
	}
	if err := r.readCounters(); err != nil {
		return err
	}
	cur.count = r.queueLen(cur.slot)
	if far != nil {
		far.count = r.queueLen(far.slot)
	}
	for _, p := range [][2]*frontier{{cur, next}, {far, rest}} {
		if p[0] == nil {
			continue
		}
		if c := r.qcap(p[0].name); r.qcap(p[1].name) < c {
			if _, err := r.buf(p[1].name, c*4, false); err != nil {
				return err
			}
		}
	}
	return nil
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

// fusedRule names the rule a fused push loop (kernels/common.cuh fused_loop) applies to an
// input of cnt rows and sc edges (-1: unknown) under lb=twc|etwc|np, for the trace; "" when
// the lb runs as it is.
func fusedRule(lb engine.LoadBalance, cnt, sc int64, sssp bool) string {
	if lb != engine.LBTWC && lb != engine.LBETWC && lb != engine.LBNP {
		return ""
	}
	switch {
	case cnt <= 64 && sc >= 1<<14:
		return "few rows with many edges: each row over the whole grid"
	case cnt <= 4096 && (sc < 0 || sc >= 8*cnt):
		return lbSuffix[lb] + ": small frontier of rich rows, a warp per row"
	case lb == engine.LBNP && sc >= 0 && sc < 2*cnt:
		return "np: frontier of short rows (under 2 edges on average) run a thread per row"
	case sssp && sc >= 16*cnt:
		return "rich frontier: a warp per batch of rows, their edges packed over the lanes, 4 relaxations in flight a lane (kernels/sssp.cu sssp_batch)"
	case sc >= 16*cnt:
		return lbSuffix[lb] + ": rich frontier, 32 rows a block and a warp for rows of 8 or more edges"
	}
	return ""
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
