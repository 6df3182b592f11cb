package cpu

import (
	"context"
	"math"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// PageRank by Jacobi pull sweeps (direction=pull, sync=sync; GAPBS pr_spmv.cc [1]): every
// vertex pulls the contributions of the previous sweep and writes its own for the next into
// a second array; deterministic.
//
// [1] Beamer, Asanović, Patterson. The GAP benchmark suite. 2015.

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
	dangling, _, _ := startRanks(p, rank, contrib)
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
