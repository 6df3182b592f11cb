//go:build cuda

package gpu

import (
	"fmt"
	"math"
	"time"

	"gorgonia.org/cu"

	"github.com/gworkbench/gworkbench/engine"
)

// pr returns the PageRank of every vertex, summing to 1.
//
// Approach: topology-driven sweeps (kernels/pr.cu): pull (Jacobi with sync=sync, Gauss-Seidel
// in place with sync=async; with lb=edge a warp per tile of 8 vertices, the tile's in-edges
// split evenly over its lanes, each lane's gathers issued together: Merrill & Garland's
// merge-based SpMV inside the tile; with blocking=N lb=edge a block per range of destinations,
// summed in shared memory over source segments of N taken in order, prTiledShape) or push
// (atomic adds; with blocking=N the binned push, propagation blocking [5] with the bins on
// chip: bins of N destinations summed in shared memory as 64-bit fixed point, each bin's
// in-edges in source order, so a warp's gathers read a few consecutive sectors and the random
// side of the sweep is shared-memory atomics, kernels/pr.cu bin_sweep), until the L1 change of a sweep is
// below tolerance or max_iter. Every sweep spreads the dangling rank uniformly and projects the
// ranks to sum 1, as engine/cpu's pullGS: the ranks stay stored unscaled and the projection
// is folded into the next sweep's constant term (prProjection), so it costs no pass. A
// Gauss-Seidel sweep does not conserve rank mass, and without the projection the drift of the
// mass decays slowly and dominates the L1 change. The final ranks are normalised to sum 1. Data-driven: residual push (PageRank-Delta): frontier vertices move their
// residual into their rank and push d*r/deg to their out-neighbours; a vertex joins the
// worklist when its residual crosses tolerance/V.
//
// [1] Wang et al. Gunrock. ACM TOPC 2017. [2] Whang et al. Scalable data-driven PageRank.
// Euro-Par 2015. [3] Beamer, Asanović, Patterson. The GAP benchmark suite. 2015. [4] Merrill,
// Garland. Merge-based parallel sparse matrix-vector multiplication. SC 2016. [5] Beamer,
// Asanović, Patterson. Reducing PageRank communication via propagation blocking. IPDPS 2017.

// resolvePR fills PageRank's auto knobs. On dense graphs (average degree 5 or more) an
// all-auto schedule is the fused binned push (autoBinned); elsewhere topology-driven pull,
// fused on sparse graphs and on even degrees (resolvePRFuse), blocked on large skewed graphs
// (autoBlocking), Jacobi by default, Gauss-Seidel where it converges in fewer sweeps of the
// same cost (fused sparse twc; even degrees, with lb=edge's tiles), and TWC.
func resolvePR(r *run, s *engine.Schedule) error {
	p := r.g.Properties()
	req := r.req.Schedule
	autoBinned(s, p.AvgDegree)
	autoTiled(s, r.n, p.AvgDegree, p.MaxDegree)
	if err := resolvePRFuse(s, p.AvgDegree, p.MaxDegree); err != nil {
		return err
	}
	if s.LB == engine.LBAuto {
		s.LB = engine.LBTWC
	}
	resolveNP(s)
	if s.Driven == engine.DrivenAuto {
		s.Driven = engine.Topology
	}
	if s.Direction == engine.DirAuto {
		if s.Driven == engine.Data {
			s.Direction = engine.Push
		} else {
			s.Direction = engine.Pull
		}
	}
	if s.Blocking == 0 && s.Fuse == engine.FuseOff && s.Driven == engine.Topology && s.Direction == engine.Pull &&
		req.LB == engine.LBAuto && req.Sync == engine.SyncAuto {
		// blocking=auto blocks only when lb and sync are auto too: a chosen lb or sync
		// may be one the blocked sweep refuses (edge, coo, np; Gauss-Seidel)
		s.Blocking = autoBlocking(r.n, p.AvgDegree, p.MaxDegree)
	}
	if s.Blocking == 0 {
		s.Blocking = engine.BlockingOff
	}
	if s.Sync == engine.SyncAuto {
		switch {
		case s.Blocking > 0:
			s.Sync = engine.SyncDB // blocked sweeps accumulate partial sums: Jacobi
		case s.Driven == engine.Data:
			s.Sync = engine.Async
		case s.Fuse == engine.FuseOn && p.AvgDegree < 5 && s.LB == engine.LBTWC:
			// fused sweeps on sparse graphs: Gauss-Seidel converges in fewer sweeps of the
			// same cost (road 1.5M, H200: 23 sweeps, 0.91 ms, against Jacobi's 33, 1.45 ms)
			s.Sync = engine.Async
		case s.Direction == engine.Pull && p.AvgDegree >= 5 && float64(p.MaxDegree) < 8*p.AvgDegree &&
			(req.LB == engine.LBAuto || req.LB == engine.LBWarp || req.LB == engine.LBEdge):
			// even degrees (urand): Gauss-Seidel converges in 4 sweeps where Jacobi needs 6
			// (warp per vertex: 1.73 vs 1.97 ms on urand scale 20), and lb=edge's tiles
			// (a warp per 8 vertices, their in-edges split evenly over its lanes) keep
			// more gathers in flight than a warp per vertex (H200, fused: 0.285 against
			// 0.336 ms a sweep, NOTES.md)
			s.Sync = engine.Async
			if req.LB == engine.LBAuto {
				s.LB = engine.LBEdge
			}
		default:
			s.Sync = engine.SyncDB
		}
	}
	if binnedPush(s) && s.LB != engine.LBEdge {
		if req.LB != engine.LBAuto {
			return unsupported("push with blocking bins the destinations in shared memory and gives every block an equal run of the bins' edges (lb=edge); lb=%s needs blocking off", s.LB)
		}
		s.LB = engine.LBEdge
	}
	switch {
	case s.Driven == engine.Data && s.Sync == engine.SyncDB:
		return unsupported("data-driven PageRank applies residuals as they arrive; sync=sync (Jacobi) needs driven=topology")
	case s.Driven == engine.Topology && s.Direction == engine.Push && s.Sync == engine.Async:
		return unsupported("topology-driven push PageRank accumulates into a second array (Jacobi); sync=async needs direction=pull")
	case s.Direction == engine.Pull && s.Sync == engine.Async && (s.LB == engine.LBCOO || s.LB == engine.LBNP):
		// (pull lb=edge splits a tile's edges over a warp and writes each vertex once: it
		// runs both)
		return unsupported("sync=async (Gauss-Seidel) updates each vertex once in place; lb=%s splits a vertex's in-edges over threads", s.LB)
	case s.Blocking > 0 && s.Sync == engine.Async && s.LB != engine.LBEdge:
		// (blocking with lb=edge is the tiled sweep: a block owns its vertices' sums and
		// writes each vertex once, so it runs both)
		return unsupported("blocking with lb=%s sums each vertex's in-edges segment by segment and applies the sums after the last (Jacobi, sync=sync); sync=async (Gauss-Seidel) needs blocking off or lb=edge", s.LB)
	case s.Blocking > 0 && (s.LB == engine.LBCOO || s.LB == engine.LBNP):
		return unsupported("blocking maps the blocked layout's rows with lb=thread|warp|cta|twc, or tiles it with lb=edge; lb=%s needs blocking off", s.LB)
	}
	if s.Update == engine.UpdateAuto {
		s.Update = engine.RMW
	}
	return nil
}

// resolvePRFuse decides fuse for PageRank and checks fuse=on: the fused sweeps run
// topology-driven pull PageRank with lb=thread|warp|cta|twc|edge, and the binned push.
// fuse=auto fuses the binned push (a sweep, a barrier, the apply, a barrier), the unblocked
// pull sweeps on sparse graphs (average degree under 5: road networks), where a sweep is a few
// tens of microseconds of work and dozens are needed, and on even degrees (average 5 or more,
// maximum under 8 x the average: urand), where resolvePR then takes Gauss-Seidel lb=edge and
// fusing saves the launch and read-back between its sweeps; skewed graphs stay unfused, where
// a cooperative grid's sweep is slower than a full one.
func resolvePRFuse(s *engine.Schedule, avgDeg float64, maxDeg int64) error {
	lbOK := s.LB == engine.LBAuto || s.LB == engine.LBThread || s.LB == engine.LBWarp || s.LB == engine.LBCTA || s.LB == engine.LBTWC
	pull := s.Blocking <= 0 && s.Driven != engine.Data && s.Direction != engine.Push && s.Driven != engine.Hybrid
	binned := binnedPush(s) && s.Driven != engine.Data && s.Driven != engine.Hybrid &&
		(s.LB == engine.LBAuto || s.LB == engine.LBEdge)
	if s.Fuse == engine.FuseAuto {
		even := avgDeg >= 5 && float64(maxDeg) < 8*avgDeg
		switch {
		case binned:
			s.Fuse = engine.FuseOn
		case avgDeg < 5 && lbOK && pull:
			s.Fuse = engine.FuseOn
		case even && pull && (s.LB == engine.LBAuto || s.LB == engine.LBEdge) && (s.Sync == engine.SyncAuto || s.Sync == engine.Async):
			s.Fuse = engine.FuseOn
		}
	}
	if s.Fuse != engine.FuseOn {
		s.Fuse = engine.FuseOff
		return nil
	}
	if binned {
		s.Driven = engine.Topology
		return nil
	}
	if s.Driven == engine.Data || s.Direction == engine.Push || !(lbOK || s.LB == engine.LBEdge) {
		return unsupported("fuse=on runs topology-driven pull PageRank with lb=thread|warp|cta|twc|edge, or the binned push (direction=push blocking=N lb=edge) (not %s)", s.Relevant(engine.PR, "gpu"))
	}
	s.Driven, s.Direction = engine.Topology, engine.Pull
	return nil
}

// preparePR builds and uploads the blocked, tiled or binned layout of blocking=N, once per
// graph, outside the timing, as the graph is.
func preparePR(r *run) error {
	if r.s.Blocking > 0 {
		if _, err := r.blocked(r.s.Blocking); err != nil {
			return err
		}
	}
	return nil
}

// pr runs PageRank: the start ranks, then the topology- or data-driven sweeps.
func pr(r *run) error {
	s := r.s
	p := r.req.Params
	n := int64(r.n)
	rank, err := r.values("rank")
	if err != nil {
		return err
	}
	next, err := r.values8("next")
	if err != nil {
		return err
	}
	contrib, err := r.values("contrib")
	if err != nil {
		return err
	}
	base := (1 - p.Damping) / float64(n)
	a := r.args(&r.dg.out)
	a.rank, a.rankNext, a.contrib, a.damping, a.base, a.err = rank.addr(), next.addr(), contrib.addr(), p.Damping, base, r.ctl.addr()+cErr*8
	data := s.Driven == engine.Data
	var resid buffer
	if data {
		if resid, err = r.values8("resid"); err != nil {
			return err
		}
		a.resid = resid.addr()
		a.eps = p.Tolerance / float64(n)
	}
	if !data {
		proj := newPRProjection(r)
		a.prInitOut, a.prInitDang = proj.initOut, proj.initDang
	}
	if binnedPush(&s) {
		// the binned push's largest contribution, of the even and odd sweeps (bin_sweep)
		cmax, err := r.buf("prcmax", 8, false)
		if err != nil {
			return err
		}
		if err := memset8(cmax, 0, 8); err != nil {
			return err
		}
		a.prCmax = cmax.addr()
	}
	if err := r.launch("pr_init", blocks(n, block), &a); err != nil {
		return err
	}
	r.prRank = rank
	if data {
		err = prData(r, a)
	} else {
		err = prTopo(r, a)
	}
	if err != nil {
		return err
	}
	r.collect = func() error {
		f := make([]float32, r.n)
		if err := download(f, r.prRank); err != nil {
			return err
		}
		if data {
			rs := make([]float64, r.n)
			if err := download(rs, resid); err != nil {
				return err
			}
			for i := range f {
				f[i] = float32(float64(f[i]) + rs[i])
			}
		}
		sum := 0.0
		for _, x := range f {
			sum += float64(x)
		}
		out := make([]float64, r.n)
		for i, x := range f {
			out[i] = float64(x) / sum
		}
		r.res.Rank = out
		r.res.Summary.RankSum = 1
		return nil
	}
	return nil
}

// sweepErr is the L1 change (or residual taken) the last sweep accumulated into the counter
// block, read back with the other counters.
func (r *run) sweepErr() float64 { return math.Float64frombits(r.hctl[cErr]) }

// prProjection is the state of the per-sweep projection of topology-driven PageRank: true
// ranks = stored ranks x scale; dang is the stored rank of the dangling vertices after the
// last sweep. A sweep in stored units has the constant term base / scale + d x dang / V
// (kernels/pr.cu); after it, scale = 1 / (the stored sum), which projects the true ranks onto
// sum 1.
//
// On an undirected graph the dangling vertices are the isolated ones (engine/cpu's
// startRanks does the same): each of the z has the rank r = base / (1 - d z / V) at the fixed
// point, so their spread d z r / V is a constant of every sweep (fixed), and the other
// vertices start at (base + spread) / (1 - d), the fixed point of a regular graph, rather than
// 1/V. On kron scale 20 (a third of its vertices isolated) a first sweep from 1/V moved the
// ranks by 1.04 in L1.
type prProjection struct {
	base, d, n  float64
	scale, dang float64
	fixed       bool
	spread      float64
	// initOut and initDang are the start ranks of vertices with and without out-edges.
	initOut, initDang float64
}

func newPRProjection(r *run) prProjection {
	n := float64(r.n)
	d := r.req.Params.Damping
	z := float64(r.dg.dangling())
	p := prProjection{base: (1 - d) / n, d: d, n: n, scale: 1, initOut: 1 / n, initDang: 1 / n}
	p.dang = z * p.initDang
	if !r.g.Directed && 1-d*z/n > 0 {
		iso := p.base / (1 - d*z/n)
		p.fixed, p.spread = true, d*z*iso/n
		p.initOut, p.initDang, p.dang = (p.base+p.spread)/(1-d), iso, z*iso
	}
	return p
}

// constant is the next sweep's constant term in stored units.
func (p *prProjection) constant() float64 {
	if p.fixed {
		return (p.base + p.spread) / p.scale
	}
	return p.base/p.scale + p.d*p.dang/p.n
}

// fusedArgs sets a fused launch's projection state: base holds the unscaled constant (the
// kernel adds the dangling spread itself unless fixed).
func (p *prProjection) fusedArgs(a *kargs) {
	a.base, a.prScale, a.prDang, a.prFixed = p.base, p.scale, p.dang, 0
	if p.fixed {
		a.base, a.prFixed = p.base+p.spread, 1
	}
}

// next takes a sweep's counters (L1 change, stored sum and dangling sum, in stored units) and
// returns the true L1 change of the sweep and its projection: scale x change + |1 - scale x sum|.
func (p *prProjection) next(change, sum, dang float64) float64 {
	p.dang = dang
	if sum > 0 {
		change = p.scale*change + math.Abs(1-p.scale*sum)
		p.scale = 1 / sum
	}
	return change
}

func prTopo(r *run, a kargs) error {
	s := r.s
	p := r.req.Params
	csr := &r.dg.out
	var err error
	if s.Direction == engine.Pull {
		if csr, err = r.inCSR(); err != nil {
			return err
		}
	}
	if s.Sync == engine.Async {
		a.update = 1 // Gauss-Seidel: pr_set writes in place
	} else {
		a.update = 0
	}
	var blk *blockedCSR
	binned := binnedPush(&s)
	tiled := s.Blocking > 0 && s.LB == engine.LBEdge && !binned
	sh := prTiledShape(r, s.Blocking)
	if binned {
		sh = prBinShape(r, s.Blocking)
		if blk, err = r.binned(sh.size); err != nil {
			return err
		}
		slots := blk.segEdges[1]
		if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "blocking",
			Note: fmt.Sprintf("binned push (propagation blocking): %d bins of %d destinations summed in shared memory, each bin's in-edges in source order: %d arcs in %d groups of 32 (%.1f%% empty slots; layout built and uploaded in %v, once per graph, outside the timing)",
				blk.segs, sh.size, r.m, blk.entries, 100*float64(slots-r.m)/float64(max(slots, 1)), blk.built.Round(time.Millisecond))}); err != nil {
			return err
		}
	} else if tiled {
		if blk, err = r.tiled(sh.size, sh.rng); err != nil {
			return err
		}
		form := "staged in shared memory"
		if !sh.staged {
			form = "shared in L1"
		}
		if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "blocking",
			Note: fmt.Sprintf("EdgeBlocking, CTA-owned destinations: %d ranges of %d destinations x %d segments of %d sources (%s), %d tiles for %d edges (layout built and uploaded in %v, once per graph, outside the timing)",
				(r.n+sh.rng-1)/sh.rng, sh.rng, blk.segs, sh.size, form, blk.entries, csr.m, blk.built.Round(time.Millisecond))}); err != nil {
			return err
		}
	} else if s.Blocking > 0 {
		if blk, err = r.blocked(s.Blocking); err != nil {
			return err
		}
		if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "blocking",
			Note: fmt.Sprintf("EdgeBlocking: %d segments of %d sources, %d entries for %d edges (layout built and uploaded in %v, once per graph, outside the timing)",
				blk.segs, blk.size, blk.entries, csr.m, blk.built.Round(time.Millisecond))}); err != nil {
			return err
		}
	}
	lb := lbSuffix[s.LB]
	// Jacobi pull sweeps write the next ranks and contributions into a second pair of buffers,
	// swapped after each sweep (no copy-back pass).
	pingpong := s.Direction == engine.Pull && s.Sync == engine.SyncDB && s.LB != engine.LBCOO && s.LB != engine.LBNP
	bufs := [2][2]uint64{{a.rank, a.contrib}}
	var rank2 buffer
	if pingpong {
		var err error
		if rank2, err = r.values("rank2"); err != nil {
			return err
		}
		contrib2, err := r.values("contrib2")
		if err != nil {
			return err
		}
		bufs[1] = [2]uint64{rank2.addr(), contrib2.addr()}
	}
	if s.Fuse == engine.FuseOn {
		return prFused(r, a, csr, blk, bufs, rank2)
	}
	if blk != nil && !tiled {
		pingpong = false // the blocked and binned sweeps accumulate, and the apply updates in place
	}
	proj := newPRProjection(r)
	for iter := 0; iter < p.MaxIter; iter++ {
		if err := r.begin(); err != nil {
			return err
		}
		sa := a
		sa.base = proj.constant()
		sa.off, sa.nbr, sa.wt, sa.n, sa.m, sa.inKind = csr.off.addr(), csr.nbr.addr(), csr.wt.addr(), int64(csr.n), csr.m, kAll
		if s.LB == engine.LBCOO {
			if err := r.rows(csr); err != nil {
				return err
			}
			sa.row = csr.row.addr()
		}
		if pingpong {
			cur, nxt := bufs[iter%2], bufs[(iter+1)%2]
			sa.rank, sa.contrib, sa.rankOut, sa.contribOut = cur[0], cur[1], nxt[0], nxt[1]
			if (iter+1)%2 == 1 {
				r.prRank = rank2
			} else {
				r.prRank = buffer{ptr: cu.DevicePtr(bufs[0][0]), bytes: int64(r.n) * 4}
			}
		}
		grid := prGrid(r, s.LB, int64(r.n), csr.m)
		accumulate := s.Direction == engine.Push || s.LB == engine.LBCOO || s.LB == engine.LBNP || (blk != nil && !tiled)
		apply := "pr_apply"
		if s.LB == engine.LBNP {
			sa.rpb = int64(s.NP)
		}
		name := "pr_pull_" + lb
		switch {
		case binned:
			name, apply = "pr_bin", "pr_bin_apply"
			binArgs(&sa, blk)
			sa.iter = int64(iter)
		case s.Direction == engine.Push:
			name = "pr_spush_" + lb
		case tiled:
			name, grid = "pr_tspull", sh.grid
			tiledArgs(&sa, blk)
			if !sh.staged {
				name = "pr_tpull"
				if err := prTiledCarveout(r, name); err != nil {
					return err
				}
			}
		case s.LB == engine.LBEdge:
			grid = prTileGrid(r, s.Sync == engine.Async)
			name += PREdgeKernel
		}
		if blk != nil && !tiled && !binned {
			if err := prBlockedSweep(r, sa, blk); err != nil {
				return err
			}
		} else if binned || (tiled && sh.staged) {
			if err := r.launchShared(name, sh, &sa); err != nil {
				return err
			}
		} else if err := r.launch(name, grid, &sa); err != nil {
			return err
		}
		switch {
		case accumulate:
			if err := r.launch(apply, blocks(int64(r.n), block), &sa); err != nil {
				return err
			}
		case s.Sync == engine.SyncDB && !pingpong:
			if err := r.launch("pr_swap", blocks(int64(r.n), block), &sa); err != nil {
				return err
			}
		}
		if err := r.readCounters(); err != nil {
			return err
		}
		change := proj.next(r.sweepErr(), math.Float64frombits(r.hctl[cRankSum]), math.Float64frombits(r.hctl[cRankDang]))
		scanned := int64(r.hctl[cEdges])
		if scanned == 0 {
			scanned = r.m
		}
		if err := r.emit(engine.Record{Direction: s.Direction, Mode: engine.Topology, InVertices: int64(r.n), InEdges: r.m,
			OutVertices: int64(r.n), EdgesScanned: scanned, Note: fmt.Sprintf("L1 change %.3g", change)}); err != nil {
			return err
		}
		if change < p.Tolerance || math.IsNaN(change) {
			break
		}
	}
	return nil
}

// prBlockedSweep sums every segment of the blocked layout into rank_next in one launch: its
// blocks take the entries in order, segment after segment (blocks start in about launch
// order), so the sources being gathered at any time are those of one or two segments; two
// segments in flight can share a vertex, so the partial sums are added atomically. One launch
// per segment with plain adds lost everywhere on an H200 (launch gaps and a tail per segment:
// kron scale 22, 16 segments, 1.44 against 0.96 ms a sweep), and so did UGF's form with a
// grid-wide barrier between segments (fuse=on blocking, 1.81 ms).
func prBlockedSweep(r *run, a kargs, blk *blockedCSR) error {
	a.off, a.nbr, a.inQ, a.n, a.m, a.update = blk.off.addr(), blk.nbr.addr(), blk.rows.addr(), blk.entries, blk.segEdges[blk.segs], 1
	return r.launch("pr_bpull_"+lbSuffix[r.s.LB], prGrid(r, r.s.LB, a.n, a.m), &a)
}

// PRTiledKernel picks the tiled pull's (blocking=N lb=edge) form: "" the staged one (one block
// of tpThreads per SM copies each source segment into shared memory, pr_tspull and
// pr_fused_stiled), "l1" for measuring the L1 one (PRTiledPerSM blocks of 256 per SM share
// each segment's lines in L1, pr_tpull and pr_fused_tiled). PRTiledPerSM is the L1 form's
// blocks per multiprocessor, and PRTiledCarveout the shared-memory carveout its kernels ask for
// (percent of an SM's most shared memory; -1 leaves the driver's choice): every block holds
// TP_RMAX_L1 double sums (16 KB), and 30% of an H200's 228 KB keeps 4 blocks' shared memory
// and leaves the rest of the SM's 256 KB to L1. Measured on urand scale 20 (H200, Jacobi, a
// sweep): staged 0.225 ms unfused, 0.238 fused with segments of 16384 (8192: 0.38; 4096:
// 0.70); L1 0.198-0.204 with segments of 32768 (carveout 100: 0.33; 2 or 8 blocks per SM:
// 0.235, 0.322); the untiled lb=edge Jacobi sweep 0.251-0.253.
var (
	PRTiledKernel   = ""
	PRTiledPerSM    = 4
	PRTiledCarveout = 30
)

// The tiled pull's limits (kernels/pr.cu TP_THREADS, TP_SEGQ, TP_RMAX_L1): the staged form's
// block size, its most sources a segment (TP_SEGQ x 4 x TP_THREADS) and destinations a range
// (their double sums and the segment share the SM's shared memory), and the L1 form's range.
const (
	tpThreads    = 1024
	tpSegMax     = 4 * 4 * tpThreads
	tpRMaxStaged = 8192
	tpRMaxL1     = 2048
)

// tiledShape is the tiled pull's launch and layout: sources a segment (size), destinations a
// range (rng), grid, block size and dynamic shared memory.
type tiledShape struct {
	staged               bool
	size, rng            int
	grid, threads, shmem int
}

// prTiledShape is the tiled pull's shape for blocking=N on this device. The grid covers the
// vertices in one wave: the staged form one block per SM, each range a 1/SMs share of the
// vertices (at most tpRMaxStaged), the segment N rounded up to a multiple of 4 (aligned
// float4 copies), at most tpSegMax; the L1 form PRTiledPerSM blocks per SM, so that the blocks
// of an SM walk the segments in step.
func prTiledShape(r *run, blocking int) tiledShape {
	rangeOf := func(grid, rmax int) int {
		rng := (r.n + grid - 1) / grid
		return min(max((rng+31)&^31, 32), rmax)
	}
	if PRTiledKernel == "l1" {
		g := max(PRTiledPerSM, 1) * r.dev.sms
		return tiledShape{size: max(min(blocking, 1<<tpSrcBits), 1), rng: rangeOf(g, tpRMaxL1), grid: g, threads: block}
	}
	size := max(min((blocking+3)&^3, tpSegMax), 4)
	rng := rangeOf(r.dev.sms, tpRMaxStaged)
	return tiledShape{staged: true, size: size, rng: rng, grid: r.dev.sms, threads: tpThreads, shmem: rng*8 + size*4}
}

// PRAutoTiled lets auto take the tiled pull on large graphs of even degrees (autoTiled), with
// segments of PRTiledAutoN sources. Off: on urand scale 20 (H200) the tiled pull's Jacobi
// sweeps (0.20-0.24 ms, 6 of them: fused 1.28-1.52 ms) lose to auto's fused Gauss-Seidel
// lb=edge (4 sweeps of 0.27 ms: 1.17-1.18 ms); NOTES.md "Round 4".
var (
	PRAutoTiled  = false
	PRTiledAutoN = 16384
)

// autoTiled resolves an all-auto PageRank schedule on a graph of 2^18 or more vertices of even
// degrees (average >= 5, maximum under 8 x the average: urand) to the fused tiled pull:
// blocking=PRTiledAutoN lb=edge sync=sync fuse=on (Jacobi: the ranks of a block's range are
// written when its last segment is done, so every sweep reads the last one's).
func autoTiled(s *engine.Schedule, n int, avgDeg float64, maxDeg int64) {
	if !PRAutoTiled || n < 1<<18 || avgDeg < 5 || float64(maxDeg) >= 8*avgDeg {
		return
	}
	if s.Blocking != 0 || s.LB != engine.LBAuto || s.Sync != engine.SyncAuto || s.Fuse != engine.FuseAuto ||
		(s.Driven != engine.DrivenAuto && s.Driven != engine.Topology) || (s.Direction != engine.DirAuto && s.Direction != engine.Pull) {
		return
	}
	s.Blocking, s.LB, s.Sync, s.Fuse = PRTiledAutoN, engine.LBEdge, engine.SyncDB, engine.FuseOn
}

// prBinShape is the binned push's launch (direction=push blocking=N): one block of pbThreads
// per SM, each bin's sums (two 32-bit words a destination) in its dynamic shared memory, so a
// bin holds N destinations, at most what the device's shared memory and the slot packing
// (pbPad) allow.
func prBinShape(r *run, blocking int) tiledShape {
	size := max(min(blocking, (r.dev.shOptin-1024)/8, pbPad-1), 1)
	return tiledShape{staged: true, size: size, grid: r.dev.sms, threads: pbThreads, shmem: size * 8}
}

// binnedPush reports whether s runs PageRank's binned push (direction=push blocking=N); the
// resolved schedule's lb is then edge and its sync sync.
func binnedPush(s *engine.Schedule) bool { return s.Blocking > 0 && s.Direction == engine.Push }

// pbThreads is the binned push's block size (kernels/pr.cu PB_THREADS).
const pbThreads = 1024

// binArgs points a at the binned layout.
func binArgs(a *kargs, blk *blockedCSR) {
	a.off, a.inQ, a.nbr, a.bound, a.rpb = blk.off.addr(), blk.rows.addr(), blk.nbr.addr(), int64(blk.segs), int64(blk.size)
}

// PRAutoBinned lets auto take the binned push (direction=push blocking=PRBinAutoN lb=edge
// sync=sync fuse=on) on dense graphs (autoBinned).
var (
	PRAutoBinned = true
	PRBinAutoN   = 8192
)

// autoBinned resolves an all-auto PageRank schedule on a graph of average degree 5 or more to
// the binned push with bins of PRBinAutoN destinations. Measured on an H200 (NOTES.md "Round
// 6", fused, ms): urand scale 20, 6 Jacobi sweeps of ~0.12 ms, 0.77-0.79 (bins of 8192 to
// 16384; 4096: 0.88), where the pull gathering from L2 took 4 Gauss-Seidel sweeps of 0.27
// (lb=edge, 1.19); kron scale 20, 8 sweeps, 0.97 at 8192 (4096 and 16384: 1.03-1.04), where
// the blocked Jacobi pull (twc) took 1.94. On sparse graphs (road, NY) it loses (road 1.5M:
// 33 Jacobi sweeps, 3.1 ms, against the fused Gauss-Seidel pull's 22 sweeps, 0.75 ms): auto
// leaves them to resolvePRFuse.
func autoBinned(s *engine.Schedule, avgDeg float64) {
	if !PRAutoBinned || avgDeg < 5 {
		return
	}
	if s.Blocking != 0 || s.LB != engine.LBAuto || s.Sync != engine.SyncAuto || s.Fuse != engine.FuseAuto ||
		(s.Driven != engine.DrivenAuto && s.Driven != engine.Topology) || (s.Direction != engine.DirAuto && s.Direction != engine.Push) {
		return
	}
	s.Direction, s.Driven, s.Blocking, s.LB, s.Sync, s.Fuse = engine.Push, engine.Topology, PRBinAutoN, engine.LBEdge, engine.SyncDB, engine.FuseOn
}

// tiledArgs points a sweep's arguments at the tiled layout (kernels/pr.cu tpull_sweep): off the
// tiles' first edges, nbr the packed edges, bound the segments, delta their size, rpb the range.
func tiledArgs(a *kargs, blk *blockedCSR) {
	a.off, a.nbr, a.m = blk.off.addr(), blk.nbr.addr(), blk.segEdges[1]
	a.bound, a.delta, a.rpb = int64(blk.segs), int64(blk.size), int64(blk.rng)
}

// tiledCarve records the kernels whose carveout is set (only the device's goroutine touches it).
var tiledCarve = map[string]int{}

// prTiledCarveout sets kernel name's shared-memory carveout to PRTiledCarveout once (again
// when the value changes).
func prTiledCarveout(r *run, name string) error {
	if PRTiledCarveout < 0 {
		return nil
	}
	if v, ok := tiledCarve[name]; ok && v == PRTiledCarveout {
		return nil
	}
	fn, err := r.dev.fn(name)
	if err != nil {
		return err
	}
	if err := setCarveout(fn, PRTiledCarveout); err != nil {
		return err
	}
	tiledCarve[name] = PRTiledCarveout
	return nil
}

// PRBlocksPerSM caps the grid of a pull sweep with a warp or a block per vertex at this many
// blocks per multiprocessor (0: no cap, a block per 8 vertices or per vertex). Each block of a
// sweep adds its share of the L1 change to one counter with one atomic after a block
// reduction, and a warp-per-vertex sweep of a million vertices would launch 131,072 blocks of
// 8 vertices; the kernels loop grid-stride, so any grid is correct. Measured on an H200
// (blocks per SM: none / 8 / 16 / 32): urand scale 20 Gauss-Seidel warp 0.406 / 0.315 /
// 0.341 / 0.349 ms a sweep (4, 5, 4, 4 sweeps: 1.76 / 1.73 / 1.49 / 1.53 ms), Jacobi warp
// 0.378 / - / 0.281 ms; kron scale 20 Gauss-Seidel warp 0.574 / 0.502 / 0.465 / 0.446 ms.
// lb=twc's grid (a block per 256 vertices or entries) is not capped: capping it lost (kron
// scale 22 blocked, 0.96 ms against 1.10 / 1.22 / 1.19).
var PRBlocksPerSM = 16

// PREdgeKernel and PREdgeTile pick pull lb=edge's sweep kernel: "" and 8 are pr_pull_edge
// and pr_fused_edge (tiles of 8 vertices); for measuring, "16" names pr_pull_edge16 and
// pr_fused_edge16, tiles of 16 vertices (PREdgeTile must then be 16), and "np" pr_pull_edgenp
// and pr_fused_edgenp, which load a tile's heads only when they start it.
var (
	PREdgeKernel = ""
	PREdgeTile   = 8
)

// PREdgeGSPerSM caps a Gauss-Seidel lb=edge sweep's grid (unfused, or the fused cooperative
// one) at this many blocks of 256 threads per multiprocessor (0: no cap). A Gauss-Seidel sweep
// converges faster the more of its gathers see ranks already updated in the sweep, and every
// vertex of a tile in flight still shows its old rank: on urand scale 20 (H200) the fourth
// sweep's L1 change is 1.05e-4 to 1.29e-4 with tiles of 8 to 32 vertices and the grids full
// (5 sweeps), 9.4e-5 to 9.8e-5 with 1 or 2 blocks per SM (4 sweeps, as a warp per vertex);
// 2 blocks of tiles of 8 still keep the gathers as fast (0.285 ms a sweep fused, 0.502 with
// 1 block).
var PREdgeGSPerSM = 2

// prTileGrid is the grid of a pull lb=edge sweep (kernels/pr.cu pull_tile): a warp per tile of
// PREdgeTile vertices, capped by PRBlocksPerSM, or for Gauss-Seidel (gs) PREdgeGSPerSM.
func prTileGrid(r *run, gs bool) int {
	g := blocks((int64(r.n)+int64(PREdgeTile)-1)/int64(PREdgeTile), block/32)
	per := PRBlocksPerSM
	if gs {
		per = PREdgeGSPerSM
	}
	if per > 0 {
		g = min(g, per*r.dev.sms)
	}
	return g
}

// prGrid is lbGrid, capped by PRBlocksPerSM for lb=warp and lb=cta.
func prGrid(r *run, lb engine.LoadBalance, rows, edges int64) int {
	g := lbGrid(lb, rows, edges)
	if PRBlocksPerSM > 0 && (lb == engine.LBWarp || lb == engine.LBCTA) {
		g = min(g, PRBlocksPerSM*r.dev.sms)
	}
	return g
}

func prData(r *run, a kargs) error {
	p := r.req.Params
	cur, next := newFrontiers(kQueue)
	cur.kind, cur.count, cur.edges = kAll, int64(r.n), r.m
	saved := r.s
	r.s.Dedup = engine.DedupNone // a vertex is pushed once, when its residual crosses eps
	r.s.PushAgg = engine.AggWarp
	defer func() { r.s = saved }()
	for iter := 0; iter < p.MaxIter*int(max(1, math.Log2(float64(r.n)))); iter++ {
		if err := r.begin(); err != nil {
			return err
		}
		/// 1. Take: the frontier's residuals move into their ranks.
		ta := a
		ta.inKind = int64(cur.kind)
		if cur.kind == kQueue {
			q, err := r.storage(cur)
			if err != nil {
				return err
			}
			ta.inQ, ta.inLen = q.addr(), r.lenAddr(cur.slot)
		}
		if err := r.launch("pr_take", blocks(cur.count, block), &ta); err != nil {
			return err
		}
		/// 2. Push d*r/deg to the out-neighbours.
		sp := &stepSpec{prefix: "pr_push", csr: &r.dg.out, in: cur, out: next, a: a, topo: cur.kind == kAll}
		if sp.topo {
			sp.in = nil
		}
		if err := r.step(sp); err != nil {
			return err
		}
		if err := r.finishStep(next, nil); err != nil {
			return err
		}
		taken := r.sweepErr()
		if err := r.emit(engine.Record{Direction: engine.Push, Mode: engine.Data, InVertices: cur.count, InEdges: cur.edges,
			OutVertices: next.count, EdgesScanned: int64(r.hctl[cEdges]), Note: fmt.Sprintf("residual taken %.3g", taken)}); err != nil {
			return err
		}
		cur, next = next, cur
		cur.kind, next.kind = kQueue, kQueue
		if cur.count == 0 {
			return nil
		}
	}
	return nil
}
