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
//     17 against 35).
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
		rank, err = p.pullGS(ctx)
	}
	if err != nil {
		return err
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

func loadF(p *uint64) float64     { return math.Float64frombits(atomic.LoadUint64(p)) }
func storeF(p *uint64, x float64) { atomic.StoreUint64(p, math.Float64bits(x)) }

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

// pullGS is the Gauss-Seidel pull sweep. contrib holds rank/outdeg as float32 (as GAPBS's
// float scores: half the memory traffic of the random reads), written as soon as a vertex is
// done, so later vertices of the same sweep (on any worker) read the new value. Sums are
// accumulated in float32 as GAPBS's, four at a time (float64 sums cost a conversion per arc,
// ~8% more CPU time on kron20 and urand20; float32 sums over even 1e5 in-arcs stay within
// ~1e-5 relative, far under the tolerance in L1). The dangling rank is kept current the same way: each piece adds its
// change of dangling rank to a shared total, which later pieces spread.
//
// After every sweep the ranks are projected back to sum 1 (the fixed point's sum). A
// Gauss-Seidel sweep, unlike a Jacobi one, does not conserve the rank mass of a connected
// component, and the drift of that mass decays slowly (by about d^2 a sweep): on kron scale 20
// the L1 change lingered at 8e-4 .. 1e-4 for 5 sweeps; with the projection it falls as fast as
// the rest (9 sweeps to 1e-4 become 5). The projection costs no pass: the ranks stay stored
// unscaled, stored = true/scale, and, the iteration being affine, sweeping the stored values
// with the constant term divided by scale yields the next stored values; scale is 1 over the
// stored sum of the sweep just done, and the final ranks are scaled once at the end.
func (p *prState) pullGS(ctx context.Context) ([]float64, error) {
	n, d, base := p.n, p.d, p.base
	off, toff, tnb := p.g.Offsets, p.t.Offsets, p.t.Neighbors
	rank := make([]float64, n)
	contrib := make([]float32, n)
	dangling, fixedSpread, fixed := p.startRanks(rank, contrib)
	// dang holds the float64 bits of the stored dangling rank, updated as pieces finish.
	var dang atomic.Uint64
	dang.Store(math.Float64bits(dangling))
	scale := 1.0
	params := p.Req.Params
	for iter := 0; iter < params.MaxIter; iter++ {
		if err := p.ctxErr(ctx); err != nil {
			return nil, err
		}
		start := time.Now()
		cst := base / scale // the constant term in stored units
		if fixed {
			cst = (base + fixedSpread) / scale
		}
		clear(p.cnt)
		p.forRange(n, 4096, 1, func(w, lo, hi int) {
			cf := contrib // a local: the closure's captured slice would be reloaded every arc
			c0 := cst
			if !fixed {
				c0 += d * math.Float64frombits(dang.Load()) / float64(n)
			}
			var change, sum, ddang float64
			for u := lo; u < hi; u++ {
				nb := tnb[toff[u]:toff[u+1]]
				var s0, s1, s2, s3 float32
				if raceBuild {
					for _, v := range nb {
						s0 += loadF32(&cf[v])
					}
				} else {
					// Plain loads of contributions others may be publishing: see raceBuild.
					for len(nb) >= 4 { // (no bounds checks on nb[0..3])
						s0 += cf[nb[0]]
						s1 += cf[nb[1]]
						s2 += cf[nb[2]]
						s3 += cf[nb[3]]
						nb = nb[4:]
					}
					for _, v := range nb {
						s0 += cf[v]
					}
				}
				x := c0 + d*float64((s0+s1)+(s2+s3))
				old := rank[u]
				change += math.Abs(x - old)
				sum += x
				rank[u] = x
				if deg := off[u+1] - off[u]; deg != 0 {
					c := float32(x / float64(deg))
					if raceBuild {
						storeF32(&cf[u], c)
					} else {
						cf[u] = c // a plain store (an atomic one is a locked XCHG on amd64): see raceBuild
					}
				} else {
					ddang += x - old
				}
			}
			if ddang != 0 && !fixed {
				addF((*uint64)(unsafe.Pointer(&dang)), ddang)
			}
			p.cnt[w].a += change
			p.cnt[w].b += sum
		})
		if p.stopped() {
			return nil, p.ctxErr(ctx)
		}
		change, sum := p.sums()
		if sum > 0 {
			// The sweep moved the true ranks by scale*change; the projection then moves
			// them by |1 - scale/next| in L1 (they sum to 1 after it): report both.
			next := 1 / sum
			change = scale*change + math.Abs(1-scale/next)
			scale = next
		}
		p.emit(p.record(iter, engine.Pull, change, start))
		if change < params.Tolerance {
			break
		}
	}
	// Scale the stored ranks to the true ones, and sum them for the summary on the way.
	clear(p.cnt)
	p.forRange(n, 1<<14, 1, func(w, lo, hi int) {
		sum := 0.0
		for v := lo; v < hi; v++ {
			x := rank[v] * scale
			rank[v] = x
			sum += x
		}
		p.cnt[w].a += sum
	})
	p.rankSum, _ = p.sums()
	p.haveSum = true
	return rank, nil
}

// loadF32 and storeF32 are atomic accesses to a float32 (for -race builds, see raceBuild).
func loadF32(p *float32) float32 {
	return math.Float32frombits(atomic.LoadUint32((*uint32)(unsafe.Pointer(p))))
}
func storeF32(p *float32, x float32) {
	atomic.StoreUint32((*uint32)(unsafe.Pointer(p)), math.Float32bits(x))
}

// pullJacobi is the Jacobi pull sweep: every vertex pulls its in-neighbours' contributions
// (rank / out-degree, as float32: GAPBS's float scores, half the memory traffic of the random
// reads) from the previous sweep, and writes its own for the next sweep into a second array,
// with the dangling total, so no separate pass computes them. Sums are accumulated in float32
// (see pullGS), four at a time to break the dependency chain of the adds.
func (p *prState) pullJacobi(ctx context.Context) ([]float64, error) {
	n, d, base := p.n, p.d, p.base
	off, toff, tnb := p.g.Offsets, p.t.Offsets, p.t.Neighbors
	rank := make([]float64, n)
	contrib, nextContrib := make([]float32, n), make([]float32, n)
	dangling, _, _ := p.startRanks(rank, contrib)
	params := p.Req.Params
	for iter := 0; iter < params.MaxIter; iter++ {
		if err := p.ctxErr(ctx); err != nil {
			return nil, err
		}
		start := time.Now()
		c0 := base + d*dangling/float64(n)
		clear(p.cnt)
		p.forRange(n, 4096, 1, func(w, lo, hi int) {
			cur, next := contrib, nextContrib // locals: captured slices would be reloaded every arc
			var change, dang float64
			for u := lo; u < hi; u++ {
				nb := tnb[toff[u]:toff[u+1]]
				var s0, s1, s2, s3 float32
				for len(nb) >= 4 { // (no bounds checks on nb[0..3])
					s0 += cur[nb[0]]
					s1 += cur[nb[1]]
					s2 += cur[nb[2]]
					s3 += cur[nb[3]]
					nb = nb[4:]
				}
				for _, v := range nb {
					s0 += cur[v]
				}
				x := c0 + d*float64((s0+s1)+(s2+s3))
				change += math.Abs(x - rank[u])
				rank[u] = x // only u's owner reads or writes rank[u]; others read contrib
				if deg := off[u+1] - off[u]; deg != 0 {
					next[u] = float32(x / float64(deg))
				} else {
					next[u] = 0
					dang += x
				}
			}
			p.cnt[w].a += change
			p.cnt[w].b += dang
		})
		if p.stopped() {
			return nil, p.ctxErr(ctx)
		}
		change, dang := p.sums()
		dangling = dang
		contrib, nextContrib = nextContrib, contrib
		p.emit(p.record(iter, engine.Pull, change, start))
		if change < params.Tolerance {
			break
		}
	}
	return rank, nil
}

// pushJacobi adds each vertex's contribution into its out-neighbours' sums with atomic float
// adds, then turns the sums into the next ranks.
func (p *prState) pushJacobi(ctx context.Context) ([]float64, error) {
	n, d, base := p.n, p.d, p.base
	off, nb := p.g.Offsets, p.g.Neighbors
	inv := p.inv
	rank := make([]float64, n)
	sums := make([]uint64, n)
	for v := range rank {
		rank[v] = 1 / float64(n)
	}
	params := p.Req.Params
	for iter := 0; iter < params.MaxIter; iter++ {
		if err := p.ctxErr(ctx); err != nil {
			return nil, err
		}
		start := time.Now()
		clear(p.cnt)
		p.forRange(n, 4096, 1, func(w, lo, hi int) {
			dang := 0.0
			for v := lo; v < hi; v++ {
				if inv[v] == 0 {
					dang += rank[v]
					continue
				}
				c := rank[v] * inv[v]
				for _, u := range nb[off[v]:off[v+1]] {
					addF(&sums[u], c)
				}
			}
			p.cnt[w].b += dang
		})
		_, dangling := p.sums()
		spread := d * dangling / float64(n)
		clear(p.cnt)
		p.forRange(n, 1<<14, 1, func(w, lo, hi int) {
			var change float64
			for u := lo; u < hi; u++ {
				x := base + d*math.Float64frombits(sums[u]) + spread
				sums[u] = 0
				change += math.Abs(x - rank[u])
				rank[u] = x
			}
			p.cnt[w].a += change
		})
		if p.stopped() {
			return nil, p.ctxErr(ctx)
		}
		change, _ := p.sums()
		p.emit(p.record(iter, engine.Push, change, start))
		if change < params.Tolerance {
			break
		}
	}
	return rank, nil
}

// residualPush is data-driven PageRank: rounds over the vertices whose residual exceeds eps.
func (p *prState) residualPush(ctx context.Context) ([]float64, error) {
	n, d := p.n, p.d
	off, nb := p.g.Offsets, p.g.Neighbors
	inv := p.inv
	params := p.Req.Params
	eps := params.Tolerance * (1 - d) / float64(n)
	rank := make([]uint64, n)
	res := make([]uint64, n)
	cur, next := newSegQueue(p.Workers, 0), newSegQueue(p.Workers, 0)
	for v := range res {
		res[v] = math.Float64bits(p.base)
	}
	uniform := 0.0 // residual per vertex owed by dangling vertices, not yet added to res
	activateAll := func() {
		cur.reset()
		p.forRange(n, 1<<14, 1, func(w, lo, hi int) {
			for v := lo; v < hi; v++ {
				x := math.Float64frombits(res[v]) + uniform
				res[v] = math.Float64bits(x)
				if x > eps {
					cur.seg[w] = append(cur.seg[w], uint32(v))
				}
			}
		})
		cur.seal()
		uniform = 0
	}
	activateAll()
	cnt := make([]counters, p.Workers)
	for iter := 0; ; iter++ {
		if err := p.ctxErr(ctx); err != nil {
			return nil, err
		}
		if cur.len() == 0 {
			if uniform <= eps {
				break
			}
			activateAll()
			p.emit(engine.Record{Kind: engine.PhaseRecord, Iter: iter, Phase: "spread dangling residual",
				Note: fmt.Sprintf("%d vertices active", cur.len())})
			continue
		}
		if iter >= params.MaxIter*8 {
			break // a cap for pathological inputs; every round moves at least eps per active vertex
		}
		start := time.Now()
		next.reset()
		clear(p.cnt)
		clear(cnt)
		in := cur.len()
		p.forRange(in, 64, 1, func(w, lo, hi int) {
			buf := next.seg[w]
			var moved, dang float64
			var scanned int64
			for lo < hi {
				var items []uint32
				items, lo = cur.piece(lo, hi)
				for _, v := range items {
					r := math.Float64frombits(atomic.SwapUint64(&res[v], 0))
					if r == 0 {
						continue
					}
					addF(&rank[v], r)
					moved += r
					if inv[v] == 0 {
						dang += d * r
						continue
					}
					c := d * r * inv[v]
					s, e := off[v], off[v+1]
					scanned += e - s
					for _, u := range nb[s:e] {
						if old := addF(&res[u], c); old <= eps && old+c > eps {
							buf = append(buf, u)
						}
					}
				}
			}
			next.seg[w] = buf
			p.cnt[w].a += moved
			p.cnt[w].b += dang
			cnt[w].a += scanned
		})
		if p.stopped() {
			return nil, p.ctxErr(ctx)
		}
		moved, dang := p.sums()
		uniform += dang / float64(n)
		scanned := sumCounters(cnt).a
		out := next.seal()
		p.emit(engine.Record{Iter: iter, Direction: engine.Push, Mode: engine.Data, InVertices: int64(in), InEdges: scanned,
			OutVertices: int64(out), EdgesScanned: scanned, Time: time.Since(start),
			Note: fmt.Sprintf("residual moved %.3g", moved)})
		cur, next = next, cur
	}
	// What is left: residuals under eps each, and a uniform share under eps; the share goes
	// straight into the ranks.
	out := bitsFloat(rank)
	for v := range out {
		out[v] += uniform
	}
	return out, nil
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
// Both passes run on the workers.
func (p *prState) startRanks(rank []float64, contrib []float32) (dangling, spread float64, fixed bool) {
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
			rank[v] = x
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
