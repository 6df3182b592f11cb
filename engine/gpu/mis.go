//go:build cuda

package gpu

import (
	"fmt"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
)

// mis returns a maximal independent set: no two members adjacent, no vertex addable.
//
// Approach: Luby's algorithm with priorities fixed in advance (engine.MISPriority of seed, the
// same hash as engine/ref and engine/cpu; IrGL's and Indigo2's MIS), which reaches the set of
// the greedy algorithm in decreasing priority, so the result depends on the seed only, never on
// the schedule (kernels/mis.cu):
//
//   - sync=sync (the default; Luby's rounds): select (mis_select: an undecided vertex whose
//     priority beats every neighbour that has not left joins), then remove: the new members
//     push their undecided neighbours out (direction=push, the default; mis_remove_push) or
//     every undecided vertex with a member among its neighbours leaves (pull).
//   - sync=async: one pass per round that sees the round's own decisions (mis_async_<dir>).
//   - driven=data (the default) keeps a worklist of the undecided vertices, compacted every
//     round (mis_compact); driven=topology sweeps every vertex every round.
//
// Input: any graph; arcs count both ways (a directed graph's in-lists are read too) and
// self-loops are ignored. Expected O(log V) rounds of O(E) work; one trace record per round.
// misArgs mirrors struct MisArgs in kernels/mis.cu field for field (all 8 bytes).
type misArgs struct {
	off, nbr, ioff, inbr uint64
	n, seed              int64
	prio, state          uint64
	q                    uint64
	qlen, topo           int64
	next, joins          uint64
	counters             uint64
}

var _ [112 - unsafe.Sizeof(misArgs{})]byte // sizeof(MisArgs), static_asserted in mis.cu
var _ [unsafe.Sizeof(misArgs{}) - 112]byte

// mis counters (words of the run's counter block).
const (
	misJoined, misScanned, misNext, misJoins = 0, 1, 2, 3
)

// resolveMIS fills MIS's auto knobs: resolvePerVertex's, push, Jacobi rounds (sync=sync), and
// dedup=atomic for the data-driven push's compaction.
//
// method=auto is ecl (mis_ecl.go) unless a knob of the rounds is set; ecl runs one cooperative
// launch (fuse=auto: misEclFuse), or two (fuse=off).
func resolveMIS(r *run, s *engine.Schedule) error {
	roundKnobs := s.Driven != engine.DrivenAuto || s.Direction != engine.DirAuto || s.Sync != engine.SyncAuto ||
		s.Dedup != engine.DedupAuto || s.Frontier != engine.FrontierAuto || s.PushAgg != engine.AggAuto || s.LB != engine.LBAuto
	if s.Method == engine.MethodAuto {
		s.Method = engine.Luby
		if !roundKnobs {
			s.Method = engine.ECL
		}
	}
	if s.Method == engine.ECL {
		if s.Fuse == engine.FuseAuto {
			s.Fuse = misEclFuse
		}
		return nil
	}
	if s.Fuse == engine.FuseOn {
		return unsupported("mis: fuse=on runs method=ecl in one launch; method=luby is host-driven")
	}
	if s.Dedup == engine.DedupCull {
		return unsupported("mis: dedup=cull: the worklist is compacted from the undecided vertices, each once (dedup=atomic)")
	}
	if err := resolvePerVertex(s, "mis", "the undecided vertices are a compacted queue"); err != nil {
		return err
	}
	if s.Direction == engine.DirAuto {
		s.Direction = engine.Push
	}
	if s.Sync == engine.SyncAuto {
		s.Sync = engine.SyncDB
	}
	if s.Driven == engine.Data && s.Direction == engine.Push {
		// the compaction appends each undecided vertex once; a pull round pushes nothing, so
		// dedup stays not applicable there (Validate refuses dedup=atomic with pull)
		s.Dedup = engine.DedupAtomic
	}
	return nil
}

// mis runs the rounds until every vertex is decided.
func mis(r *run) error {
	if r.s.Method == engine.ECL {
		return misECL(r)
	}
	s := r.s
	n := int64(r.n)
	data, push, async := s.Driven == engine.Data, s.Direction == engine.Push, s.Sync == engine.Async
	seed := r.req.Params.Seed
	a := misArgs{off: r.dg.out.off.addr(), nbr: r.dg.out.nbr.addr(), n: n, seed: seed, counters: r.ctl.addr()}
	if r.g.Directed {
		in, err := r.inCSR()
		if err != nil {
			return err
		}
		a.ioff, a.inbr = in.off.addr(), in.nbr.addr()
	}
	prio, err := r.buf("mis.prio", n*8, false)
	if err != nil {
		return err
	}
	state, err := r.buf("mis.state", n*4, false)
	if err != nil {
		return err
	}
	a.prio, a.state = prio.addr(), state.addr()
	var cand, next, joins buffer
	if data {
		if cand, err = r.buf("mis.cand", n*4, false); err != nil {
			return err
		}
		if next, err = r.buf("mis.next", n*4, false); err != nil {
			return err
		}
		a.next = cand.addr()
	}
	if push && !async {
		if joins, err = r.buf("mis.joins", n*4, false); err != nil {
			return err
		}
	}
	kind := "Luby rounds (select, then remove)"
	if async {
		kind = "one pass per round, seeing the round's own decisions"
	}
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "rounds",
		Note: fmt.Sprintf("seed %d: %s; sync=%s direction=%s driven=%s", seed, kind, s.Sync, s.Direction, s.Driven)}); err != nil {
		return err
	}
	if err := r.begin(); err != nil {
		return err
	}
	if err := launchStruct(r, "mis_init", blocks(n, block), &a); err != nil {
		return err
	}
	undecided := n
	var size int64
	dir := "push"
	if !push {
		dir = "pull"
	}
	for iter := 0; undecided > 0; iter++ {
		if iter > 0 {
			if err := r.begin(); err != nil {
				return err
			}
		}
		// Items: the worklist (data) or every vertex.
		a.q, a.qlen, a.topo, a.next, a.joins = 0, 0, 1, 0, 0
		if data {
			a.q, a.qlen, a.topo = cand.addr(), undecided, 0
		}
		grid := perVertexGrid(data, undecided, n)
		if async {
			if err := launchStruct(r, "mis_async_"+dir+"_thread", grid, &a); err != nil {
				return err
			}
		} else {
			if push {
				a.joins = joins.addr()
			}
			if err := launchStruct(r, "mis_select_thread", grid, &a); err != nil {
				return err
			}
			if push {
				// The joins are at most the items; the kernel reads their count from the counter.
				if err := r.readCounters(); err != nil {
					return err
				}
				j := a
				j.q, j.qlen, j.topo, j.joins = joins.addr(), int64(r.hostCtl[misJoins]), 0, 0
				if err := launchStruct(r, "mis_remove_push_thread", blocks(max(j.qlen, 1), block), &j); err != nil {
					return err
				}
			} else {
				if err := launchStruct(r, "mis_remove_pull_thread", grid, &a); err != nil {
					return err
				}
			}
		}
		if data {
			a.next = next.addr()
		}
		if err := launchStruct(r, "mis_compact", grid, &a); err != nil {
			return err
		}
		if err := r.readCounters(); err != nil {
			return err
		}
		joined, left := int64(r.hostCtl[misJoined]), int64(r.hostCtl[misNext])
		if err := r.emit(engine.Record{Phase: "rounds", Direction: s.Direction, Mode: modeOf(data),
			InVertices: undecided, OutVertices: left, EdgesScanned: int64(r.hostCtl[misScanned]),
			Note: fmt.Sprintf("%d joined", joined)}); err != nil {
			return err
		}
		if left >= undecided {
			return fmt.Errorf("gpu: mis: round %d decided nothing (%d undecided): internal error", iter, left)
		}
		undecided = left
		size += joined
		if data {
			cand, next = next, cand
		}
	}
	st := make([]uint32, n)
	if err := download(st, state); err != nil {
		return err
	}
	in := make([]bool, n)
	for v := range in {
		in[v] = st[v] == 1
	}
	r.res.InSet = in
	r.res.Summary.SetSize = size
	return nil
}
