package ref

import (
	"context"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// Betweenness centrality, serially: Brandes (2001). From each source (engine.BCSources), a BFS
// counts shortest paths sigma and records the vertices in visiting order; then, in reverse
// order, each vertex v gathers its dependency delta[v] = sum over successors w (out-neighbours
// one level deeper) of sigma[v]/sigma[w] * (1 + delta[w]). The centrality is the sum of the
// dependencies over the sources (the source itself excluded), halved on an undirected graph
// because each path is then found from both ends. Arcs are followed forward.

func init() { register(engine.BC, bc) }

// bcDetailed is how many sources get one trace record per level; later sources get one per phase.
const bcDetailed = 16

func bc(ctx context.Context, req *engine.Request, res *engine.Result, emit func(engine.Record)) error {
	g := req.Graph
	srcs, err := engine.BCSources(req.Params, g)
	if err != nil {
		return err
	}
	if req.Params.Sources == 0 || req.Params.Src < 0 {
		res.Params.Src = int64(srcs[0]) // the source; with sampled sources, the first (src is unused)
	}
	n := g.NumVertices()
	cent := make([]float64, n)
	depth := make([]int32, n)
	sigma := make([]float64, n)
	delta := make([]float64, n)
	order := make([]uint32, 0, n)
	iter := 0
	for si, s := range srcs {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		detailed := si < bcDetailed
		for v := range depth {
			depth[v], sigma[v], delta[v] = -1, 0, 0
		}
		// Forward: BFS with path counts, one level at a time.
		note := ""
		if si == 0 {
			note = engine.BCSourcesNote(req.Params, srcs, g.IDs) + "; "
		}
		emit(engine.Record{Kind: engine.PhaseRecord, Iter: iter, Phase: "forward", Note: note + "BFS from " + g.IDs.Text(s) + " counting shortest paths"})
		depth[s], sigma[s] = 0, 1
		order = append(order[:0], s)
		levels := []int{0, 1}
		var phaseStart = time.Now()
		var phaseEdges int64
		for d := int32(0); levels[d] < levels[d+1]; d++ {
			t := time.Now()
			var scanned, inEdges int64
			for _, u := range order[levels[d]:levels[d+1]] {
				inEdges += g.Degree(u)
				for _, v := range g.Neigh(u) {
					scanned++
					if depth[v] < 0 {
						depth[v] = d + 1
						order = append(order, v)
					}
					if depth[v] == d+1 {
						sigma[v] += sigma[u]
					}
				}
			}
			levels = append(levels, len(order))
			phaseEdges += scanned
			if detailed {
				emit(engine.Record{Iter: iter, Phase: "forward", Direction: engine.Push, Mode: engine.Data,
					InVertices: int64(levels[d+1] - levels[d]), InEdges: inEdges, OutVertices: int64(levels[d+2] - levels[d+1]),
					EdgesScanned: scanned, Time: time.Since(t)})
				iter++
			}
		}
		if !detailed {
			emit(engine.Record{Iter: iter, Phase: "forward", Direction: engine.Push, Mode: engine.Data, InVertices: int64(len(order)),
				EdgesScanned: phaseEdges, Time: time.Since(phaseStart), Note: "whole phase"})
			iter++
		}
		if si == 0 {
			res.Summary.Reached = int64(len(order))
		}
		// Backward: dependencies, deepest level first.
		emit(engine.Record{Kind: engine.PhaseRecord, Iter: iter, Phase: "backward", Note: "dependency accumulation over the stored levels"})
		phaseStart, phaseEdges = time.Now(), 0
		for d := len(levels) - 3; d >= 0; d-- {
			t := time.Now()
			var scanned int64
			for _, v := range order[levels[d]:levels[d+1]] {
				for _, w := range g.Neigh(v) {
					scanned++
					if depth[w] == int32(d)+1 {
						delta[v] += sigma[v] / sigma[w] * (1 + delta[w])
					}
				}
				if v != s {
					cent[v] += delta[v]
				}
			}
			phaseEdges += scanned
			if detailed {
				emit(engine.Record{Iter: iter, Phase: "backward", Direction: engine.Pull, Mode: engine.Data,
					InVertices: int64(levels[d+1] - levels[d]), EdgesScanned: scanned, Time: time.Since(t)})
				iter++
			}
		}
		if !detailed {
			emit(engine.Record{Iter: iter, Phase: "backward", Direction: engine.Pull, Mode: engine.Data, InVertices: int64(len(order)),
				EdgesScanned: phaseEdges, Time: time.Since(phaseStart), Note: "whole phase"})
			iter++
		}
	}
	if !g.Directed {
		for v := range cent {
			cent[v] /= 2
		}
	}
	res.Centrality = cent
	return nil
}
