package cpu

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// SSSP: the distance of every vertex from src (engine.InfDist where unreached). Weights must
// be non-negative; an unweighted graph has weight 1 on every arc.
//
// The schedule space:
//
//   - method=deltastep (the default; Meyer and Sanders [1], GAPBS sssp.cc [2]): vertices wait
//     in buckets of width delta; each round relaxes the lowest non-empty bucket. Every worker
//     keeps its own bins, so a round's frontier is the concatenation of the workers' bins for
//     that bucket, and with bucket fusion a worker goes on relaxing its own bin of the current
//     bucket while that stays small, without a barrier. Stale entries (the vertex has since
//     moved to an earlier bucket) are skipped and counted as duplicates.
//   - method=nearfar (Davidson et al. [3]): two piles; the near pile holds vertices closer
//     than a threshold and is relaxed until empty, then the threshold grows by delta and the
//     far pile is split again.
//   - driven=topology: Bellman-Ford sweeps over every vertex until one changes nothing;
//     direction=pull takes, for each vertex, the minimum over its in-arcs (no atomics on
//     writes).
//   - driven=hybrid (Nasre et al. [4]): a worklist Bellman-Ford that runs a topology sweep
//     instead of a worklist round while the worklist exceeds threshold x V.
//   - update=rmw: an atomic-min (CAS loop) per improvement; update=rw: read, then write, which
//     can lose a write to a racing worse one; only the topology-driven sweep, which repeats
//     until nothing changes, makes that correct, so rw runs there.
//   - sync=async: one distance array; sync=sync: a round reads the distances of the previous
//     round and writes a second array (deterministic rounds, no bucket fusion).
//   - dedup=atomic: a vertex is queued once per bucket (near-far, worklist: once per round).
//
// delta=auto picks the bucket width from the weights (see autoDelta). This file resolves the
// knobs and holds what the methods share (relax, the dedup claim, the sync commit); each
// method has its own file: sssp_delta.go, sssp_nearfar.go, sssp_bellmanford.go,
// sssp_hybrid.go.
//
// [1] Meyer, Sanders. Delta-stepping: a parallelizable shortest path algorithm. J. Algorithms
// 2003. [2] Beamer, Asanović, Patterson. The GAP benchmark suite. 2015. [3] Davidson et al.
// Work-efficient parallel GPU methods for single-source shortest paths. IPDPS 2014.
// [4] Nasre, Burtscher, Pingali. Data-driven versus topology-driven irregular computations on
// GPUs. IPDPS 2013.
func init() { register(engine.SSSP, runSSSP) }

const (
	infDist        = int64(engine.InfDist)
	fusionMaxBin   = 1000 // bucket fusion goes on while the worker's own bin is smaller (GAPBS kBinSizeThreshold)
	noBin          = math.MaxInt64
	ssspDataGrain  = 64
	ssspSweepGrain = 1024
)

type ssspState struct {
	*Run
	g      *graph.CSR
	n      int
	dist   []int32 // read
	wdist  []int32 // written: dist itself, or the second array under sync=sync
	delta  int64
	div    bucketDiv // divides by delta
	rmw    bool
	sync   bool
	dedup  bool
	queued []int64 // dedup: the bucket (or round) a vertex is queued in, -1 when none
	rings  []binRing
	change *segQueue // sync=sync: the vertices improved this round, whose distances to commit
	cnt    []counters
	neg    atomic.Bool
}

func runSSSP(ctx context.Context, r *Run) error {
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
	if s.Frontier != engine.FrontierAuto && s.Frontier != engine.Queue {
		return fmt.Errorf("cpu: sssp frontier=%s: the CPU SSSP keeps its buckets as per-worker queues (frontier=queue): %w", s.Frontier, engine.ErrUnsupported)
	}
	if s.Direction == engine.DirAuto {
		s.Direction = engine.Push
	}
	if s.Driven == engine.DrivenAuto {
		s.Driven = engine.Data
		if s.Direction == engine.Pull || s.Update == engine.RW && s.Method == engine.MethodAuto {
			s.Driven = engine.Topology // the forms that pull, or that can retry a lost write
		}
	}
	if s.Direction == engine.Pull && s.Driven != engine.Topology {
		return fmt.Errorf("cpu: sssp direction=pull runs topology-driven Bellman-Ford sweeps (driven=topology): %w", engine.ErrUnsupported)
	}
	if s.Update == engine.UpdateAuto {
		s.Update = engine.RMW
	}
	if s.Update == engine.RW && s.Driven != engine.Topology {
		return fmt.Errorf("cpu: sssp update=rw can lose a write to a racing worse one, which only a topology-driven sweep (repeated until nothing changes) retries: use driven=topology: %w", engine.ErrUnsupported)
	}
	if s.Sync == engine.SyncAuto {
		s.Sync = engine.Async
	}
	if s.Driven == engine.Data && s.Method == engine.MethodAuto {
		s.Method = engine.DeltaStep
	}
	if s.Driven == engine.Hybrid && s.Threshold == 0 {
		s.Threshold = engine.DefaultThreshold
	}
	if s.Driven != engine.Topology && s.Dedup == engine.DedupAuto {
		s.Dedup = engine.DedupNone
	}
	if s.Dedup == engine.DedupCull {
		return fmt.Errorf("cpu: sssp dedup=cull: stale bucket entries are skipped when popped; use dedup=none or atomic: %w", engine.ErrUnsupported)
	}
	st := &ssspState{Run: r, g: g, n: g.NumVertices(), rmw: s.Update == engine.RMW, sync: s.Sync == engine.SyncDB,
		dedup: s.Dedup == engine.DedupAtomic, cnt: make([]counters, r.Workers)}
	if s.Driven != engine.Topology && s.Method != engine.MethodAuto || s.Driven == engine.Hybrid {
		if s.Delta == 0 {
			s.Delta = autoDelta(g)
		}
		st.delta = int64(s.Delta)
		st.div = newBucketDiv(st.delta)
	}
	st.dist = make([]int32, st.n)
	r.forRange(st.n, 1<<14, 1, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			st.dist[i] = engine.InfDist
		}
	})
	st.dist[src] = 0
	st.wdist = st.dist
	if st.sync {
		st.wdist = append([]int32(nil), st.dist...)
	}
	if st.dedup {
		st.queued = make([]int64, st.n)
		for i := range st.queued {
			st.queued[i] = -1
		}
	}
	st.rings = getRings(r.Workers)
	st.change = getSegQueue(r.Workers)
	defer func() { rs := st.rings; ringKeep.put(&rs); putSegQueue(st.change) }()
	switch {
	case s.Driven == engine.Topology:
		err = st.bellmanFord(ctx, s.Direction == engine.Pull)
	case s.Driven == engine.Hybrid:
		err = st.hybrid(ctx, src)
	case s.Method == engine.NearFar:
		err = st.nearFar(ctx, src)
	default:
		err = st.deltaStep(ctx, src)
	}
	if err != nil {
		return err
	}
	if st.neg.Load() {
		return fmt.Errorf("sssp: negative edge weight: SSSP needs non-negative weights")
	}
	r.Res.Dist = st.dist
	r.collect = st.summarize
	return r.ctxErr(ctx)
}

// summarize counts the reached vertices and the largest distance, and refuses a run in which
// a distance saturated.
func (st *ssspState) summarize() error {
	r := st.Run
	var reached, maxd int64
	clear(st.cnt)
	r.forRange(st.n, 1<<14, 1, func(w, lo, hi int) {
		c := &st.cnt[w]
		for _, d := range st.dist[lo:hi] {
			if d != engine.InfDist {
				c.a++
				c.b = max(c.b, int64(d))
			}
		}
	})
	for i := range st.cnt {
		reached += st.cnt[i].a
		maxd = max(maxd, st.cnt[i].b)
	}
	r.Res.Summary.Reached, r.Res.Summary.MaxDist = reached, int32(maxd)
	if maxd >= int64(engine.MaxDist) {
		return engine.ErrDistTooLarge // saturated: some distance may be wrong
	}
	return nil
}

// autoDelta picks delta from the weights and the degrees. On a graph of average degree 4 or
// more it is the mean weight of a sample of arcs divided by the mean degree, so that a bucket
// holds about one relaxation wave (Meyer and Sanders' Θ(1/d) for weights in [0,1], scaled by
// the weights): wider buckets there only add relaxations (kron scale 20, 2 workers: delta 4
// scans 44 M arcs, 16 scans 83 M, 64 scans 233 M). A sparser graph (road networks, meshes:
// thousands of hops across, buckets of a few thousand vertices) pays a barrier round per
// bucket more than the bucket's work, so delta is ssspSparseWidth mean weights, which bounds
// the rounds (road NE, weights 1..255, 2 workers: delta 50 ran 2,889 rounds, 1024 ran 487 in a
// fifth of the time, 4096 about as fast). The degree stands for the diameter here: the
// graph's diameter estimate takes BFS sweeps that a run cannot cancel (a path of 2^17 vertices
// is 2^17 levels). At least 1; an unweighted graph counts every arc as 1.
func autoDelta(g *graph.CSR) int {
	avgW := 1.0
	if m := len(g.Weights); m > 0 {
		step := max(1, m/4096)
		var sum, cnt int64
		for i := 0; i < m; i += step {
			sum += int64(max(g.Weights[i], 0))
			cnt++
		}
		avgW = float64(sum) / float64(cnt)
	}
	avgDeg := float64(g.NumArcs()) / float64(max(g.NumVertices(), 1))
	d := avgW / avgDeg
	if avgDeg < ssspSparseDegree {
		d = avgW * ssspSparseWidth
	}
	return max(1, int(d))
}

// ssspSparseDegree is the average degree under which autoDelta takes ssspSparseWidth mean
// weights as the bucket width.
const (
	ssspSparseDegree = 4
	ssspSparseWidth  = 8
)

// relax relaxes u's out-arcs from distance du and hands each improved vertex to push with
// its new distance. It returns the arcs scanned. Writes follow update (CAS loop or plain)
// into wdist; reads of the old value come from wdist too, so improvements only go down.
func (s *ssspState) relax(w int, u uint32, du int64, push func(v uint32, nd int64)) int64 {
	g := s.g
	lo, hi := g.Offsets[u], g.Offsets[u+1]
	nb := g.Neighbors[lo:hi]
	var ws []int32
	if g.Weights != nil {
		ws = g.Weights[lo:hi]
	}
	wd := s.wdist
	for i, v := range nb {
		wt := int64(1)
		if ws != nil {
			wt = int64(ws[i])
			if wt < 0 {
				s.neg.Store(true)
				continue
			}
		}
		nd := min(du+wt, infDist-1)
		old := int64(atomic.LoadInt32(&wd[v]))
		if nd >= old {
			continue
		}
		if s.rmw {
			for nd < old && !atomic.CompareAndSwapInt32(&wd[v], int32(old), int32(nd)) {
				old = int64(atomic.LoadInt32(&wd[v]))
			}
			if nd >= old {
				continue
			}
		} else {
			atomic.StoreInt32(&wd[v], int32(nd))
		}
		if s.sync {
			s.change.seg[w] = append(s.change.seg[w], v)
		}
		push(v, nd)
	}
	return hi - lo
}

// claim reports whether v may be queued in bucket (or round) b under dedup=atomic.
func (s *ssspState) claim(v uint32, b int64) bool {
	for {
		old := atomic.LoadInt64(&s.queued[v])
		if old == b {
			return false
		}
		if atomic.CompareAndSwapInt64(&s.queued[v], old, b) {
			return true
		}
	}
}

// commit copies, under sync=sync, the distances improved this round from the written array
// into the read one, and empties the list of changes.
func (s *ssspState) commit() {
	if !s.sync {
		return
	}
	q := s.change
	q.seal()
	defer q.reset()
	s.forRange(q.len(), 1024, 1, func(_, lo, hi int) {
		for lo < hi {
			var items []uint32
			items, lo = q.piece(lo, hi)
			for _, v := range items {
				atomic.StoreInt32(&s.dist[v], atomic.LoadInt32(&s.wdist[v]))
			}
		}
	})
}

// dedupKey is what dedup=atomic claims a vertex for: its bucket (unqueued when popped), or
// under sync=sync, where a pop cannot see the round's improvements, its bucket in this round.
func dedupKey(bucket int64, round int, sync bool) int64 {
	if sync {
		return int64(round)<<32 | bucket
	}
	return bucket
}
