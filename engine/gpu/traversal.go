//go:build cuda

package gpu

import (
	"fmt"

	"github.com/gworkbench/gworkbench/engine"
)

// What the worklist traversals (BFS, SSSP, CC's label propagation) share: the rules that fill
// their worklist and fusion knobs, their per-vertex values, and the direction and mode
// switches they trace.

// resolveWorklist fills the knobs of a data-driven traversal: data-driven, async, a queue,
// no dedup for pull or where each vertex is pushed once (onePush: BFS's CAS claim), atomic
// dedup otherwise, and push_agg=agg where it is auto.
func resolveWorklist(s *engine.Schedule, onePush bool, agg engine.PushAgg) {
	if s.Driven == engine.DrivenAuto {
		s.Driven = engine.Data
	}
	if s.Driven == engine.Hybrid && s.Threshold == 0 {
		s.Threshold = engine.DefaultThreshold
	}
	if s.Sync == engine.SyncAuto {
		s.Sync = engine.Async
	}
	if s.Driven == engine.Topology {
		return
	}
	if s.Frontier == engine.FrontierAuto {
		s.Frontier = engine.Queue
	}
	if s.Dedup == engine.DedupAuto {
		switch {
		case s.Direction == engine.Pull:
			s.Dedup = engine.DedupNone
		case onePush:
			s.Dedup = engine.DedupNone
		default:
			s.Dedup = engine.DedupAtomic
		}
	}
	if s.PushAgg == engine.AggAuto {
		s.PushAgg = agg
	}
}

// resolveFuse decides fuse=auto and checks fuse=on for BFS and SSSP: the fused loops
// (kernels/common.cuh fused_loop, kernels/bfs.cu bfs_do_loop) run data-driven BFS and SSSP
// over a queue with lb=thread|warp|cta|twc|np|etwc: push BFS and SSSP, and
// direction-optimizing BFS (direction auto) with the push/pull decision taken on the device.
// Auto fuses on high-diameter graphs (estimated diameter >= 100), where thousands of short
// steps make launch and read-back overhead dominate (IrGL Table 1; UGF: "kernel fusion
// essential on road graphs"): push, since those frontiers never reach Beamer's pull
// threshold; SSSP on even degrees (evenSSSP: urand's 30-odd near-far steps); and
// direction-optimizing BFS everywhere else (each of its 5-10 levels pays a host round trip
// unfused). On high-diameter graphs auto takes fuse=block for BFS (kernels/block_loop.cuh):
// its levels are small enough for one thread block, and a block barrier is far cheaper than
// the grid's (unless a vertex has over 256 edges: the block walks a row a thread). SSSP keeps
// fuse=on there: its near-far iterations ran slower in one block (docs/gpu-notes.md).
// fuse=block is top-down with sync=async. SSSP everywhere else (skewed degrees: kron's few
// big steps, each fastest as its own launch, then a tail of small ones) takes fuse=tail: a
// launch a step while the frontier is large, the rest of the loop in one cooperative launch
// once it has shrunk (sssp.go tailShrink).
func resolveFuse(s *engine.Schedule, alg engine.Algorithm, diameter int, maxDeg int64, evenSSSP bool) error {
	fusable := (s.Direction == engine.DirAuto || s.Direction == engine.Push) &&
		(s.Driven == engine.DrivenAuto || s.Driven == engine.Data) &&
		(s.Frontier == engine.FrontierAuto || s.Frontier == engine.Queue) &&
		(s.LB == engine.LBAuto || s.LB == engine.LBThread || s.LB == engine.LBWarp || s.LB == engine.LBCTA || s.LB == engine.LBTWC ||
			s.LB == engine.LBNP || s.LB == engine.LBETWC)
	dirOpt := alg == engine.BFS && s.Direction == engine.DirAuto
	switch s.Fuse {
	case engine.FuseOn, engine.FuseTail:
		if !fusable {
			return unsupported("fuse=%s runs data-driven BFS and SSSP over a queue with lb=thread|warp|cta|twc|np|etwc, push or (BFS) direction-optimizing (not %s)", s.Fuse, s.Relevant(alg, "gpu"))
		}
	case engine.FuseBlock:
		if !fusable || s.Alpha != 0 || s.Beta != 0 || s.Sync == engine.SyncDB {
			return unsupported("fuse=block runs data-driven top-down BFS and SSSP over a queue with lb=thread|warp|cta|twc|np|etwc and sync=async (not %s)", s.Relevant(alg, "gpu"))
		}
		dirOpt = false
	case engine.FuseAuto:
		s.Fuse = engine.FuseOff
		switch {
		case !fusable:
		case diameter >= 100 && s.Alpha == 0 && s.Beta == 0:
			s.Fuse, dirOpt = engine.FuseBlock, false
			if alg != engine.BFS || s.Sync == engine.SyncDB || maxDeg > 256 {
				s.Fuse = engine.FuseOn
			}
		case dirOpt || evenSSSP:
			s.Fuse = engine.FuseOn
		case alg == engine.SSSP:
			s.Fuse = engine.FuseTail
		}
	}
	if s.Fuse == engine.FuseOn || s.Fuse == engine.FuseBlock || s.Fuse == engine.FuseTail {
		if !dirOpt {
			s.Direction = engine.Push
		}
		s.Driven, s.Frontier = engine.Data, engine.Queue
	}
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
	if err = r.setWord(val, int64(src)*4, 0); err != nil {
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

// updateCode is the kernels' code for the update knob.
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
		dst.count, dst.edges = r.queueLen(dst.slot), src.edges
		if err := r.clearCounters(); err != nil {
			return err
		}
		return nil
	}
	dst.count, dst.edges = src.count, src.edges
	return nil
}

// modeOf is the trace mode of a data- or topology-driven run.
func modeOf(data bool) engine.Driven {
	if data {
		return engine.Data
	}
	return engine.Topology
}
