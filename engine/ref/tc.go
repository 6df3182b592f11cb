package ref

import (
	"context"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// Triangle counting, serially: for every edge {u,v} with u < v, count the common neighbours w
// with w > v, so each triangle u < v < w is counted once. A directed graph is read as its
// underlying undirected simple graph (an arc either way is an edge), as engine/cpu does.

func init() { register(engine.TC, tc) }

func tc(ctx context.Context, req *engine.Request, res *engine.Result, emit func(engine.Record)) error {
	start := time.Now()
	u := req.Graph.Undirected() // sorted, simple lists; an arc either way is an edge
	off, nb := u.Offsets, u.Neighbors
	n := len(off) - 1
	var total uint64
	var scanned int64
	for u := 0; u < n; u++ {
		if u%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		nu := nb[off[u]:off[u+1]]
		for i, v := range nu {
			if int(v) <= u {
				continue
			}
			a, b := nu[i+1:], nb[off[v]:off[v+1]]
			scanned += int64(len(a) + len(b))
			for len(a) > 0 && len(b) > 0 { // merge: count a ∩ b (all above v)
				switch {
				case a[0] < b[0]:
					a = a[1:]
				case a[0] > b[0]:
					b = b[1:]
				default:
					total++
					a, b = a[1:], b[1:]
				}
			}
		}
	}
	res.Triangles = total
	res.Summary.Triangles = total
	emit(engine.Record{Kind: engine.PhaseRecord, Phase: "count", Note: "serial merge count over u < v < w"})
	emit(engine.Record{Phase: "count", Mode: engine.Topology, Direction: engine.Push, InVertices: int64(n),
		InEdges: int64(len(nb)), EdgesScanned: scanned, Time: time.Since(start)})
	return nil
}
