package ref

import (
	"context"
	"slices"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// Triangle counting, serially: for every edge {u,v} with u < v, count the common neighbours w
// with w > v, so each triangle u < v < w is counted once. A directed graph is read as its
// underlying undirected simple graph (an arc either way is an edge), as engine/cpu does.

func init() { register(engine.TC, tc) }

func tc(ctx context.Context, req *engine.Request, res *engine.Result, emit func(engine.Record)) error {
	start := time.Now()
	off, nb := undirectedLists(req.Graph)
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

// undirectedLists returns sorted, duplicate-free, self-loop-free neighbour lists of g's
// underlying undirected graph (g itself when it is undirected and clean).
func undirectedLists(g *graph.CSR) ([]int64, []uint32) {
	n := g.NumVertices()
	var gt *graph.CSR
	if g.Directed {
		gt = g.Transpose()
	}
	off := make([]int64, n+1)
	nb := make([]uint32, 0, len(g.Neighbors))
	for v := 0; v < n; v++ {
		start := len(nb)
		nb = append(nb, g.Neigh(uint32(v))...)
		if gt != nil {
			nb = append(nb, gt.Neigh(uint32(v))...)
		}
		list := nb[start:]
		slices.Sort(list)
		list = slices.Compact(list)
		list = slices.DeleteFunc(list, func(u uint32) bool { return u == uint32(v) })
		nb = nb[:start+len(list)]
		off[v+1] = int64(len(nb))
	}
	return off, nb
}
