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
// side of the sweep is shared-memory atomics, kernels/pr.cu bin_sweep; method=dpb, pr_dpb.go:
// its staged form for graphs whose contributions outgrow L2, a streaming pass first writing each
// source's term once per bin, in bin order, deterministic propagation blocking [5]), until the L1 change of a sweep is
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
	if err := resolvePRMethod(r, s, p.AvgDegree); err != nil {
		return err
	}
	autoBinned(s, p.AvgDegree)
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
			// same cost (road: 23 sweeps against Jacobi's 33)
			s.Sync = engine.Async
		case s.Direction == engine.Pull && p.AvgDegree >= 5 && float64(p.MaxDegree) < 8*p.AvgDegree &&
			(req.LB == engine.LBAuto || req.LB == engine.LBWarp || req.LB == engine.LBEdge):
			// even degrees (urand): Gauss-Seidel converges in 4 sweeps where Jacobi needs 6,
			// and lb=edge's tiles (a warp per 8 vertices, their in-edges split evenly over
			// its lanes) keep more gathers in flight than a warp per vertex
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
	if binnedPush(s) && s.Method == engine.MethodAuto {
		s.Method = engine.Binned
	}
	return nil
}

// prDPBL2Share: method=auto takes the staged bins (method=dpb) where the contributions, 4 bytes
// a vertex, exceed 1/prDPBL2Share of the device's L2; below, the binned push's gathers mostly
// hit L2. On an H100 (50 MB of L2), ms a sweep, binned / dpb: kron20 (4 MB of contributions)
// 0.144 / 0.194, kron22 (16.8 MB) 0.793 / 0.552, kron25 (134 MB) 17.8 / 4.67.
const prDPBL2Share = 4

// resolvePRMethod fills and checks PageRank's method. method=binned is the binned push
// (direction=push blocking=N, N auto: prBinAutoN); method=dpb the staged bins (pr_dpb.go), N auto:
// the largest bin the shared memory holds (prDPBBin), unfused Jacobi with lb=edge.
// method=auto takes dpb for an all-auto schedule on a dense graph (average degree 5 or more,
// where auto bins) whose contributions outgrow the L2 (prDPBL2Share): there every gather of the
// binned push is a random DRAM sector (kron scale 25 on an H100: 17.8 ms a sweep).
func resolvePRMethod(r *run, s *engine.Schedule, avgDeg float64) error {
	if s.Method == engine.MethodAuto && avgDeg >= 5 && prAllAuto(s) && int64(r.n)*4*prDPBL2Share > int64(r.dev.l2) {
		s.Method = engine.DPB
	}
	if s.Method == engine.MethodAuto {
		return nil
	}
	if s.Blocking == engine.BlockingOff {
		return unsupported("method=%s sums the sweep in bins of N destinations (blocking=N); blocking=off has none", s.Method)
	}
	s.Direction, s.Driven = engine.Push, engine.Topology
	if s.Method == engine.Binned {
		if s.Blocking == 0 {
			s.Blocking = prBinAutoN
		}
		return nil
	}
	if s.Blocking == 0 {
		s.Blocking = prDPBBin(r)
	}
	switch {
	case s.Fuse == engine.FuseOn:
		return unsupported("method=dpb runs a sweep as three launches (the binning pass, the bins' sums, the apply); fuse=on is not built for it (method=binned fuses)")
	case s.LB != engine.LBAuto && s.LB != engine.LBEdge:
		return unsupported("method=dpb gives every block an equal run of the bins' slots (lb=edge); lb=%s does not apply", s.LB)
	}
	s.Fuse, s.LB, s.Sync = engine.FuseOff, engine.LBEdge, engine.SyncDB
	return nil
}

// prAllAuto reports whether s leaves PageRank's sweep to auto: blocking, lb, sync and fuse auto,
// topology-driven push or auto.
func prAllAuto(s *engine.Schedule) bool {
	return s.Blocking == 0 && s.LB == engine.LBAuto && s.Sync == engine.SyncAuto && s.Fuse == engine.FuseAuto &&
		(s.Driven == engine.DrivenAuto || s.Driven == engine.Topology) && (s.Direction == engine.DirAuto || s.Direction == engine.Push)
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
	binned := binnedPush(s) && s.Method != engine.DPB && s.Driven != engine.Data && s.Driven != engine.Hybrid &&
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

// binnedPush reports whether s runs PageRank's binned push (direction=push blocking=N), either
// form (method=binned or dpb); the resolved schedule's lb is then edge and its sync sync.
func binnedPush(s *engine.Schedule) bool { return s.Blocking > 0 && s.Direction == engine.Push }

// dpbPush reports whether s runs the staged form of the binned push (method=dpb).
func dpbPush(s *engine.Schedule) bool { return binnedPush(s) && s.Method == engine.DPB }

// prBinAutoN is the bin of the binned push that auto takes on dense graphs (autoBinned):
// 8192 destinations (bins of 4096 lost on urand and kron, 16384 tied on urand and lost on
// kron).
const prBinAutoN = 8192

// autoBinned resolves an all-auto PageRank schedule on a graph of average degree 5 or more to
// the binned push with bins of prBinAutoN destinations (direction=push blocking=prBinAutoN
// lb=edge sync=sync fuse=on): its sweeps gather from shared memory where the pull gathers from
// L2, and beat the pull on urand and kron. On sparse graphs (road, NY) it loses to the fused
// Gauss-Seidel pull, which converges in fewer sweeps: auto leaves them to resolvePRFuse.
func autoBinned(s *engine.Schedule, avgDeg float64) {
	if avgDeg < 5 {
		return
	}
	if !prAllAuto(s) {
		return
	}
	s.Direction, s.Driven, s.Blocking, s.LB, s.Sync, s.Fuse = engine.Push, engine.Topology, prBinAutoN, engine.LBEdge, engine.SyncDB, engine.FuseOn
}

// autoBlocking is blocking=auto's segment size for a topology-driven pull sweep: V/16 on a
// skewed graph (max degree over 100 x the average, kron) of a million vertices or more, off
// elsewhere: the blocked sweep (pr_bpull_twc) beats the unblocked one (pr_pull_twc) on kron
// scales 20 and 22 at V/16, and loses on urand at every size (its in-edges have no hubs to
// split and every entry costs an atomic add) and on road.
func autoBlocking(n int, avgDeg float64, maxDeg int64) int {
	if n < 1<<20 || float64(maxDeg) <= 100*avgDeg {
		return 0
	}
	return (n + 15) / 16
}

// preparePR builds and uploads the blocked, tiled or binned layout of blocking=N, once per
// graph, outside the timing, as the graph is.
func preparePR(r *run) error {
	if dpbPush(&r.s) {
		bin, sum := prDPBShapes(r, r.s.Blocking)
		_, err := r.dpb(sum.size, bin.size)
		return err
	}
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
	next, err := r.values64("next")
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
		if resid, err = r.values64("resid"); err != nil {
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
func (r *run) sweepErr() float64 { return math.Float64frombits(r.hostCtl[cErr]) }

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
	if dpbPush(&s) {
		return prDPB(r, a)
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
		if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "blocking",
			Note: fmt.Sprintf("EdgeBlocking, CTA-owned destinations: %d ranges of %d destinations x %d segments of %d sources (staged in shared memory), %d tiles for %d edges (layout built and uploaded in %v, once per graph, outside the timing)",
				(r.n+sh.rng-1)/sh.rng, sh.rng, blk.segs, sh.size, blk.entries, csr.m, blk.built.Round(time.Millisecond))}); err != nil {
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
		sa, err := proj.beginSweep(r, a)
		if err != nil {
			return err
		}
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
			sa.rowsPerBlock = int64(s.NP)
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
		case s.LB == engine.LBEdge:
			grid = prTileGrid(r, s.Sync == engine.Async)
		}
		if blk != nil && !tiled && !binned {
			if err := prBlockedSweep(r, sa, blk); err != nil {
				return err
			}
		} else if binned || tiled {
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
		if done, err := proj.endSweep(r, s.Direction); done || err != nil {
			return err
		}
	}
	return nil
}

// beginSweep starts a topology-driven sweep (run.begin) and returns a with the sweep's
// constant term.
func (p *prProjection) beginSweep(r *run, a kargs) (kargs, error) {
	a.base = p.constant()
	return a, r.begin()
}

// endSweep reads a topology-driven sweep's counters back, takes its projection, records the
// sweep (direction dir; the edges its kernels counted, or every arc) and reports whether the
// run is done: the L1 change under tolerance, or NaN.
func (p *prProjection) endSweep(r *run, dir engine.Direction) (bool, error) {
	if err := r.readCounters(); err != nil {
		return false, err
	}
	change := p.next(r.sweepErr(), math.Float64frombits(r.hostCtl[cRankSum]), math.Float64frombits(r.hostCtl[cRankDang]))
	scanned := int64(r.hostCtl[cEdges])
	if scanned == 0 {
		scanned = r.m
	}
	if err := r.emit(engine.Record{Direction: dir, Mode: engine.Topology, InVertices: int64(r.n), InEdges: r.m,
		OutVertices: int64(r.n), EdgesScanned: scanned, Note: fmt.Sprintf("L1 change %.3g", change)}); err != nil {
		return false, err
	}
	return change < r.req.Params.Tolerance || math.IsNaN(change), nil
}

// prBlockedSweep sums every segment of the blocked layout into rank_next in one launch: its
// blocks take the entries in order, segment after segment (blocks start in about launch
// order), so the sources being gathered at any time are those of one or two segments; two
// segments in flight can share a vertex, so the partial sums are added atomically. One launch
// per segment with plain adds lost everywhere (launch gaps and a tail per segment), and so
// did UGF's form with a grid-wide barrier between segments (fuse=on blocking).
func prBlockedSweep(r *run, a kargs, blk *blockedCSR) error {
	a.off, a.nbr, a.inQ, a.n, a.m, a.update = blk.off.addr(), blk.nbr.addr(), blk.rows.addr(), blk.entries, blk.segEdges[blk.segs], 1
	return r.launch("pr_bpull_"+lbSuffix[r.s.LB], prGrid(r, r.s.LB, a.n, a.m), &a)
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
			OutVertices: next.count, EdgesScanned: int64(r.hostCtl[cEdges]), Note: fmt.Sprintf("residual taken %.3g", taken)}); err != nil {
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
