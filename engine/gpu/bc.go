//go:build cuda

package gpu

import (
	"fmt"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
)

// bc returns, for every vertex v, the sum over the sources s of Brandes's dependency
// delta_s(v) (unnormalised; halved on an undirected graph). The sources are engine.BCSources:
// src alone (sources=0), k vertices sampled from seed, or all; the first trace note lists them.
//
// Approach: Brandes (2001) as Gunrock's BC runs it, one source at a time, one launch per level
// (kernels/bc.cu):
//
//  1. forward: a BFS that counts shortest paths (sigma, double). direction=push: the level's
//     vertices claim unvisited out-neighbours (CAS on depth) and add their sigma into theirs
//     (atomic add). direction=pull: every unvisited vertex sums sigma over its in-neighbours at
//     the level, writing only itself. direction=auto (the default) is Beamer's
//     direction-optimizing switch with alpha and beta, traced with the quantities compared.
//     driven=data (the default) stores each level as a queue (and, for pull, keeps a worklist
//     of the unvisited vertices); driven=topology sweeps every vertex, selecting by depth.
//  2. backward: from the deepest level up, every vertex v of level d takes
//     delta[v] = sigma[v] * sum over out-neighbours w at level d+1 of (1 + delta[w]) / sigma[w]
//     and adds it to its centrality: a pull over the stored level (data) or a depth sweep
//     (topology).
//
// lb=warp gives each vertex a warp, lanes over its edges; lb=thread a thread; unfused, auto
// picks warp when the maximum degree exceeds 4 times the average, else thread. fuse=on (auto)
// runs both phases of a source in one cooperative launch instead (bc_fused.go), and batch=K
// runs K sources a pass, a bit per source (bc_batch.go).
// The first 16 sources get a record per level, later ones one per phase. Time O(V + E) per
// source; device memory four arrays of V doubles and ints plus the stored levels.
//
// [1] Brandes. A faster algorithm for betweenness centrality. J. Math. Sociology 2001.
// [2] Wang et al. Gunrock. ACM TOPC 2017. [3] Beamer et al. SC 2012. [4] GAPBS src/bc.cc.
// bcArgs mirrors struct BcArgs in kernels/bc.cu field for field (all 8 bytes).
type bcArgs struct {
	off, nbr, ioff, inbr     uint64
	n                        int64
	depth, sigma, coef, cent uint64
	q                        uint64
	qlen, topo               int64
	next, rest               uint64
	d, src                   int64
	counters                 uint64
	half                     int64
}

var _ [144 - unsafe.Sizeof(bcArgs{})]byte // sizeof(BcArgs), static_asserted in bc.cu
var _ [unsafe.Sizeof(bcArgs{}) - 144]byte

// bcDetailed is how many sources get one trace record per level.
const bcDetailed = 16

// bc counters (words of the run's counter block).
const (
	bcFound, bcOutEdges, bcScanned, bcNext, bcRest = 0, 1, 2, 3, 4
)

type bcState struct {
	r                  *run
	a                  bcArgs
	lb                 string
	width              int64 // threads per vertex
	dir                engine.Direction
	data, explicitPull bool
	alpha, beta        float64
	queue, unv, rest   buffer
	bounds             []int64
	reached            int64
	prevReached        int64
	depth, sigma       buffer
}

// resolveBC fills BC's auto knobs. batch=auto (bcAutoBatch) runs many sources in batches of
// up to 32, a bit each (bc_batch.go), on graphs of estimated diameter under 100; a road
// network's thousands of levels would each sweep every vertex, so there a source runs alone.
// A source that runs alone takes fuse=auto's cooperative launch for both phases
// (bc_fused.go) where the schedule has a fused form (data-driven over queues), with twc's
// degree classes on dense graphs and a warp per row on sparse ones, and a hub's row over the
// grid: the levels cost a grid barrier instead of a launch and a read-back each. Unfused (fuse=off, a launch a
// level): data-driven over queues, a warp per vertex where degrees are skewed (a thread's
// hubs serialize) or a thread where they are even.
func resolveBC(r *run, s *engine.Schedule) error {
	switch {
	case s.Driven == engine.Hybrid:
		return unsupported("bc: driven=hybrid: bc runs data- or topology-driven; direction=auto switches push and pull")
	case s.Frontier != engine.FrontierAuto && s.Frontier != engine.Queue:
		return unsupported("bc: frontier=%s: the stored levels are queues", s.Frontier)
	case s.PushAgg != engine.AggAuto:
		return unsupported("bc: push_agg=%s: the level pushes are one atomic each", s.PushAgg)
	case s.LB != engine.LBAuto && s.LB != engine.LBThread && s.LB != engine.LBWarp && s.LB != engine.LBCTA && s.LB != engine.LBTWC:
		return unsupported("bc: lb=%s: bc gives a vertex a thread or a warp (lb=thread|warp), fused also a block or twc's classes (lb=cta|twc)", s.LB)
	case s.Batch > bcBatchMax:
		return unsupported("bc: batch=%d: the GPU runs at most %d sources a pass (a lane of a warp each)", s.Batch, bcBatchMax)
	}
	fusable := s.Driven != engine.Topology
	if s.Fuse == engine.FuseOn && !fusable {
		return unsupported("bc: fuse=on runs data-driven levels over queues (not driven=topology)")
	}
	if s.Batch == 0 {
		s.Batch = bcAutoBatch(r, s)
	}
	if s.Fuse == engine.FuseAuto {
		// a source alone runs fused; batches run a launch a level (the few sources a batch
		// leaves, those that went too deep, too). lb=cta and lb=twc exist only fused.
		s.Fuse = engine.FuseOff
		if fusable && (s.Batch <= 1 || s.LB == engine.LBCTA || s.LB == engine.LBTWC) {
			s.Fuse = engine.FuseOn
		}
	}
	if s.Fuse == engine.FuseOff && (s.LB == engine.LBCTA || s.LB == engine.LBTWC) {
		return unsupported("bc: lb=%s runs fused (fuse=on); unfused levels give a vertex a thread or a warp", s.LB)
	}
	if s.Driven == engine.DrivenAuto {
		s.Driven = engine.Data
	}
	if s.Frontier == engine.FrontierAuto && s.Driven == engine.Data {
		s.Frontier = engine.Queue
	}
	if s.Update == engine.UpdateAuto {
		s.Update = engine.RMW
	}
	p := r.g.Properties()
	if s.LB == engine.LBAuto {
		switch {
		case s.Fuse == engine.FuseOn && p.AvgDegree >= 5:
			s.LB = engine.LBTWC
		case s.Fuse == engine.FuseOn:
			// sparse rows (a road network): a warp per row, its lanes over the edges; twc's
			// thread class would walk each row's few edges serially, 256 rows a block
			s.LB = engine.LBWarp
		case float64(p.MaxDegree) <= 4*max(p.AvgDegree, 1):
			s.LB = engine.LBThread
		default:
			s.LB = engine.LBWarp
		}
	}
	return nil
}

// bcAutoBatch is batch=auto: for several sources of a graph of estimated diameter under 100
// and no fuse=on or lb=cta|twc (a source a cooperative launch), as many sources a pass as
// there are, up to 32 and as many as a quarter of the device's memory holds path counts and
// coefficients for (16 bytes a vertex and source); else 1.
func bcAutoBatch(r *run, s *engine.Schedule) int {
	n := int64(max(r.g.NumVertices(), 1))
	k := int64(r.req.Params.Sources)
	if k < 0 || k > n {
		k = n // sources=all
	}
	if k < 2 || s.Fuse == engine.FuseOn || s.LB == engine.LBCTA || s.LB == engine.LBTWC || r.g.Properties().Diameter >= 100 {
		return 1
	}
	w := min(int64(bcBatchMax), k, r.dev.mem/4/(16*n))
	if w < 2 {
		return 1
	}
	return int(w)
}

// bc runs Brandes's two phases from every source.
func bc(r *run) error {
	s := r.s
	srcs, err := engine.BCSources(r.req.Params, r.g)
	if err != nil {
		return fmt.Errorf("gpu: %v", err)
	}
	if r.req.Params.Sources == 0 || r.req.Params.Src < 0 {
		r.res.Params.Src = int64(srcs[0]) // the source; with sampled sources, the first (src is unused)
	}
	n := int64(r.n)
	b := &bcState{r: r, lb: s.LB.String(), width: 1, dir: s.Direction, data: s.Driven == engine.Data,
		alpha: s.Alpha, beta: s.Beta}
	if s.LB != engine.LBThread {
		// lb=warp, and lb=cta|twc (fused) in the host-driven levels of a search deeper than
		// the fused launch stores
		b.lb, b.width = "warp", 32
	}
	if b.alpha == 0 {
		b.alpha = engine.DefaultAlpha
	}
	if b.beta == 0 {
		b.beta = engine.DefaultBeta
	}
	b.explicitPull = b.data && b.dir == engine.Pull
	a := &b.a
	a.off, a.nbr, a.n, a.counters = r.dg.out.off.addr(), r.dg.out.nbr.addr(), n, r.ctl.addr()
	if b.dir != engine.Push || s.Fuse == engine.FuseOn || s.Batch > 1 {
		in, err := r.inCSR()
		if err != nil {
			return err
		}
		a.ioff, a.inbr = in.off.addr(), in.nbr.addr()
	}
	// Per-vertex state: depth -1, sigma 0, centrality 0 (a fused launch that runs every source
	// clears depth and sigma itself).
	batched := s.Batch > 1 && len(srcs) > 1
	fusedOnly := s.Fuse == engine.FuseOn && !batched
	if b.depth, err = r.buf("bc.depth", n*4, false); err != nil {
		return err
	}
	if b.sigma, err = r.buf("bc.sigma", n*8, false); err != nil {
		return err
	}
	if !fusedOnly {
		if err := memset32(b.depth, 0xffffffff, n); err != nil {
			return err
		}
		if err := memset8(b.sigma, 0, n*8); err != nil {
			return err
		}
	}
	coef, err := r.buf("bc.coef", n*8, false)
	if err != nil {
		return err
	}
	cent, err := r.buf("bc.cent", n*8, false)
	if err != nil {
		return err
	}
	if err := memset8(cent, 0, n*8); err != nil {
		return err
	}
	a.depth, a.sigma, a.coef, a.cent = b.depth.addr(), b.sigma.addr(), coef.addr(), cent.addr()
	// an undirected graph finds each path from both ends: the single-source kernels add half
	// of each dependency, or, where batches add whole ones, bc_halve halves the sum at the end
	if !r.g.Directed && !batched {
		a.half = 1
	}
	if b.data {
		if b.queue, err = r.buf("bc.queue", n*4, false); err != nil {
			return err
		}
	}
	if b.explicitPull {
		if b.unv, err = r.buf("bc.unv", n*4, false); err != nil {
			return err
		}
		if b.rest, err = r.buf("bc.rest", n*4, false); err != nil {
			return err
		}
	}
	// The sources: in batches of s.Batch, a bit each, then one at a time those of a batch that
	// went too deep (all of them when batch=1).
	singles := srcs
	if batched {
		if singles, err = b.batches(srcs, s.Batch); err != nil {
			return err
		}
	}
	var f *bcFusedRun
	if s.Fuse == engine.FuseOn && len(singles) > 0 {
		if f, err = b.newFused(coef); err != nil {
			return err
		}
	}
	for si, src := range singles {
		note := ""
		if si == 0 && len(singles) == len(srcs) {
			note = engine.BCSourcesNote(r.req.Params, srcs, r.g.IDs) + "; "
		}
		if f != nil {
			f.last = si == len(singles)-1
			err = f.source(src, si < bcDetailed, note)
		} else {
			err = b.source(src, si < bcDetailed, note)
		}
		if err != nil {
			return err
		}
		if si == 0 && len(singles) == len(srcs) {
			r.res.Summary.Reached = b.reached
		}
	}
	if !r.g.Directed && batched {
		if err := launchStruct(r, "bc_halve", blocks(n, block), a); err != nil {
			return err
		}
	}
	r.collect = func() error {
		c := make([]float64, n)
		if err := download(c, cent); err != nil {
			return err
		}
		r.res.Centrality = c
		return nil
	}
	return nil
}

// launch starts kernel prefix_<lb> over items work items (a thread or a warp each).
func (b *bcState) launch(prefix string, items int64) error {
	return launchStruct(b.r, prefix+"_"+b.lb, blocks(max(items, 1)*b.width, block), &b.a)
}

// source runs both phases from src and adds its dependencies into the centralities.
func (b *bcState) source(src uint32, detailed bool, note string) error {
	r, a := b.r, &b.a
	n := int64(r.n)
	// 0. Clear the previous source's depth and sigma, and start this one.
	if err := r.begin(); err != nil {
		return err
	}
	phaseStart := r.iterStart
	if b.prevReached > 0 {
		if b.data {
			a.q, a.qlen, a.topo = b.queue.addr(), b.prevReached, 0
			if err := launchStruct(r, "bc_reset", blocks(a.qlen, block), a); err != nil {
				return err
			}
		} else {
			if err := memset32(b.depth, 0xffffffff, n); err != nil {
				return err
			}
			if err := memset8(b.sigma, 0, n*8); err != nil {
				return err
			}
		}
	}
	a.src, a.next = int64(src), 0
	if b.data {
		a.next = b.queue.addr()
	}
	if err := launchStruct(r, "bc_source", 1, a); err != nil {
		return err
	}
	unvLen := n - 1
	if b.explicitPull {
		a.rest = b.unv.addr()
		if err := launchStruct(r, "bc_unvisited", blocks(n, block), a); err != nil {
			return err
		}
	}
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "forward",
		Note: note + "BFS from " + r.g.IDs.Text(src) + " counting shortest paths"}); err != nil {
		return err
	}
	// 1. Forward, one level per launch.
	b.bounds = append(b.bounds[:0], 0, 1)
	var phaseEdges int64
	reached, frontier, frontierEdges := int64(1), int64(1), r.g.Degree(src)
	edgesToCheck := r.m
	dir := b.dir
	if dir == engine.DirAuto {
		dir = engine.Push
	}
	awakePrev := int64(0)
	d := int64(0)
	for ; frontier > 0; d++ {
		if d > 0 || detailed {
			if err := r.begin(); err != nil {
				return err
			}
		}
		if b.dir == engine.DirAuto {
			var sw *engine.Switch
			switch {
			case dir == engine.Push && float64(frontierEdges) > float64(edgesToCheck)/b.alpha:
				dir = engine.Pull
				sw = &engine.Switch{What: "direction", From: "push", To: "pull",
					Reason: fmt.Sprintf("frontier edges %d > unexplored edges %d / alpha %g", frontierEdges, edgesToCheck, b.alpha),
					Lhs:    engine.Quantity{Name: "frontier edges", Value: float64(frontierEdges)}, Op: ">",
					Rhs: engine.Quantity{Name: "unexplored edges / alpha", Value: float64(edgesToCheck) / b.alpha}}
			case dir == engine.Pull && frontier < awakePrev && float64(frontier) < float64(n)/b.beta:
				dir = engine.Push
				sw = &engine.Switch{What: "direction", From: "pull", To: "push",
					Reason: fmt.Sprintf("frontier %d < V %d / beta %g and shrinking", frontier, n, b.beta),
					Lhs:    engine.Quantity{Name: "frontier vertices", Value: float64(frontier)}, Op: "<",
					Rhs: engine.Quantity{Name: "V / beta", Value: float64(n) / b.beta}}
			}
			if sw != nil && detailed {
				if err := r.emit(engine.Record{Kind: engine.SwitchRecord, Phase: "forward", Switch: sw}); err != nil {
					return err
				}
			}
		}
		a.d, a.next = d, 0
		if b.data {
			a.next = b.queue.addr() + uint64(b.bounds[d+1])*4
		}
		var items int64
		if dir == engine.Push {
			if b.data {
				a.q, a.qlen, a.topo = b.queue.addr()+uint64(b.bounds[d])*4, b.bounds[d+1]-b.bounds[d], 0
				items = a.qlen
			} else {
				a.topo, items = 1, n
			}
			if err := b.launch("bc_push", items); err != nil {
				return err
			}
		} else {
			if b.explicitPull {
				a.q, a.qlen, a.topo, a.rest = b.unv.addr(), unvLen, 0, b.rest.addr()
				items = unvLen
			} else {
				a.topo, items = 1, n
			}
			if err := b.launch("bc_pull", items); err != nil {
				return err
			}
		}
		if err := r.readCounters(); err != nil {
			return err
		}
		found, outEdges, scanned := int64(r.hostCtl[bcFound]), int64(r.hostCtl[bcOutEdges]), int64(r.hostCtl[bcScanned])
		if dir == engine.Pull && b.explicitPull {
			b.unv, b.rest = b.rest, b.unv
			unvLen = int64(r.hostCtl[bcRest])
		}
		if b.data {
			b.bounds = append(b.bounds, b.bounds[d+1]+found)
		}
		mode := engine.Data
		if !b.data || (dir == engine.Pull && b.dir == engine.DirAuto) {
			mode = engine.Topology
		}
		if detailed {
			if err := r.emit(engine.Record{Phase: "forward", Direction: dir, Mode: mode, InVertices: frontier, InEdges: frontierEdges,
				OutVertices: found, EdgesScanned: scanned}); err != nil {
				return err
			}
		}
		phaseEdges += scanned
		if dir == engine.Push {
			edgesToCheck -= frontierEdges
		}
		awakePrev = frontier
		frontier, frontierEdges = found, outEdges
		reached += found
	}
	maxDepth := d - 1 // the last level found vertices at d-1 (d-1 = 0 when only the source)
	if !detailed {
		r.iterStart = phaseStart
		if err := r.emit(engine.Record{Phase: "forward", Direction: b.dir, Mode: modeOf(b.data), InVertices: reached,
			EdgesScanned: phaseEdges, Note: "whole phase"}); err != nil {
			return err
		}
	}
	b.reached, b.prevReached = reached, reached
	// 2. Backward, deepest level first.
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "backward",
		Note: fmt.Sprintf("dependencies over %d stored levels, deepest first", maxDepth+1)}); err != nil {
		return err
	}
	if err := r.begin(); err != nil {
		return err
	}
	phaseStart, phaseEdges = r.iterStart, 0
	for d := maxDepth; d >= 0; d-- {
		if detailed && d < maxDepth {
			if err := r.begin(); err != nil {
				return err
			}
		}
		a.d = d
		var items int64
		if b.data {
			a.q, a.qlen, a.topo = b.queue.addr()+uint64(b.bounds[d])*4, b.bounds[d+1]-b.bounds[d], 0
			items = a.qlen
		} else {
			a.topo, items = 1, n
		}
		if err := b.launch("bc_back", items); err != nil {
			return err
		}
		if detailed {
			if err := r.readCounters(); err != nil {
				return err
			}
			phaseEdges += int64(r.hostCtl[bcScanned])
			if err := r.emit(engine.Record{Phase: "backward", Direction: engine.Pull, Mode: modeOf(b.data),
				InVertices: int64(r.hostCtl[bcFound]), EdgesScanned: int64(r.hostCtl[bcScanned])}); err != nil {
				return err
			}
		}
	}
	if !detailed {
		if err := r.readCounters(); err != nil {
			return err
		}
		r.iterStart = phaseStart
		return r.emit(engine.Record{Phase: "backward", Direction: engine.Pull, Mode: modeOf(b.data), InVertices: int64(r.hostCtl[bcFound]),
			EdgesScanned: int64(r.hostCtl[bcScanned]), Note: "whole phase"})
	}
	return nil
}
