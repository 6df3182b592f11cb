package cpu

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// PR: the PageRank of every vertex, summing to 1: rank[u] = (1-d)/V + d * (sum over in-arcs
// v->u of rank[v]/outdeg(v) + D/V), where D is the rank of the dangling vertices (out-degree
// 0), spread uniformly.
//
// The schedule space:
//
//   - direction=pull, driven=topology, sync=async (Gauss-Seidel as GAPBS pr.cc; the default):
//     each vertex sums its in-neighbours' contributions (rank / out-degree) and publishes its
//     own new contribution at once, so later vertices of the same sweep read it; the ranks are
//     projected back to sum 1 after each sweep. Stops when the L1 change of a sweep is below
//     the tolerance. Fewer sweeps than Jacobi (kron20 5 against 8, urand20 4 against 6, NY
//     17 against 35). Its split=auto is blocked where neighbours are near in number (a road
//     graph): each worker sweeps the block it owns, then helps with the others' (gsOwners);
//     dynamic elsewhere.
//   - direction=pull, sync=sync: Jacobi (GAPBS pr_spmv.cc): contributions computed first,
//     then every vertex pulls; deterministic. Contributions and their sums are float32 in both
//     pull forms.
//   - direction=push, driven=topology (sync=sync): each vertex adds its contribution to its
//     out-neighbours' next ranks with an atomic float add (a CAS on math.Float64bits).
//   - driven=data (residual push; Gauss-Southwell / Galois pagerank-push): ranks start at 0
//     and residuals at (1-d)/V; a vertex whose residual exceeds tolerance x (1-d) / V moves it
//     into its rank and pushes d x residual / out-degree to its out-neighbours. Dangling
//     residual is pooled and spread over all vertices when it matters. The L1 error left is
//     below the tolerance.
//
// This file resolves the knobs and holds what the forms share (the start, float atomics);
// each form has its own file: pr_pull_gs.go, pr_pull_jacobi.go, pr_push.go, pr_residual.go.
func init() { register(engine.PR, runPR) }

type prState struct {
	*Run
	g, t *graph.CSR // t: in-arcs, for pull
	n    int
	d    float64
	base float64
	inv  []float64 // 1/outdeg, 0 for dangling vertices
	cnt  []fcounters

	rankSum float64 // the ranks' sum, when haveSum (a form that summed them on its last pass)
	haveSum bool
}

// fcounters are per-worker float tallies, padded to a cache line.
type fcounters struct {
	a, b float64
	n    int64
	_    [40]byte
}

func runPR(ctx context.Context, r *Run) error {
	g := r.G
	s := &r.Res.Schedule
	if err := r.vertexLB(); err != nil {
		return err
	}
	if s.Blocking > 0 {
		return fmt.Errorf("cpu: pr blocking (EdgeBlocking) is a GPU engine schedule here: %w", engine.ErrUnsupported)
	}
	if s.Method != engine.MethodAuto {
		return fmt.Errorf("cpu: pr method=%s (destination bins summed in a GPU's shared memory) is a GPU engine schedule here: %w", s.Method, engine.ErrUnsupported)
	}
	s.Blocking = engine.BlockingOff
	if s.Driven == engine.DrivenAuto {
		s.Driven = engine.Topology
	}
	if s.Direction == engine.DirAuto {
		s.Direction = engine.Pull
		if s.Driven == engine.Data {
			s.Direction = engine.Push
		}
	}
	if s.Sync == engine.SyncAuto {
		s.Sync = engine.Async
		if s.Direction == engine.Push && s.Driven == engine.Topology {
			s.Sync = engine.SyncDB
		}
	}
	if s.Update == engine.UpdateAuto {
		s.Update = engine.RMW
	}
	if s.Direction == engine.Push && s.Driven == engine.Topology && s.Sync == engine.Async {
		return fmt.Errorf("cpu: pr push sweeps add into the next iteration's ranks (sync=sync); the in-place forms are pull (Gauss-Seidel) and driven=data (residual push): %w", engine.ErrUnsupported)
	}
	if s.Driven == engine.Data && s.Sync == engine.SyncDB {
		return fmt.Errorf("cpu: pr residual push (driven=data) moves residuals as it goes (sync=async): %w", engine.ErrUnsupported)
	}
	p := &prState{Run: r, g: g, n: g.NumVertices(), d: r.Req.Params.Damping, cnt: make([]fcounters, r.Workers)}
	if p.n == 0 {
		r.Res.Rank = []float64{}
		return nil
	}
	p.base = (1 - p.d) / float64(p.n)
	var rank []float64
	var err error
	switch {
	case s.Driven == engine.Data:
		p.invDegrees()
		rank, err = p.residualPush(ctx)
	case s.Direction == engine.Push:
		p.invDegrees()
		rank, err = p.pushJacobi(ctx)
	case s.Sync == engine.SyncDB:
		p.t = g.Transpose()
		rank, err = p.pullJacobi(ctx)
	default:
		p.t = g.Transpose()
		if s.Split == engine.SplitAuto {
			s.Split = engine.Dynamic
			if s.Chunk <= 0 && gsLocal(p.t.Offsets, p.t.Neighbors) {
				s.Split = engine.Blocked // owned blocks (gsOwners)
			}
		}
		rank, err = p.pullGS(ctx)
	}
	if err != nil {
		return err
	}
	if r.collect != nil {
		return r.ctxErr(ctx) // the ranks come after the clock (pullGS)
	}
	r.Res.Rank = rank
	if !p.haveSum {
		clear(p.cnt)
		r.forRange(p.n, 1<<14, 1, func(w, lo, hi int) {
			sum := 0.0
			for _, x := range rank[lo:hi] {
				sum += x
			}
			p.cnt[w].a += sum
		})
		p.rankSum, _ = p.sums()
	}
	r.Res.Summary.RankSum = p.rankSum
	return r.ctxErr(ctx)
}

// invDegrees fills p.inv, 1/outdeg (0 for dangling vertices), for the push forms, which
// multiply by it once per vertex and sweep (the pull forms divide by the degree they read).
func (p *prState) invDegrees() {
	off := p.g.Offsets
	p.inv = make([]float64, p.n)
	p.forRange(p.n, 1<<14, 1, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			if deg := off[v+1] - off[v]; deg > 0 {
				p.inv[v] = 1 / float64(deg)
			}
		}
	})
}

// addF adds x to the float64 at p with a CAS loop and returns the old value.
func addF(p *uint64, x float64) float64 {
	for {
		old := atomic.LoadUint64(p)
		if atomic.CompareAndSwapUint64(p, old, math.Float64bits(math.Float64frombits(old)+x)) {
			return math.Float64frombits(old)
		}
	}
}

// bitsFloat converts float64 bits back to floats.
func bitsFloat(b []uint64) []float64 {
	f := make([]float64, len(b))
	for i, x := range b {
		f[i] = math.Float64frombits(x)
	}
	return f
}

func (p *prState) sums() (a, b float64) {
	for i := range p.cnt {
		a += p.cnt[i].a
		b += p.cnt[i].b
	}
	return a, b
}

func (p *prState) record(iter int, dir engine.Direction, change float64, start time.Time) engine.Record {
	return engine.Record{Iter: iter, Direction: dir, Mode: engine.Topology, InVertices: int64(p.n), InEdges: p.g.NumArcs(),
		OutVertices: int64(p.n), EdgesScanned: p.g.NumArcs(), Time: time.Since(start),
		Note: fmt.Sprintf("L1 change %.3g", change)}
}

// loadF32 and storeF32 are atomic accesses to a float32 (for -race builds, see raceBuild).
func loadF32(p *float32) float32 {
	return math.Float32frombits(atomic.LoadUint32((*uint32)(unsafe.Pointer(p))))
}
func storeF32(p *float32, x float32) {
	atomic.StoreUint32((*uint32)(unsafe.Pointer(p)), math.Float32bits(x))
}

// startRanks fills the starting ranks (and, when contrib is not nil, the contributions
// rank/outdeg, 0 for dangling vertices) and returns the dangling total. When every dangling
// vertex is isolated (always, on an undirected graph), fixed is true and spread is the exact
// fixed-point share of the dangling rank: each isolated vertex's rank is r = base + d*D/n
// with D = z*r over the z of them, so r = base / (1 - d*z/n), and spread = d*D/n is a constant
// (no dangling total then lags behind a Gauss-Seidel sweep). On an undirected graph the start
// is also the exact mass of every component: no arc leaves a component, so summing the
// equations over a component C gives a mass of |C| (base + spread) / (1 - d), the same mean for
// every component; a uniform 1/V start leaves each component's mass error to decay only by a
// factor d per sweep (kron graphs have many small components). Otherwise the start is 1/V.
// Both passes run on the workers. A nil rank is left out (a lean Gauss-Seidel sweep keeps
// contributions only). Generic in the ranks' type: the Gauss-Seidel sweep keeps them as
// float32.
func startRanks[F float32 | float64](p *prState, rank []F, contrib []float32) (dangling, spread float64, fixed bool) {
	n, d, base := p.n, p.d, p.base
	off := p.g.Offsets
	var toff []int64 // in-arc offsets, to tell isolated vertices from dangling ones with in-arcs
	if p.t != nil {
		toff = p.t.Offsets
	}
	var tot counters // a: dangling vertices, b: those of them with in-arcs
	if !p.g.Directed {
		if h := p.g.DegreeHistogram(); len(h) > 0 { // cached: no pass
			tot.a = h[0]
		}
	} else {
		cnt := make([]counters, p.Workers)
		p.forRange(n, 1<<14, 1, func(w, lo, hi int) {
			var z, reached int64
			for v := lo; v < hi; v++ {
				if off[v+1] == off[v] {
					z++
					if toff != nil && toff[v+1] != toff[v] {
						reached++
					}
				}
			}
			cnt[w].a += z
			cnt[w].b += reached
		})
		tot = sumCounters(cnt)
	}
	z := float64(tot.a)
	fixed = tot.b == 0 && 1-d*z/float64(n) > 0
	r := base / (1 - d*z/float64(n)) // an isolated vertex's rank, when fixed
	init, rd := 1/float64(n), 1/float64(n)
	dangling = z * init
	if fixed {
		spread = d * z * r / float64(n)
		if !p.g.Directed {
			init, rd = (base+spread)/(1-d), r
			dangling = z * r
		}
	}
	p.forRange(n, 1<<14, 1, func(_, lo, hi int) {
		for v := lo; v < hi; v++ {
			deg := off[v+1] - off[v]
			x := init
			if deg == 0 {
				x = rd
			}
			if rank != nil {
				rank[v] = F(x)
			}
			if contrib != nil {
				c := float32(0)
				if deg != 0 {
					c = float32(x / float64(deg))
				}
				contrib[v] = c
			}
		}
	})
	return dangling, spread, fixed
}
