package cpu

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// PageRank by residual push (driven=data; Gauss-Southwell, as Galois's pagerank-push [1]):
// ranks start at 0 and residuals at (1-d)/V; a vertex whose residual exceeds
// tolerance x (1-d) / V moves it into its rank and pushes d x residual / out-degree to its
// out-neighbours. Dangling residual is pooled and spread over all vertices when it matters.
// The L1 error left is below the tolerance.
//
// [1] Whang, Lenharth, Dhillon, Pingali. Scalable data-driven PageRank: algorithms, system
// issues, and lessons learned. Euro-Par 2015.

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
