//go:build cuda

package gpu

import (
	"fmt"
	"math"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gworkbench/gworkbench/engine"
)

// Fused all-vertex loops (fuse=on for PageRank and CC): the whole loop of sweeps in one
// cooperative launch with grid-wide barriers, and the convergence test on the device, so that
// no sweep waits for a counter read-back or a launch (IrGL's iteration outlining, UGF's kernel
// fusion). As for the fused traversals (fused.go), each sweep writes its counters and a
// globaltimer stamp into a device buffer, which the host turns into the same iteration records
// when the launch returns; a launch runs at most fuseChunk sweeps, so cancellation is seen
// between chunks.

// coopSweeps launches kernel name cooperatively over a with a fresh trace buffer of iters
// sweeps, and returns the trace (iters+1 rows of nCounters words: row iters holds the start
// stamp in cStop), the launch's event time and its grid.
func (r *run) coopSweeps(name string, a *kargs, iters int) ([]uint64, time.Duration, int, error) {
	return r.coopSweepsShared(name, a, iters, block, 0)
}

// coopSweepsShared is coopSweeps with blocks of threads threads and shmem bytes of dynamic
// shared memory each (the staged tiled pull's one block per SM).
func (r *run) coopSweepsShared(name string, a *kargs, iters, threads, shmem int) ([]uint64, time.Duration, int, error) {
	var fn cu.Function
	var grid int
	var err error
	if threads == block && shmem == 0 {
		fn, grid, err = r.coopGrid(name)
	} else {
		fn, grid, err = r.coopGridShared(name, threads, shmem)
	}
	if err != nil {
		return nil, 0, 0, err
	}
	trace, err := r.buf("trace", (fuseChunk+1)*nCounters*8, false)
	if err != nil {
		return nil, 0, 0, err
	}
	if err := memset8(trace, 0, trace.bytes); err != nil {
		return nil, 0, 0, err
	}
	a.trace, a.iters = trace.addr(), int64(iters)
	ev0, ev1, err := r.timed(func() error {
		if err := launchShared(fn, grid, threads, shmem, unsafe.Pointer(a), true); err != nil {
			return fmt.Errorf("%w (kernel %s, cooperative grid %d x %d, %d bytes of shared memory)", err, name, grid, threads, shmem)
		}
		return nil
	})
	if err != nil {
		return nil, 0, 0, err
	}
	h := make([]uint64, (iters+1)*nCounters)
	if err := check("cuMemcpyDtoH (fused trace)", cu.MemcpyDtoH(unsafe.Pointer(&h[0]), trace.ptr, int64(len(h))*8)); err != nil {
		return nil, 0, 0, err
	}
	ms, err := ev0.Elapsed(ev1)
	if err != nil {
		return nil, 0, 0, check("cuEventElapsedTime", err)
	}
	r.nev, r.pending = 0, r.pending[:0]
	return h, time.Duration(float64(ms) * 1e6), grid, nil
}

// coopGridShared is coopGrid for blocks of threads threads with shmem bytes of dynamic shared
// memory: every block resident, at most one per SM (the staged tiled pull's shape).
func (r *run) coopGridShared(name string, threads, shmem int) (cu.Function, int, error) {
	fn, err := r.dev.fn(name)
	if err != nil {
		return fn, 0, err
	}
	if err := maxDynamicShared(fn, shmem); err != nil {
		return fn, 0, err
	}
	per, err := fn.MaxActiveBlocksPerMultiProcessor(threads, int64(shmem))
	if err != nil {
		return fn, 0, check("cuOccupancyMaxActiveBlocksPerMultiprocessor", err)
	}
	if per < 1 {
		return fn, 0, fmt.Errorf("gpu: kernel %s: no block of %d threads and %d bytes of shared memory fits an SM", name, threads, shmem)
	}
	return fn, r.dev.sms, nil
}

// fusedRecords emits one iteration record per sweep the launch completed (a non-zero cTime
// stamp), built by rec from the sweep's counters, and returns how many there were.
func (r *run) fusedRecords(h []uint64, iters int, name string, grid, threads int, t time.Duration, rec func(ctr []uint64) engine.Record) int {
	prev := h[iters*nCounters+cStop]
	done := 0
	for k := 0; k < iters; k++ {
		ctr := h[k*nCounters : (k+1)*nCounters]
		if ctr[cTime] == 0 {
			break
		}
		x := rec(ctr)
		x.Kind, x.Iter, x.Time = engine.IterationRecord, r.iter, time.Duration(ctr[cTime]-prev)
		if k == 0 {
			x.Kernels = []engine.Kernel{{Name: name, Grid: grid, Block: threads, Time: t}}
			if x.Note != "" {
				x.Note = "; " + x.Note
			}
			x.Note = "fused: one cooperative launch" + x.Note
		}
		prev = ctr[cTime]
		r.iter++
		r.res.Trace.Records = append(r.res.Trace.Records, x)
		r.req.Emit(x)
		done++
	}
	return done
}

// prFused runs the topology-driven pull sweeps of PageRank in cooperative launches of
// pr_fused_<lb> (kernels/pr.cu): Jacobi over the ping-pong buffers bufs, Gauss-Seidel in
// place, or, with blk, the blocked segments one after another with a barrier between them.
// Every thread takes the projection (prProjection) from the sweep's counter row after the
// barrier; a launch starts from the host's replay of it.
func prFused(r *run, a kargs, csr *csrDev, blk *blockedCSR, bufs [2][2]uint64, rank2 buffer) error {
	p := r.req.Params
	name := "pr_fused_" + lbSuffix[r.s.LB]
	tiled := blk != nil && blk.rng > 0
	binned := blk != nil && blk.binned
	threads, shmem := block, 0
	switch {
	case binned:
		sh := prBinShape(r, r.s.Blocking)
		name, threads, shmem = "pr_fused_bin", sh.threads, sh.shmem
	case tiled && PRTiledKernel == "l1":
		// the tiled pull's L1 form (pr.go PRTiledPerSM): its blocks per SM cover the vertices
		// in one wave
		name = "pr_fused_tiled"
		if err := prTiledCarveout(r, name); err != nil {
			return err
		}
		saved := coopPerSM
		coopPerSM = max(PRTiledPerSM, 1)
		defer func() { coopPerSM = saved }()
	case tiled:
		sh := prTiledShape(r, r.s.Blocking)
		name, threads, shmem = "pr_fused_stiled", sh.threads, sh.shmem
	case r.s.LB == engine.LBEdge:
		name += PREdgeKernel // "", or for measuring 16 or np (pr.go)
	}
	if !tiled && r.s.LB == engine.LBEdge && r.s.Sync == engine.Async && PREdgeGSPerSM > 0 && (coopPerSM == 0 || coopPerSM > PREdgeGSPerSM) {
		// Gauss-Seidel tiles: a grid of PREdgeGSPerSM blocks per SM keeps fewer vertices
		// pending (pr.go)
		saved := coopPerSM
		coopPerSM = PREdgeGSPerSM
		defer func() { coopPerSM = saved }()
	}
	a.off, a.nbr, a.n, a.m, a.inKind, a.eps = csr.off.addr(), csr.nbr.addr(), int64(csr.n), csr.m, kAll, p.Tolerance
	pingpong := (blk == nil || tiled) && r.s.Sync == engine.SyncDB
	if tiled {
		tiledArgs(&a, blk)
	}
	if binned {
		binArgs(&a, blk)
	} else if blk != nil && !tiled {
		a.off, a.nbr, a.inQ, a.inScan, a.bound = blk.off.addr(), blk.nbr.addr(), blk.rows.addr(), blk.scan.addr(), int64(blk.segs)
	}
	if pingpong {
		a.rank, a.contrib, a.rankOut, a.contribOut = bufs[0][0], bufs[0][1], bufs[1][0], bufs[1][1]
	}
	done := 0
	proj := newPRProjection(r) // the kernel projects alike; the host replays it for the records
	for done < p.MaxIter {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		iters := min(fuseChunk, p.MaxIter-done)
		a.iter = int64(done)
		proj.fusedArgs(&a)
		h, t, grid, err := r.coopSweepsShared(name, &a, iters, threads, shmem)
		if err != nil {
			return err
		}
		last := math.Inf(1)
		k := r.fusedRecords(h, iters, name, grid, threads, t, func(ctr []uint64) engine.Record {
			last = proj.next(math.Float64frombits(ctr[cErr]), math.Float64frombits(ctr[cRankSum]), math.Float64frombits(ctr[cRankDang]))
			return engine.Record{Direction: r.s.Direction, Mode: engine.Topology, InVertices: int64(r.n), InEdges: r.m,
				OutVertices: int64(r.n), EdgesScanned: r.m, Note: fmt.Sprintf("L1 change %.3g", last)}
		})
		done += k
		if k < iters || last < p.Tolerance || math.IsNaN(last) {
			break
		}
	}
	if pingpong && done%2 == 1 {
		r.prRank = rank2
	}
	return nil
}

// ccSVFused runs Shiloach-Vishkin's hook and jump rounds in cooperative launches of
// cc_sv_fused_<lb> (kernels/cc.cu) until a round hooks nothing.
func ccSVFused(r *run, val buffer) error {
	name := "cc_sv_fused_" + lbSuffix[r.s.LB]
	a := r.args(&r.dg.out)
	a.val, a.valIn, a.inKind, a.memKind, a.outKind = val.addr(), val.addr(), kAll, kAll, kAll
	sp, err := r.buf("spill", int64(r.n), false)
	if err != nil {
		return err
	}
	a.spill, a.outLen, a.rpb = sp.addr(), r.lenAddr(lenTmp), block
	for {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		h, t, grid, err := r.coopSweeps(name, &a, fuseChunk)
		if err != nil {
			return err
		}
		hooked := true
		k := r.fusedRecords(h, fuseChunk, name, grid, block, t, func(ctr []uint64) engine.Record {
			hooked = ctr[cChanged] != 0
			return engine.Record{Direction: engine.Push, Mode: engine.Topology, InVertices: int64(r.n), InEdges: r.m,
				EdgesScanned: int64(ctr[cEdges]), Note: "hook + pointer jumping"}
		})
		if k < fuseChunk || !hooked {
			return nil
		}
	}
}

// resolveSweepFuse decides fuse for CC and PageRank and checks fuse=on: the fused sweeps run
// CC by Shiloach-Vishkin (method=sv; auto resolves to it) and topology-driven pull PageRank,
// CC with lb=thread|warp|cta|twc, PageRank with those and edge. fuse=auto fuses PageRank's
// unblocked pull sweeps on sparse graphs (average degree under 5: road networks), where a
// sweep is a few tens of microseconds of work and dozens are needed (road 1.5M on an H200: 33
// sweeps, 1.50 ms fused against 5.53 ms), and on even degrees (average 5 or more, maximum
// under 8 x the average: urand), where resolve then takes Gauss-Seidel lb=edge and fusing
// saves the launch and read-back between its sweeps (urand scale 20, H200: 4 sweeps in
// 1.17-1.21 against 1.23-1.28 ms, NOTES.md); CC stays unfused (Afforest, 0.32 ms there,
// beats fused sv, 0.55 ms), and so do skewed graphs, where a cooperative grid's sweep is
// slower than a full one (kron scale 20: 0.385 against 0.324 ms).
func resolveSweepFuse(s *engine.Schedule, alg engine.Algorithm, avgDeg float64, maxDeg int64) error {
	lbOK := s.LB == engine.LBAuto || s.LB == engine.LBThread || s.LB == engine.LBWarp || s.LB == engine.LBCTA || s.LB == engine.LBTWC
	pull := s.Blocking <= 0 && s.Driven != engine.Data && s.Direction != engine.Push && s.Driven != engine.Hybrid
	binned := alg == engine.PR && binnedPush(s) && s.Driven != engine.Data && s.Driven != engine.Hybrid &&
		(s.LB == engine.LBAuto || s.LB == engine.LBEdge)
	if s.Fuse == engine.FuseAuto && binned {
		// the binned push's sweeps in one launch (a sweep, a barrier, the apply, a barrier)
		s.Fuse = engine.FuseOn
	}
	if s.Fuse == engine.FuseAuto && alg == engine.PR && avgDeg < 5 && lbOK && pull {
		s.Fuse = engine.FuseOn
	}
	if s.Fuse == engine.FuseAuto && alg == engine.PR && avgDeg >= 5 && float64(maxDeg) < 8*avgDeg && pull &&
		(s.LB == engine.LBAuto || s.LB == engine.LBEdge) && (s.Sync == engine.SyncAuto || s.Sync == engine.Async) {
		s.Fuse = engine.FuseOn
	}
	if s.Fuse != engine.FuseOn {
		s.Fuse = engine.FuseOff
		return nil
	}
	switch alg {
	case engine.CC:
		labelKnobs := s.Direction != engine.DirAuto || s.Driven != engine.DrivenAuto || s.Frontier != engine.FrontierAuto ||
			s.Dedup != engine.DedupAuto || s.PushAgg != engine.AggAuto || s.Sync != engine.SyncAuto
		if (s.Method != engine.MethodAuto && s.Method != engine.SV) || labelKnobs || !lbOK {
			return unsupported("fuse=on runs cc as Shiloach-Vishkin rounds (method=sv) with lb=thread|warp|cta|twc (not %s)", s.Relevant(alg, "gpu"))
		}
		s.Method = engine.SV
	case engine.PR:
		if binned {
			s.Driven = engine.Topology
			break
		}
		if s.Driven == engine.Data || s.Direction == engine.Push || !(lbOK || s.LB == engine.LBEdge) {
			return unsupported("fuse=on runs topology-driven pull PageRank with lb=thread|warp|cta|twc|edge, or the binned push (direction=push blocking=N lb=edge) (not %s)", s.Relevant(alg, "gpu"))
		}
		s.Driven, s.Direction = engine.Topology, engine.Pull
	}
	return nil
}
