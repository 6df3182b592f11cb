//go:build cuda

package gpu

import (
	"fmt"
	"math"

	"github.com/gworkbench/gworkbench/engine"
)

// sssp returns the distance of every vertex from the source (engine.InfDist unreached).
// Input graph requirements: non-negative weights (an unweighted graph has weight 1 everywhere).
//
// Approach: near-far (Davidson et al.; Gunrock; IrGL's NF): relaxations whose new distance is
// below the bound go to the near worklist, the others to the far pile. When the near worklist
// empties, the bound moves up by delta (straight past empty buckets, to the smallest far
// distance) and the far pile is split (util_far_split). driven=topology runs Bellman-Ford
// sweeps over every reached vertex; driven=hybrid switches between the two by worklist size.
// With update=rw a lost write can leave a distance too high, so an empty worklist is confirmed
// by one topology sweep that pushes any edge still relaxable.
//
// [1] Davidson, Baxter, Garland, Owens. Work-efficient parallel GPU methods for SSSP. IPDPS 2014.
// [2] Pai, Pingali. IrGL. OOPSLA 2016. [3] Nasre, Burtscher, Pingali. IPDPS 2013.

// resolveSSSP fills SSSP's auto knobs: near-far push over a queue (Bellman-Ford sweeps when
// topology-driven), delta from the weights (autoDelta), fused where resolveFuse says (on even
// dense degrees too), a warp per vertex on sparse degrees, TWC on dense or skewed ones and np
// on even dense ones (fused, its steps take twc's small- and rich-frontier rules and pack the
// rest), and block-aggregated pushes when fused on even dense degrees (hundreds of thousands
// of near pushes an iteration: one atomic on the queue's tail per block instead of per warp);
// fuse=block (one block while the frontier is small) without dedup. On skewed degrees the
// host-driven steps of ssspBigStep or more edges run edge-balanced (run.bigStep).
func resolveSSSP(r *run, s *engine.Schedule) error {
	if async, err := resolveAsync(r, s, engine.SSSP); async || err != nil {
		return err
	}
	p := r.g.Properties()
	even := p.AvgDegree >= 5 && float64(p.MaxDegree) < 8*p.AvgDegree
	if err := resolveFuse(s, engine.SSSP, p.Diameter, p.MaxDegree, even); err != nil {
		return err
	}
	if s.LB == engine.LBAuto {
		switch {
		case p.AvgDegree < 5:
			s.LB = engine.LBWarp
		case even:
			s.LB = engine.LBNP
		default:
			s.LB = engine.LBTWC
			r.bigStep = ssspBigStep
		}
	}
	resolveNP(s)
	resolveUpdate(s)
	switch s.Method {
	case engine.MethodAuto, engine.NearFar:
		if s.Driven != engine.Topology {
			// a topology-driven run is Bellman-Ford sweeps: no method applies (Validate)
			s.Method = engine.NearFar
		}
	default:
		return unsupported("method=%s: the GPU engine's SSSP is near-far (method=nearfar) or async", s.Method)
	}
	if s.Delta == 0 {
		s.Delta = autoDelta(r)
	}
	if s.Direction == engine.DirAuto {
		s.Direction = engine.Push
	}
	agg := engine.AggWarp
	if s.Fuse == engine.FuseOn && even {
		agg = engine.AggBlock
	}
	if s.Fuse == engine.FuseBlock && s.Dedup == engine.DedupAuto {
		// the one-block loop's duplicates cost a relaxation each, the claim that prevents them
		// a dependent atomic in every step (docs/gpu-notes.md, fuse=block)
		s.Dedup = engine.DedupNone
	}
	resolveWorklist(s, false, agg)
	return nil
}

// meanWeight is the mean of about 4,096 evenly spaced weights (every one of fewer), the
// scale both SSSP methods' auto deltas start from; false when there are none.
func meanWeight(w []int32) (float64, bool) {
	if len(w) == 0 {
		return 0, false
	}
	var sum int64
	step := len(w)/4096 + 1
	cnt := 0
	for i := 0; i < len(w); i += step {
		sum += int64(w[i])
		cnt++
	}
	return float64(sum) / float64(cnt), true
}

// autoDelta picks the near-far bucket width from the weights: about the mean weight times a
// factor that grows as the degree falls, so that each near phase has enough work to fill the
// GPU on sparse, high-diameter graphs (road networks) without much redundant relaxation on
// dense ones: three quarters of the mean weight on even dense degrees, 16 times wider on
// skewed graphs, and 32 times on road networks (average degree under 4, an estimated diameter
// of 500 or more), whose thousands of steps cost more than the extra relaxations of wider
// buckets. Unweighted graphs count every edge as 1 (NY.gr, average degree 2.8: delta 11,
// where a fixed delta 1 ran hundreds of one-level phases, twice as slow as delta 64).
func autoDelta(r *run) int {
	g := r.g
	mean, ok := meanWeight(g.Weights)
	if !ok {
		mean = 1 // an unweighted graph: every edge weighs 1, and the same factor applies
	}
	p := g.Properties()
	f := 32 / max(p.AvgDegree, 1)
	f = min(max(f, 1), 16)
	if p.AvgDegree >= 5 && float64(p.MaxDegree) < 8*p.AvgDegree {
		// even, dense degrees (urand): three quarters of the mean weight; each near phase
		// still fills the GPU (fused with push_agg=block, delta 96 beat 63 and 128)
		f = 0.75
	}
	if p.AvgDegree < 4 && p.Diameter >= 500 {
		// a road network (sparse, thousands of levels): 32 times the mean weight, about
		// twice the degree rule's width, so that fewer near-far steps each relax more
		if f < 32 {
			f = 32
		}
	}
	if float64(p.MaxDegree) > 100*p.AvgDegree {
		// skewed (kron): hubs settle most vertices in a few wide buckets (delta 1024 to 4096
		// beat 128 by half again)
		f *= 16
	}
	d := int(mean * f)
	return max(d, 1)
}

// ssspBigStep: under lb=auto on skewed degrees, a host-driven push step of at least this many
// edges runs lb=edge (tiles of equal edges, kernels/common.cuh lb_edge) instead of twc, its
// near output marked and folded into the queue (step): on kron20 the hub's steps then run at
// GSWITCH's edge rate, and a lower threshold gained nothing (docs/gpu-notes.md).
var ssspBigStep int64 = 1 << 20

// prepareSSSP finds the graph's smallest weight, a host pass over the weights once per graph,
// and builds method=async's partitioned graph.
func prepareSSSP(r *run) error {
	r.dg.minWeight()
	if r.s.Method == engine.AsyncRanges {
		return prepareAsync(r, true)
	}
	return nil
}

// sssp runs SSSP from the request's source.

func sssp(r *run) error {
	src, err := engine.ResolveSource(r.req.Params, r.g)
	if err != nil {
		return fmt.Errorf("gpu: %v", err)
	}
	r.res.Params.Src = int64(src)
	if w := r.dg.minWeight(); w < 0 {
		return fmt.Errorf("gpu: sssp needs non-negative weights (found %d)", w)
	}
	s := r.s
	n := int64(r.n)
	if s.Method == engine.AsyncRanges {
		val, err := r.values("val")
		if err != nil {
			return err
		}
		if err := r.asyncTraverse(src, val, true, false, int64(s.Delta)); err != nil {
			return err
		}
		r.collect = func() error {
			if err := r.collectDist(val); err != nil {
				return err
			}
			return r.asyncRecords(int64(s.Delta), "of distance")
		}
		return nil
	}
	val, valIn, err := r.sourceValues(uint32(infDist), src)
	if err != nil {
		return err
	}
	csr := &r.dg.out
	if s.Direction == engine.Pull {
		if csr, err = r.inCSR(); err != nil {
			return err
		}
	}
	cur, next := newFrontiers(frontierKind(s.Frontier))
	farA := &frontier{kind: kQueue, name: "far0", slot: lenFar0}
	farB := &frontier{kind: kQueue, name: "far1", slot: lenFar1}
	for _, f := range []*frontier{farA, farB} {
		if _, err := r.storage(f); err != nil {
			return err
		}
		if err := r.setLen(f.slot, 0); err != nil {
			return err
		}
	}
	if err := r.setSource(cur, src); err != nil {
		return err
	}
	if s.Fuse == engine.FuseOn || s.Fuse == engine.FuseBlock {
		st := &fusedState{prefix: "sssp_fused", cur: cur, next: next, far: farA, rest: farB, bound: int64(s.Delta), delta: int64(s.Delta), val: val, valIn: valIn}
		if s.Fuse == engine.FuseBlock {
			st.block = "sssp_block"
		}
		if err := r.ssspFused(st, csr); err != nil {
			return err
		}
		r.collect = func() error { return r.collectDist(val) }
		return nil
	}
	topoOut := &frontier{kind: kBoolmap, name: "topo", edges: -1}
	mode := engine.Data
	if s.Driven == engine.Topology {
		mode = engine.Topology
	}
	delta := int64(s.Delta)
	bound := delta
	dir := engine.Push
	if s.Direction == engine.Pull {
		dir = engine.Pull
	}
	checked := false
	var peak int64 // fuse=tail: the most edges a step's input has had
	for iter := 0; ; iter++ {
		if s.Fuse == engine.FuseTail && !checked && cur.edges >= 0 {
			peak = max(peak, cur.edges)
			if iter > 0 && cur.edges*tailShrink < peak {
				// the big steps are over: the rest of the loop in one cooperative launch
				r.switchRec("fuse", "off", "on", "the input has shrunk from its largest",
					engine.Quantity{Name: "input edges", Value: float64(cur.edges)}, "<",
					engine.Quantity{Name: "largest input edges / " + itoa(tailShrink), Value: float64(peak) / float64(tailShrink)})
				st := &fusedState{prefix: "sssp_fused", cur: cur, next: next, far: farA, rest: farB, bound: bound, delta: delta, val: val, valIn: valIn, iter: iter}
				if err := r.ssspFused(st, csr); err != nil {
					return err
				}
				break
			}
		}
		if err := r.begin(); err != nil {
			return err
		}
		if s.Driven == engine.Hybrid {
			nm, err := r.hybrid(mode, cur, topoOut)
			if err != nil {
				return err
			}
			if nm != mode && nm == engine.Data {
				bound = math.MaxInt32 // the sweep's changed set is relaxed in full first
			}
			mode = nm
		}
		sweep := mode == engine.Topology || checked
		prefix := "sssp_push"
		if dir == engine.Pull {
			prefix = "sssp_pull"
		}
		sp := &stepSpec{prefix: prefix, csr: csr, pull: dir == engine.Pull, in: cur, out: next, far: farA, grid: dir == engine.Push,
			a: kargs{val: val.addr(), valIn: valIn.addr(), iter: int64(iter), update: updateCode(s.Update), bound: bound}}
		if sweep {
			sp.topo, sp.in, sp.out, sp.far = true, nil, topoOut, nil
			sp.a.bound = math.MaxInt64
			if checked {
				// The rw confirmation sweep pushes straight into the worklist.
				sp.out = next
			}
		}
		if err := r.step(sp); err != nil {
			return err
		}
		if s.Sync == engine.SyncDB {
			if err := copyBuf(valIn, val, n*4); err != nil {
				return err
			}
		}
		if err := r.finishStep(sp.out, sp.far); err != nil {
			return err
		}
		out := sp.out
		inV, inE := cur.count, cur.edges
		if sweep {
			inV, inE = n, r.m
		}
		rec := engine.Record{Direction: dir, Mode: mode, InVertices: inV, InEdges: inE, OutVertices: out.count,
			EdgesScanned: int64(r.hostCtl[cEdges]), Duplicates: int64(r.hostCtl[cCulled])}
		if sp.far != nil {
			rec.Note = fmt.Sprintf("bound %d, far %d", bound, farA.count)
		}
		if checked {
			rec.Note = "update=rw confirmation sweep"
			rec.Mode = engine.Topology
		}
		if err := r.emit(rec); err != nil {
			return err
		}
		wasCheck := checked
		checked = false
		if mode == engine.Topology && !wasCheck {
			cur.count, cur.edges = out.count, out.edges
			if out.count == 0 {
				break
			}
			continue
		}
		cur, next = next, cur
		if cur.count > 0 {
			continue
		}
		// The near worklist is empty: split the far pile, moving the bound past empty buckets.
		for farA.count > 0 && cur.count == 0 {
			minFar, err := r.farSplit(farA, farB, cur, val, &bound, delta)
			if err != nil {
				return err
			}
			farA, farB = farB, farA
			if cur.count == 0 && farA.count > 0 {
				// skip the empty buckets: the next split's bound is the first above minFar
				bound = (minFar / delta) * delta
			}
		}
		if cur.count > 0 {
			continue
		}
		if s.Update == engine.RW && !wasCheck {
			checked = true
			continue
		}
		break
	}
	r.collect = func() error { return r.collectDist(val) }
	return nil
}

// tailShrink: under fuse=tail, the host-driven steps hand the loop to one cooperative launch
// when a step's input has fewer than 1/tailShrink of the edges of the largest input so far.
// On kron20 from its hub the inputs are 0.06, 22.0, 28.7, 8.7, 1.2, 0.16 M edges and then a
// few thousand: the big steps run fastest as launches of their own (with fuse=on from the
// start the whole run took twice as long), and the small ones cost the host's round trip each
// (about 25 us), which the fused loop's grid barrier (a few us) replaces. At 1/64 the loop is
// handed over after the 1.2 M-edge step (kron20 on an H100: 2.24-2.25 ms against 2.28-2.39 at
// 1/16, after the 8.7 M-edge step at 1/3: 2.42-2.46; docs/gpu-notes.md).
var tailShrink int64 = 64

// ssspFused runs near-far SSSP's loop in cooperative launches (fuse=on and fuse=block from the
// source, fuse=tail from where the host-driven steps hand it over) until it is done; with
// update=rw an empty worklist is confirmed by a topology sweep, and what that finds goes round
// again.
func (r *run) ssspFused(st *fusedState, csr *csrDev) error {
	n := int64(r.n)
	for {
		if err := r.fusedLoop(st); err != nil {
			return err
		}
		if r.s.Update != engine.RW {
			return nil
		}
		// update=rw: confirm with one sweep; anything still relaxable goes round again
		if err := r.begin(); err != nil {
			return err
		}
		sp := &stepSpec{prefix: "sssp_push", csr: csr, topo: true, out: st.cur,
			a: kargs{val: st.val.addr(), valIn: st.valIn.addr(), update: uRW, bound: math.MaxInt64}}
		if err := r.step(sp); err != nil {
			return err
		}
		if err := r.finishStep(st.cur, nil); err != nil {
			return err
		}
		if err := r.emit(engine.Record{Direction: engine.Push, Mode: engine.Topology, InVertices: n, InEdges: r.m,
			OutVertices: st.cur.count, EdgesScanned: int64(r.hostCtl[cEdges]), Note: "update=rw confirmation sweep"}); err != nil {
			return err
		}
		if st.cur.count == 0 {
			return nil
		}
		st.bound = math.MaxInt32 // relax what the sweep found in full
	}
}

func (r *run) collectDist(val buffer) error {
	dist := make([]int32, r.n)
	if err := download(dist, val); err != nil {
		return err
	}
	r.res.Dist = dist
	for _, d := range dist {
		if d != engine.InfDist {
			r.res.Summary.Reached++
			r.res.Summary.MaxDist = max(r.res.Summary.MaxDist, d)
		}
	}
	if r.res.Summary.MaxDist >= engine.MaxDist {
		return engine.ErrDistTooLarge // saturated (dist_add): some distance may be wrong
	}
	return nil
}

// farSplit raises the bound by delta and moves the far pile's entries below it into near
// (a fresh worklist), keeping the rest in the other far buffer. It returns the smallest
// distance left in the far pile.
func (r *run) farSplit(far, rest, near *frontier, val buffer, bound *int64, delta int64) (int64, error) {
	*bound += delta
	if err := r.clearCounters(); err != nil {
		return 0, err
	}
	if near.kind == kQueue && r.qcap(near.name) < far.count {
		// the near worklist may receive the whole far pile
		if _, err := r.buf(near.name, far.count*4, false); err != nil {
			return 0, err
		}
	}
	fb, err := r.storage(far)
	if err != nil {
		return 0, err
	}
	rb, err := r.buf(rest.name, r.qcap(far.name)*4, false)
	if err != nil {
		return 0, err
	}
	a := r.args(&r.dg.out)
	a.inQ, a.inLen, a.val, a.bound, a.eps = fb.addr(), r.lenAddr(far.slot), val.addr(), *bound, float64(delta)
	a.farQ, a.farLen, a.farCap = rb.addr(), r.lenAddr(rest.slot), r.qcap(rest.name)
	if err := r.setLen(rest.slot, 0); err != nil {
		return 0, err
	}
	if err := r.wireOut(near, &a, false); err != nil {
		return 0, err
	}
	if near.kind != kQueue {
		// near-far's split fills a queue; a bitmap or boolmap near set takes the queue's members
		tmp := &frontier{kind: kQueue, name: "splitq", slot: lenTmp}
		tb, err := r.buf("splitq", r.qcap(far.name)*4, false)
		if err != nil {
			return 0, err
		}
		if err := r.setLen(lenTmp, 0); err != nil {
			return 0, err
		}
		a.outKind, a.outQ, a.outLen, a.outCap = kQueue, tb.addr(), r.lenAddr(lenTmp), r.qcap("splitq")
		if err := r.launch("util_far_split", blocks(far.count, block), &a); err != nil {
			return 0, err
		}
		if err := r.readCounters(); err != nil {
			return 0, err
		}
		tmp.count = r.queueLen(lenTmp)
		m := r.hostCtl[cMinFar]
		nb, err := r.storage(near)
		if err != nil {
			return 0, err
		}
		qa := r.args(&r.dg.out)
		qa.inQ, qa.inLen, qa.memKind = tb.addr(), r.lenAddr(lenTmp), int64(near.kind)
		qa.memBits, qa.memBools = nb.addr(), nb.addr()
		if err := r.launch("util_queue_to_mem", blocks(tmp.count, block), &qa); err != nil {
			return 0, err
		}
		near.count, near.edges = tmp.count, -1
		rest.count = r.queueLen(rest.slot)
		return int64(math.MaxInt32) - int64(m), nil
	}
	if err := r.launch("util_far_split", blocks(far.count, block), &a); err != nil {
		return 0, err
	}
	if err := r.readCounters(); err != nil {
		return 0, err
	}
	near.count, near.edges = r.queueLen(near.slot), -1
	rest.count = r.queueLen(rest.slot)
	return int64(math.MaxInt32) - int64(r.hostCtl[cMinFar]), nil
}
