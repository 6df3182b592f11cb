//go:build cuda

package gpu

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// mst returns the arcs of a minimum spanning forest (one tree per connected component) in
// Result.Forest, ascending, with its total weight.
//
// Approach: Boruvka, as IrGL's and Gunrock's MST run it, one round per iteration
// (kernels/mst.cu):
//
//  1. find-min: every vertex finds its lightest arc to another component (mst_local), and
//     its component's root takes the lightest of its vertices' arcs in the order of
//     engine.MSTKey (weight, lower endpoint, higher endpoint), ties by arc index: three
//     atomic-min passes, on the weight, the endpoints (mst_lh), the arc (mst_arc). On a
//     directed graph a vertex's in-arcs count too (an arc is an edge both ways): the host
//     lists each vertex's in-arcs with their arc indices.
//  2. hook: every root with an edge points at the component across it and the edge joins the
//     forest; of two roots that chose the same edge, the lower stays a root (mst_hook).
//  3. compress: pointer jumping to the new roots (mst_jump), and every vertex takes its root's
//     root (mst_relabel).
//
// driven=data (the default) keeps a worklist of the vertices that still have an arc leaving
// their component and one of the live components; driven=topology sweeps every vertex and
// every root each round. An unweighted graph weighs every edge 1. O(log V) rounds of O(E) work.
//
// [1] Boruvka 1926; Chung and Condon, IPPS 1996. [2] Pingali et al. (IrGL) OOPSLA 2016.
// mstArgs mirrors struct MstArgs in kernels/mst.cu field for field (all 8 bytes).
type mstArgs struct {
	off, nbr, wt, roff, rsrc, rarc uint64
	n                              int64
	comp, parent                   uint64
	varc, vw, vlh                  uint64
	cw, clh, carc                  uint64
	q                              uint64
	qlen                           int64
	qlenp                          uint64
	topo                           int64
	next                           uint64
	nextctr                        int64
	forest, flen                   uint64
	counters                       uint64
}

var _ [192 - unsafe.Sizeof(mstArgs{})]byte // sizeof(MstArgs), static_asserted in mst.cu
var _ [unsafe.Sizeof(mstArgs{}) - 192]byte

// mst counters (words of the run's counter block).
const (
	mstHooked, mstScanned, mstVerts, mstRoots = 0, 1, 2, 3
)

// resolveMST fills MST's auto knobs (resolvePerVertex).
//
// method=auto is ecl (mst_ecl.go) on an undirected graph unless a knob of the rounds is set;
// ecl runs a launch per step and its last rounds in one cooperative launch (fuse=auto on a graph
// of average degree 4 or more), every round a launch (fuse=off) or the whole forest in one
// cooperative launch (fuse=on, auto's choice on sparser graphs).
func resolveMST(r *run, s *engine.Schedule) error {
	roundKnobs := s.Driven != engine.DrivenAuto || s.Frontier != engine.FrontierAuto || s.PushAgg != engine.AggAuto || s.LB != engine.LBAuto
	if s.Method == engine.MethodAuto {
		s.Method = engine.Boruvka
		if mstEclFits(r.g) == "" && !roundKnobs {
			s.Method = engine.ECL
		}
	}
	if s.Method == engine.ECL {
		if why := mstEclFits(r.g); why != "" {
			return unsupported("mst: method=ecl: %s", why)
		}
		// fuse=auto: on a graph without the light/heavy filter (average degree under 4, road
		// graphs: many rounds, few edges each after the first) the whole forest in one
		// cooperative launch; else it stays auto, a launch per step while the worklist is
		// large and its last rounds in one cooperative launch (mstECL), since a whole-forest
		// launch runs fewer resident threads (its registers) through the large first rounds
		// (the variants' times: docs/gpu-notes.md, the ECL methods' second pass).
		if s.Fuse == engine.FuseAuto && !mstEclFilter(r.g) {
			s.Fuse = engine.FuseOn
		}
		return nil
	}
	if s.Fuse == engine.FuseOn {
		return unsupported("mst: fuse=on runs method=ecl's rounds in one launch; method=boruvka is host-driven")
	}
	return resolvePerVertex(s, "mst", "the live vertices and components are compacted queues")
}

// prepareMST builds the arcs' sources (the COO rows) that method=ecl's worklist builds read,
// once per graph, outside the timing.
func prepareMST(r *run) error {
	if r.s.Method != engine.ECL {
		return nil
	}
	if err := r.rows(&r.dg.out); err != nil {
		return err
	}
	if err := r.sync(); err != nil {
		return err
	}
	_, err := r.kernels() // the rows' launch belongs to no iteration
	return err
}

// mst runs Boruvka's rounds until no component has an edge out.
func mst(r *run) error {
	if r.s.Method == engine.ECL {
		return mstECL(r)
	}
	s := r.s
	n := int64(r.n)
	data := s.Driven == engine.Data
	a := mstArgs{off: r.dg.out.off.addr(), nbr: r.dg.out.nbr.addr(), wt: r.dg.out.wt.addr(), n: n, counters: r.ctl.addr()}
	if r.g.Directed {
		roff, rsrc, rarc := inArcs(r.g)
		for _, up := range []struct {
			dst *uint64
			buf func() (buffer, error)
		}{
			{&a.roff, func() (buffer, error) { return upload(roff) }},
			{&a.rsrc, func() (buffer, error) { return upload(rsrc) }},
			{&a.rarc, func() (buffer, error) { return upload(rarc) }},
		} {
			b, err := up.buf()
			if err != nil {
				return err
			}
			defer b.free()
			*up.dst = b.addr()
		}
	}
	bufs := map[string]int64{"mst.comp": n * 4, "mst.parent": n * 4, "mst.varc": n * 8, "mst.vw": n * 4, "mst.vlh": n * 8,
		"mst.cw": n * 4, "mst.clh": n * 8, "mst.carc": n * 8, "mst.forest": max(n, 1) * 8, "mst.flen": 8}
	if data {
		for _, k := range []string{"mst.verts0", "mst.verts1", "mst.roots0", "mst.roots1"} {
			bufs[k] = n * 4
		}
	}
	b := map[string]buffer{}
	for name, bytes := range bufs {
		buf, err := r.buf(name, bytes, false)
		if err != nil {
			return err
		}
		b[name] = buf
	}
	if err := memset8(b["mst.flen"], 0, 8); err != nil {
		return err
	}
	a.comp, a.parent = b["mst.comp"].addr(), b["mst.parent"].addr()
	a.varc, a.vw, a.vlh = b["mst.varc"].addr(), b["mst.vw"].addr(), b["mst.vlh"].addr()
	a.cw, a.clh, a.carc = b["mst.cw"].addr(), b["mst.clh"].addr(), b["mst.carc"].addr()
	a.forest, a.flen = b["mst.forest"].addr(), b["mst.flen"].addr()
	verts, verts1, roots, roots1 := b["mst.verts0"], b["mst.verts1"], b["mst.roots0"], b["mst.roots1"]

	note := "Boruvka: find-min, hook, compress; ties broken by (weight, min(u,v), max(u,v))"
	if r.g.Weights == nil {
		note += "; unweighted graph: every edge weighs 1"
	}
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "boruvka", Note: note}); err != nil {
		return err
	}
	if err := r.begin(); err != nil {
		return err
	}
	if data {
		a.next = verts.addr()
	}
	if err := launchStruct(r, "mst_init", blocks(n, block), &a); err != nil {
		return err
	}
	if data {
		if err := copyBuf(roots, verts, n*4); err != nil {
			return err
		}
	}
	nVerts, nRoots := n, n
	grid := func(items int64) int { return perVertexGrid(data, items, n) }
	for iter := 0; ; iter++ {
		if iter > 0 {
			if err := r.begin(); err != nil {
				return err
			}
		}
		// 1. Find-min over the live vertices.
		k := a
		k.topo = 1
		if data {
			k.topo, k.q, k.qlen, k.next, k.nextctr = 0, verts.addr(), nVerts, verts1.addr(), mstVerts
		} else {
			k.nextctr = mstVerts
		}
		if err := launchStruct(r, "mst_local", grid(nVerts), &k); err != nil {
			return err
		}
		if data {
			k.q, k.qlen, k.qlenp, k.next = verts1.addr(), 0, r.ctl.addr()+mstVerts*8, 0
		}
		for _, name := range []string{"mst_lh", "mst_arc"} {
			if err := launchStruct(r, name, grid(nVerts), &k); err != nil {
				return err
			}
		}
		// 2. Hook and 3. compress, over the live roots.
		k = a
		k.topo = 1
		if data {
			k.topo, k.q, k.qlen = 0, roots.addr(), nRoots
		}
		for _, name := range []string{"mst_hook", "mst_jump"} {
			if err := launchStruct(r, name, grid(nRoots), &k); err != nil {
				return err
			}
		}
		all := a
		all.topo = 1
		if err := launchStruct(r, "mst_relabel", blocks(n, block), &all); err != nil {
			return err
		}
		k.nextctr = mstRoots
		if data {
			k.next = roots1.addr()
		}
		if err := launchStruct(r, "mst_next", grid(nRoots), &k); err != nil {
			return err
		}
		if err := r.readCounters(); err != nil {
			return err
		}
		hooked, live := int64(r.hostCtl[mstHooked]), int64(r.hostCtl[mstRoots])
		inVerts := n
		if data {
			inVerts = nVerts
		}
		if err := r.emit(engine.Record{Phase: "boruvka", Direction: engine.Push, Mode: modeOf(data),
			InVertices: inVerts, OutVertices: live, EdgesScanned: int64(r.hostCtl[mstScanned]),
			Note: fmt.Sprintf("%d live components, %d hooked, %d edges added", nRoots, hooked, hooked)}); err != nil {
			return err
		}
		if data {
			nVerts, nRoots = int64(r.hostCtl[mstVerts]), live
			verts, verts1 = verts1, verts
			roots, roots1 = roots1, roots
		} else {
			nRoots = live
		}
		if hooked == 0 {
			break
		}
	}
	forest, flen := b["mst.forest"], b["mst.flen"]
	r.collect = func() error { return r.collectForest(forest, flen) }
	return nil
}

// collectForest fetches the forest's arcs (flen of them in forest) once the run is over, sorts
// them and fills the result's total weight, edge and tree counts.
func (r *run) collectForest(forest, flen buffer) error {
	fl, err := readI64(flen, 0)
	if err != nil {
		return err
	}
	arcs := make([]int64, fl)
	if err := download(arcs, forest); err != nil {
		return err
	}
	slices.Sort(arcs)
	var total int64
	for _, e := range arcs {
		total += int64(engine.ArcWeight(r.g, e))
	}
	r.res.Forest = arcs
	r.res.Summary.TotalWeight = total
	r.res.Summary.ForestEdges = fl
	r.res.Summary.Components = int64(r.n) - fl
	return nil
}

// inArcs lists every vertex's in-arcs of a directed graph: offsets, each arc's source, and its
// index in g.Neighbors (a counting sort of the arcs by target).
func inArcs(g *graph.CSR) ([]int64, []uint32, []int64) {
	n := g.NumVertices()
	off := make([]int64, n+1)
	for _, v := range g.Neighbors {
		off[v+1]++
	}
	for v := 0; v < n; v++ {
		off[v+1] += off[v]
	}
	pos := slices.Clone(off[:n])
	src := make([]uint32, len(g.Neighbors))
	arc := make([]int64, len(g.Neighbors))
	for u := 0; u < n; u++ {
		for e := g.Offsets[u]; e < g.Offsets[u+1]; e++ {
			v := g.Neighbors[e]
			src[pos[v]], arc[pos[v]] = uint32(u), e
			pos[v]++
		}
	}
	return off, src, arc
}
