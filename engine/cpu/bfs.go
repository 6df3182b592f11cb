package cpu

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// BFS: the depth of every vertex from src (engine.UnreachedDepth where unreached).
//
// The schedule space (Beamer et al. [1], GAPBS bfs.cc; Nasre et al. [2]; UGF [3]):
//
//   - direction=push (top-down): frontier vertices claim their unvisited out-neighbours.
//     Pushes go to per-worker local queues whose concatenation, through a prefix sum of their
//     lengths, is the next frontier: no shared queue and no per-vertex atomic on it.
//   - direction=pull (bottom-up): every unvisited vertex scans its in-neighbours for one in
//     the frontier, held as a bitmap (or boolmap), and stops at the first.
//   - direction=auto (direction-optimizing, the default): push until the frontier's edges
//     (scoutCount) exceed the unexplored edges / alpha, then pull until the frontier
//     (awakeCount) shrinks below V / beta; each switch is a switch record.
//   - driven=topology: every vertex every level (a vertex is in the frontier when its depth is
//     the level); driven=hybrid: topology while the frontier exceeds threshold x V.
//   - frontier=queue|bitmap|boolmap: the push frontier's representation.
//   - update=rmw claims a vertex with a CAS on its depth; update=rw reads, then writes.
//   - dedup=atomic pushes each vertex once (with rw: an atomic visited bitmap); dedup=none
//     lets racing rw writers push a vertex twice (counted in the trace); dedup=cull removes
//     such duplicates from the next queue with a bitmap filter (Gunrock's filter).
//
// The depth array doubles as the visited set: depth < 0 means unvisited. This file resolves
// the knobs and runs the level loop; the steps are in bfs_td.go (top-down), bfs_bu.go
// (bottom-up) and bfs_topo.go (topology sweeps), the frontier's forms in bfs_frontier.go.
//
// [1] Beamer, Asanović, Patterson. Direction-optimizing breadth-first search. SC 2012.
// [2] Nasre, Burtscher, Pingali. Data-driven versus topology-driven irregular computations on
// GPUs. IPDPS 2013. [3] Brahmakshatriya et al. Compiling graph applications for GPUs with
// GraphIt. CGO 2021.
func init() { register(engine.BFS, runBFS) }

// claim modes of a push step.
const (
	claimCAS  = iota // CAS depth from -1 (update=rmw)
	claimBit         // plain check, atomic visited-bitmap claim, then write (update=rw, dedup=atomic)
	claimNone        // plain check, then write: racing writers both push (update=rw, dedup=none|cull)
)

type bfsState struct {
	*Run
	g, t     *graph.CSR // t: in-edges, for pull steps
	n        int
	depth    []int32
	claim    int
	frontier engine.Frontier
	cull     bool
	visited  bitmap // claimBit's claims; cull's filter

	cur, next   *segQueue
	cursors     []segCursor // tdQueue's, one a segment
	front, nmap bitmap      // frontier bitmaps (pull, frontier=bitmap)
	maps        *bfsMaps    // where front and nmap come from, pooled
	bfront, bnx boolmap     // frontier boolmaps (frontier=boolmap)
	cnt         []counters
}

// bfsStats is what one step reports: the entries of the next frontier (duplicates included
// where they stay), their out-edges, the edges examined, and the duplicate pushes.
type bfsStats struct {
	queued, outEdges, scanned, dups int64
}

func runBFS(ctx context.Context, r *Run) error {
	g := r.G
	src, err := engine.ResolveSource(r.Req.Params, g)
	if err != nil {
		return err
	}
	r.Res.Params.Src = int64(src)
	s := &r.Res.Schedule
	if err := r.vertexLB(); err != nil {
		return err
	}
	if s.Sync == engine.Async {
		return fmt.Errorf("cpu: bfs sync=async: the CPU BFS is level-synchronous (sync=sync); run sssp for label-correcting traversals: %w", engine.ErrUnsupported)
	}
	s.Sync = engine.SyncDB
	if s.Driven == engine.DrivenAuto {
		s.Driven = engine.Data
	}
	if s.Driven == engine.Hybrid {
		if s.Direction == engine.Pull || s.Direction == engine.DirAuto && s.Frontier != engine.FrontierAuto && s.Frontier != engine.Queue {
			return fmt.Errorf("cpu: bfs driven=hybrid alternates push sweeps and push queue steps: use direction=push: %w", engine.ErrUnsupported)
		}
		s.Direction = engine.Push
		s.Frontier = engine.Queue
		if s.Threshold == 0 {
			s.Threshold = engine.DefaultThreshold
		}
	}
	if s.Direction == engine.Pull && s.Frontier == engine.Queue {
		return fmt.Errorf("cpu: bfs direction=pull tests frontier membership, which needs frontier=bitmap or boolmap: %w", engine.ErrUnsupported)
	}
	if s.Direction == engine.DirAuto {
		s.Alpha = orDefault(s.Alpha, engine.DefaultAlpha)
		s.Beta = orDefault(s.Beta, engine.DefaultBeta)
	}
	if s.Update == engine.UpdateAuto {
		s.Update = engine.RMW // a CAS claim: no duplicates, no visited bitmap
		if s.Dedup == engine.DedupNone || s.Dedup == engine.DedupCull {
			s.Update = engine.RW // duplicates asked for: only racing plain writes make them
		}
	}
	if s.Driven != engine.Topology {
		if s.Frontier == engine.FrontierAuto {
			if s.Direction == engine.Pull {
				s.Frontier = engine.Bitmap
			} else {
				s.Frontier = engine.Queue
			}
		}
		if s.Dedup == engine.DedupAuto && s.Direction != engine.Pull {
			s.Dedup = engine.DedupAtomic // a pull step pushes nothing: dedup stays not applicable
		}
	}
	b := &bfsState{Run: r, g: g, n: g.NumVertices(), frontier: s.Frontier}
	switch {
	case s.Update == engine.RMW:
		b.claim = claimCAS
		if s.Dedup == engine.DedupNone || s.Dedup == engine.DedupCull {
			return fmt.Errorf("cpu: bfs update=rmw claims each vertex with a CAS, so it never pushes duplicates: use dedup=atomic (or update=rw with dedup=%s): %w", s.Dedup, engine.ErrUnsupported)
		}
	case s.Dedup == engine.DedupNone || s.Dedup == engine.DedupCull || s.Driven == engine.Topology:
		b.claim = claimNone
		b.cull = s.Dedup == engine.DedupCull
	default:
		b.claim = claimBit
	}
	if s.Direction != engine.Push {
		b.t = g.Transpose()
	}
	// An unvisited vertex holds -1 - its out-degree (GAPBS keeps -degree in parent[]), so a
	// top-down step learns a newly claimed vertex's degree (the next scoutCount) from the value
	// it replaces, without a second cache miss on Offsets. countReached turns them into
	// engine.UnreachedDepth at the end.
	b.depth = make([]int32, b.n)
	depth, off := b.depth, g.Offsets
	r.forRange(b.n, 1<<14, 1, func(_, lo, hi int) {
		d, o := depth[lo:hi], off[lo:hi+1]
		for i := range d {
			d[i] = int32(-1 - min(o[i+1]-o[i], 1<<30))
		}
	})
	b.depth[src] = 0
	b.cnt = make([]counters, r.Workers)
	if b.claim != claimCAS {
		b.visited = newBitmap(b.n)
		b.visited.set(src)
	}
	if err := b.loop(ctx, src); err != nil {
		return err
	}
	r.Res.Depth = b.depth
	return nil
}

func orDefault(x, def float64) float64 {
	if x == 0 {
		return def
	}
	return x
}

// The frontier lives in one of three forms; the loop converts when the step's needs change.
const (
	inQueue = iota
	inBitmap
	inBoolmap
	inDepth // topology: the frontier is the vertices whose depth is the level
)

func (b *bfsState) loop(ctx context.Context, src uint32) error {
	s := b.Res.Schedule
	n := int64(b.n)
	edgesToCheck := b.g.NumArcs()
	scoutCount := b.g.Degree(src) // the heuristic's frontier edges (GAPBS resets it to 1 after pulling)
	frontEdges := scoutCount      // the trace's
	frontSize := int64(1)
	// pushForm and pullForm are the representations push and pull steps read.
	pushForm, pullForm := inQueue, inBitmap
	switch s.Frontier {
	case engine.Bitmap:
		pushForm = inBitmap
	case engine.Boolmap:
		pushForm, pullForm = inBoolmap, inBoolmap
	}
	form := inQueue
	q1, q2 := getSegQueue(b.Workers), getSegQueue(b.Workers)
	b.cur, b.next = q1, q2
	defer func() {
		// Back in the reverse order of the gets (segQueues hands out the last kept first), so
		// that a run repeated takes them in the same roles whatever the steps' swaps: each
		// queue's segments then have grown to the levels it holds. Put back as the steps left
		// them, the two could trade roles, and a run then grew their segments again, as slow
		// as a first run (TestBFSRepeatNoGrowth).
		putSegQueue(q2)
		putSegQueue(q1)
		if b.maps != nil {
			b.maps.front, b.maps.nmap = b.front, b.nmap // (steps swap them)
			bfsMapKeep.put(b.maps)
		}
	}()
	b.cur.setOne(src)
	dir := engine.Push
	if s.Direction == engine.Pull {
		dir = engine.Pull
	}
	mode := engine.Data
	if s.Driven == engine.Topology {
		mode = engine.Topology
	}
	oldAwake := int64(0)
	for level, iter := int32(0), 0; frontSize > 0; level, iter = level+1, iter+1 {
		if err := b.ctxErr(ctx); err != nil {
			return err
		}
		// Direction-optimizing: decide this level's direction from the previous one's counts.
		if s.Direction == engine.DirAuto {
			if dir == engine.Push && float64(scoutCount) > float64(edgesToCheck)/s.Alpha {
				b.emit(switchRecord(iter, "direction", "push", "pull",
					engine.Quantity{Name: "scoutCount (frontier edges)", Value: float64(scoutCount)}, ">",
					engine.Quantity{Name: "unexplored edges / alpha", Value: float64(edgesToCheck) / s.Alpha}))
				dir = engine.Pull
			} else if dir == engine.Pull && frontSize < oldAwake && float64(frontSize) <= float64(n)/s.Beta {
				b.emit(switchRecord(iter, "direction", "pull", "push",
					engine.Quantity{Name: "awakeCount (frontier vertices)", Value: float64(frontSize)}, "<",
					engine.Quantity{Name: "V / beta", Value: float64(n) / s.Beta}))
				dir = engine.Push
				scoutCount = 1
			}
		}
		if s.Driven == engine.Hybrid {
			thr := s.Threshold * float64(n)
			if mode == engine.Data && float64(frontSize) > thr {
				b.emit(switchRecord(iter, "mode", "data", "topology",
					engine.Quantity{Name: "worklist", Value: float64(frontSize)}, ">",
					engine.Quantity{Name: "threshold x V", Value: thr}))
				mode = engine.Topology
			} else if mode == engine.Topology && float64(frontSize) <= thr {
				b.emit(switchRecord(iter, "mode", "topology", "data",
					engine.Quantity{Name: "worklist", Value: float64(frontSize)}, "<=",
					engine.Quantity{Name: "threshold x V", Value: thr}))
				mode = engine.Data
			}
		}
		start := time.Now()
		rec := engine.Record{Iter: iter, Direction: dir, Mode: mode, InVertices: frontSize, InEdges: frontEdges}
		var st bfsStats
		switch {
		case mode == engine.Topology && dir == engine.Push:
			st = b.tdTopo(level, s.Driven == engine.Hybrid)
			form = inQueue // (filled only by the hybrid, the only mode that reads it next)
		case mode == engine.Topology:
			st = b.buTopo(level)
		case dir == engine.Push:
			b.convert(form, pushForm)
			form = pushForm
			switch form {
			case inQueue:
				st = b.tdQueue(level)
			default:
				st = b.tdMap(level, form == inBitmap)
			}
		default:
			b.convert(form, pullForm)
			form = pullForm
			st = b.buStep(level, form)
			oldAwake = frontSize
		}
		if b.stopped() {
			return b.ctxErr(ctx)
		}
		if dir == engine.Push {
			edgesToCheck -= scoutCount
		}
		rec.OutVertices, rec.EdgesScanned, rec.Duplicates = st.queued, st.scanned, st.dups
		rec.Time = time.Since(start)
		b.emit(rec)
		frontSize = st.queued
		frontEdges = st.outEdges
		scoutCount = st.outEdges
		if st.queued > 0 {
			b.Res.Summary.MaxDepth = level + 1
		}
	}
	// After the clock: GAPBS's trial ends with unvisited vertices still holding their
	// encoded degrees, as depth does here.
	b.collect = func() error { b.Res.Summary.Reached = b.countReached(); return nil }
	return nil
}

// countReached counts the vertices with a depth and marks the others UnreachedDepth (-1),
// without a branch: reached or not is a coin toss per vertex on many graphs, and a
// mispredicted branch per vertex cost more than the whole pass's memory traffic.
func (b *bfsState) countReached() int64 {
	const _ = uint(engine.UnreachedDepth+1) + uint(-1-engine.UnreachedDepth) // compiles only if it is -1

	clear(b.cnt)
	b.forRange(b.n, 1<<16, 1, func(w, lo, hi int) {
		var c int64
		d := b.depth[lo:hi]
		for i, x := range d {
			neg := x >> 31 // -1 when unvisited, else 0
			d[i] = x | neg
			c += int64(1 + neg)
		}
		b.cnt[w].a += c
	})
	return sumCounters(b.cnt).a
}

func switchRecord(iter int, what, from, to string, lhs engine.Quantity, op string, rhs engine.Quantity) engine.Record {
	return engine.Record{Kind: engine.SwitchRecord, Iter: iter, Switch: &engine.Switch{
		What: what, From: from, To: to, Lhs: lhs, Op: op, Rhs: rhs,
		Reason: fmt.Sprintf("%s %.4g %s %s %.4g", lhs.Name, lhs.Value, op, rhs.Name, rhs.Value),
	}}
}

// visit claims u for depth nd according to the claim mode and reports whether the caller
// should push it.
func (b *bfsState) visit(u uint32, nd int32) bool {
	old := atomic.LoadInt32(&b.depth[u])
	if old >= 0 {
		return false
	}
	switch b.claim {
	case claimCAS:
		return atomic.CompareAndSwapInt32(&b.depth[u], old, nd)
	case claimBit:
		if b.visited.testAndSet(u) {
			return false
		}
	}
	atomic.StoreInt32(&b.depth[u], nd)
	return true
}
