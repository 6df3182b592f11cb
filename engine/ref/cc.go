package ref

import (
	"context"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// cc labels every vertex with the smallest vertex id of its (weakly) connected component.
// Approach: union-find with path halving and union by smaller root id, one pass over the arcs
// (direction ignored), then every vertex takes its root. One trace record. O(E α(V)).
func init() { register(engine.CC, cc) }

func cc(ctx context.Context, req *engine.Request, res *engine.Result, emit func(engine.Record)) error {
	g := req.Graph
	start := time.Now()
	n := g.NumVertices()
	parent := graph.NewUnionFind(n) // the root of a set is its smallest vertex
	for v := 0; v < n; v++ {
		if v&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for _, u := range g.Neigh(uint32(v)) {
			parent.Union(uint32(v), u)
		}
	}
	size := make(map[uint32]int64)
	for v := range parent {
		parent[v] = parent.Find(uint32(v))
		size[parent[v]]++
	}
	res.Comp = []uint32(parent)
	res.Summary.Components = int64(len(size))
	for _, s := range size {
		res.Summary.LargestComp = max(res.Summary.LargestComp, s)
	}
	emit(engine.Record{Direction: engine.Push, Mode: engine.Topology, InVertices: int64(n), InEdges: g.NumArcs(),
		EdgesScanned: g.NumArcs(), OutVertices: res.Summary.Components, Time: time.Since(start)})
	return nil
}
