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
//     a hub's list does not hold one warp back) with its endpoints' representatives in a
//     union-find forest and its key (weight, arc index), which orders edges as engine.MSTKey
//     does;
//   - a round drops the edges inside one component, lowers each representative's minimum key
//     with an atomic min on the packed key and clears the previous round's minima
//     (mst_ecl_min; even and odd rounds keep their minima apart), then joins the two sides of
//     every edge that is the minimum of either (mst_ecl_join, a compare-and-swap hook of the
//     higher representative under the lower); no round scans the whole graph, only the edges
//     still between two components;
//   - on a graph of average degree 4 or more the first worklist holds the light edges only
//     (weights up to the sampled weight that about 3 V arcs stay under); when they are done,
//     every vertex points straight at its representative (mst_ecl_flatten) and the heavy
//     edges between still different components make a second worklist (ECL-MST's filter: the
//     light edges' forest is part of the whole one).
//
// Appends take one atomic per block (a sparse filter's per-warp appends to one address cost
// more than its reads); the representatives are read through the read-only cache in every
// kernel but the join (the only one that writes them). Each round writes its counters (edges
// in, left, joined) to a slot of a trace on the device, so the host reads back only the lists'
// lengths, every mstEclLook rounds, to decide; the records are built once the forest is done.
// fuse=auto (the default, on a graph with the filter) hands a phase's rounds to one
// cooperative launch (mst_ecl_tail) once its worklist is down to mstEclTail edges: the last
// rounds are many and small, and a grid-wide barrier costs less than a host round trip.
// fuse=off keeps every round a launch of its own, fuse=on (auto's choice without the filter:
// road graphs) runs the whole forest in one cooperative launch.
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
		{"mste.parent", n * 4}, {"mste.minv", n * 8}, {"mste.minv2", n * 8}, {"mste.wl0", edges * 16}, {"mste.wl1", edges * 16},
		{"mste.len", 16}, {"mste.forest", max(n, 1) * 8}, {"mste.flen", 8}, {"mste.trace", (mstEclSteps + 1) * mstTWords * 8},
	}
	b := map[string]buffer{}
	for _, x := range bufs {
		buf, err := r.scratch(x.name, x.bytes)
		if err != nil {
			return err
		}
		b[x.name] = buf
	}
	a := mstEclArgs{nbr: r.dg.out.nbr.addr(), wt: r.dg.out.wt.addr(), row: r.dg.out.row.addr(), m: m, n: n,
		parent: b["mste.parent"].addr(), minv: b["mste.minv"].addr(), minv2: b["mste.minv2"].addr(),
		list0: b["mste.wl0"].addr(), list1: b["mste.wl1"].addr(), len: b["mste.len"].addr(), threshold: math.MaxInt32,
		forest: b["mste.forest"].addr(), flen: b["mste.flen"].addr(), trace: b["mste.trace"].addr(), steps: mstEclSteps}
	if a.row == 0 && m > 0 {
		return fmt.Errorf("gpu: mst: method=ecl: the arcs' sources were not prepared: internal error")
	}
	filter := mstEclFilter(r.g)
	if filter {
		a.threshold = int64(mstThreshold(r.g))
	}
	if err := r.ctx.Err(); err != nil {
		return err
	}
	r.iterStart = time.Now()
	var host []mstHostStep
	var err error
	if r.s.Fuse == engine.FuseOn {
		_, err = launchCoopStruct(r, "mst_ecl_fused", &a)
	} else {
		host, err = mstEclRounds(r, a, b["mste.len"], filter)
	}
	if err != nil {
		return err
	}
	forest, flen, trace := b["mste.forest"], b["mste.flen"], b["mste.trace"]
	r.collect = func() error {
		if err := r.collectForest(forest, flen); err != nil {
			return err
		}
		return mstEclRecords(r, trace, host, filter, a.threshold)
	}
	return nil
}

// mstHostStep is what the host knows of a step it launched: its trace slot, its kernels, and
// for a tail launch the slot of its first round.
type mstHostStep struct {
	slot    int64
	kernels int  // launches, in order, in the run's pending kernels
	tail    bool // a cooperative launch of the phase's remaining rounds from slot
}

// mstEclRounds runs the forest a launch per step: init, then per phase its build (the heavy
// one after a flatten) and its rounds, reading the lists' lengths back after a build and every
// mstEclLook rounds; under fuse=auto the rounds left once a list is down to mstEclTail edges
// go to one cooperative launch. It returns the steps launched.
func mstEclRounds(r *run, a mstEclArgs, lens buffer, filter bool) ([]mstHostStep, error) {
	look, tailAt := r.eng.mstLook, r.eng.mstTail
	if look < 1 {
		look = mstEclLook
	}
	if tailAt == 0 {
		tailAt = mstEclTail
	}
	if r.s.Fuse == engine.FuseOff {
		tailAt = -1
	}
	var steps []mstHostStep
	launch := func(name string, grid int, k *mstEclArgs) error { return launchStruct(r, name, grid, k) }
	if err := launch("mst_ecl_init", blocks(a.n, block), &a); err != nil {
		return nil, err
	}
	var ln [2]uint64
	for heavy := int64(0); heavy <= 1; heavy++ {
		if heavy == 1 && !filter {
			break
		}
		slot := heavy * mstHeavySlot
		if heavy == 1 {
			if err := launch("mst_ecl_flatten", blocks(a.n, block), &a); err != nil {
				return nil, err
			}
		}
		st := mstHostStep{slot: slot, kernels: 2} // init or flatten, and the build
		bl := a
		bl.heavy = heavy
		if err := launch("mst_ecl_build", blocks(a.m, block), &bl); err != nil {
			return nil, err
		}
		steps = append(steps, st)
		if err := download(ln[:], lens); err != nil {
			return nil, err
		}
		in, cur, round := int64(ln[0]), int64(0), int64(0)
		slot++
		for in > 0 {
			if in <= tailAt {
				k := a
				k.cur, k.round, k.slot = cur, round, slot
				// a thread per edge at most, a block per SM at least: a smaller grid meets at
				// its barriers sooner
				maxBlocks := max(r.dev.sms, blocks(in, block))
				if _, err := launchCoopStructMax(r, "mst_ecl_tail", maxBlocks, &k); err != nil {
					return nil, err
				}
				steps = append(steps, mstHostStep{slot: slot, kernels: 1, tail: true})
				break
			}
			// look rounds, each sized by the last length read (lists only shrink), then a read
			for j := 0; j < look; j++ {
				if slot-heavy*mstHeavySlot >= mstHeavySlot-1 {
					return nil, fmt.Errorf("gpu: mst: method=ecl took more than %d rounds in a phase: internal error", mstHeavySlot-2)
				}
				k := a
				k.cur, k.round, k.slot = cur, round, slot
				grid := blocks(in, block)
				if err := launch("mst_ecl_min", grid, &k); err != nil {
					return nil, err
				}
				if err := launch("mst_ecl_join", grid, &k); err != nil {
					return nil, err
				}
				steps = append(steps, mstHostStep{slot: slot, kernels: 2})
				cur, round, slot = 1-cur, round+1, slot+1
			}
			if err := download(ln[:], lens); err != nil {
				return nil, err
			}
			in = int64(ln[cur])
		}
	}
	return steps, nil
}

// mstEclRecords turns the device's trace into one record per step, in order: a build (the
// worklist's size), then each round (edges in, left between components, joins, components
// left). Host-launched steps carry their kernels and their kernels' time; the rounds of a
// cooperative launch their globaltimer span. Rounds that found their list empty (launched
// ahead of the read-back that would have stopped them) are left out.
func mstEclRecords(r *run, trace buffer, host []mstHostStep, filter bool, threshold int64) error {
	note := "Boruvka on a shrinking edge worklist (ECL-MST): atomic min on (weight, arc) keys, union-find hooking"
	if filter {
		note += fmt.Sprintf("; light edges first (weight <= %d), then the heavy ones left between components", threshold)
	}
	if r.g.Weights == nil {
		note += "; unweighted graph: every edge weighs 1"
	}
	switch r.s.Fuse {
	case engine.FuseOn:
		note += "; fused: the whole forest in one cooperative launch"
	case engine.FuseOff:
		note += "; a launch per step"
	default:
		note += fmt.Sprintf("; a launch per step, the rounds left once a worklist is down to %d edges in one cooperative launch", mstEclTail)
	}
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "ecl", Note: note}); err != nil {
		return err
	}
	ht := make([]uint64, (mstEclSteps+1)*mstTWords)
	if err := download(ht, trace); err != nil {
		return err
	}
	ks, err := r.kernels()
	if err != nil {
		return err
	}
	n, m := int64(r.n), r.m
	comps := n
	word := func(k int64, w int) uint64 { return ht[k*mstTWords+int64(w)] }
	phaseName := func(k int64) string {
		if !filter {
			return "all"
		}
		if k >= mstHeavySlot {
			return "heavy"
		}
		return "light"
	}
	emitRound := func(k int64, kern []engine.Kernel, t time.Duration) error {
		in, left, joined := int64(word(k, mstTIn)), int64(word(k, mstTLeft)), int64(word(k, mstTJoined))
		comps -= joined
		return r.emit(engine.Record{Phase: "ecl", Direction: engine.Push, Mode: engine.Data, Kernels: kern, Time: t,
			InVertices: comps + joined, InEdges: in, OutVertices: comps, EdgesScanned: in,
			Note: fmt.Sprintf("%s edges: %d in, %d left between components, %d joined, %d components left", phaseName(k), in, left, joined, comps)})
	}
	// fused: every step from the trace; the launch's kernel time on the first record
	if r.s.Fuse == engine.FuseOn {
		for _, base := range []int64{0, mstHeavySlot} {
			for k := base; k < mstEclSteps && word(k, mstTKind) != 0; k++ {
				t := time.Duration(word(k, mstTEnd) - word(k, mstTStart))
				var kern []engine.Kernel
				if k == 0 {
					kern = ks
				}
				if word(k, mstTKind) == mstTRound {
					if word(k, mstTIn) == 0 {
						break
					}
					if err := emitRound(k, kern, t); err != nil {
						return err
					}
					continue
				}
				what := phaseName(k)
				if err := r.emit(engine.Record{Phase: "ecl", Mode: engine.Data, Kernels: kern, Time: t, InVertices: n, InEdges: m,
					OutVertices: comps, EdgesScanned: m, Note: fmt.Sprintf("worklist of the %s edges: %d", what, word(k, mstTLeft))}); err != nil {
					return err
				}
			}
		}
		return nil
	}
	next := 0 // the next host kernel
	for _, st := range host {
		kern := ks[next : next+st.kernels]
		next += st.kernels
		var t time.Duration
		for _, x := range kern {
			t += x.Time
		}
		switch {
		case st.tail:
			for k := st.slot; k < mstEclSteps && word(k, mstTKind) == mstTRound && word(k, mstTIn) > 0; k++ {
				kt := kern
				if k != st.slot {
					kt = nil
				}
				if err := emitRound(k, kt, time.Duration(word(k, mstTEnd)-word(k, mstTStart))); err != nil {
					return err
				}
			}
		case st.slot%mstHeavySlot == 0:
			if err := r.emit(engine.Record{Phase: "ecl", Mode: engine.Data, Kernels: kern, Time: t, InVertices: n, InEdges: m,
				OutVertices: comps, EdgesScanned: m, Note: fmt.Sprintf("worklist of the %s edges: %d", phaseName(st.slot), word(st.slot+1, mstTIn))}); err != nil {
				return err
			}
		default:
			if word(st.slot, mstTIn) == 0 {
				continue
			}
			if err := emitRound(st.slot, kern, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// mstEclArgs mirrors struct MstEclArgs in kernels/mst_ecl.cu field for field (all 8 bytes).
type mstEclArgs struct {
	nbr, wt, row        uint64
	m, n                int64
	parent, minv, minv2 uint64
	list0, list1, len   uint64
	cur                 int64
	heavy, threshold    int64
	forest, flen        uint64
	trace               uint64
	steps, slot, round  int64
}

var _ [160 - unsafe.Sizeof(mstEclArgs{})]byte // sizeof(MstEclArgs), static_asserted in mst_ecl.cu
var _ [unsafe.Sizeof(mstEclArgs{}) - 160]byte

// The trace's words and kinds (kernels/mst_ecl.cu): TWords u64 per step, the light phase's
// steps from slot 0, the heavy phase's from mstHeavySlot.
const (
	mstTKind, mstTIn, mstTLeft, mstTJoined, mstTStart, mstTEnd, mstTWords = 0, 1, 2, 3, 4, 5, 6
	mstTBuildLight, mstTBuildHeavy, mstTRound                             = 1, 2, 3
	mstHeavySlot                                                          = 64
	mstEclSteps                                                           = 2 * mstHeavySlot
)

// mstEclLook is how many rounds the host launches between two read-backs of the lists'
// lengths, and mstEclTail the worklist size at which fuse=auto hands a phase's remaining
// rounds to one cooperative launch.
const (
	mstEclLook = 2
	mstEclTail = 1 << 18
)

// mstEclFilter says whether method=ecl takes the light edges first: a weighted graph of
// average degree 4 or more (ECL-MST's filter).
func mstEclFilter(g *graph.CSR) bool {
	return g.Weights != nil && g.NumArcs() >= 4*int64(g.NumVertices())
}

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
