package cpu

import (
	"context"
	"fmt"
	"time"

	"github.com/gworkbench/gworkbench/engine"
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
// This file resolves the knobs and runs the two steps: tc_orient.go builds the oriented
// graph, tc_count.go and tc_middle.go count.
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
	if s.LB == engine.LBAuto {
		s.LB = engine.LBVertex
	}
	if s.LB == engine.LBThread {
		return fmt.Errorf("cpu: tc lb=thread: a GPU thread per vertex over the lists in place; the CPU engine counts in place with lb=vertex: %w", engine.ErrUnsupported)
	}
	if s.Split == engine.SplitAuto {
		s.Split = engine.Dynamic
	}
	start := time.Now()
	ug := r.G.Undirected()
	u := &tcAdj{off: ug.Offsets, nb: ug.Neighbors}
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
	n := len(u.off) - 1
	if s.Intersect == engine.IntersectAuto {
		// The bitmap beats the merge on kron (long oriented lists of mid-degree vertices meet
		// again and again) and on urand (short lists, fewer branches). On sparse graphs in id
		// order (road networks) the merge needs neither the bitmap nor an oriented copy.
		s.Intersect = engine.IntersectHash
		if s.Order == engine.OrderID && len(u.nb) < tcSparseDegree*n {
			s.Intersect = engine.IntersectMerge
		}
	}
	r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "orient",
		Note: fmt.Sprintf("order=%s relabel=%s (%s)", s.Order, s.Relabel, why)})
	if s.Order == engine.OrderID && s.Relabel == engine.RelabelOff && s.Intersect == engine.IntersectMerge && s.LB == engine.LBVertex {
		// No oriented copy: the lists are read in place, below each vertex (tc_lower.go).
		r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "count",
			Note: fmt.Sprintf("in place: each triangle at its highest vertex; intersect=%s lb=%s split=%s", s.Intersect, s.LB, s.Split)})
		t := time.Now()
		total, scanned := tcCountLower(r, u)
		if err := r.ctxErr(ctx); err != nil {
			return err
		}
		r.emit(engine.Record{Phase: "count", Direction: engine.Push, Mode: engine.Topology,
			InVertices: int64(n), InEdges: int64(len(u.nb)), EdgesScanned: scanned, Time: time.Since(t),
			Note: fmt.Sprintf("%d triangles", total)})
		r.Res.Triangles = total
		r.Res.Summary.Triangles = total
		return nil
	}
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
			ia := tcBuildInArcs(r, h, hd)
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
