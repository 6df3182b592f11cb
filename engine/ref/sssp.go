package ref

import (
	"container/heap"
	"context"
	"fmt"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// sssp returns the distance of every vertex from src (engine.InfDist where no path reaches).
// Approach: Dijkstra with a binary heap and lazy deletion. An unweighted graph has weight 1
// on every arc; a negative weight is refused. Distances are summed in 64 bits: a distance of
// engine.MaxDist or more does not fit a result and fails the run (engine.ErrDistTooLarge).
// One trace record covers the whole run. O((V + E) log V).
func init() { register(engine.SSSP, sssp) }

type item struct {
	d int64
	v uint32
}

type minHeap []item

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return h[i].d < h[j].d || (h[i].d == h[j].d && h[i].v < h[j].v) }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(item)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func sssp(ctx context.Context, req *engine.Request, res *engine.Result, emit func(engine.Record)) error {
	g := req.Graph
	src, err := engine.ResolveSource(req.Params, g)
	if err != nil {
		return err
	}
	for i, w := range g.Weights {
		if w < 0 {
			return fmt.Errorf("sssp: negative edge weight %d on arc %d", w, i)
		}
	}
	res.Params.Src = int64(src)
	start := time.Now()
	n := g.NumVertices()
	dist := make([]int64, n)
	for i := range dist {
		dist[i] = -1
	}
	done := make([]bool, n)
	h := &minHeap{{0, src}}
	dist[src] = 0
	rec := engine.Record{Direction: engine.Push, Mode: engine.Data, InVertices: 1}
	for steps := 0; h.Len() > 0; steps++ {
		if steps&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		it := heap.Pop(h).(item)
		v := it.v
		if done[v] {
			rec.Duplicates++
			continue
		}
		done[v] = true
		lo, hi := g.Offsets[v], g.Offsets[v+1]
		rec.EdgesScanned += hi - lo
		for i := lo; i < hi; i++ {
			u := g.Neighbors[i]
			w := int64(1)
			if g.Weights != nil {
				w = int64(g.Weights[i])
			}
			if nd := it.d + w; !done[u] && (dist[u] < 0 || nd < dist[u]) {
				dist[u] = nd
				heap.Push(h, item{nd, u})
			}
		}
	}
	out := make([]int32, n)
	for v, d := range dist {
		switch {
		case d < 0:
			out[v] = engine.InfDist
		case d >= int64(engine.MaxDist):
			return engine.ErrDistTooLarge
		default:
			out[v] = int32(d)
		}
		if d >= 0 {
			res.Summary.Reached++
			res.Summary.MaxDist = max(res.Summary.MaxDist, out[v])
		}
	}
	rec.InEdges = rec.EdgesScanned
	rec.OutVertices = res.Summary.Reached
	rec.Time = time.Since(start)
	emit(rec)
	res.Dist = out
	return nil
}
