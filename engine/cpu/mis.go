package cpu

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// Maximal independent set returns a set of vertices no two of which are adjacent and to which
// no vertex can be added. It is Luby's algorithm with priorities fixed in advance
// (engine.MISPriority, a hash of seed and vertex; IrGL's and Indigo2's MIS), which reaches the
// set of the greedy algorithm in decreasing priority, so the result depends on the seed only,
// never on the schedule or the number of workers:
//
//   - sync=sync (the default; Luby's rounds): select, then every undecided vertex whose
//     priority beats all its undecided neighbours' joins the set; remove, then the neighbours
//     of the new members leave: pushed out by the members (direction=push, the default) or
//     pulled out by each undecided vertex that sees a member among its neighbours (pull).
//   - sync=async: one pass per round that sees the round's own decisions: an undecided vertex
//     leaves when a neighbour is in the set, and joins when every neighbour of higher priority
//     has left (push: it then pushes its neighbours out at once).
//   - driven=data (the default) keeps a worklist of the undecided vertices, compacted each
//     round; driven=topology sweeps every vertex every round.
//
// method=ecl takes ECL-MIS's degree-aware priorities (engine.MISDegreePriority: low degree
// first), which give larger sets; the rounds stay Luby's (on the CPU the in-place pass of the
// GPU's method=ecl would be the async sweep, which sync=async already is).
//
// Input: any graph; arcs count in both directions (a directed graph is read as undirected) and
// self-loops are ignored. The states are atomic 32-bit words; every write moves a vertex out of
// undecided, and the rules read the same decision from either value a racing write leaves.
// Expected O(log V) rounds, O(E) work per round.

func init() {
	register(engine.MIS, runMIS)
	registerSpace(engine.MIS,
		engine.Subspace{},
		engine.Subspace{axis("sync", "sync", "async"), axis("direction", "push", "pull"), axis("driven", "data", "topology")},
	)
}

const (
	misUndecided uint32 = iota
	misIn
	misOut
)

type misRun struct {
	r     *Run
	g, gt *graph.CSR // gt: in-arcs of a directed graph, nil for an undirected one
	prio  []uint64
	state []uint32
	cand  []uint32 // data-driven: the undecided vertices
	next  *segQueue
	joins *segQueue // the round's new members (sync, push)
	cnt   []counters
	dir   engine.Direction
	data  bool
	async bool
}

func runMIS(ctx context.Context, r *Run) error {
	g := r.G
	s := &r.Res.Schedule
	if s.Driven == engine.DrivenAuto {
		s.Driven = engine.Data
	}
	if s.Driven == engine.Hybrid {
		return fmt.Errorf("cpu: mis: driven=hybrid: %w (mis runs data- or topology-driven)", engine.ErrUnsupported)
	}
	if s.Direction == engine.DirAuto {
		s.Direction = engine.Push
	}
	if s.Sync == engine.SyncAuto {
		s.Sync = engine.SyncDB
	}
	if s.Frontier != engine.FrontierAuto && s.Frontier != engine.Queue {
		return fmt.Errorf("cpu: mis: frontier=%s: %w (the undecided vertices are a compacted queue)", s.Frontier, engine.ErrUnsupported)
	}
	if s.Dedup == engine.DedupCull {
		return fmt.Errorf("cpu: mis: dedup=cull: %w (the worklist is compacted from the undecided vertices, each once: dedup=atomic)", engine.ErrUnsupported)
	}
	if s.Driven == engine.Data {
		s.Frontier = engine.Queue
		if s.Direction != engine.Pull {
			s.Dedup = engine.DedupAtomic // a pull step pushes nothing: dedup stays not applicable
		}
	}
	if s.Update == engine.UpdateAuto {
		s.Update = engine.RMW
	}
	n := g.NumVertices()
	m := &misRun{r: r, g: g, prio: make([]uint64, n), state: make([]uint32, n),
		next: newSegQueue(r.Workers, 0), joins: newSegQueue(r.Workers, 0), cnt: make([]counters, r.Workers),
		dir: s.Direction, data: s.Driven == engine.Data, async: s.Sync == engine.Async}
	if g.Directed {
		m.gt = g.Transpose()
	}
	seed := r.Req.Params.Seed
	if s.Method == engine.ECL {
		// ECL-MIS's degree-aware priorities: the greedy set they fix, reached by the same rounds
		deg, avg16 := engine.MISDegrees(g), engine.MISAvg16(g)
		r.forRange(n, 4096, 1, func(_, lo, hi int) {
			for v := lo; v < hi; v++ {
				m.prio[v] = engine.MISDegreePriority(seed, uint32(v), deg[v], avg16)
			}
		})
	} else {
		r.forRange(n, 4096, 1, func(_, lo, hi int) {
			for v := lo; v < hi; v++ {
				m.prio[v] = engine.MISPriority(seed, uint32(v))
			}
		})
	}
	if m.data {
		m.cand = make([]uint32, n)
		for v := range m.cand {
			m.cand[v] = uint32(v)
		}
	}
	kind := "Luby rounds (select, then remove)"
	if m.async {
		kind = "one pass per round, seeing the round's own decisions"
	}
	r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "rounds",
		Note: fmt.Sprintf("seed %d: %s; sync=%s direction=%s driven=%s", seed, kind, s.Sync, s.Direction, s.Driven)})
	undecided := int64(n)
	var size int64
	for iter := 0; undecided > 0; iter++ {
		if err := r.ctxErr(ctx); err != nil {
			return err
		}
		t := time.Now()
		var joined, scanned int64
		if m.async {
			joined, scanned = m.asyncRound()
		} else {
			joined, scanned = m.syncRound()
		}
		left := m.compact()
		r.emit(engine.Record{Iter: iter, Phase: "rounds", Direction: m.dir, Mode: modeOf(m.data),
			InVertices: undecided, OutVertices: left, EdgesScanned: scanned, Time: time.Since(t),
			Note: fmt.Sprintf("%d joined", joined)})
		if err := r.ctxErr(ctx); err != nil {
			return err
		}
		if left >= undecided {
			return fmt.Errorf("cpu: mis: round %d decided nothing (%d undecided): internal error", iter, left)
		}
		undecided = left
		size += joined
	}
	in := make([]bool, n)
	for v := range in {
		in[v] = m.state[v] == misIn
	}
	r.Res.InSet = in
	r.Res.Summary.SetSize = size
	return nil
}

// each calls f(w, v) for every undecided vertex: the worklist (data) or a sweep (topology).
func (m *misRun) each(f func(w int, v uint32)) {
	if m.data {
		cand := m.cand
		m.r.forRange(len(cand), 256, 1, func(w, lo, hi int) {
			for _, v := range cand[lo:hi] {
				if atomic.LoadUint32(&m.state[v]) == misUndecided {
					f(w, v)
				}
			}
		})
		return
	}
	m.r.forRange(len(m.state), 1024, 1, func(w, lo, hi int) {
		for v := lo; v < hi; v++ {
			if atomic.LoadUint32(&m.state[v]) == misUndecided {
				f(w, uint32(v))
			}
		}
	})
}

// lists returns v's out-list and, on a directed graph, its in-list.
func (m *misRun) lists(v uint32) ([]uint32, []uint32) {
	out := m.g.Neighbors[m.g.Offsets[v]:m.g.Offsets[v+1]]
	if m.gt == nil {
		return out, nil
	}
	return out, m.gt.Neighbors[m.gt.Offsets[v]:m.gt.Offsets[v+1]]
}

// beats reports whether v's priority beats every neighbour that has not left (sync select), or
// whether every neighbour of higher priority has left (async; the same test).
func (m *misRun) beats(v uint32, l []uint32) bool {
	pv := m.prio[v]
	for _, u := range l {
		if m.prio[u] > pv && u != v && atomic.LoadUint32(&m.state[u]) != misOut {
			return false
		}
	}
	return true
}

func (m *misRun) hasMember(v uint32, l []uint32) bool {
	for _, u := range l {
		if u != v && atomic.LoadUint32(&m.state[u]) == misIn {
			return true
		}
	}
	return false
}

// pushOut moves v's undecided neighbours out.
func (m *misRun) pushOut(v uint32, l []uint32) {
	for _, u := range l {
		if u != v && atomic.LoadUint32(&m.state[u]) == misUndecided {
			atomic.StoreUint32(&m.state[u], misOut)
		}
	}
}

func (m *misRun) syncRound() (joined, scanned int64) {
	clear(m.cnt)
	m.joins.reset()
	push := m.dir == engine.Push
	// Select.
	m.each(func(w int, v uint32) {
		a, b := m.lists(v)
		m.cnt[w].c += int64(len(a) + len(b))
		if m.beats(v, a) && m.beats(v, b) {
			atomic.StoreUint32(&m.state[v], misIn)
			m.cnt[w].a++
			if push {
				m.joins.seg[w] = append(m.joins.seg[w], v)
			}
		}
	})
	// Remove.
	if push {
		m.joins.seal()
		m.r.forRange(m.joins.len(), 64, 1, func(w, lo, hi int) {
			for lo < hi {
				var vs []uint32
				vs, lo = m.joins.piece(lo, hi)
				for _, v := range vs {
					a, b := m.lists(v)
					m.cnt[w].c += int64(len(a) + len(b))
					m.pushOut(v, a)
					m.pushOut(v, b)
				}
			}
		})
	} else {
		m.each(func(w int, v uint32) {
			a, b := m.lists(v)
			m.cnt[w].c += int64(len(a) + len(b))
			if m.hasMember(v, a) || m.hasMember(v, b) {
				atomic.StoreUint32(&m.state[v], misOut)
			}
		})
	}
	s := sumCounters(m.cnt)
	return s.a, s.c
}

func (m *misRun) asyncRound() (joined, scanned int64) {
	clear(m.cnt)
	push := m.dir == engine.Push
	m.each(func(w int, v uint32) {
		a, b := m.lists(v)
		m.cnt[w].c += int64(len(a) + len(b))
		if !push && (m.hasMember(v, a) || m.hasMember(v, b)) {
			atomic.StoreUint32(&m.state[v], misOut)
			return
		}
		if m.beats(v, a) && m.beats(v, b) {
			atomic.StoreUint32(&m.state[v], misIn)
			m.cnt[w].a++
			if push {
				m.pushOut(v, a)
				m.pushOut(v, b)
			}
		}
	})
	s := sumCounters(m.cnt)
	return s.a, s.c
}

// compact keeps the undecided vertices in the worklist (data) and returns how many remain.
func (m *misRun) compact() int64 {
	clear(m.cnt)
	if !m.data {
		m.r.forRange(len(m.state), 4096, 1, func(w, lo, hi int) {
			for v := lo; v < hi; v++ {
				if m.state[v] == misUndecided {
					m.cnt[w].a++
				}
			}
		})
		return sumCounters(m.cnt).a
	}
	m.next.reset()
	cand := m.cand
	m.r.forRange(len(cand), 1024, 1, func(w, lo, hi int) {
		for _, v := range cand[lo:hi] {
			if m.state[v] == misUndecided {
				m.next.seg[w] = append(m.next.seg[w], v)
			}
		}
	})
	m.cand = m.cand[:0]
	for _, s := range m.next.seg {
		m.cand = append(m.cand, s...)
	}
	return int64(len(m.cand))
}
