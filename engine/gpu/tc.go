//go:build cuda

package gpu

import (
	"fmt"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
)

// tc returns the number of triangles of the graph's underlying undirected simple graph.
//
// Approach: the forward algorithm (Schank and Wagner; Gunrock's TC, GAPBS's OrderedCount), as
// engine/cpu runs it, in two phases (kernels/tc.cu):
//
//  1. orient: keep each edge once, as the arc from the lower- to the higher-ranked endpoint
//     (order=degree: by degree, ties by id; order=id; order=none keeps both arcs and the count
//     is divided by six; auto: degree when GAPBS's sampled heuristic finds the degrees skewed,
//     else id). tc_keep counts each vertex's kept arcs, a prefix sum places them, tc_fill
//     writes them. relabel=on first renumbers the vertices by (degree, id) (a counting sort on
//     the host) and tc_sort sorts the renumbered lists; relabel=auto does it when the
//     heuristic finds the degrees skewed and the order is degree.
//  2. count: for every oriented arc x->v add |N+(x) ∩ N+(v)| (tc_<intersect>_<lb>): a merge
//     of the two sorted lists (intersect=merge; it searches instead when one list is 64 times
//     longer, so that a lane never walks a hub's list once per arc), a binary search of the
//     shorter in the longer (binary), or probes of N+(v) into a shared-memory hash table of
//     N+(x) built once per vertex (hash; lists over 2048 entries are searched instead). When
//     lists are sorted by rank (relabel=on, order=id) only the part of N+(x) after v can meet
//     N+(v).
//     lb=vertex: a warp per vertex, a lane per arc (hash: a block per vertex); lb=edge: a
//     thread per oriented arc (hash: a block per 256 consecutive arcs). Auto is lb=edge
//     with intersect=merge (resolveTC).
//  lb=thread (order=id, intersect=merge) skips phase 1: a thread per vertex reads its arcs to
//  higher ids in place (tc_merge_thread); auto takes it on sparse graphs of even degrees
//  (road networks), where building the oriented copy costs more than the count.
//
// Input: a CSR with sorted lists; a directed graph is symmetrized on the host first;
// duplicates and self-loops are skipped. Time O(m^1.5) with order=degree; device memory: the
// oriented graph (m/2 arcs, plus their sources for lb=edge).
//
// [1] Shun and Tangwongsan. Multicore triangle computations without tuning. ICDE 2015.
// [2] Wang et al. Gunrock. ACM TOPC 2017, section 6. [3] GAPBS src/tc.cc.

// tcPlan is what resolveTC leaves for tc: a directed graph's undirected lists (built on the
// host; nil for an undirected graph) and why the relabel choice was made (the trace note).
type tcPlan struct {
	off []int64
	nbr []uint32
	why string
}

// tcArgs mirrors struct TcArgs in kernels/tc.cu field for field (all 8 bytes).
type tcArgs struct {
	off, nbr       uint64
	n, order       int64
	newid          uint64
	hoff, hnbr     uint64
	hsrc           uint64
	hm             int64
	tmp            uint64
	byrank         int64
	counters, part uint64
	parts          int64
	longq          uint64
}

var _ [120 - unsafe.Sizeof(tcArgs{})]byte // sizeof(TcArgs), static_asserted in tc.cu
var _ [unsafe.Sizeof(tcArgs{}) - 120]byte

// resolveTC fills TC's auto knobs: lb=edge with intersect=merge (edge-parallel merge beat
// vertex-parallel merge, hash and binary search on kron and urand), order=degree when GAPBS's
// sampled heuristic finds the degrees skewed (else id), and relabel=on where the order is
// degree and the degrees are skewed. On a directed graph the heuristic reads the underlying
// undirected graph (the graph's cached undirected view), which the run then uploads (r.tc).
func resolveTC(r *run, s *engine.Schedule) error {
	if s.Intersect == engine.IntersectAuto {
		s.Intersect = engine.IntersectMerge
	}
	r.tc = &tcPlan{off: r.g.Offsets}
	if r.g.Directed {
		u := r.g.Undirected()
		r.tc.off, r.tc.nbr = u.Offsets, u.Neighbors
	}
	skewed, reason := engine.TCWorthRelabelling(r.tc.off)
	if s.LB == engine.LBAuto {
		s.LB = engine.LBEdge
		p := r.g.Properties()
		if !skewed && p.AvgDegree < 5 && p.MaxDegree <= 64 && s.Intersect == engine.IntersectMerge &&
			(s.Order == engine.OrderAuto || s.Order == engine.OrderID) && s.Relabel != engine.RelabelOn {
			s.LB = engine.LBThread // in place (road networks)
		}
	}
	if s.LB == engine.LBThread {
		if s.Order == engine.OrderAuto {
			s.Order = engine.OrderID
		}
		if s.Relabel == engine.RelabelAuto {
			s.Relabel = engine.RelabelOff
		}
		if s.Order != engine.OrderID || s.Intersect != engine.IntersectMerge || s.Relabel != engine.RelabelOff {
			return unsupported("tc lb=thread counts in place in id order with a merge (order=id intersect=merge relabel=off, not %s)", s.Relevant(engine.TC, "gpu"))
		}
		r.tc.why = "lb=thread: in place, no oriented copy"
		return nil
	}
	if s.Order == engine.OrderAuto {
		s.Order = engine.OrderID
		if skewed || s.Relabel == engine.RelabelOn {
			s.Order = engine.OrderDegree
		}
	}
	// (Validate refuses relabel=on with order=id or none.)
	r.tc.why = "relabel=" + s.Relabel.String()
	if s.Relabel == engine.RelabelAuto {
		r.tc.why = reason
		s.Relabel = engine.RelabelOff
		if skewed && s.Order == engine.OrderDegree {
			s.Relabel = engine.RelabelOn
		} else if s.Order != engine.OrderDegree {
			r.tc.why = "order=" + s.Order.String() + ": no degree order to renumber by"
		}
	}
	return nil
}

// tc counts the triangles.
func tc(r *run) error {
	s := r.s
	why := r.tc.why
	// 0. The undirected lists: the graph itself, or its symmetrization (resolveTC) uploaded.
	n := int64(r.n)
	hostOff := r.tc.off
	uoff, unbr := r.dg.out.off, r.dg.out.nbr
	if r.tc.nbr != nil {
		var err error
		if uoff, err = upload(r.tc.off); err != nil {
			return err
		}
		defer uoff.free()
		if unbr, err = upload(r.tc.nbr); err != nil {
			return err
		}
		defer unbr.free()
	}
	relabel := s.Relabel == engine.RelabelOn
	edge := s.LB == engine.LBEdge
	if s.LB == engine.LBThread {
		return r.tcInPlace(uoff, unbr, why)
	}

	// 1. Orient.
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "orient",
		Note: fmt.Sprintf("order=%s relabel=%s (%s)", s.Order, s.Relabel, why)}); err != nil {
		return err
	}
	if err := r.begin(); err != nil {
		return err
	}
	a := tcArgs{off: uoff.addr(), nbr: unbr.addr(), n: n, order: int64(s.Order), counters: r.ctl.addr()}
	if relabel {
		a.newid = r.dg.tcRank.addr() // prepareTC
	}
	hoff, err := r.scratch("tc.hoff", (n+1)*8) // tc_keep writes every entry
	if err != nil {
		return err
	}
	a.hoff = hoff.addr()
	a.parts = (n + block - 1) / block
	part, err := r.scratch("tc.part", max(a.parts, 1)*8)
	if err != nil {
		return err
	}
	a.part = part.addr()
	if err := r.launchStruct("tc_keep", blocks(n*32, block), unsafe.Pointer(&a)); err != nil {
		return err
	}
	if err := r.scanOffsets(&a); err != nil {
		return err
	}
	if a.hm, err = readI64(hoff, n*8); err != nil {
		return err
	}
	hnbr, err := r.scratch("tc.hnbr", a.hm*4) // tc_fill writes every arc
	if err != nil {
		return err
	}
	a.hnbr = hnbr.addr()
	if edge {
		hsrc, err := r.scratch("tc.hsrc", a.hm*4)
		if err != nil {
			return err
		}
		a.hsrc = hsrc.addr()
	}
	if err := r.launchStruct("tc_fill", blocks(n*32, block), unsafe.Pointer(&a)); err != nil {
		return err
	}
	if relabel {
		tmp, err := r.scratch("tc.tmp", a.hm*4)
		if err != nil {
			return err
		}
		a.tmp = tmp.addr()
		long, err := r.scratch("tc.long", n*4)
		if err != nil {
			return err
		}
		a.longq = long.addr()
		if err := r.launchStruct("tc_sort_warp", blocks(n*32, block), unsafe.Pointer(&a)); err != nil {
			return err
		}
		// a resident grid over the long lists: a block per vertex paid a million block
		// launches to skip tc_sort_warp's lists (1.73 ms on kron20)
		if err := r.launchStruct("tc_sort", int(min(max(n, 1), int64(8*r.dev.sms))), unsafe.Pointer(&a)); err != nil {
			return err
		}
	}
	if err := r.readCounters(); err != nil {
		return err
	}
	uarcs := hostOff[len(hostOff)-1]
	if err := r.emit(engine.Record{Phase: "orient", Direction: engine.Push, Mode: engine.Topology,
		InVertices: n, InEdges: uarcs, OutVertices: n, EdgesScanned: uarcs * 2,
		Note: fmt.Sprintf("%d arcs -> %d oriented arcs", uarcs, a.hm)}); err != nil {
		return err
	}

	// 2. Count.
	a.byrank = 0
	if relabel || s.Order == engine.OrderID {
		a.byrank = 1
	}
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "count",
		Note: fmt.Sprintf("intersect=%s lb=%s", s.Intersect, s.LB)}); err != nil {
		return err
	}
	if err := r.begin(); err != nil {
		return err
	}
	name := "tc_" + s.Intersect.String() + "_" + s.LB.String()
	var grid int
	switch {
	case s.Intersect == engine.IntersectHash && edge:
		grid = blocks(a.hm, block) // a block per 256 arcs
	case s.Intersect == engine.IntersectHash:
		grid = int(min(n, 1<<21)) // a block per vertex
	case edge:
		grid = blocks(a.hm, block) // a thread per arc
	default:
		grid = blocks(n*32, block) // a warp per vertex
	}
	if a.hm > 0 {
		if err := r.launchStruct(name, grid, unsafe.Pointer(&a)); err != nil {
			return err
		}
	}
	if err := r.readCounters(); err != nil {
		return err
	}
	total := r.hostCtl[0]
	if s.Order == engine.OrderNone {
		total /= 6
	}
	if err := r.emit(engine.Record{Phase: "count", Direction: engine.Push, Mode: engine.Topology,
		InVertices: n, InEdges: a.hm, EdgesScanned: int64(r.hostCtl[1]), Note: fmt.Sprintf("%d triangles", total)}); err != nil {
		return err
	}
	r.res.Triangles = total
	r.res.Summary.Triangles = total
	return nil
}

// tcInPlace counts with tc_merge_thread over the undirected lists as they are (lb=thread).
func (r *run) tcInPlace(uoff, unbr buffer, why string) error {
	n := int64(r.n)
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "count",
		Note: "intersect=merge lb=thread in place: each triangle at its lowest vertex (" + why + ")"}); err != nil {
		return err
	}
	if err := r.begin(); err != nil {
		return err
	}
	a := tcArgs{off: uoff.addr(), nbr: unbr.addr(), n: n, order: int64(engine.OrderID), byrank: 1, counters: r.ctl.addr()}
	if err := r.launchStruct("tc_merge_thread", blocks(max(n, 1), block), unsafe.Pointer(&a)); err != nil {
		return err
	}
	if err := r.readCounters(); err != nil {
		return err
	}
	total := r.hostCtl[0]
	if err := r.emit(engine.Record{Phase: "count", Direction: engine.Push, Mode: engine.Topology,
		InVertices: n, InEdges: r.tc.off[len(r.tc.off)-1], EdgesScanned: int64(r.hostCtl[1]), Note: fmt.Sprintf("%d triangles", total)}); err != nil {
		return err
	}
	r.res.Triangles = total
	r.res.Summary.Triangles = total
	return nil
}

// scanOffsets turns the counts in hoff[1..n] into offsets (an inclusive scan; hoff[0] is 0).
func (r *run) scanOffsets(a *tcArgs) error {
	if a.n == 0 {
		return nil
	}
	if a.parts > maxGrid {
		return fmt.Errorf("gpu: tc: %d vertices are more than the prefix sum's %d tiles", a.n, maxGrid)
	}
	if err := r.launchStruct("tc_scan_blocks", int(a.parts), unsafe.Pointer(a)); err != nil {
		return err
	}
	if err := r.launchStruct("tc_scan_parts", 1, unsafe.Pointer(a)); err != nil {
		return err
	}
	return r.launchStruct("tc_scan_add", int(a.parts), unsafe.Pointer(a))
}

// prepareTC uploads relabel=on's new ids (tcRanks of the undirected lists) once per graph,
// outside the timing, as the graph's upload: they depend on the degrees alone, and counting
// them on the host took 4-5 ms of kron20's 20 ms run (docs/gpu-notes.md). The orientation
// that uses them stays timed.
func prepareTC(r *run) error {
	if r.s.LB == engine.LBThread || r.s.Relabel != engine.RelabelOn || r.dg.tcRank.ptr != 0 {
		return nil
	}
	if err := r.eng.ensureFree(int64(len(r.tc.off))*4+r.estimate(), "relabel's new ids and this run"); err != nil {
		return err
	}
	var err error
	r.dg.tcRank, err = upload(tcRanks(r.tc.off))
	return err
}

// tcRanks numbers the vertices by (degree, id) ascending: a stable counting sort by degree.
func tcRanks(off []int64) []uint32 {
	n := len(off) - 1
	var maxDeg int64
	for v := 0; v < n; v++ {
		maxDeg = max(maxDeg, off[v+1]-off[v])
	}
	bucket := make([]int64, maxDeg+2)
	for v := 0; v < n; v++ {
		bucket[off[v+1]-off[v]+1]++
	}
	for d := 1; d < len(bucket); d++ {
		bucket[d] += bucket[d-1]
	}
	id := make([]uint32, n)
	for v := 0; v < n; v++ {
		d := off[v+1] - off[v]
		id[v] = uint32(bucket[d])
		bucket[d]++
	}
	return id
}
