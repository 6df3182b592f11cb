package cpu

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// Betweenness centrality returns, for every vertex v, the sum over the sources s of Brandes's
// dependency delta_s(v) (unnormalised; halved on an undirected graph, where each path is found
// from both ends). The sources are engine.BCSources: src alone (sources=0), k vertices sampled
// from seed, or all; the trace's first note lists them. Brandes (2001), as GAPBS's bc.cc and
// Gunrock's BC do it, one source at a time:
//
//  1. forward: a BFS from s, one level per iteration, that counts shortest paths: sigma[v] is
//     the sum of sigma over v's in-neighbours one level up. direction=push: the frontier
//     claims unvisited out-neighbours (CAS on depth) and adds its sigma into theirs (atomic
//     float add). direction=pull: every unvisited vertex sums sigma over its in-neighbours in
//     the frontier, writing only itself (no atomics; needs in-arcs). direction=auto (the
//     default) is direction-optimizing (Beamer): push while the frontier's out-edges stay
//     under the unexplored edges / alpha, pull until the frontier is under V / beta and
//     shrinking. A frontier already under V / beta stays with push: it would switch straight
//     back after a pull step that checks every vertex (the last levels of a road graph,
//     where the unexplored edges run out: five such steps took 7 ms of road NE's 180). driven=data keeps each level's vertices (the stored levels) and, for pull, a
//     worklist of unvisited vertices; driven=topology sweeps every vertex every level,
//     selecting by depth.
//  2. backward: from the deepest level up, each vertex v of level d gathers
//     delta[v] = sigma[v] * sum over successors w (out-neighbours at level d+1) of
//     (1 + delta[w]) / sigma[w], a pull that writes only v, over the stored levels
//     (data-driven) or a sweep selecting depth d (topology-driven). Successors are told by a
//     bitmap of level d+1, as GAPBS tells them by a bitmap of successor arcs.
//
// A pull step likewise tests in-neighbours against a bitmap of the frontier (V bits, small
// enough for the cache) rather than loading their depths.
//
// Time O(V + E) per source; memory four arrays of V, the stored levels and a bitmap. Path
// counts are float64, so they do not overflow; they round on graphs with astronomically many
// shortest paths, as in every BC code.

func init() {
	register(engine.BC, runBC)
	registerSpace(engine.BC,
		engine.Subspace{},
		engine.Subspace{axis("direction", "auto", "push", "pull"), axis("driven", "data", "topology")},
		engine.Subspace{axis("direction", "auto"), axis("alpha", "1"), axis("beta", "2")},
		engine.Subspace{axis("batch", "1", "2", "64")},
	)
}

// bcDetailedSources is how many sources get one trace record per level; later sources get one
// record per phase (a run from every vertex of a big graph would otherwise drown the trace).
const bcDetailedSources = 16

type bcRun struct {
	r      *Run
	g, gt  *graph.CSR // out-arcs; in-arcs for pull
	n      int
	dir    engine.Direction // resolved: Push, Pull, or DirAuto (direction-optimizing)
	data   bool             // driven=data
	alpha  float64
	beta   float64
	depth  []int32
	sigma  []float64 // path counts; once w's dependency is final, its coefficient (1 + delta[w]) / sigma[w]
	cent   []float64
	half   float64  // 1/2 on an undirected graph (each path found from both ends), else 1
	queue  []uint32 // data-driven: the vertices in visiting order; level d is queue[bounds[d]:bounds[d+1]]
	bounds []int
	arcs   []int64   // data-driven: arcs[d] is the out-arcs of level d, counted going forward
	succ   []uint32  // data-driven push: succ[i] marks the successor arcs of queue[i] (bcSuccAll: too many)
	masked []bool    // masked[d]: level d went forward by push, so its succ entries are set
	next   *segQueue // the level being discovered, per worker
	unv    []uint32  // data-driven pull: vertices not yet visited
	rest   *segQueue // ... and the ones that stay unvisited
	cnt    []counters
	iter   int
	front  bitmap    // the level pulled from (forward), the successors' level (backward)
	marked int32     // the level front holds, -1 when none (data-driven: clearing it costs its size)
	acc    []float64 // backward push: the sums gathered for level d
}

func runBC(ctx context.Context, r *Run) error {
	g := r.G
	s := &r.Res.Schedule
	srcs, err := engine.BCSources(r.Req.Params, g)
	if err != nil {
		return err
	}
	if r.Req.Params.Sources == 0 || r.Req.Params.Src < 0 {
		r.Res.Params.Src = int64(srcs[0]) // the source; with sampled sources, the first (src is unused)
	}
	if s.Driven == engine.DrivenAuto {
		s.Driven = engine.Data
	}
	if s.Driven == engine.Hybrid {
		return fmt.Errorf("cpu: bc: driven=hybrid: %w (bc runs data- or topology-driven; direction=auto switches push and pull)", engine.ErrUnsupported)
	}
	if s.Frontier != engine.FrontierAuto && s.Frontier != engine.Queue {
		return fmt.Errorf("cpu: bc: frontier=%s: %w (the stored levels are queues)", s.Frontier, engine.ErrUnsupported)
	}
	if s.Frontier == engine.FrontierAuto && s.Driven == engine.Data {
		s.Frontier = engine.Queue
	}
	if s.Update == engine.UpdateAuto {
		s.Update = engine.RMW
	}
	if s.Batch > bcBatchMax {
		return fmt.Errorf("cpu: bc: batch=%d: %w (at most %d sources a pass, a bit of a word each)", s.Batch, engine.ErrUnsupported, bcBatchMax)
	}
	if s.Batch == 0 {
		// batch=auto: 64 sources a pass on low-diameter graphs; a road network's thousands of
		// levels would each sweep every vertex
		// and as many as 2 GiB of path counts and coefficients hold
		s.Batch = 1
		if r.Req.Params.Sources != 0 && len(srcs) > 1 && g.Properties().Diameter < 100 {
			s.Batch = min(bcBatchMax, (2<<30)/(16*max(g.NumVertices(), 1)))
			if s.Batch < 2 {
				s.Batch = 1
			}
		}
	}
	n := g.NumVertices()
	b := &bcRun{r: r, g: g, gt: g.Transpose(), n: n, dir: s.Direction, data: s.Driven == engine.Data,
		alpha: s.Alpha, beta: s.Beta,
		cent: make([]float64, n),
		next: newSegQueue(r.Workers, 0), rest: newSegQueue(r.Workers, 0), cnt: make([]counters, r.Workers),
		marked: -1}
	if b.alpha == 0 {
		b.alpha = engine.DefaultAlpha
	}
	if b.beta == 0 {
		b.beta = engine.DefaultBeta
	}
	sc := getBCScratch(n)
	defer bcScratches.put(sc)
	b.depth, b.sigma, b.succ, b.queue = sc.depth, sc.sigma, sc.succ, sc.queue[:0]
	b.half = 1
	if !g.Directed {
		b.half = 0.5
	}
	r.forRange(n, 4096, 1, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			b.depth[v] = -1
		}
		clear(b.sigma[lo:hi])
	})
	if s.Batch > 1 && len(srcs) > 1 {
		if err := b.batches(ctx, srcs, s.Batch); err != nil {
			return err
		}
		srcs = nil
	}
	for si, src := range srcs {
		if err := r.ctxErr(ctx); err != nil {
			return err
		}
		note := ""
		if si == 0 {
			note = engine.BCSourcesNote(r.Req.Params, srcs, g.IDs) + "; "
		}
		reached, err := b.source(ctx, src, si < bcDetailedSources, si == len(srcs)-1, note)
		if err != nil {
			return err
		}
		if si == 0 {
			r.Res.Summary.Reached = reached
		}
	}
	r.Res.Centrality = b.cent
	return nil
}

// source runs both phases from src, adds the dependencies into cent, and, unless it is the
// last source, leaves depth all -1 and sigma all 0 for the next one (a run starts by setting
// them everywhere: resetting after the last source cost a random write a vertex, 17 ms of
// CPU time a run on road NE in a profile). It returns the number of vertices reached.
func (b *bcRun) source(ctx context.Context, src uint32, detailed, last bool, note string) (int64, error) {
	r := b.r
	b.depth[src], b.sigma[src] = 0, 1
	if b.data {
		b.queue = append(b.queue[:0], src)
		b.bounds = append(b.bounds[:0], 0, 1)
		b.arcs = append(b.arcs[:0], b.g.Degree(src))
		b.masked = b.masked[:0]
	}
	if b.data && b.dir == engine.Pull {
		b.unv = b.unv[:0]
		for v := 0; v < b.n; v++ {
			if uint32(v) != src {
				b.unv = append(b.unv, uint32(v))
			}
		}
	}
	// Forward.
	r.emit(engine.Record{Kind: engine.PhaseRecord, Iter: b.iter, Phase: "forward",
		Note: note + "BFS from " + r.G.IDs.Text(src) + " counting shortest paths"})
	start := time.Now()
	var phaseEdges int64
	reached := int64(1)
	frontier, frontierEdges := int64(1), b.g.Degree(src)
	edgesToCheck := b.g.NumArcs()
	dir := b.dir
	if dir == engine.DirAuto {
		dir = engine.Push
	}
	awakePrev := int64(0)
	maxDepth := int32(0)
	for d := int32(0); frontier > 0; d++ {
		if err := r.ctxErr(ctx); err != nil {
			return 0, err
		}
		if b.dir == engine.DirAuto {
			if frontierEdges < 0 && dir == engine.Push && float64(frontier) >= float64(b.n)/b.beta {
				frontierEdges = b.levelArcs(d) // (a push step leaves them uncounted: see push)
			}
			switch {
			case dir == engine.Push && float64(frontierEdges) > float64(edgesToCheck)/b.alpha && float64(frontier) >= float64(b.n)/b.beta:
				dir = engine.Pull
				if detailed {
					r.emit(engine.Record{Kind: engine.SwitchRecord, Iter: b.iter, Phase: "forward", Switch: &engine.Switch{
						What: "direction", From: "push", To: "pull",
						Reason: fmt.Sprintf("frontier edges %d > unexplored edges %d / alpha %g, frontier %d >= V / beta", frontierEdges, edgesToCheck, b.alpha, frontier),
						Lhs:    engine.Quantity{Name: "frontier edges", Value: float64(frontierEdges)}, Op: ">",
						Rhs: engine.Quantity{Name: "unexplored edges / alpha", Value: float64(edgesToCheck) / b.alpha}}})
				}
			case dir == engine.Pull && frontier < awakePrev && float64(frontier) < float64(b.n)/b.beta:
				dir = engine.Push
				if detailed {
					r.emit(engine.Record{Kind: engine.SwitchRecord, Iter: b.iter, Phase: "forward", Switch: &engine.Switch{
						What: "direction", From: "pull", To: "push",
						Reason: fmt.Sprintf("frontier %d < V %d / beta %g and shrinking", frontier, b.n, b.beta),
						Lhs:    engine.Quantity{Name: "frontier vertices", Value: float64(frontier)}, Op: "<",
						Rhs: engine.Quantity{Name: "V / beta", Value: float64(b.n) / b.beta}}})
				}
			}
		}
		t := time.Now()
		var found, outEdges, scanned int64
		mode := engine.Data
		if dir == engine.Push {
			found, outEdges, scanned = b.push(d)
			frontierEdges = scanned // a push scans every out-arc of its frontier
		} else {
			found, outEdges, scanned = b.pull(d)
		}
		if !b.data || (dir == engine.Pull && b.dir == engine.DirAuto) {
			mode = engine.Topology
		}
		if b.data {
			b.bounds = append(b.bounds, len(b.queue))
			b.arcs[d] = frontierEdges
			b.arcs = append(b.arcs, outEdges)
			b.masked = append(b.masked, dir == engine.Push)
		}
		if detailed {
			r.emit(engine.Record{Iter: b.iter, Phase: "forward", Direction: dir, Mode: mode,
				InVertices: frontier, InEdges: frontierEdges, OutVertices: found, EdgesScanned: scanned, Time: time.Since(t)})
			b.iter++
		}
		phaseEdges += scanned
		if dir == engine.Push {
			edgesToCheck -= frontierEdges // as GAPBS: the edges a top-down step has explored
		}
		awakePrev = frontier
		frontier, frontierEdges = found, outEdges
		reached += found
		if found > 0 {
			maxDepth = d + 1
		}
	}
	if !detailed {
		r.emit(engine.Record{Iter: b.iter, Phase: "forward", Direction: b.dir, Mode: modeOf(b.data),
			InVertices: reached, EdgesScanned: phaseEdges, Time: time.Since(start), Note: "whole phase"})
		b.iter++
	}
	// Backward.
	r.emit(engine.Record{Kind: engine.PhaseRecord, Iter: b.iter, Phase: "backward",
		Note: fmt.Sprintf("dependencies over %d stored levels, deepest first", maxDepth+1)})
	start, phaseEdges = time.Now(), 0
	for d := maxDepth; d >= 0; d-- {
		if err := r.ctxErr(ctx); err != nil {
			return 0, err
		}
		t := time.Now()
		verts, scanned, bdir := b.backward(d, src)
		phaseEdges += scanned
		if detailed {
			r.emit(engine.Record{Iter: b.iter, Phase: "backward", Direction: bdir, Mode: modeOf(b.data),
				InVertices: verts, EdgesScanned: scanned, Time: time.Since(t)})
			b.iter++
		}
	}
	if !detailed {
		r.emit(engine.Record{Iter: b.iter, Phase: "backward", Direction: engine.Pull, Mode: modeOf(b.data),
			InVertices: reached, EdgesScanned: phaseEdges, Time: time.Since(start), Note: "whole phase"})
		b.iter++
	}
	if !last {
		b.reset()
	}
	return reached, nil
}

func modeOf(data bool) engine.Driven {
	if data {
		return engine.Data
	}
	return engine.Topology
}

// level returns the stored level d (data-driven).
func (b *bcRun) level(d int32) []uint32 { return b.queue[b.bounds[d]:b.bounds[d+1]] }

// push is one top-down step from level d: it returns the vertices found at level d+1, -1 for
// their out-edges (counting them would load every found vertex's offsets, a miss each, for a
// figure that only a big frontier needs: source counts those with levelArcs), and the edges
// scanned. Over stored levels it marks each frontier vertex's successor arcs in succ, as
// GAPBS's bc.cc marks them in a bitmap of arcs, so that the backward step loads no depths;
// here the marks are a word per vertex, kept at its place in the queue and written by the
// worker that pushes from it: no atomics, and the backward step reads them in order.
func (b *bcRun) push(d int32) (found, outEdges, scanned int64) {
	r := b.r
	clear(b.cnt)
	b.next.reset()
	if b.data {
		f, succ := b.level(d), b.succ[b.bounds[d]:b.bounds[d+1]]
		r.forRange(len(f), 64, 1, func(w, lo, hi int) {
			// The worker's next-level segment and tallies are kept in locals (the segments'
			// headers share a cache line: appending through them from two workers moved it
			// between their cores at every vertex found).
			var a, c int64
			b.next.seg[w], a, c = b.pushPiece(f[lo:hi], succ[lo:hi], d+1, b.next.seg[w])
			b.cnt[w].a, b.cnt[w].c = b.cnt[w].a+a, b.cnt[w].c+c
		})
		b.appendNext()
	} else {
		depth := b.depth
		r.forRange(b.n, 1024, 1, func(w, lo, hi int) {
			var one, mark [1]uint32
			var buf []uint32 // (the levels are not stored: reused for each vertex)
			var a, c int64
			for u := lo; u < hi; u++ {
				if atomic.LoadInt32(&depth[u]) == d {
					one[0] = uint32(u)
					var x, y int64
					buf, x, y = b.pushPiece(one[:], mark[:], d+1, buf[:0])
					a, c = a+x, c+y
				}
			}
			b.cnt[w].a, b.cnt[w].c = b.cnt[w].a+a, b.cnt[w].c+c
		})
	}
	s := sumCounters(b.cnt)
	return s.a, -1, s.c
}

// pushPiece pushes from the vertices f (level nd-1), writes their successor marks into succ,
// and appends the vertices it claims for level nd to buf; it returns buf, how many it claimed
// and the arcs it scanned. The offsets of the vertex 12 on and the arcs of the vertex 4 on are
// prefetched: a load would make the compare-and-swaps wait for it. No call in the loop over a
// vertex's arcs (a prefetch of a claimed vertex's offsets was one): Go keeps no register across
// a call, and the loop's values then lived on the stack.
//
// Offsets, arcs, depths and path counts are read through pointers, without bounds checks (a
// CSR's offsets lie within its arcs, its arcs below its vertex count, and f holds vertices):
// with the checks and the slices' lengths to keep, the loop held more values than registers,
// and Go reloaded them from the stack at every arc (docs/cpu-notes.md).
func (b *bcRun) pushPiece(f, succ []uint32, nd int32, buf []uint32) ([]uint32, int64, int64) {
	off, nbs, depth, sigma := b.g.Offsets, b.g.Neighbors, b.depth, b.sigma
	succ = succ[:len(f)]
	_, _ = off[:len(depth)+1], sigma[:len(depth)] // (slicing checks, loading nothing)
	if len(nbs) == 0 {
		clear(succ) // no arcs: nothing to push
		return buf, 0, 0
	}
	offp := unsafe.Pointer(unsafe.SliceData(off))
	nbp := unsafe.Pointer(unsafe.SliceData(nbs))
	dp := unsafe.Pointer(unsafe.SliceData(depth))
	sp := unsafe.Pointer(unsafe.SliceData(sigma))
	last := uintptr(len(nbs) - 1)
	var claimed, scanned int64
	for i, u := range f {
		if i+12 < len(f) {
			a := min(uintptr(*(*int64)(unsafe.Add(offp, uintptr(f[i+4])*8))), last)
			prefetch2(unsafe.Add(offp, uintptr(f[i+12])*8), unsafe.Add(nbp, a*4))
		} else if i+4 < len(f) {
			a := min(uintptr(*(*int64)(unsafe.Add(offp, uintptr(f[i+4])*8))), last)
			prefetch(unsafe.Add(nbp, a*4))
		}
		su := *(*float64)(unsafe.Add(sp, uintptr(u)*8))
		s := uintptr(*(*int64)(unsafe.Add(offp, uintptr(u)*8)))
		e := uintptr(*(*int64)(unsafe.Add(offp, uintptr(u)*8+8)))
		scanned += int64(e - s)
		// Room for every arc's vertex, so that the loop's append never grows buf: a call there
		// would cost the loop its registers.
		buf = slices.Grow(buf, int(e-s))
		var m uint32
		for j := s; j < e; j++ {
			v := uintptr(*(*uint32)(unsafe.Add(nbp, j*4)))
			pd := (*int32)(unsafe.Add(dp, v*4))
			dv := atomic.LoadInt32(pd)
			if dv < 0 {
				if atomic.CompareAndSwapInt32(pd, -1, nd) {
					claimed++
					n := len(buf)
					buf = buf[:n+1]
					buf[n] = uint32(v)
				}
				dv = nd
			}
			if dv == nd {
				atomicAddFloat64((*float64)(unsafe.Add(sp, v*8)), su)
				m |= 1 << ((j - s) & 31)
			}
		}
		if e-s >= 32 {
			m = bcSuccAll
		}
		succ[i] = m
	}
	return buf, claimed, scanned
}

// bcSuccAll is the successor marks of a vertex of 32 or more out-arcs: the backward step tests
// its arcs' depths instead.
const bcSuccAll = 1<<32 - 1

// levelArcs returns the out-arcs of level d.
func (b *bcRun) levelArcs(d int32) int64 {
	clear(b.cnt)
	off := b.g.Offsets
	if b.data {
		f := b.level(d)
		b.r.forRange(len(f), 4096, 1, func(w, lo, hi int) {
			var a int64
			for _, v := range f[lo:hi] {
				a += off[v+1] - off[v]
			}
			b.cnt[w].a += a
		})
	} else {
		b.r.forRange(b.n, 4096, 1, func(w, lo, hi int) {
			var a int64
			for v := lo; v < hi; v++ {
				if atomic.LoadInt32(&b.depth[v]) == d {
					a += off[v+1] - off[v]
				}
			}
			b.cnt[w].a += a
		})
	}
	return sumCounters(b.cnt).a
}

// pull is one bottom-up step into level d+1: every unvisited vertex sums sigma over its
// in-neighbours at level d. Data-driven explicit pull walks the worklist of unvisited
// vertices; topology-driven (and direction-optimizing) pull sweeps every vertex.
func (b *bcRun) pull(d int32) (found, outEdges, scanned int64) {
	r, g, gt := b.r, b.g, b.gt
	clear(b.cnt)
	b.next.reset()
	b.rest.reset()
	collect := b.data
	worklist := b.data && b.dir == engine.Pull
	// The frontier as a bitmap: a test per in-arc that stays in cache, instead of a depth load.
	front := b.markLevel(d)
	visit := func(w int, v uint32) bool {
		nb := gt.Neighbors[gt.Offsets[v]:gt.Offsets[v+1]]
		c := &b.cnt[w]
		c.c += int64(len(nb))
		s := 0.0
		for _, u := range nb {
			if front.has(u) {
				s += b.sigma[u]
			}
		}
		if s == 0 {
			return false
		}
		b.sigma[v] = s
		atomic.StoreInt32(&b.depth[v], d+1)
		c.a++
		c.b += g.Offsets[v+1] - g.Offsets[v]
		if collect {
			b.next.seg[w] = append(b.next.seg[w], v)
		}
		return true
	}
	if worklist {
		unv := b.unv
		r.forRange(len(unv), 256, 1, func(w, lo, hi int) {
			for _, v := range unv[lo:hi] {
				if !visit(w, v) {
					b.rest.seg[w] = append(b.rest.seg[w], v)
				}
			}
		})
		b.rest.seal()
		b.unv = b.unv[:0]
		for _, s := range b.rest.seg {
			b.unv = append(b.unv, s...)
		}
	} else {
		r.forRange(b.n, 1024, 1, func(w, lo, hi int) {
			for v := lo; v < hi; v++ {
				if atomic.LoadInt32(&b.depth[v]) < 0 {
					visit(w, uint32(v))
				}
			}
		})
	}
	if collect {
		b.appendNext()
	}
	s := sumCounters(b.cnt)
	return s.a, s.b, s.c
}

// appendNext appends the workers' discoveries to the stored levels.
func (b *bcRun) appendNext() {
	b.next.seal()
	for _, s := range b.next.seg {
		b.queue = append(b.queue, s...)
	}
}

// backward computes the dependencies of level d from those of level d+1 and adds them to the
// centralities. It returns the vertices of the level, the edges scanned and the direction.
//
// Pull (each v of level d sums over its out-arcs): successors are told by the marks that the
// forward push left (succ), or, after a pull step or into a level of bcMarkFrom or more, by a
// bitmap of level d+1, a cached bit test per arc, so that only successor arcs load a quotient
// (uncached): on a random graph most arcs of the widest level lead sideways or
// back. Level d's own quotients can then be written at once: no reader of this step looks at
// level d. Over stored levels, when level d+1 has under a quarter of the in-arcs that level d
// has out-arcs (the level after the widest, on a random graph), the step pushes instead: each w of level d+1 adds its quotient
// along its in-arcs into the accumulators of level d (atomic float adds, tested against a
// bitmap of level d), and a second pass turns them into dependencies. The deepest level has
// no successors and scans nothing.
func (b *bcRun) backward(d int32, src uint32) (verts, scanned int64, dir engine.Direction) {
	r, g := b.r, b.g
	clear(b.cnt)
	sigma, cent, half := b.sigma, b.cent, b.half
	// finish turns v's path count into its coefficient, in place: the path count is read
	// by v alone from here on. A leaf of the shortest-path DAG adds nothing (no load of its
	// centrality).
	finish := func(v uint32, s float64) {
		sv := sigma[v]
		delta := sv * s
		sigma[v] = (1 + delta) / sv
		if delta != 0 && v != src {
			cent[v] += delta * half
		}
	}
	if b.data {
		f, next := b.level(d), b.level(d+1)
		// The levels' arcs: counted going forward, except the in-arcs of a directed graph.
		pullArcs, pushArcs := b.arcs[d], b.arcs[d+1]
		if g.Directed {
			pushArcs = 0
			for _, w := range next {
				pushArcs += b.gt.Offsets[w+1] - b.gt.Offsets[w]
			}
		}
		switch {
		case len(next) == 0:
			r.forRange(len(f), 4096, 1, func(_, lo, hi int) {
				for _, v := range f[lo:hi] {
					finish(v, 0)
				}
			})
			return int64(len(f)), 0, engine.Pull
		case 4*pushArcs < pullArcs: // atomics cost several bit tests, and contend on hubs
			if b.acc == nil {
				b.acc = make([]float64, b.n)
			}
			acc, gt := b.acc, b.gt
			front := b.markLevel(d)
			r.forRange(len(next), 64, 1, func(_, lo, hi int) {
				for _, w := range next[lo:hi] {
					cw := sigma[w]
					for _, v := range gt.Neighbors[gt.Offsets[w]:gt.Offsets[w+1]] {
						if front.has(v) {
							atomicAddFloat64(&acc[v], cw)
						}
					}
				}
			})
			r.forRange(len(f), 4096, 1, func(_, lo, hi int) {
				for _, v := range f[lo:hi] {
					finish(v, acc[v])
					acc[v] = 0
				}
			})
			return int64(len(f)), pushArcs, engine.Push
		}
	}
	if b.data && b.masked[d] && len(b.level(d+1)) < bcMarkFrom {
		f, succ := b.level(d), b.succ[b.bounds[d]:b.bounds[d+1]]
		r.forRange(len(f), 64, 1, func(_, lo, hi int) { b.backMarked(f[lo:hi], succ[lo:hi], d+1, src) })
		return int64(len(f)), b.arcs[d], engine.Pull
	}
	if b.data && len(b.level(d+1)) < bcMarkFrom {
		// A small successor level (a road graph's thousands): test the depths, which no step
		// of the backward phase changes, rather than mark and unmark a bitmap on one worker
		// for every level.
		depth, nd := b.depth, d+1
		r.forRange(len(b.level(d)), 64, 1, func(w, lo, hi int) {
			for _, v := range b.level(d)[lo:hi] {
				nb := g.Neighbors[g.Offsets[v]:g.Offsets[v+1]]
				s := 0.0
				for _, x := range nb {
					if depth[x] == nd {
						s += sigma[x]
					}
				}
				finish(v, s)
				b.cnt[w].c += int64(len(nb))
			}
			b.cnt[w].a += int64(hi - lo)
		})
		s := sumCounters(b.cnt)
		return s.a, s.c, engine.Pull
	}
	succ := b.markLevel(d + 1)
	visit := func(w int, v uint32) {
		nb := g.Neighbors[g.Offsets[v]:g.Offsets[v+1]]
		s := 0.0
		for _, x := range nb {
			if succ.has(x) {
				s += sigma[x]
			}
		}
		finish(v, s)
		b.cnt[w].c += int64(len(nb))
	}
	if b.data {
		f := b.level(d)
		r.forRange(len(f), 64, 1, func(w, lo, hi int) {
			for _, v := range f[lo:hi] {
				visit(w, v)
			}
			b.cnt[w].a += int64(hi - lo)
		})
	} else {
		r.forRange(b.n, 1024, 1, func(w, lo, hi int) {
			for v := lo; v < hi; v++ {
				if b.depth[v] == d {
					visit(w, uint32(v))
					b.cnt[w].a++
				}
			}
		})
	}
	s := sumCounters(b.cnt)
	return s.a, s.c, engine.Pull
}

// backMarked is the backward pull step over vertices f of one level, whose successor arcs
// (out-arcs into level nd) the forward push marked in succ: it loads the quotients of the
// marked arcs only, and a vertex without successors (a leaf of the shortest paths) loads no
// arcs at all. A function of its own, so that the slices stay in registers.
func (b *bcRun) backMarked(f, succ []uint32, nd int32, src uint32) {
	off, nbs, depth, sigma, cent, half := b.g.Offsets, b.g.Neighbors, b.depth, b.sigma, b.cent, b.half
	succ = succ[:len(f)]
	for i, v := range f {
		s := 0.0
		switch m := succ[i]; {
		case m == bcSuccAll:
			for _, x := range nbs[off[v]:off[v+1]] {
				if depth[x] == nd {
					s += sigma[x]
				}
			}
		case m != 0:
			nb := nbs[off[v]:off[v+1]]
			for ; m != 0; m &= m - 1 {
				s += sigma[nb[bits.TrailingZeros32(m)]]
			}
		}
		// finish, as in backward
		sv := sigma[v]
		delta := sv * s
		sigma[v] = (1 + delta) / sv
		if delta != 0 && v != src {
			cent[v] += delta * half
		}
	}
}

// bcMarkFrom is the size of a successor level from which the backward pull step tests a bitmap
// of it (cached: a bit per vertex) rather than the depths (a random 4-byte load per arc).
const bcMarkFrom = 1 << 14

// markLevel returns the bitmap of level d: from the stored level (data) or a depth sweep.
// It must not run while depths change. Over stored levels it unmarks only the level marked
// before, so that a level costs its own size, not V/64 words (a road graph has thousands of
// levels of a few thousand vertices).
func (b *bcRun) markLevel(d int32) bitmap {
	r := b.r
	if b.front == nil {
		b.front = newBitmap(b.n)
	}
	front := b.front
	if b.data {
		if b.marked == d {
			return front
		}
		if b.marked >= 0 && int(b.marked)+1 < len(b.bounds) {
			old := b.level(b.marked)
			r.forRange(len(old), 4096, 1, func(_, lo, hi int) {
				for _, u := range old[lo:hi] {
					atomic.StoreUint64(&front[u>>6], 0)
				}
			})
		}
		b.marked = -1
		if d < 0 || int(d)+1 >= len(b.bounds) {
			return front
		}
		f := b.level(d)
		r.forRange(len(f), 4096, 1, func(_, lo, hi int) {
			for _, u := range f[lo:hi] {
				front.set(u)
			}
		})
		b.marked = d
		return front
	}
	clear(front)
	r.forRange(b.n, 4096, 64, func(_, lo, hi int) {
		for u := lo; u < hi; u++ {
			if b.depth[u] == d {
				front[u>>6] |= 1 << (u & 63) // pieces are whole words: no sharing
			}
		}
	})
	return front
}

// reset clears depth and sigma for the next source: only the visited vertices when the levels
// were stored, else everything.
func (b *bcRun) reset() {
	if b.marked >= 0 {
		b.markLevel(-1) // unmark, while the levels are still stored
	}
	if b.data {
		q := b.queue
		b.r.forRange(len(q), 4096, 1, func(_, lo, hi int) {
			for _, v := range q[lo:hi] {
				b.depth[v], b.sigma[v] = -1, 0
			}
		})
		return
	}
	b.r.forRange(b.n, 4096, 1, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			b.depth[v], b.sigma[v] = -1, 0
		}
	})
}

// atomicAddFloat64 adds x to *p with a compare-and-swap loop.
func atomicAddFloat64(p *float64, x float64) {
	u := (*uint64)(unsafe.Pointer(p))
	for {
		old := atomic.LoadUint64(u)
		if atomic.CompareAndSwapUint64(u, old, math.Float64bits(math.Float64frombits(old)+x)) {
			return
		}
	}
}

// bcScratch is a run's per-vertex work arrays, kept between runs: allocating them anew costs
// a clear of 20 bytes a vertex on one thread (Go zeroes every allocation), which a run on many
// workers then waits for; a kept one is reset by the workers (depth and sigma; succ and queue
// are written before they are read).
type bcScratch struct {
	depth []int32
	sigma []float64
	succ  []uint32
	queue []uint32 // capacity n
}

var bcScratches keep[bcScratch]

func getBCScratch(n int) *bcScratch {
	if sc := bcScratches.get(); sc != nil && len(sc.depth) == n {
		return sc
	}
	return &bcScratch{depth: make([]int32, n), sigma: make([]float64, n), succ: make([]uint32, n),
		queue: make([]uint32, 0, n)}
}
