//go:build cuda

package gpu

import (
	"fmt"
	"slices"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
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
//     thread per oriented arc (hash: a block per 256 consecutive arcs). Auto is lb=vertex
//     with intersect=merge (measurements in tc below).
//
// Input: a CSR with sorted lists; a directed graph is symmetrized on the host first;
// duplicates and self-loops are skipped. Time O(m^1.5) with order=degree; device memory: the
// oriented graph (m/2 arcs, plus their sources for lb=edge).
//
// [1] Shun and Tangwongsan. Multicore triangle computations without tuning. ICDE 2015.
// [2] Wang et al. Gunrock. ACM TOPC 2017, section 6. [3] GAPBS src/tc.cc.
func init() { drivers[engine.TC] = tc }

// tcArgs mirrors struct TcArgs in kernels/tc.cu field for field (all 8 bytes).
type tcArgs struct {
	off, nbr   uint64
	n, order   int64
	newid      uint64
	hoff, hnbr uint64
	hsrc       uint64
	hm         int64
	tmp        uint64
	byrank     int64
	ctr, part  uint64
	parts      int64
}

var _ [112 - unsafe.Sizeof(tcArgs{})]byte // sizeof(TcArgs), static_asserted in tc.cu
var _ [unsafe.Sizeof(tcArgs{}) - 112]byte

// launchStruct launches kernel name with a copy of the argument struct *a (run.launchStruct,
// typed): the copy is an allocation of its own that holds no Go pointer, as cgo requires, where
// *a may sit inside a struct that holds some.
func launchStruct[T any](r *run, name string, grid int, a *T) error {
	c := *a
	return r.launchStruct(name, grid, unsafe.Pointer(&c))
}

// launchStruct is run.launch for the kernels whose parameter is their own argument struct
// (tc, bc, mis, mst): kernel name with grid blocks of 256 threads, timed with events.
func (r *run) launchStruct(name string, grid int, args unsafe.Pointer) error {
	fn, err := r.dev.fn(name)
	if err != nil {
		return err
	}
	grid = min(max(grid, 1), maxGrid)
	return r.timedKernel(name, grid, block, func() error {
		if err := launch(fn, grid, block, args, false); err != nil {
			return fmt.Errorf("%w (kernel %s, grid %d x %d)", err, name, grid, block)
		}
		return nil
	})
}

// setSchedule records the driver's own resolution of the request's schedule (resolve.go does
// not know tc, bc, mis and mst).
func (r *run) setSchedule(s engine.Schedule) {
	r.s = s
	r.res.Schedule = s
}

// readI64 reads the int64 at byte offset off of b.
func readI64(b buffer, off int64) (int64, error) {
	var v [1]int64
	err := download(v[:], buffer{ptr: b.ptr + cu.DevicePtr(off), bytes: 8})
	return v[0], err
}

func tc(r *run) error {
	s := r.req.Schedule
	// Auto is edge-parallel merge (kron and urand scale 20 on an H200: lb=edge merge 19.0 and
	// 2.0 ms; vertex-parallel merge 21.3 and 2.4 ms, hash 26.8 and 6.6 ms, binary 45.0 and
	// 3.4 ms).
	if s.Intersect == engine.IntersectAuto {
		s.Intersect = engine.IntersectMerge
	}
	if s.LB == engine.LBAuto {
		s.LB = engine.LBEdge
	}
	if s.LB != engine.LBVertex && s.LB != engine.LBEdge {
		return unsupported("tc: lb=%s: triangle counting is vertex- or edge-parallel (lb=vertex|edge)", s.LB)
	}
	// 0. The undirected lists: the graph itself, or its symmetrization built on the host.
	n := int64(r.n)
	hostOff := r.g.Offsets
	uoff, unbr := r.dg.out.off, r.dg.out.nbr
	if r.g.Directed {
		off, nb := tcUnion(r.g)
		hostOff = off
		var err error
		if uoff, err = upload(off); err != nil {
			return err
		}
		defer uoff.free()
		if unbr, err = upload(nb); err != nil {
			return err
		}
		defer unbr.free()
	}
	skewed, reason := engine.TCWorthRelabelling(hostOff)
	if s.Order == engine.OrderAuto {
		s.Order = engine.OrderID
		if skewed || s.Relabel == engine.RelabelOn {
			s.Order = engine.OrderDegree
		}
	}
	why := "relabel=" + s.Relabel.String()
	switch s.Relabel {
	case engine.RelabelOn:
		if s.Order != engine.OrderDegree {
			return fmt.Errorf("gpu: tc: relabel=on renumbers the vertices in degree order, which is order=degree; with order=%s there is nothing to renumber by (use relabel=off)", s.Order)
		}
	case engine.RelabelAuto:
		why = reason
		s.Relabel = engine.RelabelOff
		if skewed && s.Order == engine.OrderDegree {
			s.Relabel = engine.RelabelOn
		} else if s.Order != engine.OrderDegree {
			why = "order=" + s.Order.String() + ": no degree order to renumber by"
		}
	}
	r.setSchedule(s)
	relabel := s.Relabel == engine.RelabelOn
	edge := s.LB == engine.LBEdge

	// 1. Orient.
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "orient",
		Note: fmt.Sprintf("order=%s relabel=%s (%s)", s.Order, s.Relabel, why)}); err != nil {
		return err
	}
	if err := r.begin(); err != nil {
		return err
	}
	a := tcArgs{off: uoff.addr(), nbr: unbr.addr(), n: n, order: int64(s.Order), ctr: r.ctl.addr()}
	if relabel {
		nid, err := upload(tcRanks(hostOff))
		if err != nil {
			return err
		}
		defer nid.free()
		a.newid = nid.addr()
	}
	hoff, err := r.buf("tc.hoff", (n+1)*8, false)
	if err != nil {
		return err
	}
	a.hoff = hoff.addr()
	a.parts = (n + block - 1) / block
	part, err := r.buf("tc.part", max(a.parts, 1)*8, false)
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
	hnbr, err := r.buf("tc.hnbr", a.hm*4, false)
	if err != nil {
		return err
	}
	a.hnbr = hnbr.addr()
	if edge {
		hsrc, err := r.buf("tc.hsrc", a.hm*4, false)
		if err != nil {
			return err
		}
		a.hsrc = hsrc.addr()
	}
	if err := r.launchStruct("tc_fill", blocks(n*32, block), unsafe.Pointer(&a)); err != nil {
		return err
	}
	if relabel {
		tmp, err := r.buf("tc.tmp", a.hm*4, false)
		if err != nil {
			return err
		}
		a.tmp = tmp.addr()
		if err := r.launchStruct("tc_sort", int(min(n, 1<<20)), unsafe.Pointer(&a)); err != nil {
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
	total := r.hctl[0]
	if s.Order == engine.OrderNone {
		total /= 6
	}
	if err := r.emit(engine.Record{Phase: "count", Direction: engine.Push, Mode: engine.Topology,
		InVertices: n, InEdges: a.hm, EdgesScanned: int64(r.hctl[1]), Note: fmt.Sprintf("%d triangles", total)}); err != nil {
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

// tcUnion returns the sorted, duplicate-free, self-loop-free lists of a directed graph's
// underlying undirected graph (out- and in-lists merged).
func tcUnion(g *graph.CSR) ([]int64, []uint32) {
	n := g.NumVertices()
	gt := g.Transpose()
	off := make([]int64, n+1)
	nb := make([]uint32, 0, 2*len(g.Neighbors))
	for v := 0; v < n; v++ {
		start := len(nb)
		nb = append(nb, g.Neigh(uint32(v))...)
		nb = append(nb, gt.Neigh(uint32(v))...)
		l := nb[start:]
		slices.Sort(l)
		l = slices.Compact(l)
		l = slices.DeleteFunc(l, func(u uint32) bool { return u == uint32(v) })
		nb = nb[:start+len(l)]
		off[v+1] = int64(len(nb))
	}
	return off, nb
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
