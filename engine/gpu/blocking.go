//go:build cuda

package gpu

import (
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// blockedCSR is UGF's EdgeBlocking layout of a graph's in-edges (blocking=N): the edges cut
// into segments by source vertex, N sources a segment, so that a pull sweep that sums one
// segment at a time gathers from N contributions only (N x 4 bytes, chosen to stay in L2 or
// L1) instead of from all V. Inside segment s, entry i holds the in-edges of vertex rows[i]
// whose sources lie in [s*N, (s+1)*N): nbr[off[i]:off[i+1]], a slice of that vertex's sorted
// in-list. Only vertices with such edges get an entry, so the layout is the graph's edges plus
// at most min(E, V x segments) entries, never V x segments. Built on the host once per graph
// and N, before the run's timing starts (as the graph's upload), and cached on the device with
// the graph (devGraph.blocked).
//
// [1] Brahmakshatriya et al. Compiling graph applications for GPUs with GraphIt (UGF).
// CGO 2021; thesis section 5.2.3, Algorithms 2 and 3.
//
// With lb=edge the layout is tiled instead (buildTiled; kernels/pr.cu tpull_sweep): rng > 0
// destinations a range, off holds each tile's first edge (ranges x segs + 1 values, range-major)
// and nbr the packed edges; rows and scan are empty.
//
// With direction=push it is binned (buildBinned; kernels/pr.cu bin_sweep): size destinations
// a bin, segs bins, off holds each bin's first group (segs + 1 values), rows each group's first
// source, nbr the groups' slots (32 a group), entries the groups.
type blockedCSR struct {
	size     int           // vertices per segment (the knob); binned: destinations per bin
	rng      int           // tiled (lb=edge): destinations per range; 0: UGF's layout
	binned   bool          // the binned push's layout
	segs     int           // ceil(V / size)
	entries  int64         // rows of the layout
	segStart []int64       // host copy of scan: the first entry of each segment, segs+1 values
	segEdges []int64       // the first edge of each segment, segs+1 values
	built    time.Duration // host build and upload time (before the run's timing starts)
	rows     buffer        // u32 per entry: its vertex
	off      buffer        // i64 per entry, +1: its first edge
	nbr      buffer        // u32 per edge: the source
	scan     buffer        // segStart on the device (fused sweeps read it)
}

func (b *blockedCSR) free() {
	b.rows.free()
	b.off.free()
	b.nbr.free()
	b.scan.free()
}

func (b *blockedCSR) bytes() int64 { return b.rows.bytes + b.off.bytes + b.nbr.bytes + b.scan.bytes }

// cachedLayout returns the graph's cached blocked, tiled or binned layout when it has this
// segment size, destination range (0: the blocked layout) and form; otherwise it frees it,
// since one layout is cached per graph, and returns nil.
func (r *run) cachedLayout(size, rng int, binned bool) *blockedCSR {
	b := r.dg.blocked
	if b != nil && b.size == size && b.rng == rng && b.binned == binned {
		return b
	}
	if b != nil {
		b.free()
		r.dg.blocked = nil
	}
	return nil
}

// blocked returns the graph's blocked in-edges for segments of size vertices, building and
// uploading them on first use (one layout is cached per graph: a new size replaces it).
//
// With lb=edge it returns the tiled layout of the run's shape (prTiledShape), and with
// direction=push the binned one (prBinShape), so that the engine's build before the timing
// builds the one the run uses.
func (r *run) blocked(size int) (*blockedCSR, error) {
	if binnedPush(&r.s) {
		return r.binned(prBinShape(r, size).size)
	}
	if r.s.LB == engine.LBEdge {
		sh := prTiledShape(r, size)
		return r.tiled(sh.size, sh.rng)
	}
	if b := r.cachedLayout(size, 0, false); b != nil {
		return b, nil
	}
	t0 := time.Now()
	in := r.g.Transpose() // the graph itself when undirected
	mt := newMeter(r.req, "building the blocked layout", 2*int64(len(in.Neighbors)))
	rows, off, nbr, segStart, segEdges := buildBlocked(in, size, runtime.GOMAXPROCS(0), mt)
	mt.finish()
	need := int64(len(rows))*4 + int64(len(off))*8 + int64(len(nbr))*4 + int64(len(segStart))*8
	if err := r.eng.ensureFree(need+r.estimate(), "the blocked layout (blocking) and this run"); err != nil {
		return nil, err
	}
	b := &blockedCSR{size: size, segs: len(segStart) - 1, entries: int64(len(rows)), segStart: segStart, segEdges: segEdges}
	return r.keepLayout(b, t0, part(&b.rows, rows), part(&b.off, off), part(&b.nbr, nbr), part(&b.scan, segStart))
}

// layoutPart is one host slice of a layout and its upload into one of the layout's buffers.
type layoutPart struct {
	dst *buffer
	up  func() (buffer, error)
}

func part[T any](dst *buffer, s []T) layoutPart {
	return layoutPart{dst, func() (buffer, error) { return upload(s) }}
}

// keepLayout uploads b's parts (freeing what it uploaded when one fails), records the build
// time since t0 and caches b as the graph's layout.
func (r *run) keepLayout(b *blockedCSR, t0 time.Time, parts ...layoutPart) (*blockedCSR, error) {
	for _, p := range parts {
		var err error
		if *p.dst, err = p.up(); err != nil {
			b.free()
			return nil, err
		}
	}
	b.built = time.Since(t0)
	r.dg.blocked = b
	return b, nil
}

// buildBlocked cuts in's edges into segments of size source vertices (UGF Algorithm 2, with
// entries per vertex instead of a COO list): workers own contiguous blocks of about equal
// edges, count their entries and edges per segment, take their write positions from a prefix
// sum in (segment, worker) order, and copy their slices. Each in-list is sorted, so a
// vertex's edges of one segment are one contiguous slice, found in one pass over the list.
// mt hears of each pass's arcs (2 x arcs in all).
func buildBlocked(in *graph.CSR, size, workers int, mt *meter) (rows []uint32, off []int64, nbr []uint32, segStart, segEdges []int64) {
	n := in.NumVertices()
	segs := (n + size - 1) / size
	if n < 1<<14 {
		workers = 1
	}
	workers = max(workers, 1)
	// 1. Vertex blocks of about equal edges.
	bounds := make([]int, workers+1)
	m := in.Offsets[n]
	for w := 1; w < workers; w++ {
		target := m * int64(w) / int64(workers)
		bounds[w] = sort.Search(n, func(v int) bool { return in.Offsets[v] >= target })
	}
	bounds[workers] = n
	for w := 1; w <= workers; w++ {
		bounds[w] = max(bounds[w], bounds[w-1])
	}
	// walk calls f(v, s, e0, e1) for each vertex of [lo, hi) and segment s it has edges from.
	walk := func(lo, hi int, f func(v, s int, e0, e1 int64)) {
		var walked int64
		for v := lo; v < hi; v++ {
			e, end := in.Offsets[v], in.Offsets[v+1]
			if walked += end - e; walked >= meterChunk {
				mt.add(walked)
				walked = 0
			}
			for e < end {
				s := int(in.Neighbors[e]) / size
				lim := uint32(min((s+1)*size, n))
				e1 := e + 1
				for e1 < end && in.Neighbors[e1] < lim {
					e1++
				}
				f(v, s, e, e1)
				e = e1
			}
		}
		mt.add(walked)
	}
	// 2. Entries and edges per (worker, segment).
	ent := make([][]int64, workers)
	edg := make([][]int64, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		ent[w], edg[w] = make([]int64, segs), make([]int64, segs)
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			ce, cd := ent[w], edg[w]
			walk(bounds[w], bounds[w+1], func(_, s int, e0, e1 int64) {
				ce[s]++
				cd[s] += e1 - e0
			})
		}(w)
	}
	wg.Wait()
	// 3. Write positions, segment-major.
	segStart, segEdges = make([]int64, segs+1), make([]int64, segs+1)
	var pe, pd int64
	for s := 0; s < segs; s++ {
		segStart[s], segEdges[s] = pe, pd
		for w := 0; w < workers; w++ {
			ce, cd := ent[w][s], edg[w][s]
			ent[w][s], edg[w][s] = pe, pd
			pe += ce
			pd += cd
		}
	}
	segStart[segs], segEdges[segs] = pe, pd
	rows, off, nbr = make([]uint32, pe), make([]int64, pe+1), make([]uint32, pd)
	off[pe] = pd
	// 4. Scatter.
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			pe, pd := ent[w], edg[w]
			walk(bounds[w], bounds[w+1], func(v, s int, e0, e1 int64) {
				i, j := pe[s], pd[s]
				rows[i], off[i] = uint32(v), j
				copy(nbr[j:], in.Neighbors[e0:e1])
				pe[s], pd[s] = i+1, j+(e1-e0)
			})
		}(w)
	}
	wg.Wait()
	return rows, off, nbr, segStart, segEdges
}

// tiled returns the graph's tiled in-edges (blocking=N lb=edge) for segments of size sources
// and ranges of rng destinations, building and uploading them on first use; it shares the
// graph's one cached layout with blocked.
func (r *run) tiled(size, rng int) (*blockedCSR, error) {
	if b := r.cachedLayout(size, rng, false); b != nil {
		return b, nil
	}
	t0 := time.Now()
	in := r.g.Transpose() // the graph itself when undirected
	mt := newMeter(r.req, "building the tiled layout", 2*int64(len(in.Neighbors)))
	tileOff, edges := buildTiled(in, size, rng, runtime.GOMAXPROCS(0), mt)
	mt.finish()
	need := int64(len(tileOff))*8 + int64(len(edges))*4
	if err := r.eng.ensureFree(need+r.estimate(), "the tiled layout (blocking with lb=edge) and this run"); err != nil {
		return nil, err
	}
	n := in.NumVertices()
	b := &blockedCSR{size: size, rng: rng, segs: (n + size - 1) / size, entries: int64(len(tileOff) - 1)}
	b.segEdges = []int64{0, int64(len(edges))}
	return r.keepLayout(b, t0, part(&b.off, tileOff), part(&b.nbr, edges))
}

// roundRobin calls f(i) for i in [0, count) on workers goroutines, worker w taking i = w,
// w + workers, ..., and returns when every call has.
func roundRobin(workers, count int, f func(i int)) {
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < count; i += workers {
				f(i)
			}
		}(w)
	}
	wg.Wait()
}

// meterChunk is how many arcs a builder's worker walks between two reports to its meter.
const meterChunk = 1 << 16

// rangeArcs is the number of in-arcs of the destinations [rg x rng, (rg+1) x rng).
func rangeArcs(in *graph.CSR, rg, rng int) int64 {
	n := in.NumVertices()
	return in.Offsets[min((rg+1)*rng, n)] - in.Offsets[rg*rng]
}

// Packing of a tiled edge (kernels/pr.cu TP_RMAX, TP_SRC_BITS): the destination's offset in
// its range above tpSrcBits bits of the source's offset in its segment.
const (
	tpSrcBits = 18
	tpRMax    = 1 << (32 - tpSrcBits)
)

// buildTiled cuts in's edges (in-lists: in.Neighbors[in.Offsets[v]:...] are v's sources) into
// tiles: range r holds destinations [r x rng, (r+1) x rng), segment s sources [s x size, (s+1)
// x size), and tile (r, s), tileOff[r x segs + s] .. [+1], lists the edges u->v of that range
// and segment sorted by v (then u, in-lists being sorted), each packed as (v - r x rng) << tpSrcBits | (u - s x size).
// Workers take ranges round robin: they count each range's tiles, a prefix sum places them,
// and they fill them walking each vertex's in-list, so the in-lists need not be sorted.
// rng <= tpRMax and size <= 1 << tpSrcBits. mt hears of each pass's arcs (2 x arcs in all).
func buildTiled(in *graph.CSR, size, rng, workers int, mt *meter) (tileOff []int64, edges []uint32) {
	n := in.NumVertices()
	segs := (n + size - 1) / size
	ranges := (n + rng - 1) / rng
	if n < 1<<14 {
		workers = 1
	}
	workers = max(workers, 1)
	tileOff = make([]int64, ranges*segs+1)
	// 1. Edges per tile (tileOff[t+1] counts tile t).
	roundRobin(workers, ranges, func(rg int) {
		cnt := tileOff[rg*segs+1 : (rg+1)*segs+1]
		for v := rg * rng; v < min((rg+1)*rng, n); v++ {
			for _, u := range in.Neighbors[in.Offsets[v]:in.Offsets[v+1]] {
				cnt[int(u)/size]++
			}
		}
		mt.add(rangeArcs(in, rg, rng))
	})
	for t := 1; t < len(tileOff); t++ {
		tileOff[t] += tileOff[t-1]
	}
	// 2. Fill, destination by destination.
	edges = make([]uint32, tileOff[len(tileOff)-1])
	roundRobin(workers, ranges, func(rg int) {
		pos := make([]int64, segs)
		copy(pos, tileOff[rg*segs:(rg+1)*segs])
		for v := rg * rng; v < min((rg+1)*rng, n); v++ {
			d := uint32(v-rg*rng) << tpSrcBits
			for _, u := range in.Neighbors[in.Offsets[v]:in.Offsets[v+1]] {
				s := int(u) / size
				edges[pos[s]] = d | uint32(int(u)-s*size)
				pos[s]++
			}
		}
		mt.add(rangeArcs(in, rg, rng))
	})
	return tileOff, edges
}

// binned returns the graph's binned layout (direction=push blocking=N: bins of size
// destinations, each bin's in-edges in source order) for kernels/pr.cu bin_sweep, building and
// uploading it on first use; it shares the graph's one cached layout with blocked.
func (r *run) binned(size int) (*blockedCSR, error) {
	if b := r.cachedLayout(size, 0, true); b != nil {
		return b, nil
	}
	t0 := time.Now()
	mt := newMeter(r.req, "building the binned layout", 4*int64(len(r.g.Neighbors)))
	binGroup, base, slots := buildBinned(r.g, size, runtime.GOMAXPROCS(0), mt)
	mt.finish()
	need := int64(len(binGroup))*8 + int64(len(base))*4 + int64(len(slots))*4
	if err := r.eng.ensureFree(need+r.estimate(), "the binned layout (push with blocking) and this run"); err != nil {
		return nil, err
	}
	b := &blockedCSR{size: size, binned: true, segs: len(binGroup) - 1, entries: int64(len(base))}
	b.segEdges = []int64{0, int64(len(slots))}
	return r.keepLayout(b, t0, part(&b.off, binGroup), part(&b.rows, base), part(&b.nbr, slots))
}

// The binned layout's slots (kernels/pr.cu PB_PAD): a group of pbGroup slots shares its first
// source, each slot packs its destination's offset in the bin above 16 bits of its source's
// offset from that first source; pbPad in the upper half marks an empty slot, so a bin holds
// fewer than pbPad destinations.
const (
	pbGroup = 32
	pbSpan  = 1 << 16
	pbPad   = 0xffff
)

// buildBinned lists g's arcs u->v bin by bin, bin b holding the destinations [b x size,
// (b+1) x size), each bin in source order, in groups of pbGroup slots whose sources lie within
// pbSpan of the group's first (the rest of a group is padded). It returns each bin's first group
// (bins + 1 values), each group's first source and the slots. Workers take chunks of sources
// of about equal arcs: they count each chunk's arcs per bin, a prefix sum in (bin, chunk) order
// places them, and walking the chunks' sources in order fills every bin in source order; then
// each bin is cut into groups. size < pbPad. mt hears of each pass's arcs (4 x arcs in all).
func buildBinned(g *graph.CSR, size, workers int, mt *meter) (binGroup []int64, base, slots []uint32) {
	n := g.NumVertices()
	m := int64(len(g.Neighbors))
	bins := (n + size - 1) / size
	if n < 1<<14 {
		workers = 1
	}
	workers = max(workers, 1)
	chunks := max(1, min(workers*4, n, (1<<22)/max(bins, 1)))
	cut := make([]int, chunks+1)
	for c := 1; c < chunks; c++ {
		want := m * int64(c) / int64(chunks)
		cut[c] = sort.Search(n, func(u int) bool { return g.Offsets[u] >= want })
	}
	cut[chunks] = n
	// 1. Arcs per (chunk, bin).
	pos := make([]int64, chunks*bins)
	roundRobin(workers, chunks, func(c int) {
		cnt := pos[c*bins : (c+1)*bins]
		for _, v := range g.Neighbors[g.Offsets[cut[c]]:g.Offsets[cut[c+1]]] {
			cnt[int(v)/size]++
		}
		mt.add(g.Offsets[cut[c+1]] - g.Offsets[cut[c]])
	})
	// 2. Each bin's arcs in source order.
	binStart := make([]int64, bins+1)
	var at int64
	for b := 0; b < bins; b++ {
		binStart[b] = at
		for c := 0; c < chunks; c++ {
			x := pos[c*bins+b]
			pos[c*bins+b] = at
			at += x
		}
	}
	binStart[bins] = at
	src := make([]uint32, m)
	dst := make([]uint16, m)
	roundRobin(workers, chunks, func(c int) {
		p := pos[c*bins : (c+1)*bins]
		for u := cut[c]; u < cut[c+1]; u++ {
			for _, v := range g.Neighbors[g.Offsets[u]:g.Offsets[u+1]] {
				b := int(v) / size
				src[p[b]], dst[p[b]] = uint32(u), uint16(int(v)-b*size)
				p[b]++
			}
		}
		mt.add(g.Offsets[cut[c+1]] - g.Offsets[cut[c]])
	})
	// 3. Groups: count, place, fill.
	groups := func(b int, fill func(g int64, k int, p int64)) int64 {
		var ng int64
		k, first := pbGroup, uint32(0)
		for p := binStart[b]; p < binStart[b+1]; p++ {
			if k == pbGroup || src[p]-first >= pbSpan {
				ng++
				k, first = 0, src[p]
			}
			if fill != nil {
				fill(ng-1, k, p)
			}
			k++
		}
		return ng
	}
	binGroup = make([]int64, bins+1)
	roundRobin(workers, bins, func(b int) {
		binGroup[b+1] = groups(b, nil)
		mt.add(binStart[b+1] - binStart[b])
	})
	for b := 0; b < bins; b++ {
		binGroup[b+1] += binGroup[b]
	}
	base = make([]uint32, binGroup[bins])
	slots = make([]uint32, binGroup[bins]*pbGroup)
	roundRobin(workers, bins, func(b int) {
		g0 := binGroup[b]
		for i := g0 * pbGroup; i < binGroup[b+1]*pbGroup; i++ {
			slots[i] = pbPad << 16
		}
		groups(b, func(g int64, k int, p int64) {
			if k == 0 {
				base[g0+g] = src[p]
			}
			slots[(g0+g)*pbGroup+int64(k)] = uint32(dst[p])<<16 | (src[p] - base[g0+g])
		})
		mt.add(binStart[b+1] - binStart[b])
	})
	return binGroup, base, slots
}
