package ref

import (
	"context"
	"slices"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// Minimum spanning forest, serially: Kruskal. Every arc is an undirected edge (also on a
// directed graph); an unweighted graph weighs every edge 1. Arcs are sorted by
// engine.MSTKey (weight, lower endpoint, higher endpoint, then arc index) and taken when they
// join two trees of a union-find. Result.Forest lists the taken arcs, ascending.

func init() { register(engine.MST, mst) }

func mst(ctx context.Context, req *engine.Request, res *engine.Result, emit func(engine.Record)) error {
	start := time.Now()
	g := req.Graph
	n := g.NumVertices()
	type arc struct {
		key engine.MSTKey
		a   int64
	}
	arcs := make([]arc, 0, g.NumArcs())
	for u := 0; u < n; u++ {
		for a := g.Offsets[u]; a < g.Offsets[u+1]; a++ {
			if g.Neighbors[a] != uint32(u) {
				arcs = append(arcs, arc{engine.ArcKey(g, uint32(u), a), a})
			}
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	slices.SortFunc(arcs, func(x, y arc) int {
		switch {
		case x.key.Less(y.key):
			return -1
		case y.key.Less(x.key):
			return 1
		}
		return int(x.a - y.a)
	})
	sets := graph.NewUnionFind(n)
	forest := []int64{}
	var total int64
	for i, e := range arcs {
		if i%65536 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if sets.Union(e.key.Lo, e.key.Hi) {
			forest = append(forest, e.a)
			total += int64(e.key.W)
		}
	}
	slices.Sort(forest)
	res.Forest = forest
	res.Summary.TotalWeight = total
	res.Summary.ForestEdges = int64(len(forest))
	res.Summary.Components = int64(n - len(forest))
	note := "Kruskal over arcs sorted by (weight, min(u,v), max(u,v))"
	if g.Weights == nil {
		note += "; unweighted graph: every edge weighs 1"
	}
	emit(engine.Record{Kind: engine.PhaseRecord, Phase: "kruskal", Note: note})
	emit(engine.Record{Phase: "kruskal", Mode: engine.Topology, Direction: engine.Push, InVertices: int64(n), InEdges: g.NumArcs(),
		OutVertices: int64(len(forest)), EdgesScanned: int64(len(arcs)), Time: time.Since(start)})
	return nil
}
