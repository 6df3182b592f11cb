//go:build cuda

package gpu

import (
	"fmt"

	"github.com/gworkbench/gworkbench/engine"
)

// bfs returns the depth of every vertex from the source (-1 unreached).
//
// Approach: level-synchronous BFS. Each level is one advance (kernels/bfs.cu): top-down (push)
// over the out-edges of the frontier, or bottom-up (pull) where each unvisited vertex looks
// for a parent in the frontier among its in-edges. direction=auto is Beamer's
// direction-optimizing switch: push -> pull when the frontier's edges exceed the unexplored
// edges / alpha, pull -> push when the frontier has fewer than V / beta vertices and shrinks.
// driven=topology visits every vertex each level (depth == level marks the frontier);
// driven=hybrid switches between the two by worklist size (Nasre et al.). Every switch is
// traced with the quantities compared.
//
// [1] Beamer, Asanović, Patterson. Direction-Optimizing Breadth-First Search. SC 2012.
// [2] Wang et al. Gunrock. ACM TOPC 2017. [3] Nasre, Burtscher, Pingali. IPDPS 2013.

// resolveBFS fills BFS's auto knobs: fused where resolveFuse says, direction-optimizing with
// GAPBS's alpha and beta, TWC on dense degrees and a warp per vertex on sparse ones (a road
// network's frontiers are a few hundred vertices that a thread each would walk serially),
// block-aggregated pushes (measured 10-15% faster than per warp on kron and urand), and no
// dedup where the CAS claim pushes each vertex once.
func resolveBFS(r *run, s *engine.Schedule) error {
	if async, err := resolveAsync(r, s, engine.BFS); async || err != nil {
		return err
	}
	p := r.g.Properties()
	if err := resolveFuse(s, engine.BFS, p.Diameter, p.MaxDegree, false); err != nil {
		return err
	}
	if s.LB == engine.LBAuto {
		s.LB = engine.LBWarp
		if p.AvgDegree >= 5 {
			s.LB = engine.LBTWC
		}
		fusedDO := s.Fuse == engine.FuseOn && s.Direction == engine.DirAuto
		switch {
		case fusedDO && float64(p.MaxDegree) > 100*p.AvgDegree:
			// fused direction-optimizing BFS on a skewed graph (kron): the bottom-up levels
			// dominate and a thread per row, stopping at its first parent, beats TWC's degree
			// buckets; the hub's top-down level runs over the whole grid whatever the lb
			s.LB = engine.LBThread
		case fusedDO && s.LB == engine.LBTWC:
			// the same on even dense degrees (urand), where the top-down levels keep twc's
			// rules: lb=etwc runs the bottom-up levels a thread per vertex
			s.LB = engine.LBETWC
		}
	}
	resolveNP(s)
	resolveUpdate(s)
	if s.Direction == engine.DirAuto {
		if s.Alpha == 0 {
			s.Alpha = engine.DefaultAlpha
		}
		if s.Beta == 0 {
			s.Beta = engine.DefaultBeta
		}
	}
	resolveWorklist(s, s.Update == engine.RMW, engine.AggBlock)
	return nil
}

// prepareBFS builds method=async's partitioned graph once per graph, outside the timing.
func prepareBFS(r *run) error {
	if r.s.Method == engine.AsyncRanges {
		return prepareAsync(r, false)
	}
	return nil
}

// bfs runs BFS from the request's source (resolveBFS has chosen the schedule).
func bfs(r *run) error {
	src, err := engine.ResolveSource(r.req.Params, r.g)
	if err != nil {
		return fmt.Errorf("gpu: %v", err)
	}
	r.res.Params.Src = int64(src)
	s := r.s
	n := int64(r.n)
	if s.Method == engine.AsyncRanges {
		val, err := r.values("val")
		if err != nil {
			return err
		}
		if err := r.asyncTraverse(src, val, false, true, asyncBFSWindow); err != nil {
			return err
		}
		r.collect = func() error {
			if err := r.collectDepth(val); err != nil {
				return err
			}
			return r.asyncRecords(asyncBFSWindow, "levels")
		}
		return nil
	}
	if s.Fuse == engine.FuseOn && s.Direction == engine.DirAuto {
		return r.bfsFusedDO(src)
	}
	val, valIn, err := r.sourceValues(0xffffffff, src)
	if err != nil {
		return err
	}
	in := &r.dg.out
	if s.Direction != engine.Push {
		if in, err = r.inCSR(); err != nil {
			return err
		}
	}
	kind := frontierKind(s.Frontier)
	cur, next := newFrontiers(kind)
	if err := r.setSource(cur, src); err != nil {
		return err
	}
	if s.Fuse != engine.FuseOff {
		st := &fusedState{prefix: "bfs_fused", cur: cur, next: next, val: val, valIn: valIn}
		if s.Fuse == engine.FuseBlock {
			st.block = "bfs_block"
		}
		if err := r.fusedLoop(st); err != nil {
			return err
		}
		r.collect = func() error { return r.collectDepth(val) }
		return nil
	}
	topoOut := &frontier{kind: kBoolmap, name: "topo", edges: -1}
	dir := engine.Push
	if s.Direction == engine.Pull {
		dir = engine.Pull
	}
	mode := engine.Data
	if s.Driven == engine.Topology {
		mode = engine.Topology
	}
	edgesToCheck := float64(r.m)
	scout := float64(cur.edges)
	prevAwake := int64(0)
	for iter := 0; ; iter++ {
		if err := r.begin(); err != nil {
			return err
		}
		// Direction-optimizing switch.
		if s.Direction == engine.DirAuto && mode == engine.Data {
			if dir == engine.Push && scout > edgesToCheck/s.Alpha {
				r.switchRec("direction", "push", "pull", "frontier edges > unexplored edges / alpha",
					engine.Quantity{Name: "frontier edges", Value: scout}, ">", engine.Quantity{Name: "unexplored edges / alpha", Value: edgesToCheck / s.Alpha})
				dir = engine.Pull
			} else if dir == engine.Pull && float64(cur.count) < float64(n)/s.Beta && cur.count <= prevAwake {
				r.switchRec("direction", "pull", "push", "frontier vertices < V / beta and shrinking",
					engine.Quantity{Name: "frontier vertices", Value: float64(cur.count)}, "<", engine.Quantity{Name: "V / beta", Value: float64(n) / s.Beta})
				dir = engine.Push
			}
		}
		// Hybrid switch.
		if s.Driven == engine.Hybrid {
			nm, err := r.hybrid(mode, cur, topoOut)
			if err != nil {
				return err
			}
			mode = nm
		}
		prevAwake = cur.count
		sp := &stepSpec{prefix: "bfs_push", csr: &r.dg.out, in: cur, out: next,
			a: kargs{val: val.addr(), valIn: valIn.addr(), iter: int64(iter), update: updateCode(s.Update)}}
		if dir == engine.Pull {
			sp.prefix, sp.csr, sp.pull, sp.firstHit = "bfs_pull", in, true, true
		}
		if mode == engine.Topology {
			sp.topo, sp.in, sp.out = true, nil, topoOut
		}
		if err := r.step(sp); err != nil {
			return err
		}
		if s.Sync == engine.SyncDB {
			if err := copyBuf(valIn, val, n*4); err != nil {
				return err
			}
		}
		if err := r.finishStep(sp.out, nil); err != nil {
			return err
		}
		out := sp.out
		inV, inE := cur.count, cur.edges
		if mode == engine.Topology {
			inV, inE = n, r.m
		}
		if err := r.emit(engine.Record{Direction: dir, Mode: mode, InVertices: inV, InEdges: inE,
			OutVertices: out.count, EdgesScanned: int64(r.hostCtl[cEdges]), Duplicates: int64(r.hostCtl[cCulled])}); err != nil {
			return err
		}
		scout = float64(out.edges)
		edgesToCheck -= scout
		if mode == engine.Topology {
			cur.count, cur.edges = out.count, out.edges
		} else {
			cur, next = next, cur
		}
		if out.count == 0 {
			break
		}
	}
	r.collect = func() error { return r.collectDepth(val) }
	return nil
}

func (r *run) collectDepth(val buffer) error {
	depth := make([]int32, r.n)
	if err := download(depth, val); err != nil {
		return err
	}
	r.res.Depth = depth
	for _, d := range depth {
		if d >= 0 {
			r.res.Summary.Reached++
			r.res.Summary.MaxDepth = max(r.res.Summary.MaxDepth, d)
		}
	}
	return nil
}
