//go:build cuda

package gpu

import (
	"fmt"

	"github.com/gworkbench/gworkbench/engine"
)

// cc labels every vertex with a component id (weakly connected components on a directed graph).
//
// Approach: method=afforest (the default) links each vertex to two sampled neighbours, finds
// the largest component from 1024 sampled labels and links the remaining edges of the other
// vertices only (Sutton et al.; GAPBS cc.cc). method=sv is Shiloach-Vishkin as Soman et al. run
// it on GPUs (Gunrock's hardwired CC): each round hooks the larger of two roots under the
// smaller over every edge (cc_hook_<lb>), then jumps pointers until every vertex points at its root (cc_jump), until a
// round hooks nothing; O(log V) rounds. method=labelprop propagates the smallest label, with
// the direction, driven, frontier, dedup, update and sync knobs; on a directed graph each step
// runs over the out-edges and the in-edges.
//
// [1] Soman, Kishore, Narayanan. A fast GPU algorithm for graph connectivity. IPDPSW 2010.
// [2] Sutton, Ben-Nun, Barak. Optimizing parallel graph connectivity computation via subgraph
// sampling. IPDPS 2018.
// [3] Nasre, Burtscher, Pingali. IPDPS 2013 (label propagation, data vs topology).

// resolveCC fills CC's auto knobs: Afforest unless a label-propagation knob is set (then
// labelprop, push, with the traversals' worklist rules), unfused unless fuse=on (which runs
// Shiloach-Vishkin rounds: Afforest beats fused sv on every graph measured), TWC on dense
// degrees and a thread per vertex on sparse ones (an all-vertex sweep).
func resolveCC(r *run, s *engine.Schedule) error {
	p := r.g.Properties()
	plain := s.Direction == engine.DirAuto && s.Driven == engine.DrivenAuto && s.Frontier == engine.FrontierAuto &&
		s.Dedup == engine.DedupAuto && s.PushAgg == engine.AggAuto && s.Sync == engine.SyncAuto && s.Update == engine.UpdateAuto &&
		s.LB == engine.LBAuto && s.Fuse == engine.FuseAuto
	if s.Method == engine.MethodAuto && plain && ccEclWins(p.AvgDegree) && r.n < 1<<31 {
		s.Method = engine.ECL
	}
	if s.Method == engine.ECL {
		switch {
		case r.n >= 1<<31:
			return unsupported("cc: method=ecl: the labels are 31-bit vertex ids and the graph has %d vertices", r.n)
		case s.Update == engine.RW:
			return unsupported("cc: method=ecl hooks each edge once with a compare-and-swap (update=rmw); a plain write could lose a hook")
		case s.LB != engine.LBAuto:
			return unsupported("cc: method=ecl maps vertices to a thread, a warp or a block by degree; lb=%s does not apply", s.LB)
		}
		if s.Fuse == engine.FuseAuto {
			s.Fuse = ccEclFuse
		}
		resolveUpdate(s)
		return nil
	}
	if s.Fuse != engine.FuseOn {
		s.Fuse = engine.FuseOff
	} else {
		labelKnobs := s.Direction != engine.DirAuto || s.Driven != engine.DrivenAuto || s.Frontier != engine.FrontierAuto ||
			s.Dedup != engine.DedupAuto || s.PushAgg != engine.AggAuto || s.Sync != engine.SyncAuto
		lbOK := s.LB == engine.LBAuto || s.LB == engine.LBThread || s.LB == engine.LBWarp || s.LB == engine.LBCTA || s.LB == engine.LBTWC
		if (s.Method != engine.MethodAuto && s.Method != engine.SV) || labelKnobs || !lbOK {
			return unsupported("fuse=on runs cc as Shiloach-Vishkin rounds (method=sv) with lb=thread|warp|cta|twc (not %s)", s.Relevant(engine.CC, "gpu"))
		}
		s.Method = engine.SV
	}
	if s.LB == engine.LBAuto {
		s.LB = engine.LBThread
		if p.AvgDegree >= 5 {
			s.LB = engine.LBTWC
		}
	}
	resolveNP(s)
	resolveUpdate(s)
	labelKnobs := s.Direction != engine.DirAuto || s.Driven != engine.DrivenAuto || s.Frontier != engine.FrontierAuto ||
		s.Dedup != engine.DedupAuto || s.PushAgg != engine.AggAuto || s.Sync != engine.SyncAuto || s.Update == engine.RW
	switch s.Method {
	case engine.MethodAuto:
		if labelKnobs {
			s.Method = engine.LabelProp
		} else {
			s.Method = engine.Afforest
		}
	case engine.LabelProp, engine.SV, engine.Afforest:
	default:
		return unsupported("method=%s: the GPU engine's CC is labelprop, sv, afforest or ecl", s.Method)
	}
	if s.Method == engine.LabelProp {
		if s.Direction == engine.DirAuto {
			s.Direction = engine.Push
		}
		resolveWorklist(s, false, engine.AggWarp)
	}
	return nil
}

// cc runs the chosen method.
func cc(r *run) error {
	n := int64(r.n)
	var val buffer
	var err error
	if r.s.Method == engine.ECL && !r.eng.poison {
		val, err = r.scratch("val", n*4) // ECL-CC's init writes every label: no memset in the timing
	} else {
		val, err = r.values("val")
	}
	if err != nil {
		return err
	}
	a := r.args(&r.dg.out)
	a.val = val.addr()
	if r.s.Method != engine.ECL { // ECL-CC starts from its own labels
		if err := r.launch("util_iota", blocks(n, block), &a); err != nil {
			return err
		}
	}
	r.collect = func() error {
		comp := make([]uint32, r.n)
		if err := download(comp, val); err != nil {
			return err
		}
		r.res.Comp = comp
		sizes := map[uint32]int64{}
		for _, c := range comp {
			sizes[c]++
		}
		r.res.Summary.Components = int64(len(sizes))
		for _, s := range sizes {
			r.res.Summary.LargestComp = max(r.res.Summary.LargestComp, s)
		}
		return nil
	}
	switch r.s.Method {
	case engine.SV:
		return ccSV(r, val)
	case engine.Afforest:
		return ccAfforest(r, val)
	case engine.ECL:
		return ccECL(r, val)
	}
	return ccLabelProp(r, val)
}

func ccSV(r *run, val buffer) error {
	if r.s.Fuse == engine.FuseOn {
		return ccSVFused(r, val)
	}
	for {
		if err := r.begin(); err != nil {
			return err
		}
		sp := &stepSpec{prefix: "cc_hook", csr: &r.dg.out, topo: true, a: kargs{val: val.addr(), valIn: val.addr()}}
		if err := r.step(sp); err != nil {
			return err
		}
		a := r.args(&r.dg.out)
		a.val = val.addr()
		if err := r.launch("cc_jump", blocks(int64(r.n), block), &a); err != nil {
			return err
		}
		if err := r.readCounters(); err != nil {
			return err
		}
		hooked := r.hostCtl[cChanged] != 0
		if err := r.emit(engine.Record{Direction: engine.Push, Mode: engine.Topology, InVertices: int64(r.n), InEdges: r.m,
			EdgesScanned: int64(r.hostCtl[cEdges]), Note: "hook + pointer jumping"}); err != nil {
			return err
		}
		if !hooked {
			return nil
		}
	}
}

// ccAfforest is Afforest (Sutton et al. 2018, GAPBS cc.cc): link each vertex to its first two
// neighbours, compress, sample 1024 labels for the largest component, then link the remaining
// edges of the vertices outside it (and, on a directed graph, every in-edge of those), and
// compress. Most edges of a graph with a giant component are never read.
func ccAfforest(r *run, val buffer) error {
	const rounds = 2
	n := int64(r.n)
	a := r.args(&r.dg.out)
	a.val = val.addr()
	for k := 0; k < rounds; k++ {
		if err := r.begin(); err != nil {
			return err
		}
		a.iter = int64(k)
		if err := r.launch("cc_sample_link", blocks(n, block), &a); err != nil {
			return err
		}
		if err := r.launch("cc_jump", blocks(n, block), &a); err != nil {
			return err
		}
		if err := r.readCounters(); err != nil {
			return err
		}
		if err := r.emit(engine.Record{Direction: engine.Push, Mode: engine.Topology, InVertices: n, InEdges: r.m, EdgesScanned: n,
			Note: "afforest: link the neighbour at index " + itoa(int64(k)) + ", compress"}); err != nil {
			return err
		}
	}
	// The most frequent label of a sample is the largest component.
	const samples = 1024
	sb, err := r.buf("sample", samples*4, false)
	if err != nil {
		return err
	}
	sa := a
	sa.outQ, sa.outCap = sb.addr(), samples
	if err := r.launch("cc_sample", blocks(samples, block), &sa); err != nil {
		return err
	}
	hs := make([]uint32, samples)
	if err := download(hs, sb); err != nil {
		return err
	}
	freq := map[uint32]int{}
	big, bigN := uint32(0), 0
	for _, c := range hs {
		freq[c]++
		if freq[c] > bigN {
			big, bigN = c, freq[c]
		}
	}
	if err := r.begin(); err != nil {
		return err
	}
	sp := &stepSpec{prefix: "cc_afforest", csr: &r.dg.out, topo: true, a: kargs{val: val.addr(), valIn: val.addr(), iter: rounds, bound: int64(big)}}
	if err := r.step(sp); err != nil {
		return err
	}
	if r.g.Directed {
		in, err := r.inCSR()
		if err != nil {
			return err
		}
		sp := &stepSpec{prefix: "cc_afforest", csr: in, topo: true, a: kargs{val: val.addr(), valIn: val.addr(), iter: 0, bound: int64(big)}}
		if err := r.step(sp); err != nil {
			return err
		}
	}
	if err := r.launch("cc_jump", blocks(n, block), &a); err != nil {
		return err
	}
	if err := r.readCounters(); err != nil {
		return err
	}
	return r.emit(engine.Record{Direction: engine.Push, Mode: engine.Topology, InVertices: n, InEdges: r.m, EdgesScanned: int64(r.hostCtl[cEdges]),
		Note: fmt.Sprintf("afforest: link the rest outside the largest component (label %d, %d of %d samples), compress", r.g.IDs.ID(big), bigN, samples)})
}

func ccLabelProp(r *run, val buffer) error {
	s := r.s
	n := int64(r.n)
	var err error
	valIn := val
	if s.Sync == engine.SyncDB {
		if valIn, err = r.values("valin"); err != nil {
			return err
		}
		if err := copyBuf(valIn, val, n*4); err != nil {
			return err
		}
	}
	// A push step sends labels along out-edges (and, directed, along in-edges); a pull step
	// reads them over in-edges (and, directed, over out-edges).
	csrs := []*csrDev{&r.dg.out}
	if r.g.Directed || s.Direction == engine.Pull {
		in, err := r.inCSR()
		if err != nil {
			return err
		}
		if s.Direction == engine.Pull {
			csrs[0] = in
		}
		if r.g.Directed {
			if s.Direction == engine.Pull {
				csrs = append(csrs, &r.dg.out)
			} else {
				csrs = append(csrs, in)
			}
		}
	}
	kind := frontierKind(s.Frontier)
	cur, next := newFrontiers(kind)
	cur.kind, cur.count, cur.edges = kAll, n, r.m // every vertex starts active
	topoOut := &frontier{kind: kBoolmap, name: "topo", edges: -1}
	mode := engine.Data
	if s.Driven == engine.Topology {
		mode = engine.Topology
	}
	dir := engine.Push
	prefix := "cc_push"
	if s.Direction == engine.Pull {
		dir, prefix = engine.Pull, "cc_pull"
	}
	checked := false
	for iter := 0; ; iter++ {
		if err := r.begin(); err != nil {
			return err
		}
		if s.Driven == engine.Hybrid {
			if mode == engine.Topology {
				cur.kind = kind
			}
			if mode, err = r.hybrid(mode, cur, topoOut); err != nil {
				return err
			}
			if mode == engine.Topology {
				cur.kind = kAll
			}
		}
		rowsAll := mode == engine.Topology || cur.kind == kAll || checked
		out := next
		if mode == engine.Topology {
			out = topoOut
		}
		for i, c := range csrs {
			sp := &stepSpec{prefix: prefix, csr: c, pull: dir == engine.Pull, topo: rowsAll, in: cur, out: out,
				keepOut: i > 0, noCount: i < len(csrs)-1,
				a: kargs{val: val.addr(), valIn: valIn.addr(), iter: int64(iter), update: updateCode(s.Update)}}
			if rowsAll {
				sp.in = nil
			}
			if err := r.step(sp); err != nil {
				return err
			}
		}
		if s.Sync == engine.SyncDB {
			if err := copyBuf(valIn, val, n*4); err != nil {
				return err
			}
		}
		if err := r.finishStep(out, nil); err != nil {
			return err
		}
		inV, inE := cur.count, cur.edges
		if rowsAll {
			inV, inE = n, r.m
		}
		rec := engine.Record{Direction: dir, Mode: mode, InVertices: inV, InEdges: inE, OutVertices: out.count,
			EdgesScanned: int64(r.hostCtl[cEdges]), Duplicates: int64(r.hostCtl[cCulled])}
		if checked {
			rec.Note, rec.Mode = "update=rw confirmation sweep", engine.Topology
		}
		if err := r.emit(rec); err != nil {
			return err
		}
		wasCheck := checked
		checked = false
		if mode == engine.Topology {
			cur.kind, cur.count, cur.edges = kAll, out.count, out.edges
			if out.count == 0 {
				return nil
			}
			continue
		}
		cur, next = next, cur
		cur.kind, next.kind = kind, kind
		if cur.count > 0 {
			continue
		}
		if s.Update == engine.RW && !wasCheck {
			checked = true
			continue
		}
		return nil
	}
}

// ccSVFused runs Shiloach-Vishkin's hook and jump rounds in cooperative launches of
// cc_sv_fused_<lb> (kernels/cc.cu) until a round hooks nothing.
func ccSVFused(r *run, val buffer) error {
	name := "cc_sv_fused_" + lbSuffix[r.s.LB]
	a := r.args(&r.dg.out)
	a.val, a.valIn, a.inKind, a.memKind, a.outKind = val.addr(), val.addr(), kAll, kAll, kAll
	sp, err := r.buf("spill", int64(r.n), false)
	if err != nil {
		return err
	}
	a.spill, a.outLen, a.rowsPerBlock = sp.addr(), r.lenAddr(lenTmp), block
	for {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		h, t, grid, err := r.coopSweeps(name, &a, fuseChunk)
		if err != nil {
			return err
		}
		hooked := true
		k := r.fusedRecords(h, fuseChunk, name, grid, block, t, func(ctr []uint64) engine.Record {
			hooked = ctr[cChanged] != 0
			return engine.Record{Direction: engine.Push, Mode: engine.Topology, InVertices: int64(r.n), InEdges: r.m,
				EdgesScanned: int64(ctr[cEdges]), Note: "hook + pointer jumping"}
		})
		if k < fuseChunk || !hooked {
			return nil
		}
	}
}
