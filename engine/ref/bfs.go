package ref

import (
	"context"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// bfs returns the depth of every vertex from src (engine.UnreachedDepth where no path
// reaches). Approach: the textbook FIFO queue, processed level by level so that each level
// becomes one trace record. O(V + E).
func init() { register(engine.BFS, bfs) }

func bfs(ctx context.Context, req *engine.Request, res *engine.Result, emit func(engine.Record)) error {
	g := req.Graph
	src, err := engine.ResolveSource(req.Params, g)
	if err != nil {
		return err
	}
	res.Params.Src = int64(src)
	depth := make([]int32, g.NumVertices())
	for i := range depth {
		depth[i] = engine.UnreachedDepth
	}
	depth[src] = 0
	front := []uint32{src}
	var next []uint32
	reached := int64(1)
	for level := int32(0); len(front) > 0; level++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		rec := engine.Record{Iter: int(level), Direction: engine.Push, Mode: engine.Data, InVertices: int64(len(front))}
		next = next[:0]
		for _, v := range front {
			nb := g.Neigh(v)
			rec.InEdges += int64(len(nb))
			for _, u := range nb {
				if depth[u] == engine.UnreachedDepth {
					depth[u] = level + 1
					next = append(next, u)
				}
			}
		}
		rec.EdgesScanned = rec.InEdges
		rec.OutVertices = int64(len(next))
		rec.Time = time.Since(start)
		emit(rec)
		reached += int64(len(next))
		if len(next) > 0 {
			res.Summary.MaxDepth = level + 1
		}
		front, next = next, front
	}
	res.Depth = depth
	res.Summary.Reached = reached
	return nil
}
