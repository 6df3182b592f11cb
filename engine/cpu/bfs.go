package cpu

import (
	"context"
	"fmt"
	"math/bits"
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
// The depth array doubles as the visited set: depth < 0 means unvisited.
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
	front, nmap bitmap   // frontier bitmaps (pull, frontier=bitmap)
	maps        *bfsMaps // where front and nmap come from, pooled
	bfront, bnx boolmap  // frontier boolmaps (frontier=boolmap)
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
	off := g.Offsets
	r.forRange(b.n, 1<<14, 1, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			b.depth[i] = int32(-1 - min(off[i+1]-off[i], 1<<30))
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
	b.cur, b.next = getSegQueue(b.Workers), getSegQueue(b.Workers)
	defer func() {
		putSegQueue(b.cur)
		putSegQueue(b.next)
		if b.maps != nil {
			b.maps.front, b.maps.nmap = b.front, b.nmap // (steps swap them)
			bfsMapPool.Put(b.maps)
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
			case inBitmap:
				st = b.tdBitmap(level)
			case inBoolmap:
				st = b.tdBoolmap(level)
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
	b.Res.Summary.Reached = b.countReached()
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

// tdQueue is the top-down step over a queue frontier into per-worker queues.
func (b *bfsState) tdQueue(level int32) bfsStats {
	off, nb := b.g.Offsets, b.g.Neighbors
	nd := level + 1
	cur, next := b.cur, b.next
	next.reset()
	clear(b.cnt)
	cas := b.claim == claimCAS
	b.forRange(cur.len(), 64, 1, func(w, lo, hi int) {
		buf := next.seg[w]
		var scout, scanned int64
		var cl tdClaimer
		for lo < hi {
			var items []uint32
			items, lo = cur.piece(lo, hi)
			if cas {
				buf, scout, scanned = cl.run(items, off, nb, b.depth, nd, buf, scout, scanned)
				continue
			}
			for _, v := range items {
				s, e := off[v], off[v+1]
				scanned += e - s
				for _, u := range nb[s:e] {
					if b.visit(u, nd) {
						scout += off[u+1] - off[u]
						buf = append(buf, u)
					}
				}
			}
		}
		next.seg[w] = buf
		c := &b.cnt[w]
		c.a += scout
		c.b += scanned
	})
	out := int64(next.seal())
	tot := sumCounters(b.cnt)
	st := bfsStats{queued: out, outEdges: tot.a, scanned: tot.b}
	if b.claim == claimNone {
		st.dups = b.filterDuplicates(next, b.cull)
		if b.cull {
			st.queued -= st.dups
		}
	}
	b.cur, b.next = next, cur
	return st
}

// tdClaimBatch bounds the candidates a tdClaimer gathers before claiming them.
const tdClaimBatch = 256

// tdClaimer is the CAS claim (update=rmw) of a top-down step, in two passes. The gather pass
// reads the depths of many out-neighbours (of several frontier vertices) with no branch on
// them and keeps the unvisited ones as candidates, so that their cache misses overlap; the
// claim pass then CASes each candidate, now cached. Claiming as it reads, a CAS (a locked
// instruction) would hold back every later load until it completes, one miss at a time.
type tdClaimer struct {
	cand  [tdClaimBatch]uint32
	m     int
	touch int64
}

// run claims the unvisited out-neighbours of items for depth nd, appending them to buf, and
// returns buf and the running totals of their out-degrees (scout) and of the edges scanned.
func (cl *tdClaimer) run(items []uint32, off []int64, nb []uint32, depth []int32, nd int32, buf []uint32, scout, scanned int64) ([]uint32, int64, int64) {
	lastNb := int64(len(nb) - 1)
	var touch int64
	for i, v := range items {
		// Touch what later iterations read: the offsets 8 items on, and the first
		// neighbours 4 on (their offsets touched 4 iterations ago), so that those misses
		// overlap with this vertex's work (Go has no prefetch instruction).
		if i+8 < len(items) {
			touch ^= off[items[i+8]]
		}
		if i+4 < len(items) && lastNb >= 0 {
			touch ^= int64(nb[min(off[items[i+4]], lastNb)])
		}
		nbs := nb[off[v]:off[v+1]]
		scanned += int64(len(nbs))
		for len(nbs) > 0 {
			k := min(len(nbs), 64)
			m := cl.m
			if m > tdClaimBatch-64 {
				buf, scout = cl.claim(depth, nd, buf, scout)
				m = 0
			}
			for _, u := range nbs[:k] {
				cl.cand[m&(tdClaimBatch-1)] = u
				m += int(uint32(atomic.LoadInt32(&depth[u])) >> 31) // 1 when unvisited
			}
			cl.m = m
			nbs = nbs[k:]
		}
	}
	buf, scout = cl.claim(depth, nd, buf, scout)
	cl.touch ^= touch // keeps the touching loads
	return buf, scout, scanned
}

// claim CASes the gathered candidates; a candidate may have been claimed since, by another
// worker or as a repeat within the batch, and then the CAS fails or is not tried.
func (cl *tdClaimer) claim(depth []int32, nd int32, buf []uint32, scout int64) ([]uint32, int64) {
	for _, u := range cl.cand[:cl.m] {
		old := atomic.LoadInt32(&depth[u])
		if old < 0 && atomic.CompareAndSwapInt32(&depth[u], old, nd) {
			scout += int64(-1 - old)
			buf = append(buf, u)
		}
	}
	cl.m = 0
	return buf, scout
}

// filterDuplicates counts the entries of q that repeat a vertex already in q, using the
// visited bitmap as a test-and-set filter; with remove it also drops them (dedup=cull).
// The bitmap is marked only here, so it holds exactly the vertices ever queued.
func (b *bfsState) filterDuplicates(q *segQueue, remove bool) int64 {
	clear(b.cnt)
	parallel(len(q.seg), func(w int) {
		seg := q.seg[w]
		k := 0
		var dups int64
		for _, u := range seg {
			if b.visited.testAndSet(u) {
				dups++
				continue
			}
			seg[k] = u
			k++
		}
		if remove {
			q.seg[w] = seg[:k]
		}
		b.cnt[w].a = dups
	})
	q.seal()
	return sumCounters(b.cnt).a
}

// tdBitmap is the top-down step over a bitmap frontier into the next bitmap. The current
// bitmap is cleared word by word as it is read (each word belongs to one piece).
func (b *bfsState) tdBitmap(level int32) bfsStats {
	off, nb := b.g.Offsets, b.g.Neighbors
	nd := level + 1
	front, next := b.front, b.nmap
	clear(b.cnt)
	b.forRange(b.n, 4096, 64, func(w, lo, hi int) {
		var out, scout, scanned int64
		for wi := lo >> 6; wi < (hi+63)>>6; wi++ {
			word := front[wi]
			if word == 0 {
				continue
			}
			front[wi] = 0
			for word != 0 {
				v := uint32(wi<<6 + trailingZeros(word))
				word &= word - 1
				s, e := off[v], off[v+1]
				scanned += e - s
				for _, u := range nb[s:e] {
					if b.visit(u, nd) {
						next.set(u)
						out++
						scout += off[u+1] - off[u]
					}
				}
			}
		}
		c := &b.cnt[w]
		c.a += out
		c.b += scout
		c.c += scanned
	})
	b.front, b.nmap = next, front
	tot := sumCounters(b.cnt)
	return bfsStats{queued: tot.a, outEdges: tot.b, scanned: tot.c}
}

// tdBoolmap is tdBitmap with one byte per vertex.
func (b *bfsState) tdBoolmap(level int32) bfsStats {
	off, nb := b.g.Offsets, b.g.Neighbors
	nd := level + 1
	front, next := b.bfront, b.bnx
	clear(b.cnt)
	b.forRange(b.n, 4096, 4, func(w, lo, hi int) {
		var out, scout, scanned int64
		for v := lo; v < hi; v++ {
			if front[v] == 0 {
				continue
			}
			front[v] = 0
			s, e := off[v], off[v+1]
			scanned += e - s
			for _, u := range nb[s:e] {
				if b.visit(u, nd) {
					next.set(u)
					out++
					scout += off[u+1] - off[u]
				}
			}
		}
		c := &b.cnt[w]
		c.a += out
		c.b += scout
		c.c += scanned
	})
	b.bfront, b.bnx = next, front
	tot := sumCounters(b.cnt)
	return bfsStats{queued: tot.a, outEdges: tot.b, scanned: tot.c}
}

// buStep is the bottom-up step: each unvisited vertex looks for an in-neighbour in the
// frontier map and stops at the first. Pieces are aligned to 64 vertices, so each word of the
// next bitmap (and each 32-bit word of the boolmap) has one owner: the owner of u writes
// depth[u] and u's mark with plain stores (GAPBS's set_bit, not set_bit_atomic), the bitmap
// one whole word per 64 vertices. An atomic OR per woken vertex would be a locked instruction,
// which stops the loads behind it and so the overlap of the next vertices' cache misses.
//
// An unvisited vertex's depth is -1 - out-degree; on an undirected graph (in-edges are the
// out-edges) depth -1 is then an isolated vertex, skipped with the visited ones by one
// well-predicted test instead of a second branch on its empty in-edge list.
func (b *bfsState) buStep(level int32, form int) bfsStats {
	bits := form == inBitmap
	if bits && b.nmap == nil {
		b.nmap = newBitmap(b.n)
	}
	if !bits && b.bnx == nil {
		b.bnx = newBoolmap(b.n)
	}
	skip := int32(0) // depth >= skip: nothing to look for
	if !b.g.Directed {
		skip = -1
	}
	clear(b.cnt)
	b.forRange(b.n, 1024, 64, func(w, lo, hi int) {
		c := &b.cnt[w]
		if bits {
			b.buBitmap(lo, hi, level+1, skip, c)
		} else {
			b.buBoolmap(lo, hi, level+1, skip, c)
		}
	})
	// The old frontier becomes the next step's output map: clear it.
	if bits {
		front := b.front
		b.forRange(len(front), 1<<12, 1, func(_, lo, hi int) { clear(front[lo:hi]) })
		b.front, b.nmap = b.nmap, front
	} else {
		bfront := b.bfront
		b.forRange(len(bfront), 1<<16, 4, func(_, lo, hi int) { clear(bfront[lo:hi]) })
		b.bfront, b.bnx = b.bnx, bfront
	}
	tot := sumCounters(b.cnt)
	return bfsStats{queued: tot.a, outEdges: tot.b, scanned: tot.c}
}

// buBitmap is buStep's piece [lo, hi) (lo a multiple of 64) with bitmap frontiers; it adds
// the woken vertices, their out-edges and the edges scanned to c.
//
// It works a block of vertices (a few words of the maps) at a time, in passes over bit masks: mark the
// vertices with something to look for (no branch: on the big steps that is a coin toss per
// vertex); probe each one's first in-neighbour, without a branch on what the probes load, so
// that their cache misses (one per vertex, in the in-edge array) overlap instead of each
// waiting behind the previous vertex's mispredicted branch; scan the rest of the lists of
// those the probe missed; then write the woken vertices' depths and the word. On kron and
// urand most woken vertices are found at their first in-neighbour.
func (b *bfsState) buBitmap(lo, hi int, nd, skip int32, c *counters) {
	toff, tnb := b.t.Offsets, b.t.Neighbors
	front, next, depth := b.front, b.nmap, b.depth
	if len(tnb) == 0 {
		return // no edges: nothing wakes
	}
	last := int64(len(tnb) - 1)
	var awake, awakeEdges, scanned int64
	// Blocks of buBlockWords words: when few vertices have something to look for, a block
	// still has enough probes for their misses to overlap.
	for block := lo; block < hi; block += 64 * buBlockWords {
		var cand, hit [buBlockWords]uint64 // bit k of word j: vertex block+64j+k
		nw := min((hi-block+63)>>6, buBlockWords)
		for j := range nw {
			base := block + j<<6
			var m uint64 // bit k: vertex base+k has something to look for (d < skip)
			for k, d := range depth[base:min(base+64, hi)] {
				m |= uint64(uint32(d-skip)>>31) << uint(k) // (no overflow: d >= -1-2^30)
			}
			cand[j&(buBlockWords-1)] = m
		}
		for j := range nw {
			base := block + j<<6
			var h uint64
			for m := cand[j&(buBlockWords-1)]; m != 0; m &= m - 1 {
				k := trailingZeros(m)
				u := base + k
				s, e := toff[u], toff[u+1]
				v := tnb[min(s, last)]
				in := front[v>>6] >> (v & 63) & 1
				in &= uint64(s-e) >> 63 // an empty list (directed graphs) probes nothing
				h |= in << uint(k)
			}
			hit[j&(buBlockWords-1)] = h
		}
		for j := range nw {
			base := block + j<<6
			h := hit[j&(buBlockWords-1)]
			// Hits wake at their first in-neighbour; the others scan the rest of their lists.
			scanned += int64(bits.OnesCount64(h))
			for m := cand[j&(buBlockWords-1)] &^ h; m != 0; m &= m - 1 {
				k := trailingZeros(m)
				u := base + k
				s, e := toff[u], toff[u+1]
				if s >= e {
					continue
				}
				found := int64(-1)
				for i, v := range tnb[s+1 : e] {
					if front[v>>6]&(1<<(v&63)) != 0 {
						found = int64(i) + 2
						break
					}
				}
				if found < 0 {
					scanned += e - s
					continue
				}
				scanned += found
				h |= 1 << uint(k)
			}
			dd := depth[base:min(base+64, hi)]
			for m := h; m != 0; m &= m - 1 {
				k := trailingZeros(m)
				awakeEdges += int64(-1 - dd[k])
				dd[k] = nd
			}
			awake += int64(bits.OnesCount64(h))
			next[base>>6] = h // only this worker's word
		}
	}
	c.a += awake
	c.b += awakeEdges
	c.c += scanned
}

// buBlockWords is the words of vertices buBitmap handles in one block (a power of 2).
const buBlockWords = 4

// buBoolmap is buBitmap with boolmap frontiers.
func (b *bfsState) buBoolmap(lo, hi int, nd, skip int32, c *counters) {
	toff, tnb := b.t.Offsets, b.t.Neighbors
	front, next := b.bfront, b.bnx
	var awake, awakeEdges, scanned int64
	dd := b.depth[lo:hi]
	for k, d := range dd {
		if d >= skip {
			continue
		}
		u := lo + k
		nbs := tnb[toff[u]:toff[u+1]]
		found := -1
		for i, v := range nbs {
			if front[v] != 0 {
				found = i
				break
			}
		}
		if found < 0 {
			scanned += int64(len(nbs))
			continue
		}
		dd[k] = nd
		next[u] = 1
		awake++
		awakeEdges += int64(-1 - d)
		scanned += int64(found + 1)
	}
	c.a += awake
	c.b += awakeEdges
	c.c += scanned
}

// tdTopo is a topology-driven push sweep: every vertex whose depth is the level relaxes its
// out-neighbours. With fill (the hybrid), the discovered vertices also go to the next queue,
// so that a data-driven step can follow.
func (b *bfsState) tdTopo(level int32, fill bool) bfsStats {
	off, nb, depth := b.g.Offsets, b.g.Neighbors, b.depth
	nd := level + 1
	next := b.next
	if fill {
		next.reset()
	}
	clear(b.cnt)
	b.forRange(b.n, 1024, 1, func(w, lo, hi int) {
		var out, scout, scanned int64
		var buf []uint32
		if fill {
			buf = next.seg[w]
		}
		for v := lo; v < hi; v++ {
			if atomic.LoadInt32(&depth[v]) != level {
				continue
			}
			s, e := off[v], off[v+1]
			scanned += e - s
			for _, u := range nb[s:e] {
				if b.visit(u, nd) {
					out++
					scout += off[u+1] - off[u]
					if fill {
						buf = append(buf, u)
					}
				}
			}
		}
		if fill {
			next.seg[w] = buf
		}
		c := &b.cnt[w]
		c.a += out
		c.b += scout
		c.c += scanned
	})
	tot := sumCounters(b.cnt)
	st := bfsStats{queued: tot.a, outEdges: tot.b, scanned: tot.c}
	if fill {
		next.seal()
		if b.claim == claimNone {
			// Racing rw writers may have queued a vertex twice; the sweep counted each once
			// per push, so drop the repeats to keep the queue a set.
			st.dups = b.filterDuplicates(next, true)
			st.queued -= st.dups
		}
		b.cur, b.next = next, b.cur
	}
	return st
}

// buTopo is a topology-driven pull sweep: every unvisited vertex looks for an in-neighbour
// whose depth is the level. Depths are read and written atomically: the sweep reads depths
// other workers are writing (only ever to level+1, which never equals level).
func (b *bfsState) buTopo(level int32) bfsStats {
	toff, tnb, off, depth := b.t.Offsets, b.t.Neighbors, b.g.Offsets, b.depth
	nd := level + 1
	clear(b.cnt)
	b.forRange(b.n, 1024, 1, func(w, lo, hi int) {
		var awake, awakeEdges, scanned int64
		for u := lo; u < hi; u++ {
			if atomic.LoadInt32(&depth[u]) >= 0 {
				continue
			}
			s, e := toff[u], toff[u+1]
			for i := s; i < e; i++ {
				if atomic.LoadInt32(&depth[tnb[i]]) == level {
					atomic.StoreInt32(&depth[u], nd)
					awake++
					awakeEdges += off[u+1] - off[u]
					scanned += i - s + 1
					e = -1
					break
				}
			}
			if e >= 0 {
				scanned += e - s
			}
		}
		c := &b.cnt[w]
		c.a += awake
		c.b += awakeEdges
		c.c += scanned
	})
	tot := sumCounters(b.cnt)
	return bfsStats{queued: tot.a, outEdges: tot.b, scanned: tot.c}
}

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }
