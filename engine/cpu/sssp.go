package cpu

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

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
// delta=auto picks the bucket width from the weights (see autoDelta).
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
	defer func() { ringPool.Put(st.rings); putSegQueue(st.change) }()
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
	return r.ctxErr(ctx)
}

// autoDelta picks delta from the weights: the mean weight of a sample of arcs divided by the
// mean degree, so that a bucket holds about one relaxation wave (Meyer and Sanders' Θ(1/d)
// for weights in [0,1], scaled by the weights), at least 1. An unweighted graph gets 1.
func autoDelta(g *graph.CSR) int {
	if g.Weights == nil || len(g.Weights) == 0 {
		return 1
	}
	m := len(g.Weights)
	step := max(1, m/4096)
	var sum, cnt int64
	for i := 0; i < m; i += step {
		sum += int64(max(g.Weights[i], 0))
		cnt++
	}
	avgW := float64(sum) / float64(cnt)
	avgDeg := float64(m) / float64(max(g.NumVertices(), 1))
	return max(1, int(avgW/avgDeg))
}

// binRing is one worker's buckets: a ring of bins indexed by bucket number modulo its size,
// grown so that every pending bucket (from the current one on) has its own slot, up to
// maxRing buckets ahead. A vertex further ahead (huge weights over a small delta: a bucket
// 2^31 ahead would need a 48 GB ring) waits in far with its bucket, and moves into the ring
// when the current bucket comes within maxRing of it.
type binRing struct {
	bins   [][]uint32
	spare  []uint32
	lo     int64 // the current bucket: no pending bucket is below it
	touch  int64 // sink of relaxItemsFast's touching loads
	far    []farItem
	farMin int64 // the smallest bucket in far (noBin when far is empty)
	_      [8]byte
}

type farItem struct {
	b int64
	v uint32
}

// maxRing is the most buckets a ring spans.
const maxRing = 1 << 16

func (r *binRing) push(b int64, v uint32) {
	if b-r.lo >= int64(len(r.bins)) {
		if b-r.lo >= maxRing {
			if len(r.far) == 0 {
				r.farMin = noBin
			}
			r.far = append(r.far, farItem{b, v})
			r.farMin = min(r.farMin, b)
			return
		}
		r.grow(b)
	}
	p := &r.bins[b&int64(len(r.bins)-1)]
	*p = append(*p, v)
}

func (r *binRing) grow(b int64) {
	size := max(16, len(r.bins))
	for b-r.lo >= int64(size) {
		size *= 2
	}
	nb := make([][]uint32, size)
	for k := r.lo; k < r.lo+int64(len(r.bins)); k++ {
		nb[k&int64(size-1)] = r.bins[k&int64(len(r.bins)-1)]
	}
	r.bins = nb
}

// ringPool keeps the workers' rings between runs, with their grown bins.
var ringPool sync.Pool

// getRings returns workers empty rings, reusing pooled ones if any.
func getRings(workers int) []binRing {
	if rs, ok := ringPool.Get().([]binRing); ok && len(rs) == workers {
		for i := range rs {
			for b := range rs[i].bins {
				rs[i].bins[b] = rs[i].bins[b][:0]
			}
			rs[i].lo = 0
			rs[i].far = rs[i].far[:0]
		}
		return rs
	}
	return make([]binRing, workers)
}

// take detaches bucket b's bin (b >= lo), leaving an empty one in its place.
func (r *binRing) take(b int64) []uint32 {
	if len(r.far) > 0 && r.farMin-b < maxRing {
		r.lo = b // b is the lowest pending bucket of every ring
		r.pullFar()
	}
	if b-r.lo >= int64(len(r.bins)) || len(r.bins) == 0 {
		return nil
	}
	i := b & int64(len(r.bins)-1)
	out := r.bins[i]
	r.bins[i] = r.spare[:0]
	r.spare = nil
	return out
}

// giveBack returns a detached bin's memory for reuse.
func (r *binRing) giveBack(s []uint32) {
	if cap(s) > cap(r.spare) {
		r.spare = s[:0]
	}
}

func (r *binRing) size(b int64) int {
	if b-r.lo >= int64(len(r.bins)) || len(r.bins) == 0 {
		return 0
	}
	return len(r.bins[b&int64(len(r.bins)-1)])
}

// advance moves the ring's floor to b and returns its lowest non-empty bucket, or noBin.
func (r *binRing) advance(b int64) int64 {
	r.lo = b
	r.pullFar()
	for k := b; k < b+int64(len(r.bins)); k++ {
		if len(r.bins[k&int64(len(r.bins)-1)]) > 0 {
			return k
		}
	}
	if len(r.far) > 0 {
		return r.farMin
	}
	return noBin
}

// pullFar moves into the ring the far vertices within maxRing of the current bucket.
func (r *binRing) pullFar() {
	if len(r.far) == 0 || r.farMin-r.lo >= maxRing {
		return
	}
	keep := r.far[:0]
	r.farMin = noBin
	for _, it := range r.far {
		if it.b-r.lo < maxRing {
			r.push(it.b, it.v)
		} else {
			keep = append(keep, it)
			r.farMin = min(r.farMin, it.b)
		}
	}
	r.far = keep
}

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

// relaxFast is relax for the default delta-stepping schedule (update=rmw, sync=async,
// dedup=none, weighted): no callback, improved vertices go straight into the worker's bins.
func (s *ssspState) relaxFast(u uint32, du int64, ring *binRing, pushed *int64) int64 {
	g := s.g
	lo, hi := g.Offsets[u], g.Offsets[u+1]
	nb := g.Neighbors[lo:hi]
	ws := g.Weights[lo:hi]
	ws = ws[:len(nb)]
	dist := s.dist
	delta := s.delta
	for i, v := range nb {
		wt := int64(ws[i])
		if wt < 0 {
			s.neg.Store(true)
			continue
		}
		nd := min(du+wt, infDist-1)
		old := int64(atomic.LoadInt32(&dist[v]))
		for nd < old {
			if atomic.CompareAndSwapInt32(&dist[v], int32(old), int32(nd)) {
				ring.push(nd/delta, v)
				*pushed++
				break
			}
			old = int64(atomic.LoadInt32(&dist[v]))
		}
	}
	return hi - lo
}

// relaxItemsFast is deltaStep's loop over popped vertices for the relaxFast schedule: it
// skips the stale ones (below the bucket's first distance, floor) and relaxes the others,
// counting into c as deltaStep's body does. Each step touches what later steps will miss
// on: the distance and the offsets of the vertex 8 on, and the first arc (neighbour and
// weight) of the vertex 4 on, whose offsets were touched 4 steps before; the misses then
// overlap with this vertex's work instead of following it (Go has no prefetch instruction).
func (s *ssspState) relaxItemsFast(items []uint32, floor int64, ring *binRing, c *counters) {
	g := s.g
	off, nb, ws, dist := g.Offsets, g.Neighbors, g.Weights, s.dist
	last := int64(len(nb) - 1)
	var touch int64
	for i, u := range items {
		if i+8 < len(items) {
			a := items[i+8]
			touch ^= off[a] ^ int64(atomic.LoadInt32(&dist[a]))
		}
		if i+4 < len(items) && last >= 0 {
			e := min(off[items[i+4]], last)
			touch ^= int64(nb[e]) ^ int64(ws[e])
		}
		du := int64(atomic.LoadInt32(&dist[u]))
		if du < floor {
			c.d++ // stale: improved into an earlier bucket since it was queued
			continue
		}
		c.a++
		c.b += s.relaxFast(u, du, ring, &c.c)
	}
	ring.touch ^= touch // keeps the touching loads
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

// deltaStep is delta-stepping with bucket fusion.
func (s *ssspState) deltaStep(ctx context.Context, src uint32) error {
	delta := s.delta
	front := newSegQueue(s.Workers, 0) // (its segments are the rings' detached bins: never pool it)
	s.rings[0].push(0, src)
	fuse := !s.sync
	fast := s.rmw && !s.sync && !s.dedup && s.g.Weights != nil
	dist := s.dist
	for cur, iter := int64(0), 0; cur != noBin; iter++ {
		if err := s.ctxErr(ctx); err != nil {
			return err
		}
		start := time.Now()
		for w := range s.rings {
			front.seg[w] = s.rings[w].take(cur)
		}
		in := front.seal()
		clear(s.cnt)
		body := func(w int, items []uint32) {
			ring := &s.rings[w]
			c := &s.cnt[w]
			if fast {
				s.relaxItemsFast(items, delta*cur, ring, c)
				return
			}
			push := func(v uint32, nd int64) {
				b := nd / delta
				if s.dedup && !s.claim(v, dedupKey(b, iter, s.sync)) {
					return
				}
				ring.push(b, v)
				c.c++
			}
			for _, u := range items {
				du := int64(atomic.LoadInt32(&dist[u]))
				if du < delta*cur {
					c.d++ // stale: improved into an earlier bucket since it was queued
					continue
				}
				if s.dedup && !s.sync {
					// Unqueue, then read again: an improvement racing with this pop either
					// sees the vertex unqueued and queues it, or is read here.
					atomic.StoreInt64(&s.queued[u], -1)
					du = int64(atomic.LoadInt32(&dist[u]))
				}
				c.a++
				c.b += s.relax(w, u, du, push)
			}
		}
		s.forRangeThen(in, ssspDataGrain, 1, func(w, lo, hi int) {
			for lo < hi {
				var items []uint32
				items, lo = front.piece(lo, hi)
				body(w, items)
			}
		}, func(w int) {
			ring := &s.rings[w]
			// Bucket fusion: go on with this worker's own bin of the current bucket while it
			// is small, instead of waiting for a barrier round.
			for fuse && ring.size(cur) > 0 && ring.size(cur) < fusionMaxBin && !s.stopped() {
				items := ring.take(cur)
				body(w, items)
				ring.giveBack(items)
			}
		})
		if s.stopped() {
			return s.ctxErr(ctx)
		}
		s.commit()
		next := int64(noBin)
		for w := range s.rings {
			s.rings[w].giveBack(front.seg[w])
			next = min(next, s.rings[w].advance(cur))
		}
		tot := sumCounters(s.cnt)
		s.emit(engine.Record{Iter: iter, Direction: engine.Push, Mode: engine.Data, InVertices: int64(in),
			InEdges: tot.b, OutVertices: tot.c, Duplicates: tot.d, EdgesScanned: tot.b, Time: time.Since(start),
			Note: fmt.Sprintf("bucket %d (distances %d..%d), %d vertices relaxed", cur, cur*delta, (cur+1)*delta-1, tot.a)})
		cur = next
	}
	return nil
}

// nearFar is the two-pile worklist: the near pile holds vertices below the threshold.
func (s *ssspState) nearFar(ctx context.Context, src uint32) error {
	delta := s.delta
	near, next := newSegQueue(s.Workers, 0), newSegQueue(s.Workers, 0)
	far := newSegQueue(s.Workers, 0)
	near.setOne(src)
	thr := delta
	dist := s.dist
	round := int64(0)
	for iter := 0; ; iter++ {
		if err := s.ctxErr(ctx); err != nil {
			return err
		}
		start := time.Now()
		in := near.len()
		if in == 0 {
			// Split the far pile by a raised threshold.
			clear(s.cnt)
			total := far.len()
			if total == 0 {
				return nil
			}
			minFar := int64(noBin)
			for _, seg := range far.seg {
				for _, v := range seg {
					minFar = min(minFar, int64(dist[v]))
				}
			}
			oldThr := thr
			thr = max(thr+delta, (minFar/delta+1)*delta)
			nextFar := newSegQueue(s.Workers, 0)
			near.reset()
			parallel(len(far.seg), func(w int) {
				for _, v := range far.seg[w] {
					d := int64(atomic.LoadInt32(&dist[v]))
					switch {
					case d < oldThr:
						s.cnt[w].d++ // settled below the old threshold: stale
					case d < thr:
						near.seg[w] = append(near.seg[w], v)
					default:
						nextFar.seg[w] = append(nextFar.seg[w], v)
					}
				}
			})
			near.seal()
			far = nextFar
			far.seal()
			s.emit(engine.Record{Iter: iter, Kind: engine.PhaseRecord, Phase: "split far pile",
				Note: fmt.Sprintf("threshold %d: %d near, %d far", thr, near.len(), far.len())})
			continue
		}
		round++
		next.reset()
		clear(s.cnt)
		s.forRange(in, ssspDataGrain, 1, func(w, lo, hi int) {
			c := &s.cnt[w]
			nseg, fseg := next.seg[w], far.seg[w]
			push := func(v uint32, nd int64) {
				near := nd < thr
				key := 2 * round // near and far piles dedup apart
				if !near {
					key++
				}
				if s.dedup && !s.claim(v, key) {
					return
				}
				c.c++
				if near {
					nseg = append(nseg, v)
				} else {
					fseg = append(fseg, v)
				}
			}
			for lo < hi {
				var items []uint32
				items, lo = near.piece(lo, hi)
				for _, u := range items {
					c.a++
					c.b += s.relax(w, u, int64(atomic.LoadInt32(&dist[u])), push)
				}
			}
			next.seg[w], far.seg[w] = nseg, fseg
		})
		if s.stopped() {
			return s.ctxErr(ctx)
		}
		next.seal()
		far.seal()
		s.commit()
		tot := sumCounters(s.cnt)
		s.emit(engine.Record{Iter: iter, Direction: engine.Push, Mode: engine.Data, InVertices: int64(in),
			InEdges: tot.b, OutVertices: tot.c, EdgesScanned: tot.b, Time: time.Since(start),
			Note: fmt.Sprintf("near pile below %d; far pile %d", thr, far.len())})
		near, next = next, near
	}
}

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

// hybrid is the temporal hybrid of Nasre et al.: a worklist Bellman-Ford whose round becomes a
// topology sweep (every reached vertex relaxes) while the worklist exceeds threshold x V. A
// sweep's improved vertices form the next worklist, so either kind of round can follow.
func (s *ssspState) hybrid(ctx context.Context, src uint32) error {
	cur, next := newSegQueue(s.Workers, 0), newSegQueue(s.Workers, 0)
	cur.setOne(src)
	dist := s.dist
	thr := s.Res.Schedule.Threshold * float64(s.n)
	mode := engine.Data
	for iter := 0; cur.len() > 0; iter++ {
		if err := s.ctxErr(ctx); err != nil {
			return err
		}
		in := cur.len()
		if mode == engine.Data && float64(in) > thr {
			s.emit(switchRecord(iter, "mode", "data", "topology", engine.Quantity{Name: "worklist", Value: float64(in)}, ">",
				engine.Quantity{Name: "threshold x V", Value: thr}))
			mode = engine.Topology
		} else if mode == engine.Topology && float64(in) <= thr {
			s.emit(switchRecord(iter, "mode", "topology", "data", engine.Quantity{Name: "worklist", Value: float64(in)}, "<=",
				engine.Quantity{Name: "threshold x V", Value: thr}))
			mode = engine.Data
		}
		start := time.Now()
		next.reset()
		clear(s.cnt)
		round := int64(iter)
		mk := func(w int) func(v uint32, nd int64) {
			c := &s.cnt[w]
			return func(v uint32, nd int64) {
				if s.dedup && !s.claim(v, round) {
					return
				}
				c.c++
				next.seg[w] = append(next.seg[w], v)
			}
		}
		if mode == engine.Topology {
			s.forRange(s.n, ssspSweepGrain, 1, func(w, lo, hi int) {
				c, push := &s.cnt[w], mk(w)
				for u := lo; u < hi; u++ {
					du := int64(atomic.LoadInt32(&dist[u]))
					if du == infDist {
						continue
					}
					c.a++
					c.b += s.relax(w, uint32(u), du, push)
				}
			})
		} else {
			s.forRange(in, ssspDataGrain, 1, func(w, lo, hi int) {
				c, push := &s.cnt[w], mk(w)
				for lo < hi {
					var items []uint32
					items, lo = cur.piece(lo, hi)
					for _, u := range items {
						c.a++
						c.b += s.relax(w, u, int64(atomic.LoadInt32(&dist[u])), push)
					}
				}
			})
		}
		if s.stopped() {
			return s.ctxErr(ctx)
		}
		next.seal()
		s.commit()
		tot := sumCounters(s.cnt)
		s.emit(engine.Record{Iter: iter, Direction: engine.Push, Mode: mode, InVertices: int64(in),
			InEdges: tot.b, OutVertices: tot.c, EdgesScanned: tot.b, Time: time.Since(start)})
		cur, next = next, cur
	}
	return nil
}
