//go:build cuda

package gpu

import (
	"fmt"
	"math"
	"slices"
	"time"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// mstECL is method=ecl: Boruvka over a worklist of edges that shrinks every round, the
// approach of ECL-MST (Fallin, Gonzalez, Seo and Burtscher, SC'23), kernels/mst_ecl.cu:
//
//   - the worklist holds each edge {u,v} once (its arc u->v with u < v, listed by a thread per
//     arc from the arcs' sources, the COO rows built once per graph outside the timing, so that
//     a hub's list does not hold one warp back) with its endpoints'
//     representatives in a union-find forest and its key (weight, arc index), which orders
//     edges as engine.MSTKey does;
//   - a round drops the edges inside one component and lowers each representative's minimum
//     key with an atomic min on the packed key (mst_ecl_min), joins the two sides of every edge
//     that is the minimum of either (mst_ecl_join, a compare-and-swap hook of the higher
//     representative under the lower), and clears the minima it set (mst_ecl_reset); no round
//     scans the whole graph, only the edges still between two components;
//   - on a graph of average degree 4 or more the first worklist holds the light edges only
//     (weights up to the sampled weight that about 3 V arcs stay under); when they are done,
//     every vertex points straight at its representative (mst_ecl_flatten) and the heavy
//     edges between still different components make a second worklist (ECL-MST's filter: the
//     light edges' forest is part of the whole one).
//
// Worklist appends take one atomic per warp; the representatives are read through the
// read-only cache in every kernel but the join (the only one that writes them).
//
// Undirected graphs with fewer than 2^32 arcs (the key packs the arc index in 32 bits). Each
// round is one trace record: edges in, edges left, components left. O(E) work in the first
// round, less in every later one; O(log V) rounds per phase.
func mstECL(r *run) error {
	n, m := int64(r.n), r.m
	edges := max(m/2, 1)
	bufs := []struct {
		name  string
		bytes int64
	}{
		{"mste.parent", n * 4}, {"mste.minv", n * 8}, {"mste.wl0", edges * 16}, {"mste.wl1", edges * 16},
		{"mste.len", 16}, {"mste.forest", max(n, 1) * 8}, {"mste.flen", 8},
		{"mste.minv2", n * 8}, {"mste.trace", (mstEclMaxSteps + 1) * mstTWords * 8},
	}
	b := map[string]buffer{}
	for _, x := range bufs {
		buf, err := r.scratch(x.name, x.bytes)
		if err != nil {
			return err
		}
		b[x.name] = buf
	}
	if err := memset8(b["mste.flen"], 0, 8); err != nil {
		return err
	}
	wl := [2]buffer{b["mste.wl0"], b["mste.wl1"]}
	lens := b["mste.len"]
	a := mstEclArgs{off: r.dg.out.off.addr(), nbr: r.dg.out.nbr.addr(), wt: r.dg.out.wt.addr(), n: n,
		parent: b["mste.parent"].addr(), minv: b["mste.minv"].addr(),
		forest: b["mste.forest"].addr(), flen: b["mste.flen"].addr(), counters: r.ctl.addr(), threshold: math.MaxInt32,
		row: r.dg.out.row.addr(), m: m}
	if a.row == 0 && m > 0 {
		return fmt.Errorf("gpu: mst: method=ecl: the arcs' sources were not prepared: internal error")
	}
	filter := r.g.Weights != nil && m >= 4*n
	note := "Boruvka on a shrinking edge worklist (ECL-MST): atomic min on (weight, arc) keys, union-find hooking"
	if filter {
		a.threshold = int64(mstThreshold(r.g))
		note += fmt.Sprintf("; light edges first (weight <= %d), then the heavy ones left between components", a.threshold)
	}
	if r.g.Weights == nil {
		note += "; unweighted graph: every edge weighs 1"
	}
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "ecl", Note: note}); err != nil {
		return err
	}
	if r.s.Fuse == engine.FuseOn {
		if err := mstEclFused(r, a, wl, lens, b["mste.trace"], b["mste.minv2"], filter); err != nil {
			return err
		}
	} else if err := mstEclRounds(r, a, wl, lens, filter); err != nil {
		return err
	}
	forest, flen := b["mste.forest"], b["mste.flen"]
	r.collect = func() error { return r.collectForest(forest, flen) }
	return nil
}

// mstEclFused runs the whole forest in one cooperative launch (kernels/mst_ecl.cu
// mst_ecl_fused) and turns its per-step counters into trace records.
func mstEclFused(r *run, a mstEclArgs, wl [2]buffer, lens, trace, minv2 buffer, filter bool) error {
	if err := memset8(trace, 0, trace.bytes); err != nil {
		return err
	}
	a.wl, a.next, a.nlen = wl[0].addr(), wl[1].addr(), lens.addr()
	a.minv2, a.trace, a.steps = minv2.addr(), trace.addr(), mstEclMaxSteps
	if err := r.begin(); err != nil {
		return err
	}
	if _, err := launchCoopStruct(r, "mst_ecl_fused", &a); err != nil {
		return err
	}
	if err := r.readCounters(); err != nil {
		return err
	}
	steps := int64(r.hostCtl[mstEclSteps])
	if steps > mstEclMaxSteps {
		return fmt.Errorf("gpu: mst: method=ecl took %d steps, more than the %d its trace holds: internal error", steps, mstEclMaxSteps)
	}
	ht := make([]uint64, (mstEclMaxSteps+1)*mstTWords)
	if err := download(ht, trace); err != nil {
		return err
	}
	ks, err := r.kernels()
	if err != nil {
		return err
	}
	n, m := int64(r.n), r.m
	comps := n
	prev := ht[mstEclMaxSteps*mstTWords]
	for k := int64(0); k < steps; k++ {
		t := ht[k*mstTWords : (k+1)*mstTWords]
		rec := engine.Record{Kind: engine.IterationRecord, Iter: r.iter, Phase: "ecl", Direction: engine.Push, Mode: engine.Data,
			Time: time.Duration(t[mstTEnd] - prev)}
		prev = t[mstTEnd]
		switch t[mstTKind] {
		case mstTBuildLight, mstTBuildHeavy:
			what := "all"
			if filter {
				what = map[uint64]string{mstTBuildLight: "light", mstTBuildHeavy: "heavy"}[t[mstTKind]]
			}
			rec.InVertices, rec.InEdges, rec.OutVertices, rec.EdgesScanned = n, m, comps, m
			rec.Note = fmt.Sprintf("worklist of the %s edges: %d", what, t[mstTLeft])
		default:
			joined := int64(t[mstTJoined])
			rec.InVertices, rec.InEdges, rec.OutVertices, rec.EdgesScanned = comps, int64(t[mstTIn]), comps-joined, int64(t[mstTIn])
			comps -= joined
			rec.Note = fmt.Sprintf("%d edges in, %d left between components, %d joined, %d components left", t[mstTIn], t[mstTLeft], joined, comps)
		}
		if k == 0 {
			rec.Kernels = ks
			rec.Note = "fused: one cooperative launch; " + rec.Note
		}
		r.iter++
		r.res.Trace.Records = append(r.res.Trace.Records, rec)
		r.req.Emit(rec)
	}
	return nil
}

// mstEclRounds runs the forest a launch per step, reading the counters back every round.
func mstEclRounds(r *run, a mstEclArgs, wl [2]buffer, lens buffer, filter bool) error {
	n, m := int64(r.n), r.m
	lenAddr := [2]uint64{lens.addr(), lens.addr() + 8}
	// The worklist builds into list 0, whose length mst_ecl_init zeroes.
	a.next, a.nlen = wl[0].addr(), lenAddr[0]
	if err := r.begin(); err != nil {
		return err
	}
	if err := launchStruct(r, "mst_ecl_init", blocks(n, block), &a); err != nil {
		return err
	}
	comps := n
	for heavy := int64(0); heavy <= 1; heavy++ {
		if heavy == 1 {
			if !filter {
				break
			}
			if err := r.begin(); err != nil {
				return err
			}
		}
		if heavy == 1 {
			if err := launchStruct(r, "mst_ecl_flatten", blocks(n, block), &a); err != nil {
				return err
			}
		}
		bl := a
		bl.heavy, bl.next, bl.nlen = heavy, wl[0].addr(), lenAddr[0]
		if err := launchStruct(r, "mst_ecl_build", blocks(m, block), &bl); err != nil {
			return err
		}
		var ln [2]uint64
		if err := download(ln[:], lens); err != nil {
			return err
		}
		phase := "all"
		if filter {
			phase = map[int64]string{0: "light", 1: "heavy"}[heavy]
		}
		if err := r.emit(engine.Record{Phase: "ecl", Mode: engine.Data, InVertices: n, InEdges: m, OutVertices: comps,
			EdgesScanned: m, Note: fmt.Sprintf("worklist of the %s edges: %d", phase, ln[0])}); err != nil {
			return err
		}
		in, cur := int64(ln[0]), 0
		for in > 0 {
			if err := r.begin(); err != nil {
				return err
			}
			grid := blocks(in, block)
			k := a
			k.wl, k.wlen, k.next, k.nlen = wl[cur].addr(), lenAddr[cur], wl[1-cur].addr(), lenAddr[1-cur]
			if err := launchStruct(r, "mst_ecl_min", grid, &k); err != nil {
				return err
			}
			k.wl, k.wlen, k.next, k.nlen = wl[1-cur].addr(), lenAddr[1-cur], 0, lenAddr[cur]
			for _, name := range []string{"mst_ecl_join", "mst_ecl_reset"} {
				if err := launchStruct(r, name, grid, &k); err != nil {
					return err
				}
			}
			if err := r.readCounters(); err != nil {
				return err
			}
			left, joined := int64(r.hostCtl[mstEclLeft]), int64(r.hostCtl[mstEclJoined])
			comps -= joined
			if err := r.emit(engine.Record{Phase: "ecl", Direction: engine.Push, Mode: engine.Data,
				InVertices: comps + joined, InEdges: in, OutVertices: comps, EdgesScanned: in,
				Note: fmt.Sprintf("%s edges: %d in, %d left between components, %d joined, %d components left", phase, in, left, joined, comps)}); err != nil {
				return err
			}
			in, cur = left, 1-cur
		}
	}
	return nil
}

// mstEclArgs mirrors struct MstEclArgs in kernels/mst_ecl.cu field for field (all 8 bytes).
type mstEclArgs struct {
	off, nbr, wt           uint64
	n                      int64
	parent, minv           uint64
	wl, wlen, next, nlen   uint64
	heavy, threshold       int64
	forest, flen, counters uint64
	minv2, trace           uint64
	steps                  int64
	row                    uint64
	m                      int64
}

var _ [160 - unsafe.Sizeof(mstEclArgs{})]byte // sizeof(MstEclArgs), static_asserted in mst_ecl.cu
var _ [unsafe.Sizeof(mstEclArgs{}) - 160]byte

// mst_ecl counters (words of the run's counter block), and the fused trace's words and kinds.
const (
	mstEclJoined, mstEclLeft, mstEclSteps = 0, 1, 2

	mstTKind, mstTIn, mstTLeft, mstTJoined, mstTEnd, mstTWords = 0, 1, 2, 3, 4, 5
	mstTBuildLight, mstTBuildHeavy, mstTRound                  = 1, 2, 3
	mstEclMaxSteps                                             = 256
)

// mstEclFits says whether method=ecl can run on g, and if not why: the worklist keeps an edge
// as one arc of an undirected graph, and the key packs the arc index in 32 bits.
func mstEclFits(g *graph.CSR) string {
	switch {
	case g.Directed:
		return "the edge worklist keeps each undirected edge once (its arc u->v with u < v); a directed graph's arcs are edges of their own (method=boruvka runs them)"
	case g.NumArcs() >= 1<<32:
		return fmt.Sprintf("the key packs the arc index in 32 bits and the graph has %d arcs (method=boruvka runs it)", g.NumArcs())
	case g.NumVertices() >= 1<<31:
		return fmt.Sprintf("the union-find keeps vertex ids in 31 bits and the graph has %d vertices", g.NumVertices())
	}
	return ""
}

// mstThreshold is the light edges' weight bound: of 64 weights sampled at hashed arcs, the one
// about 3 V arcs of all M stay under (ECL-MST samples 20 the same way).
func mstThreshold(g *graph.CSR) int32 {
	const samples = 64
	m, n := g.NumArcs(), int64(g.NumVertices())
	w := make([]int32, samples)
	for i := range w {
		w[i] = g.Weights[graph.Mix64(uint64(i))%uint64(m)]
	}
	slices.Sort(w)
	return w[min(samples-1, 3*n*samples/m)]
}
