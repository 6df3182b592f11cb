package cpu

import (
	"context"
	"math"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// PageRank by Jacobi push sweeps (direction=push, driven=topology, sync=sync): each vertex
// adds its contribution to its out-neighbours' next ranks with an atomic float add (a CAS
// on math.Float64bits), then the sums become the next ranks.

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
