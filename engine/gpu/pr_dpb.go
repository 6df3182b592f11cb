//go:build cuda

package gpu

import (
	"fmt"
	"runtime"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// dpbLayout is the layout of deterministic propagation blocking (method=dpb; kernels/pr.cu
// pr_dpb_bin, pr_dpb_sum): the destinations cut into bins of size, the sources into chunks of
// chunk (prDPBChunk). A pair is a source and a bin it has out-neighbours in; the pairs are numbered
// bin by bin, in source order in each bin, and each has one term a sweep (vals), written by the
// binning pass and read by the accumulation. Built on the host once per graph and bin size,
// before the run's timing starts, and cached with the graph (devGraph.dpb).
//
// [1] Beamer, Asanović, Patterson. Reducing PageRank communication via propagation blocking.
// IPDPS 2017 (section V: deterministic propagation blocking, the bins' order fixed once).
type dpbLayout struct {
	size, chunk  int
	bins, chunks int
	pairs, arcs  int64
	groups       int64
	built        time.Duration
	pieces       buffer // u32 x 2 per (chunk, bin), chunk-major: the piece's first pair and its pairs
	psrc         buffer // u16 per pair: its source's offset in its chunk
	binGroup     buffer // i64 per bin, +1: its first group
	gpair        buffer // u32 per group: the pair of its first slot
	slots        buffer // u16 per slot, dpbGroup a group: see dpbFirst, dpbPad
	vals         buffer // u32 per pair, and 32 more (pr_dpb_sum reads past the last): its fixed-point term of the sweep
}

func (l *dpbLayout) free() {
	for _, b := range []*buffer{&l.pieces, &l.psrc, &l.binGroup, &l.gpair, &l.slots, &l.vals} {
		b.free()
	}
}

func (l *dpbLayout) bytes() int64 {
	return l.pieces.bytes + l.psrc.bytes + l.binGroup.bytes + l.gpair.bytes + l.slots.bytes + l.vals.bytes
}

// The slots of the staged form (kernels/pr.cu DPB_FIRST, DPB_PAD): a slot is a destination's
// offset in its bin, with dpbFirst set on a pair's first slot; dpbPad is an empty slot, so a bin
// holds fewer than dpbPad destinations. A chunk's sources are 16-bit offsets: at most 65536.
const (
	dpbGroup = 32
	dpbFirst = 0x8000
	dpbPad   = 0x7fff
	// dpbChunk is the most sources of a binning block's chunk (their terms staged in 128 KB of
	// shared memory, prDPBChunk): on kron25 chunks of 32,768 sources binned in 1.61 ms a sweep,
	// 24,576 in 1.75 and 16,384 in 1.88 on an H100 (longer pieces, longer streams).
	dpbChunk = 32768
	// dpbMaxPieces bounds chunks x bins (the pieces table, 8 bytes each, and the builder's
	// counts, 16 bytes each).
	dpbMaxPieces = 1 << 25
	// dpbMaxPairs bounds the pairs: pr_dpb_bin's 32-bit pair numbers run up to 1,024 past the
	// last.
	dpbMaxPairs = 1<<32 - 1024
)

// dpb returns the graph's staged layout for bins of size destinations and chunks of chunk
// sources, building and uploading it on first use (one is cached per graph: a new shape replaces
// it).
func (r *run) dpb(size, chunk int) (*dpbLayout, error) {
	if l := r.dg.dpb; l != nil && l.size == size && l.chunk == chunk {
		return l, nil
	}
	if r.dg.dpb != nil {
		r.dg.dpb.free()
		r.dg.dpb = nil
	}
	t0 := time.Now()
	mt := newMeter(r.req, "building the staged layout", 2*int64(len(r.g.Neighbors)))
	h, err := buildDPB(r.g, size, chunk, runtime.GOMAXPROCS(0), mt)
	mt.finish()
	if err != nil {
		return nil, err
	}
	psrc := h.psrc[:cap(h.psrc)] // padded to whole quads: pr_dpb_bin reads 4 at a time
	need := int64(len(h.pieces))*4 + int64(len(psrc))*2 + int64(len(h.binGroup))*8 + int64(len(h.gpair))*4 + int64(len(h.slots))*2 + (h.pairs+32)*4
	if err := r.eng.ensureFree(need+r.estimate(), "the staged layout (method=dpb) and this run"); err != nil {
		return nil, err
	}
	l := &dpbLayout{size: size, chunk: chunk, bins: h.bins, chunks: h.chunks, pairs: h.pairs, arcs: r.m, groups: int64(len(h.gpair))}
	for _, p := range []layoutPart{part(&l.pieces, h.pieces), part(&l.psrc, psrc), part(&l.binGroup, h.binGroup),
		part(&l.gpair, h.gpair), part(&l.slots, h.slots)} {
		if *p.dst, err = p.up(); err != nil {
			l.free()
			return nil, err
		}
	}
	if l.vals, err = alloc((h.pairs + 32) * 4); err != nil {
		l.free()
		return nil, err
	}
	l.built = time.Since(t0)
	r.dg.dpb = l
	return l, nil
}

// dpbHost is buildDPB's result (dpbLayout's host side).
type dpbHost struct {
	bins, chunks int
	pairs        int64
	pieces       []uint32
	psrc         []uint16
	binGroup     []int64
	gpair        []uint32
	slots        []uint16
}

// buildDPB lists g's arcs u->v bin by bin (bin b: destinations [b x size, (b+1) x size)), each
// bin in source order, and numbers the pairs (u, b) in the same order. Each run of u's
// out-list inside one bin is a pair (one run per bin for a sorted list; an unsorted list only
// makes more pairs). Workers take chunks of chunk sources round robin: they count each chunk's
// pairs and slots per bin, a prefix sum in (bin, chunk) order places them (a bin's groups
// padded to dpbGroup slots), and walking the chunks' sources in order fills every bin in source
// order; then each bin's pads and its groups' first pairs. size < dpbPad, chunk <= 65536. mt
// hears of each pass's arcs (2 x arcs in all).
func buildDPB(g *graph.CSR, size, chunk, workers int, mt *meter) (*dpbHost, error) {
	n := g.NumVertices()
	bins := (n + size - 1) / size
	chunks := (n + chunk - 1) / chunk
	if int64(bins)*int64(chunks) > dpbMaxPieces {
		return nil, fmt.Errorf("gpu: method=dpb: bins of %d destinations and chunks of %d sources cut this graph's %d vertices into %d x %d pieces, more than the layout holds (%d); use a larger blocking",
			size, chunk, n, bins, chunks, dpbMaxPieces)
	}
	if n < 1<<14 {
		workers = 1
	}
	workers = max(workers, 1)
	// runs calls f(u, b, lo, hi) for each source u of chunk c in order and each run of its
	// out-list in bin b: g.Neighbors[lo:hi].
	runs := func(c int, f func(u, b int, lo, hi int64)) {
		defer mt.add(g.Offsets[min((c+1)*chunk, n)] - g.Offsets[c*chunk])
		for u := c * chunk; u < min((c+1)*chunk, n); u++ {
			e, end := g.Offsets[u], g.Offsets[u+1]
			for e < end {
				b := int(g.Neighbors[e]) / size
				e1 := e + 1
				for e1 < end && int(g.Neighbors[e1])/size == b {
					e1++
				}
				f(u, b, e, e1)
				e = e1
			}
		}
	}
	// 1. Pairs and slots per (chunk, bin).
	pc := make([]int64, chunks*bins)
	sc := make([]int64, chunks*bins)
	roundRobin(workers, chunks, func(c int) {
		p, s := pc[c*bins:(c+1)*bins], sc[c*bins:(c+1)*bins]
		runs(c, func(_, b int, lo, hi int64) {
			p[b]++
			s[b] += hi - lo
		})
	})
	// 2. Positions, bin by bin: pc and sc become each (chunk, bin)'s first pair and slot.
	h := &dpbHost{bins: bins, chunks: chunks, pieces: make([]uint32, 2*chunks*bins), binGroup: make([]int64, bins+1)}
	binPair := make([]int64, bins+1)
	binEnd := make([]int64, bins) // the slot after each bin's last
	var pairs, groups int64
	for b := 0; b < bins; b++ {
		h.binGroup[b], binPair[b] = groups, pairs
		slot := groups * dpbGroup
		for c := 0; c < chunks; c++ {
			i := c*bins + b
			np, ns := pc[i], sc[i]
			h.pieces[2*i], h.pieces[2*i+1] = uint32(pairs), uint32(np)
			pc[i], sc[i] = pairs, slot
			pairs += np
			slot += ns
		}
		binEnd[b] = slot
		groups = (slot + dpbGroup - 1) / dpbGroup
	}
	h.binGroup[bins], binPair[bins] = groups, pairs
	if pairs > dpbMaxPairs {
		return nil, fmt.Errorf("gpu: method=dpb: this graph has %d (source, bin) pairs, more than the layout's 32-bit pair numbers hold; use a larger blocking", pairs)
	}
	h.pairs = pairs
	h.psrc = make([]uint16, pairs, (pairs+3)&^3) // pr_dpb.go dpb uploads the padding too
	h.slots = make([]uint16, groups*dpbGroup)
	h.gpair = make([]uint32, groups)
	// 3. Fill, chunk by chunk in source order.
	roundRobin(workers, chunks, func(c int) {
		p, s := pc[c*bins:(c+1)*bins], sc[c*bins:(c+1)*bins]
		base := c * chunk
		runs(c, func(u, b int, lo, hi int64) {
			h.psrc[p[b]] = uint16(u - base)
			p[b]++
			j, d0 := s[b], uint32(b*size)
			for e := lo; e < hi; e++ {
				h.slots[j] = uint16(g.Neighbors[e] - d0)
				j++
			}
			h.slots[s[b]] |= dpbFirst
			s[b] = j
		})
	})
	// 4. Pads, and each group's first pair.
	roundRobin(workers, bins, func(b int) {
		g0, g1 := h.binGroup[b], h.binGroup[b+1]
		for j := binEnd[b]; j < g1*dpbGroup; j++ {
			h.slots[j] = dpbPad
		}
		pair := binPair[b] - 1
		for j := g0 * dpbGroup; j < g1*dpbGroup; j++ {
			if h.slots[j]&dpbFirst != 0 {
				pair++
			}
			if j%dpbGroup == 0 {
				h.gpair[j/dpbGroup] = uint32(pair)
			}
		}
	})
	return h, nil
}

// prDPB runs method=dpb's topology-driven sweeps (Jacobi): each the binning pass, the bins'
// sums and the apply (kernels/pr.cu pr_dpb_bin, pr_dpb_sum, pr_bin_apply), with prTopo's
// projection, records and stopping rule.
func prDPB(r *run, a kargs) error {
	p := r.req.Params
	binSh, sumSh := prDPBShapes(r, r.s.Blocking)
	l, err := r.dpb(sumSh.size, binSh.size)
	if err != nil {
		return err
	}
	slots := l.groups * dpbGroup
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "blocking",
		Note: fmt.Sprintf("staged bins (deterministic propagation blocking): %d bins of %d destinations, %d chunks of %d sources; %d (source, bin) pairs for %d arcs (%.2f terms an arc) in %d groups of 32 slots (%.1f%% empty; layout built and uploaded in %v, once per graph, outside the timing)",
			l.bins, l.size, l.chunks, l.chunk, l.pairs, r.m, float64(l.pairs)/float64(max(r.m, 1)), l.groups, 100*float64(slots-r.m)/float64(max(slots, 1)), l.built.Round(time.Millisecond))}); err != nil {
		return err
	}
	proj := newPRProjection(r)
	for iter := 0; iter < p.MaxIter; iter++ {
		sa, err := proj.beginSweep(r, a)
		if err != nil {
			return err
		}
		sa.n, sa.m, sa.iter = int64(r.n), r.m, int64(iter)
		/// 1. Binning: every pair's term, in bin order.
		ba := sa
		ba.inQ, ba.nbr, ba.outQ, ba.delta, ba.bound = l.pieces.addr(), l.psrc.addr(), l.vals.addr(), int64(l.chunk), int64(l.bins)
		if err := r.launchShared("pr_dpb_bin", binSh, &ba); err != nil {
			return err
		}
		/// 2. The bins' sums, in shared memory, into rank_next.
		ma := sa
		ma.off, ma.inQ, ma.nbr, ma.outQ, ma.bound, ma.rowsPerBlock = l.binGroup.addr(), l.gpair.addr(), l.slots.addr(), l.vals.addr(), int64(l.bins), int64(l.size)
		if err := r.launchShared("pr_dpb_sum", sumSh, &ma); err != nil {
			return err
		}
		/// 3. Apply: the new ranks and contributions (a block per 256 vertices: a grid of 8
		/// blocks an SM, grid-stride, took 1.81 ms on kron25 against 0.83).
		if err := r.launch("pr_bin_apply", blocks(int64(r.n), block), &sa); err != nil {
			return err
		}
		if done, err := proj.endSweep(r, engine.Push); done || err != nil {
			return err
		}
	}
	return nil
}
