package cpu

import (
	"context"
	"math"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
)

// PageRank by Gauss-Seidel pull sweeps (direction=pull, driven=topology, sync=async: the
// default; GAPBS pr.cc [1]): each vertex sums its in-neighbours' contributions and publishes
// its own new contribution at once, so later vertices of the same sweep read it. Converges in
// fewer sweeps than Jacobi; the ranks are projected back to sum 1 after each sweep (see
// pullGS).
//
// [1] Beamer, Asanović, Patterson. The GAP benchmark suite. 2015.

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
