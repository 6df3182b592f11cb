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
func init() { drivers[engine.BFS] = bfs }

var drivers = map[engine.Algorithm]func(*run) error{}

func bfs(r *run) error {
	src, err := engine.ResolveSource(r.req.Params, r.g)
	if err != nil {
		return fmt.Errorf("gpu: %v", err)
	}
	r.res.Params.Src = int64(src)
	s := r.s
	n := int64(r.n)
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
	if s.Fuse == engine.FuseOn {
		st := &fusedState{prefix: "bfs_fused", cur: cur, next: next, val: val, valIn: valIn}
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
			OutVertices: out.count, EdgesScanned: int64(r.hctl[cEdges]), Duplicates: int64(r.hctl[cCulled])}); err != nil {
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

// sourceValues returns a traversal's per-vertex values: every entry fill but the source's, 0;
// with sync=sync also the second (read) array, a copy of the first.
func (r *run) sourceValues(fill, src uint32) (val, valIn buffer, err error) {
	n := int64(r.n)
	if val, err = r.values("val"); err != nil {
		return
	}
	if err = memset32(val, fill, n); err != nil {
		return
	}
	if err = r.poke(val, int64(src)*4, []int32{0}); err != nil {
		return
	}
	valIn = val
	if r.s.Sync == engine.SyncDB {
		if valIn, err = r.values("valin"); err != nil {
			return
		}
		err = copyBuf(valIn, val, n*4)
	}
	return
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

func updateCode(u engine.Update) int64 {
	if u == engine.RW {
		return uRW
	}
	return uRMW
}

// switchRec traces a direction or mode switch.
func (r *run) switchRec(what, from, to, reason string, lhs engine.Quantity, op string, rhs engine.Quantity) {
	sw := &engine.Switch{What: what, From: from, To: to, Reason: fmt.Sprintf("%s: %.4g %s %.4g", reason, lhs.Value, op, rhs.Value),
		Lhs: lhs, Op: op, Rhs: rhs}
	_ = r.emit(engine.Record{Kind: engine.SwitchRecord, Switch: sw})
}

// hybrid decides the mode of the next step of a temporal hybrid (Nasre et al.): topology while
// the worklist exceeds threshold x V, data otherwise. Leaving topology turns the last sweep's
// changed set (a boolmap) into the worklist cur.
func (r *run) hybrid(mode engine.Driven, cur, topoOut *frontier) (engine.Driven, error) {
	n := float64(r.n)
	lim := r.s.Threshold * n
	switch {
	case mode == engine.Data && float64(cur.count) > lim:
		r.switchRec("mode", "data", "topology", "worklist > threshold x V",
			engine.Quantity{Name: "worklist", Value: float64(cur.count)}, ">", engine.Quantity{Name: "threshold x V", Value: lim})
		return engine.Topology, nil
	case mode == engine.Topology && float64(cur.count) <= lim:
		r.switchRec("mode", "topology", "data", "worklist <= threshold x V",
			engine.Quantity{Name: "worklist", Value: float64(cur.count)}, "<=", engine.Quantity{Name: "threshold x V", Value: lim})
		if err := r.convert(topoOut, cur); err != nil {
			return mode, err
		}
		return engine.Data, nil
	}
	return mode, nil
}

// convert copies the members of boolmap src into frontier dst in dst's representation.
func (r *run) convert(src, dst *frontier) error {
	sb, err := r.storage(src)
	if err != nil {
		return err
	}
	db, err := r.storage(dst)
	if err != nil {
		return err
	}
	switch dst.kind {
	case kBoolmap:
		if err := copyBuf(db, sb, int64(r.n)); err != nil {
			return err
		}
	case kBitmap:
		// through a queue: compact, then scatter
		tmp := &frontier{kind: kQueue, name: "convq", slot: lenTmp}
		if err := r.convert(src, tmp); err != nil {
			return err
		}
		if err := memset8(db, 0, db.bytes); err != nil {
			return err
		}
		a := r.args(&r.dg.out)
		tq, _ := r.storage(tmp)
		a.inQ, a.inLen, a.memKind, a.memBits = tq.addr(), r.lenAddr(tmp.slot), kBitmap, db.addr()
		if err := r.launch("util_queue_to_mem", blocks(tmp.count, block), &a); err != nil {
			return err
		}
	default:
		if c := r.qcap(dst.name); c < src.count {
			if db, err = r.buf(dst.name, src.count*4, false); err != nil {
				return err
			}
		}
		if err := r.setLen(dst.slot, 0); err != nil {
			return err
		}
		a := r.args(&r.dg.out)
		a.inKind, a.inBools = kBoolmap, sb.addr()
		a.outQ, a.outLen, a.outCap = db.addr(), r.lenAddr(dst.slot), r.qcap(dst.name)
		if err := r.launch("util_compact", blocks(int64(r.n), block), &a); err != nil {
			return err
		}
		if err := r.readCounters(); err != nil {
			return err
		}
		dst.count, dst.edges = r.hlen(dst.slot), src.edges
		if err := r.clearCounters(); err != nil {
			return err
		}
		return nil
	}
	dst.count, dst.edges = src.count, src.edges
	return nil
}
