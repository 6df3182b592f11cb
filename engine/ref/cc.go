package ref

import (
	"context"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// cc labels every vertex with the smallest vertex id of its (weakly) connected component.
// Approach: union-find with path halving and union by smaller root id, one pass over the arcs
// (direction ignored), then every vertex takes its root. One trace record. O(E α(V)).
func init() { register(engine.CC, cc) }

func cc(ctx context.Context, req *engine.Request, res *engine.Result, emit func(engine.Record)) error {
	g := req.Graph
	start := time.Now()
	n := g.NumVertices()
	parent := make([]uint32, n)
	for i := range parent {
		parent[i] = uint32(i)
	}
	find := func(x uint32) uint32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for v := 0; v < n; v++ {
		if v&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for _, u := range g.Neigh(uint32(v)) {
			a, b := find(uint32(v)), find(u)
			if a < b {
				parent[b] = a
			} else if b < a {
				parent[a] = b
			}
		}
	}
	size := make(map[uint32]int64)
	for v := range parent {
		parent[v] = find(uint32(v))
		size[parent[v]]++
	}
	res.Comp = parent
	res.Summary.Components = int64(len(size))
	for _, s := range size {
		res.Summary.LargestComp = max(res.Summary.LargestComp, s)
	}
	emit(engine.Record{Direction: engine.Push, Mode: engine.Topology, InVertices: int64(n), InEdges: g.NumArcs(),
		EdgesScanned: g.NumArcs(), OutVertices: res.Summary.Components, Time: time.Since(start)})
	return nil
}
