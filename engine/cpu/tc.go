package cpu

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// Triangle counting returns the number of triangles of the graph's underlying undirected
// simple graph. It is the forward algorithm (Schank and Wagner; Gunrock's TC, GAPBS's
// OrderedCount [1]):
//
//  1. orient: keep each edge once, as the arc from the lower- to the higher-ranked endpoint
//     (order=degree: by degree, ties by id; order=id; order=none keeps both arcs and divides
//     the count by six; order=auto is degree when the degrees are skewed, else id, as GAPBS). The oriented out-degree of a degree-ordered graph is at most
//     sqrt(2m), which is what makes skewed graphs tractable. With relabel=on the vertices are
//     first renumbered in rank order, so that oriented lists are sorted by rank and hot
//     vertices sit together in memory; relabel=auto does it when GAPBS's sampled heuristic
//     (engine.TCWorthRelabelling) finds the degrees skewed: average degree at least 10 and the average
//     of 1000 sampled degrees above 1.3 times their median.
//  2. count: for every oriented arc u->v, add |N+(u) ∩ N+(v)|: each triangle is found once,
//     from its lowest-ranked vertex. When lists are sorted by rank (relabel=on, order=id), only
//     the part of N+(u) after v can meet N+(v). The intersection is a merge of the two sorted
//     lists (intersect=merge), a binary search of each entry of the shorter list in the longer
//     (binary), or a per-worker bitmap of V bits (a perfect hash small enough for the cache) that
//     marks N+(u) once and probes it with every N+(v) (hash, the default). With lists sorted
//     by rank, hash finds each triangle u < v < w at whichever vertex probes less: at u as
//     above (sum of in(v)*out(v) probes), or at its middle vertex v, marking N+(v) and probing
//     the part of N+(u) after v for each in-arc u->v (sum of out(u)^2/2 probes), which on
//     skewed graphs is several times less (kron scale 20: 1.2e9 probes instead of 4.4e9). Work is split by vertices (lb=vertex, dynamic chunks of 64 as in
//     GAPBS) or by equal ranges of oriented arcs (lb=edge).
//
// Input requirements: none beyond a CSR with sorted lists. A directed graph is symmetrized
// first (an arc in either direction is an edge); self-loops and repeated arcs are ignored. Time O(m^1.5) with
// order=degree; memory: the oriented graph (m arcs) plus, with intersect=hash, one bit per
// vertex per worker.
//
// [1] Shun and Tangwongsan, "Multicore triangle computations without tuning", ICDE 2015;
// GAPBS src/tc.cc; Wang et al., Gunrock (TOPC 2017) section 6.

func init() {
	register(engine.TC, runTC)
	registerSpace(engine.TC,
		engine.Subspace{},
		engine.Subspace{axis("order", "degree", "id", "none"), axis("relabel", "off"),
			axis("intersect", "merge", "binary", "hash"), axis("lb", "vertex", "edge")},
		engine.Subspace{axis("order", "degree"), axis("relabel", "on"),
			axis("intersect", "merge", "hash"), axis("lb", "vertex", "edge")},
	)
}

// tcAdj is a bare adjacency structure (offsets and sorted lists) for the oriented graph.
type tcAdj struct {
	off []int64
	nb  []uint32
}

func (a *tcAdj) list(v uint32) []uint32 { return a.nb[a.off[v]:a.off[v+1]] }

func runTC(ctx context.Context, r *Run) error {
	s := &r.Res.Schedule
	if s.Intersect == engine.IntersectAuto {
		// The bitmap beats the merge on kron (long oriented lists of mid-degree
		// vertices meet again and again) and on urand (short lists, fewer branches).
		s.Intersect = engine.IntersectHash
	}
	if s.LB == engine.LBAuto {
		s.LB = engine.LBVertex
	}
	if s.Split == engine.SplitAuto {
		s.Split = engine.Dynamic
	}
	start := time.Now()
	u := tcUndirected(r, r.G)
	if err := r.ctxErr(ctx); err != nil {
		return err
	}
	why := ""
	if s.Order == engine.OrderAuto {
		// GAPBS: degree order (by relabelling) when the degrees are skewed, id order otherwise.
		s.Order = engine.OrderID
		if on, _ := engine.TCWorthRelabelling(u.off); on || s.Relabel == engine.RelabelOn {
			s.Order = engine.OrderDegree
		}
	}
	switch s.Relabel {
	case engine.RelabelOn:
		if s.Order != engine.OrderDegree {
			return fmt.Errorf("cpu: tc: relabel=on renumbers the vertices in degree order, which is order=degree; with order=%s there is nothing to renumber by (use relabel=off)", s.Order)
		}
		why = "relabel=on"
	case engine.RelabelAuto:
		on, reason := engine.TCWorthRelabelling(u.off)
		why = reason
		s.Relabel = engine.RelabelOff
		if on && s.Order == engine.OrderDegree {
			s.Relabel = engine.RelabelOn
		} else if s.Order != engine.OrderDegree {
			why = "order=" + s.Order.String() + ": no degree order to renumber by"
		}
	default:
		why = "relabel=off"
	}
	r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "orient",
		Note: fmt.Sprintf("order=%s relabel=%s (%s)", s.Order, s.Relabel, why)})
	h, byRank := tcOrient(r, u, s.Order, s.Relabel == engine.RelabelOn)
	if err := r.ctxErr(ctx); err != nil {
		return err
	}
	oriented := int64(len(h.nb))
	r.emit(engine.Record{Phase: "orient", Direction: engine.Push, Mode: engine.Topology,
		InVertices: int64(len(u.off) - 1), InEdges: int64(len(u.nb)), OutVertices: int64(len(u.off) - 1),
		EdgesScanned: int64(len(u.nb)), Time: time.Since(start),
		Note: fmt.Sprintf("%d edges -> %d oriented arcs", len(u.nb)/2, oriented)})

	t := time.Now()
	r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "count",
		Note: fmt.Sprintf("intersect=%s lb=%s split=%s", s.Intersect, s.LB, s.Split)})
	var total uint64
	var scanned int64
	if byRank && s.Intersect == engine.IntersectHash && s.LB == engine.LBVertex {
		// Which vertex of a triangle finds it: the low one (probe N+(v) for each arc u->v) or
		// the middle one (probe N+(u) after v), whichever probes less.
		hd := tcCountHeads(r, h)
		if low, middle := tcMiddleCosts(h, hd); middle < 0.7*low {
			ia := tcBuildInArcs(h, hd)
			r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "count",
				Note: fmt.Sprintf("each triangle found at its middle vertex: %.3g probes instead of %.3g", middle, low)})
			total, scanned = tcCountMiddle(r, h, ia)
		} else {
			total, scanned = tcCount(r, h, byRank, s.Intersect, s.LB)
		}
	} else {
		total, scanned = tcCount(r, h, byRank, s.Intersect, s.LB)
	}
	if err := r.ctxErr(ctx); err != nil {
		return err
	}
	if s.Order == engine.OrderNone {
		total /= 6
	}
	r.emit(engine.Record{Phase: "count", Direction: engine.Push, Mode: engine.Topology,
		InVertices: int64(len(h.off) - 1), InEdges: oriented, EdgesScanned: scanned, Time: time.Since(t),
		Note: fmt.Sprintf("%d triangles", total)})
	r.Res.Triangles = total
	r.Res.Summary.Triangles = total
	return nil
}

// tcUndirected returns g's lists as a tcAdj when g is undirected and free of duplicate arcs
// (the loader's default), else the sorted, duplicate-free union of out- and in-lists of
// every vertex.
func tcUndirected(r *Run, g *graph.CSR) *tcAdj {
	n := g.NumVertices()
	in := func(uint32) []uint32 { return nil }
	if g.Directed {
		gt := g.Transpose()
		in = gt.Neigh
	} else if !tcHasDuplicates(r, g) {
		return &tcAdj{off: g.Offsets, nb: g.Neighbors}
	}
	off := make([]int64, n+1)
	// 1. count each union; 2. prefix sum; 3. fill.
	r.forRange(n, 1024, 1, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			off[v+1] = int64(tcUnion(nil, g.Neigh(uint32(v)), in(uint32(v)), uint32(v)))
		}
	})
	for v := 0; v < n; v++ {
		off[v+1] += off[v]
	}
	nb := make([]uint32, off[n])
	r.forRange(n, 1024, 1, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			tcUnion(nb[off[v]:off[v+1]], g.Neigh(uint32(v)), in(uint32(v)), uint32(v))
		}
	})
	return &tcAdj{off: off, nb: nb}
}

// tcHasDuplicates reports whether some list of g repeats a neighbour (a graph loaded with
// duplicates=keep); sorted lists hold repeats next to each other.
func tcHasDuplicates(r *Run, g *graph.CSR) bool {
	var dup atomic.Bool
	r.forRange(g.NumVertices(), 4096, 1, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			l := g.Neigh(uint32(v))
			for i := 1; i < len(l); i++ {
				if l[i] == l[i-1] {
					dup.Store(true)
					return
				}
			}
		}
	})
	return dup.Load()
}

// tcUnion merges two sorted lists without duplicates and without self, into dst when dst is
// not nil, and returns the union's length.
func tcUnion(dst, a, b []uint32, self uint32) int {
	k := 0
	put := func(x uint32) {
		if x == self {
			return
		}
		if dst != nil {
			dst[k] = x
		}
		k++
	}
	var last uint32
	have := false
	for len(a) > 0 || len(b) > 0 {
		var x uint32
		switch {
		case len(b) == 0 || (len(a) > 0 && a[0] <= b[0]):
			x, a = a[0], a[1:]
		default:
			x, b = b[0], b[1:]
		}
		if have && x == last {
			continue
		}
		last, have = x, true
		put(x)
	}
	return k
}

// tcOrient builds the oriented graph and reports whether its lists are sorted by rank.
func tcOrient(r *Run, u *tcAdj, order engine.Order, relabel bool) (*tcAdj, bool) {
	if relabel {
		return tcOrientRelabelled(r, u), true
	}
	n := len(u.off) - 1
	var deg []uint32
	if order == engine.OrderDegree {
		deg = make([]uint32, n)
		r.forRange(n, 4096, 1, func(_, lo, hi int) {
			for v := lo; v < hi; v++ {
				deg[v] = uint32(u.off[v+1] - u.off[v])
			}
		})
	}
	// keep appends x's kept neighbours to dst (nil: only counts them) and returns the count.
	keep := func(dst []uint32, x uint32) int64 {
		l := u.list(x)
		switch order {
		case engine.OrderID: // lists are sorted: the suffix above x
			i := sortSearch32(l, x)
			if dst != nil {
				copy(dst, l[i:])
			}
			return int64(len(l) - i)
		case engine.OrderDegree:
			k := 0
			dx := deg[x]
			for _, y := range l {
				dy := deg[y]
				if dy > dx || (dy == dx && y > x) {
					if dst != nil {
						dst[k] = y
					}
					k++
				}
			}
			return int64(k)
		default:
			k := 0
			for _, y := range l {
				if y != x {
					if dst != nil {
						dst[k] = y
					}
					k++
				}
			}
			return int64(k)
		}
	}
	// 1. count, 2. prefix sum, 3. fill.
	off := make([]int64, n+1)
	r.forRange(n, 1024, 1, func(_, lo, hi int) {
		for x := lo; x < hi; x++ {
			off[x+1] = keep(nil, uint32(x))
		}
	})
	for x := 0; x < n; x++ {
		off[x+1] += off[x]
	}
	nb := make([]uint32, off[n])
	r.forRange(n, 1024, 1, func(_, lo, hi int) {
		for x := lo; x < hi; x++ {
			keep(nb[off[x]:off[x+1]], uint32(x))
		}
	})
	return &tcAdj{off: off, nb: nb}, order == engine.OrderID
}

// sortSearch32 returns the first index i with l[i] > x (l ascending).
func sortSearch32(l []uint32, x uint32) int {
	lo, hi := 0, len(l)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if l[mid] <= x {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// tcOrientRelabelled renumbers the vertices by (degree, id) ascending, a counting sort, and
// returns the oriented graph in the new numbering: x -> y for neighbours y > x, sorted.
func tcOrientRelabelled(r *Run, u *tcAdj) *tcAdj {
	n := len(u.off) - 1
	var maxDeg int64
	for v := 0; v < n; v++ {
		maxDeg = max(maxDeg, u.off[v+1]-u.off[v])
	}
	// 1. Counting sort by degree (stable, so ties go by id): orig[newID] and newID[orig].
	bucket := make([]int64, maxDeg+2)
	for v := 0; v < n; v++ {
		bucket[u.off[v+1]-u.off[v]+1]++
	}
	for d := int64(1); d < int64(len(bucket)); d++ {
		bucket[d] += bucket[d-1]
	}
	newID := make([]uint32, n)
	orig := make([]uint32, n)
	for v := 0; v < n; v++ {
		d := u.off[v+1] - u.off[v]
		p := bucket[d]
		bucket[d]++
		newID[v], orig[p] = uint32(p), uint32(v)
	}
	// 2. Oriented degrees, 3. prefix sum, 4. fill with renumbered neighbours and sort each list.
	off := make([]int64, n+1)
	r.forRange(n, 1024, 1, func(_, lo, hi int) {
		for x := lo; x < hi; x++ {
			c := int64(0)
			for _, y := range u.list(orig[x]) {
				if newID[y] > uint32(x) {
					c++
				}
			}
			off[x+1] = c
		}
	})
	for x := 0; x < n; x++ {
		off[x+1] += off[x]
	}
	nb := make([]uint32, off[n])
	r.forRange(n, 1024, 1, func(_, lo, hi int) {
		for x := lo; x < hi; x++ {
			k := off[x]
			for _, y := range u.list(orig[x]) {
				if y2 := newID[y]; y2 > uint32(x) {
					nb[k] = y2
					k++
				}
			}
			slices.Sort(nb[off[x]:k])
		}
	})
	return &tcAdj{off: off, nb: nb}
}

// tcBatch is how many oriented lists a hash intersection fetches at once.
const tcBatch = 8

// tcSearchRatio: a hash intersection searches the shorter list in the longer instead of
// probing the longer when the longer is this many times longer.
const tcSearchRatio = 64

// tcCount sums |N+(x) ∩ N+(v)| over the oriented arcs x->v, returning the sum and the number
// of list entries the intersections were given.
func tcCount(r *Run, h *tcAdj, byRank bool, how engine.Intersect, lb engine.LoadBalance) (uint64, int64) {
	n := len(h.off) - 1
	cnt := make([]counters, r.Workers)
	var marks [][]uint64
	if how == engine.IntersectHash {
		marks = make([][]uint64, r.Workers)
	}
	stamp := func(w int) []uint64 {
		if marks == nil {
			return nil
		}
		if marks[w] == nil {
			marks[w] = make([]uint64, (n+63)/64)
		}
		return marks[w]
	}
	if lb == engine.LBEdge {
		r.forRange(len(h.nb), 4096, 1, func(w, lo, hi int) {
			x := uint32(sortSearch64(h.off[1:], int64(lo))) // the vertex whose list holds arc lo
			t, sc := tcArcs(h, x, int64(lo), int64(hi), byRank, how, stamp(w))
			cnt[w].a += int64(t)
			cnt[w].b += sc
		})
	} else {
		r.forRange(n, 64, 1, func(w, lo, hi int) {
			t, sc := tcArcs(h, uint32(lo), h.off[lo], h.off[hi], byRank, how, stamp(w))
			cnt[w].a += int64(t)
			cnt[w].b += sc
		})
	}
	s := sumCounters(cnt)
	return uint64(s.a), s.b
}

// tcInArcs are the oriented graph's arcs grouped by head: for the in-arcs x->v of v,
// src[off[v]:off[v+1]] holds x and pos the index of v in x's list.
type tcInArcs struct {
	off      []int64
	src, pos []uint32
}

// tcHeads counts the in-arcs of every vertex of the oriented graph, per worker over blocks of
// sources of about equal arcs, so that tcBuildInArcs can fill without atomics.
type tcHeads struct {
	bounds []int     // worker w owns sources [bounds[w], bounds[w+1])
	counts [][]int64 // counts[w][v]: in-arcs of v from worker w's sources; later its cursor
}

func tcCountHeads(r *Run, h *tcAdj) *tcHeads {
	n, m := len(h.off)-1, int64(len(h.nb))
	workers := min(r.Workers, 4) // each block costs 8 bytes per vertex
	hd := &tcHeads{bounds: make([]int, workers+1), counts: make([][]int64, workers)}
	for w := 1; w <= workers; w++ {
		hd.bounds[w] = min(sortSearch64(h.off[1:], m*int64(w)/int64(workers)-1)+1, n)
	}
	hd.bounds[workers] = n
	parallel(workers, func(w int) {
		c := make([]int64, n)
		for x := hd.bounds[w]; x < hd.bounds[w+1]; x++ {
			for _, v := range h.nb[h.off[x]:h.off[x+1]] {
				c[v]++
			}
		}
		hd.counts[w] = c
	})
	return hd
}

// tcMiddleCosts returns the probes of the two hash formulations over lists sorted by rank:
// by the low vertex, sum of in(v)*out(v) (every arc u->v probes N+(v)); by the middle vertex,
// sum of out(u)^2/2 (every arc u->v probes the part of N+(u) after v). Skewed graphs favour
// the middle vertex several times over; uniform ones barely.
func tcMiddleCosts(h *tcAdj, hd *tcHeads) (low, middle float64) {
	for v := 0; v < len(h.off)-1; v++ {
		var in int64
		for _, c := range hd.counts {
			in += c[v]
		}
		out := float64(h.off[v+1] - h.off[v])
		low += float64(in) * out
		middle += out * out / 2
	}
	return low, middle
}

// tcBuildInArcs groups the arcs by head: a prefix sum over vertices, then workers in order,
// gives every worker a cursor in every in-list, and each worker scatters its own sources'
// arcs there. In-lists come out sorted by source.
func tcBuildInArcs(h *tcAdj, hd *tcHeads) *tcInArcs {
	n := len(h.off) - 1
	off := make([]int64, n+1)
	var sum int64
	for v := 0; v < n; v++ {
		off[v] = sum
		for _, c := range hd.counts {
			k := c[v]
			c[v] = sum
			sum += k
		}
	}
	off[n] = sum
	ia := &tcInArcs{off: off, src: make([]uint32, sum), pos: make([]uint32, sum)}
	parallel(len(hd.counts), func(w int) {
		cur := hd.counts[w]
		for x := hd.bounds[w]; x < hd.bounds[w+1]; x++ {
			for i, v := range h.nb[h.off[x]:h.off[x+1]] {
				p := cur[v]
				cur[v] = p + 1
				ia.src[p], ia.pos[p] = uint32(x), uint32(i)
			}
		}
	})
	return ia
}

// tcCountMiddle counts every triangle x < v < w at its middle vertex v: mark N+(v), then for
// each in-arc x->v probe the part of N+(x) after v. The lists must be sorted by rank.
func tcCountMiddle(r *Run, h *tcAdj, ia *tcInArcs) (uint64, int64) {
	n := len(h.off) - 1
	cnt := make([]counters, r.Workers)
	marks := make([][]uint64, r.Workers)
	off, nb := h.off, h.nb
	r.forRange(n, 64, 1, func(w, lo, hi int) {
		if marks[w] == nil {
			marks[w] = make([]uint64, (n+63)/64)
		}
		bm := marks[w]
		var tri uint64
		var scanned int64
		var los, his [tcBatch]int64
		for v := lo; v < hi; v++ {
			b := nb[off[v]:off[v+1]]
			if len(b) == 0 {
				continue
			}
			for _, y := range b {
				bm[y>>6] |= 1 << (y & 63)
			}
			src, pos := ia.src[ia.off[v]:ia.off[v+1]], ia.pos[ia.off[v]:ia.off[v+1]]
			scanned += 2 * int64(len(b))
			for len(src) > 0 {
				k := min(tcBatch, len(src))
				for j := 0; j < k; j++ {
					x := src[j]
					los[j], his[j] = off[x]+int64(pos[j])+1, off[x+1]
				}
				var touch uint32
				for j := 0; j < k; j++ {
					if los[j] < his[j] {
						touch |= nb[los[j]]
					}
				}
				for j := 0; j < k; j++ {
					suf := nb[los[j]:his[j]]
					for _, y := range suf {
						tri += bm[y>>6] >> (y & 63) & 1
					}
					scanned += int64(len(suf))
				}
				if touch == 0xfeedface { // never in practice; keeps the touching loads alive
					scanned++
				}
				src, pos = src[k:], pos[k:]
			}
			for _, y := range b {
				bm[y>>6] = 0
			}
		}
		cnt[w].a += int64(tri)
		cnt[w].b += scanned
	})
	s := sumCounters(cnt)
	return uint64(s.a), s.b
}

// tcArcs counts the triangles closed by the oriented arcs [e, end), the first of which lies in
// x's list or a later one. bm is the worker's bitmap for intersect=hash, all zero between calls.
func tcArcs(h *tcAdj, x uint32, e, end int64, byRank bool, how engine.Intersect, bm []uint64) (tri uint64, scanned int64) {
	off, nb := h.off, h.nb
	for e < end {
		for off[x+1] <= e {
			x++
		}
		xe := min(off[x+1], end)
		a := nb[off[x]:off[x+1]]
		i := e - off[x]
		switch how {
		case engine.IntersectHash:
			for _, y := range a {
				bm[y>>6] |= 1 << (y & 63)
			}
			scanned += 2 * int64(len(a))
			// In batches: first every list's bounds, then every list's first entry, then the
			// probes, so that the cache misses of a batch overlap instead of queueing.
			var los, his [tcBatch]int64
			for e < xe {
				k := int(min(tcBatch, xe-e))
				for j := 0; j < k; j++ {
					v := nb[e+int64(j)]
					los[j], his[j] = off[v], off[v+1]
				}
				var touch uint32
				for j := 0; j < k; j++ {
					if los[j] < his[j] {
						touch |= nb[los[j]]
					}
				}
				for j := 0; j < k; j++ {
					b := nb[los[j]:his[j]]
					if byRank {
						// Only N+(u) after v can meet N+(v): when that suffix is much the
						// shorter, search its entries in N+(v) instead of probing all of it.
						if suf := a[e+int64(j)-off[x]+1:]; len(suf)*tcSearchRatio < len(b) {
							tri += tcBinary(suf, b)
							scanned += int64(len(suf))
							continue
						}
					}
					for _, y := range b {
						tri += bm[y>>6] >> (y & 63) & 1
					}
					scanned += int64(len(b))
				}
				if touch == 0xfeedface { // never in practice; keeps the touching loads alive
					scanned++
				}
				e += int64(k)
			}
			for _, y := range a {
				bm[y>>6] = 0
			}
		case engine.IntersectBinary:
			for ; e < xe; e, i = e+1, i+1 {
				v := nb[e]
				b, aa := nb[off[v]:off[v+1]], a
				if byRank {
					aa = a[i+1:]
				}
				tri += tcBinary(aa, b)
				scanned += int64(len(aa) + len(b))
			}
		default:
			for ; e < xe; e, i = e+1, i+1 {
				v := nb[e]
				b, aa := nb[off[v]:off[v+1]], a
				if byRank {
					aa = a[i+1:]
				}
				tri += tcMerge(aa, b)
				scanned += int64(len(aa) + len(b))
			}
		}
	}
	return tri, scanned
}

// sortSearch64 returns the first index i with s[i] > x (s non-decreasing).
func sortSearch64(s []int64, x int64) int {
	lo, hi := 0, len(s)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if s[mid] <= x {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// tcMerge counts the common entries of two sorted lists.
func tcMerge(a, b []uint32) uint64 {
	var c uint64
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x, y := a[i], b[j]
		if x == y {
			c++
		}
		if x <= y {
			i++
		}
		if y <= x {
			j++
		}
	}
	return c
}

// tcBinary counts the common entries of two sorted lists by searching each entry of the shorter
// in the longer, from where the previous search ended.
func tcBinary(a, b []uint32) uint64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	var c uint64
	for _, x := range a {
		lo, hi := 0, len(b)
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if b[mid] < x {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo == len(b) {
			break
		}
		if b[lo] == x {
			c++
			lo++
		}
		b = b[lo:]
	}
	return c
}
