package cpu

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// CC: a component label for every vertex (weakly connected components on a directed graph:
// arcs are followed both ways). Labels are vertex ids; compare partitions, not labels.
//
// The schedule space:
//
//   - method=afforest (the default; Sutton et al. [1], GAPBS cc.cc): link each vertex to its
//     first neighbour, compress, to its second, compress, sample the most frequent label
//     (the giant component), then link the remaining arcs of every vertex outside it, and
//     compress. Links hook the higher root under the lower with a CAS.
//   - method=sv (Shiloach-Vishkin as in GAPBS cc_sv.cc [2]): hook roots over every arc,
//     pointer-jump, repeat until no hook; update=rmw hooks with a CAS, update=rw with a plain
//     write (a lost hook is redone by the next sweep).
//   - method=labelprop: each vertex takes the smallest label around it until none changes;
//     direction=push (a vertex lowers its neighbours' labels, atomic min) or pull (a vertex
//     reads its neighbours' labels; only it writes its own); driven=data (a worklist of the
//     vertices whose label changed, or for pull, the neighbours of those), topology (every
//     vertex every round) or hybrid; sync=sync double-buffers the labels.
//
// [1] Sutton, Ben-Nun, Barak. Optimizing parallel graph connectivity computation via subgraph
// sampling. IPDPS 2018. [2] Shiloach, Vishkin. An O(log n) parallel connectivity algorithm.
// J. Algorithms 1982.
func init() { register(engine.CC, runCC) }

type ccState struct {
	*Run
	g, t *graph.CSR // t: in-arcs of a directed graph (nil when undirected)
	n    int
	comp []uint32
	cnt  []counters
}

func runCC(ctx context.Context, r *Run) error {
	g := r.G
	s := &r.Res.Schedule
	if err := r.vertexLB(); err != nil {
		return err
	}
	if s.Method == engine.MethodAuto {
		s.Method = engine.Afforest
		switch {
		case s.Direction != engine.DirAuto || s.Driven != engine.DrivenAuto || s.Sync != engine.SyncAuto ||
			s.Frontier != engine.FrontierAuto || s.Dedup != engine.DedupAuto:
			s.Method = engine.LabelProp // label-propagation knobs were set
		case s.Update == engine.RW:
			s.Method = engine.SV // Afforest links with a CAS; SV hooks with either
		}
	}
	if s.Method == engine.Afforest && s.Update == engine.RW {
		return fmt.Errorf("cpu: cc method=afforest links with a CAS (update=rmw); update=rw is for sv and labelprop: %w", engine.ErrUnsupported)
	}
	c := &ccState{Run: r, g: g, n: g.NumVertices(), cnt: make([]counters, r.Workers)}
	if g.Directed {
		c.t = g.Transpose()
	}
	if c.n > 1<<14 {
		c.startTeam()
	}
	if c.n == 0 {
		r.Res.Comp = []uint32{}
		return nil
	}
	if s.Method == engine.Afforest {
		s.Update = engine.RMW
		if err := c.afforest(ctx); err != nil {
			return err
		}
		r.collect = c.handOver
		return r.ctxErr(ctx)
	}
	c.comp = allocLabels(c.n) // not cleared: every label is set below
	r.forRange(c.n, 1<<14, 1, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			c.comp[i] = uint32(i)
		}
	})
	var err error
	switch s.Method {
	case engine.SV:
		if s.Update == engine.UpdateAuto {
			s.Update = engine.RMW
		}
		err = c.sv(ctx, s.Update == engine.RMW)
	default:
		err = c.labelProp(ctx)
	}
	if err != nil {
		return err
	}
	r.Res.Comp = c.comp
	r.collect = func() error { c.summarize(); return nil }
	return r.ctxErr(ctx)
}

// firstLinks is Afforest's first neighbour round over the vertices [lo, hi), written with the
// labels' fill, before any other worker reads a label: each vertex u whose first arc leads to
// a lower vertex v takes v as its label (a forest: labels only point down), or v's label when
// v lies in the piece (set just before, in this pass), which shortens the paths; any other
// vertex is its own label. It reads each vertex's first arc in order and writes its label, no
// other label, compare-and-swap or barrier. GAPBS fills the labels, then links every vertex
// to its first neighbour with Link (random labels, a CAS each), which takes about twice this
// pass's time (docs/cpu-notes.md). A first arc to a higher vertex ("up") is not
// represented here: linkSecond links it. It returns the vertices with a first arc that is
// not up (for the trace's count of arcs linked).
func firstLinks(comp []uint32, off []int64, nb []uint32, lo, hi int) int64 {
	if lo >= hi {
		return 0
	}
	ends, start, c, nbp := piece(comp, off, nb, lo, hi)
	var linked int64
	for i, end := range ends {
		u := uint32(lo + i)
		l := u
		if start < end {
			v := *(*uint32)(unsafe.Add(nbp, uintptr(start)*4))
			linked += b2i(v <= u) // (a self-loop links nothing, and is not up)
			if v < u {
				l = v
				if v >= uint32(lo) {
					l = *labelAt(c, v) // written by this pass, this worker
				}
			}
		}
		start = end
		if raceBuild {
			atomic.StoreUint32(labelAt(c, u), l)
		} else {
			*labelAt(c, u) = l // no other worker reads the piece's labels before the next loop
		}
	}
	return linked
}

// linkSecond is Afforest's second neighbour round over the vertices [lo, hi): each is linked to its
// second neighbour, if it has one, and to its first where that is up (see firstLinks); it returns
// the arcs linked. The link is GAPBS's Link written into the loop (as linkArcs's, with its path
// halving): a closure calling a link function per vertex kept comp and the loop's state on the
// stack and ran markedly slower (docs/cpu-notes.md). Labels and arcs are read through pointers,
// without bounds checks: the piece's arcs are checked to lie in nb once, and every neighbour and
// label is a vertex id, below len(comp). With the checks (five a link) and the registers their
// lengths held, the loop spilled to the stack and ran ~10 instructions a link more.
func linkSecond(comp []uint32, off []int64, nb []uint32, lo, hi int) int64 {
	if lo >= hi {
		return 0
	}
	ends, start, c, nbp := piece(comp, off, nb, lo, hi)
	var linked int64
	for i, end := range ends {
		s := start
		start = end
		if s >= end {
			continue
		}
		u := uint32(lo + i)
		first := *(*uint32)(unsafe.Add(nbp, uintptr(s)*4))
		up := first > u // the first arc, left to this round by firstLinks
		v := first
		if s+1 < end {
			v = *(*uint32)(unsafe.Add(nbp, uintptr(s+1)*4))
		} else if !up {
			continue
		} else {
			up = false // the first arc is the only one
		}
		for {
			linked++
			// linkArcs's link, written in (too long for Go to inline)
			p1, p2 := atomic.LoadUint32(labelAt(c, u)), atomic.LoadUint32(labelAt(c, v))
			for p1 != p2 {
				high, low := highLow(p1, p2)
				pHigh := atomic.LoadUint32(labelAt(c, high))
				if pHigh == low {
					break
				}
				if pHigh == high {
					if atomic.CompareAndSwapUint32(labelAt(c, high), high, low) {
						break
					}
					pHigh = atomic.LoadUint32(labelAt(c, high))
				}
				p1 = atomic.LoadUint32(labelAt(c, pHigh))
				if p1 != pHigh {
					halve(c, high, p1)
				}
				p2 = atomic.LoadUint32(labelAt(c, low))
			}
			if !up {
				break
			}
			up, v = false, first
		}
	}
	return linked
}

// piece returns what a loop over the vertices [lo, hi) (lo < hi) reads without bounds checks:
// the ends of their arc lists, the offset of the first arc, and comp's and nb's first
// elements, once it has checked that the arcs lie in nb and the vertices in comp.
func piece(comp []uint32, off []int64, nb []uint32, lo, hi int) (ends []int64, start int64, c, nbp unsafe.Pointer) {
	ends = off[lo+1 : hi+1]
	_ = nb[:ends[len(ends)-1]]
	_ = comp[:hi]
	return ends, off[lo], unsafe.Pointer(unsafe.SliceData(comp)), unsafe.Pointer(unsafe.SliceData(nb))
}

// halve points the label of vertex x, no root (its label is a parent p, p's label l != p), at l:
// path halving, so that later links climb half as far. Roots are hooked under lower roots one after
// another in the second round (a root hooked under one that is hooked in its turn), so without
// halving a link climbs the chain of every hook before it; with it, Link's loop runs about once a
// link (docs/cpu-notes.md has the counts and times). x is no root and never becomes one, so no
// compare-and-swap hooks it: the store races only with other halvings and compresses, each writing
// an ancestor of x.
func halve(c unsafe.Pointer, x, l uint32) {
	if raceBuild {
		atomic.StoreUint32(labelAt(c, x), l)
	} else {
		*labelAt(c, x) = l // a plain store: an atomic one is a locked XCHG (see compress)
	}
}

// highLow returns the higher and the lower of two labels without a branch: which is the higher
// is a coin toss, and branches (what max and min compile to beside the loop's p1 != p2) would
// mispredict half the time.
func highLow(p1, p2 uint32) (high, low uint32) {
	mask := uint32(uint64(int64(p1)-int64(p2)) >> 32) // all ones if p1 < p2
	high = p1 ^ (p1^p2)&mask
	return high, p1 ^ p2 ^ high
}

// labelAt is &comp[i] for comp's first element at c, without a bounds check: i must be a vertex.
func labelAt(c unsafe.Pointer, i uint32) *uint32 { return (*uint32)(unsafe.Add(c, uintptr(i)*4)) }

// allocLabels allocates CC's labels without clearing them (uninitUint32s); the tests swap in
// one that fills them with junk, as reused memory would hold.
var allocLabels = uninitUint32s

// afforestLabels returns Afforest's n labels, not cleared: a kept array (labelKeep) when one is
// large enough, else allocLabels's. The tests swap in one that fills them with junk.
var afforestLabels = func(n int) []uint32 {
	if p := labelKeep.get(); p != nil && cap(*p) >= n {
		return (*p)[:n]
	}
	return allocLabels(n)
}

// labelKeep holds Afforest's labels between runs. Fresh memory costs its page faults in the
// labels' first pass (Go's heap grows by each run's result until a collection), where
// GAPBS's malloc hands each trial
// the pages of the trial before. The run works in a kept array and hands the result a copy
// after its clock stops (handOver), as the GPU engine copies its labels back and PageRank's
// scratch is kept (pr_pull_gs.go).
var labelKeep keep[[]uint32]

// handOver is Afforest's collect, after the run's clock stops: the summary, then the labels
// copied into the result's own array, the run's kept for the next run.
func (c *ccState) handOver() error {
	c.summarize()
	comp, out := c.comp, uninitUint32s(c.n)
	c.forRange(c.n, 1<<14, 1, func(_, lo, hi int) { copy(out[lo:hi], comp[lo:hi]) })
	c.comp, c.Res.Comp = out, out
	labelKeep.put(&comp)
	return nil
}

// startTeam starts the run's team now, where the first parallel loop (the labels' fill) would: its
// workers come up one after another (each woken by the one before), and started before the labels
// are allocated they come up while the allocation runs. The fill is then shared by more of them.
func (c *ccState) startTeam() {
	if c.team == nil && c.Workers > 1 {
		c.team = newTeam(c.Workers, c.hot)
	}
}

// compress points every vertex at its root (pointer jumping).
func (c *ccState) compress() {
	comp := c.comp
	c.forRange(c.n, 1<<14, 1, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			for {
				p := atomic.LoadUint32(&comp[v])
				pp := atomic.LoadUint32(&comp[p])
				if p == pp {
					break
				}
				if raceBuild {
					atomic.StoreUint32(&comp[v], pp)
				} else {
					// A plain store: an atomic one is a locked XCHG on amd64, a full barrier
					// that keeps the next vertices' loads from overlapping. Other workers
					// may read comp[v] old or new, both its ancestors (see raceBuild).
					comp[v] = pp
				}
			}
		}
	})
}

// sampleFrequent returns the most frequent label among 1024 sampled vertices (GAPBS
// SampleFrequentElement), and its share of the sample.
func (c *ccState) sampleFrequent() (uint32, float64) {
	const samples = 1024
	counts := make(map[uint32]int, 64)
	rng := uint64(graph.Golden)
	for i := 0; i < samples; i++ {
		rng = graph.Mix64(rng + uint64(i))
		counts[c.comp[rng%uint64(c.n)]]++
	}
	best, bestN := uint32(0), -1
	for l, k := range counts {
		if k > bestN || k == bestN && l < best {
			best, bestN = l, k
		}
	}
	return best, float64(bestN) / samples
}

// linkGrain is the piece of Afforest's neighbour rounds (firstLinks, linkSecond), in vertices:
// a quarter of GAPBS's 16,384: at 16 workers a round has few pieces of GAPBS's size each, and
// the last ones decided when the round ended (docs/cpu-notes.md).
const linkGrain = 1 << 12

// afforest is Sutton et al.'s algorithm as GAPBS's cc.cc runs it, in fewer passes and with
// shorter climbs: two neighbour rounds (GAPBS's round r links every vertex to its r-th
// neighbour and is followed by a compress), a compress, the sample, the final links of the
// vertices outside the sampled component (linkRest), and a compress. The first round is
// written with the labels' fill, without links or compress (firstLinks); the first arcs it
// leaves out are linked in the second round (linkSecond), whose links halve the paths they
// climb (as linkRest's do). Every processor runs these rounds: a single prefetching pass over
// both first arcs, which AMD processors took before, was slower than them there
// (docs/cpu-notes.md has the figures).
func (c *ccState) afforest(ctx context.Context) error {
	const rounds = 2 // firstLinks, linkSecond
	g := c.g
	off, nb := g.Offsets, g.Neighbors
	if err := c.ctxErr(ctx); err != nil {
		return err
	}
	start := time.Now()
	clear(c.cnt)
	c.comp = afforestLabels(c.n) // not cleared: firstLinks sets every label
	comp := c.comp
	c.forRange(c.n, linkGrain, 1, func(w, lo, hi int) {
		c.cnt[w].a += firstLinks(comp, off, nb, lo, hi)
	})
	// No compress here: linkSecond's halving shortens the paths it climbs, and a compress
	// of firstLinks's forest (deeper than GAPBS's first round leaves) cost more than it
	// saved.
	c.forRange(c.n, linkGrain, 1, func(w, lo, hi int) {
		c.cnt[w].a += linkSecond(comp, off, nb, lo, hi)
	})
	c.compress()
	tot := sumCounters(c.cnt)
	c.emit(engine.Record{Iter: 0, Direction: engine.Push, Mode: engine.Topology, InVertices: int64(c.n),
		InEdges: tot.a, EdgesScanned: tot.a, Time: time.Since(start), Note: fmt.Sprintf("neighbour rounds: links to the first %d neighbours", rounds)})
	if err := c.ctxErr(ctx); err != nil {
		return err
	}
	start = time.Now()
	giant, share := c.sampleFrequent()
	clear(c.cnt)
	var tin []int64
	var tnb []uint32
	if c.t != nil {
		tin, tnb = c.t.Offsets, c.t.Neighbors
	}
	c.forRange(c.n, 1<<14, 1, func(w, lo, hi int) {
		scanned, skipped := linkRest(comp, off, nb, tin, tnb, lo, hi, rounds, giant)
		c.cnt[w].a += scanned
		c.cnt[w].b += skipped
	})
	if c.stopped() {
		return c.ctxErr(ctx)
	}
	c.compress()
	tot = sumCounters(c.cnt)
	c.emit(engine.Record{Iter: 1, Direction: engine.Push, Mode: engine.Topology, InVertices: int64(c.n) - tot.b,
		InEdges: tot.a, EdgesScanned: tot.a, Time: time.Since(start),
		Note: fmt.Sprintf("final links; skipped the sampled giant component (label %d, %.0f%% of the sample, %d vertices)", c.g.IDs.ID(giant), 100*share, tot.b)})
	return nil
}

// sv is Shiloach-Vishkin: hook over every arc, pointer-jump, until no hook happens.
func (c *ccState) sv(ctx context.Context, rmw bool) error {
	g := c.g
	comp := c.comp
	for iter := 0; ; iter++ {
		if err := c.ctxErr(ctx); err != nil {
			return err
		}
		start := time.Now()
		clear(c.cnt)
		c.forRange(c.n, 1<<10, 1, func(w, lo, hi int) {
			var hooks int64
			for u := lo; u < hi; u++ {
				for _, v := range g.Neighbors[g.Offsets[u]:g.Offsets[u+1]] {
					cu, cv := atomic.LoadUint32(&comp[u]), atomic.LoadUint32(&comp[v])
					if cu == cv {
						continue
					}
					high, low := max(cu, cv), min(cu, cv)
					if atomic.LoadUint32(&comp[high]) != high {
						continue // not a root (any more)
					}
					if rmw {
						if atomic.CompareAndSwapUint32(&comp[high], high, low) {
							hooks++
						}
					} else {
						atomic.StoreUint32(&comp[high], low)
						hooks++
					}
				}
			}
			c.cnt[w].a += hooks
		})
		if c.stopped() {
			return c.ctxErr(ctx)
		}
		c.compress()
		hooks := sumCounters(c.cnt).a
		c.emit(engine.Record{Iter: iter, Direction: engine.Push, Mode: engine.Topology, InVertices: int64(c.n),
			InEdges: g.NumArcs(), EdgesScanned: g.NumArcs(), OutVertices: hooks, Time: time.Since(start),
			Note: fmt.Sprintf("%d hooks, then pointer jumping", hooks)})
		if hooks == 0 {
			return nil
		}
	}
}

// summarize fills the component count and the largest component's size. Roots are the
// vertices labelled with themselves (every method ends with each vertex on its root). Workers
// count roots, the sampled giant label and isolated vertices without branches (on kron they
// are mixed at random: a branch each mispredicts), and list the labels of the few remaining
// vertices, which are then sorted and counted; only where those are many (no giant component)
// does a second pass count them in an array of n counters.
func (c *ccState) summarize() {
	comp := c.comp
	off := c.g.Offsets
	directed := c.g.Directed
	giant, _ := c.sampleFrequent()
	const listCap = 1 << 12 // per worker
	lists := make([][]uint32, c.Workers)
	var overflow atomic.Bool
	clear(c.cnt)
	undirected := b2i(!directed)
	c.forRange(c.n, 1<<14, 1, func(w, lo, hi int) {
		var roots, inGiant, singles int64
		for v := lo; v < hi; v++ {
			l := comp[v]
			root := b2i(l == uint32(v))
			single := root & undirected & b2i(off[v] == off[v+1]) // isolated
			inG := b2i(l == giant)
			roots += root
			inGiant += inG
			singles += single
			if inG|single == 0 {
				lists[w] = appendCapped(lists[w], l, listCap, &overflow)
			}
		}
		c.cnt[w].a += roots
		c.cnt[w].b += inGiant
		c.cnt[w].c += singles
	})
	tot := sumCounters(c.cnt)
	largest := tot.b
	if tot.c > 0 {
		largest = max(largest, 1)
	}
	if !overflow.Load() {
		var all []uint32
		for _, l := range lists {
			all = append(all, l...)
		}
		slices.Sort(all)
		for i := 0; i < len(all); {
			j := i + 1
			for j < len(all) && all[j] == all[i] {
				j++
			}
			largest = max(largest, int64(j-i))
			i = j
		}
	} else {
		counts := make([]int32, c.n)
		c.forRange(c.n, 1<<14, 1, func(_, lo, hi int) {
			for v := lo; v < hi; v++ {
				if l := comp[v]; l != giant && !(l == uint32(v) && !directed && off[v] == off[v+1]) {
					atomic.AddInt32(&counts[l], 1)
				}
			}
		})
		for _, k := range counts {
			largest = max(largest, int64(k))
		}
	}
	c.Res.Summary.Components, c.Res.Summary.LargestComp = tot.a, largest
}

// appendCapped appends l to list unless list holds limit labels already; then it sets
// overflow. Out of line: the caller's loop stays free of append's register spills.
//
//go:noinline
func appendCapped(list []uint32, l uint32, limit int, overflow *atomic.Bool) []uint32 {
	if len(list) < limit {
		return append(list, l)
	}
	overflow.Store(true)
	return list
}

// b2i is 1 for true and 0 for false, compiled without a branch (SETcc).
func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// linkRest is Afforest's final phase over the vertices [lo, hi): every vertex outside the
// sampled giant component is linked to its arcs from the skip-th on and, on a directed graph
// (tin, tnb: the in-arcs), to its in-arcs, whose tails in the giant component do not scan
// them. It returns the arcs linked and the vertices skipped. Arcs are read as in linkSecond.
func linkRest(comp []uint32, off []int64, nb []uint32, tin []int64, tnb []uint32, lo, hi int, skip int64, giant uint32) (scanned, skipped int64) {
	if lo >= hi {
		return 0, 0
	}
	ends, start, c, nbp := piece(comp, off, nb, lo, hi)
	for i, end := range ends {
		s := start + skip
		start = end
		u := uint32(lo + i)
		if atomic.LoadUint32(labelAt(c, u)) == giant {
			skipped++
			continue
		}
		if s < end {
			scanned += end - s
			linkArcs(c, u, unsafe.Add(nbp, uintptr(s)*4), int(end-s))
		}
		if tin != nil {
			if in := tnb[tin[u]:tin[u+1]]; len(in) > 0 {
				scanned += int64(len(in))
				linkArcs(c, u, unsafe.Pointer(unsafe.SliceData(in)), len(in))
			}
		}
	}
	return scanned, skipped
}

// linkArcs links u to each of the k neighbours at arcs, comp's first element at c, as GAPBS's
// Link: until both labels lead to one root, the higher label, if a root, is hooked under the
// lower with a compare-and-swap; else both climb. Where the higher is no root, its parent, just
// loaded, is the next label (as GCC compiles Link's comp[comp[high]]), and the higher's label
// is pointed at it where that is no root either (halve; GAPBS's Link does not). Labels and
// arcs are read through pointers, without bounds checks (see linkSecond).
func linkArcs(c unsafe.Pointer, u uint32, arcs unsafe.Pointer, k int) {
	for j := range k {
		v := *(*uint32)(unsafe.Add(arcs, uintptr(j)*4))
		p1, p2 := atomic.LoadUint32(labelAt(c, u)), atomic.LoadUint32(labelAt(c, v))
		for p1 != p2 {
			high, low := highLow(p1, p2)
			pHigh := atomic.LoadUint32(labelAt(c, high))
			if pHigh == low {
				break
			}
			if pHigh == high {
				if atomic.CompareAndSwapUint32(labelAt(c, high), high, low) {
					break
				}
				pHigh = atomic.LoadUint32(labelAt(c, high))
			}
			p1 = atomic.LoadUint32(labelAt(c, pHigh))
			if p1 != pHigh {
				halve(c, high, p1)
			}
			p2 = atomic.LoadUint32(labelAt(c, low))
		}
	}
}
