package ref

import (
	"context"
	"math"
	"strconv"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// pr returns the PageRank of every vertex. Approach: power iteration (Jacobi), pulling over
// in-edges: rank'[u] = (1-d)/V + d * (sum over in-neighbours v of rank[v]/outdeg(v) + D/V),
// where D is the rank held by dangling vertices (out-degree 0), spread uniformly so the ranks
// keep summing to 1. It stops when the L1 change of one iteration is below tolerance (as
// GAPBS's pr.cc) or after max_iter iterations. One trace record per iteration. O(iter * E).
func init() { register(engine.PR, pr) }

func pr(ctx context.Context, req *engine.Request, res *engine.Result, emit func(engine.Record)) error {
	g := req.Graph
	t := g.Transpose()
	n := g.NumVertices()
	p := req.Params
	d := p.Damping
	rank := make([]float64, n)
	next := make([]float64, n)
	contrib := make([]float64, n)
	for i := range rank {
		rank[i] = 1 / float64(n)
	}
	base := (1 - d) / float64(n)
	for iter := 0; iter < p.MaxIter; iter++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		dangling := 0.0
		for v := 0; v < n; v++ {
			if deg := g.Degree(uint32(v)); deg > 0 {
				contrib[v] = rank[v] / float64(deg)
			} else {
				contrib[v] = 0
				dangling += rank[v]
			}
		}
		change := 0.0
		for u := 0; u < n; u++ {
			sum := 0.0
			for _, v := range t.Neigh(uint32(u)) {
				sum += contrib[v]
			}
			next[u] = base + d*(sum+dangling/float64(n))
			change += math.Abs(next[u] - rank[u])
		}
		rank, next = next, rank
		emit(engine.Record{Iter: iter, Direction: engine.Pull, Mode: engine.Topology, InVertices: int64(n),
			InEdges: g.NumArcs(), EdgesScanned: g.NumArcs(), OutVertices: int64(n), Time: time.Since(start),
			Note: "L1 change " + strconv.FormatFloat(change, 'g', 3, 64)})
		if change < p.Tolerance {
			break
		}
	}
	res.Rank = rank
	for _, r := range rank {
		res.Summary.RankSum += r
	}
	return nil
}
