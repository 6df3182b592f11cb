package ref

import (
	"context"
	"slices"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// Maximal independent set, serially: visit the vertices in decreasing priority
// (engine.MISPriority of seed; with method=ecl, engine.MISDegreePriority) and take each one that
// has no neighbour taken yet. This greedy set is the one Luby's algorithm (and ECL-MIS's in-place
// decisions) reach with the same fixed priorities, so every engine's MIS equals it for the same
// seed and rule. Arcs count in both directions; self-loops are ignored.

func init() { register(engine.MIS, mis) }

func mis(ctx context.Context, req *engine.Request, res *engine.Result, emit func(engine.Record)) error {
	start := time.Now()
	g := req.Graph
	u := g.Undirected()
	off, nb := u.Offsets, u.Neighbors
	n := g.NumVertices()
	order := make([]uint32, n)
	for v := range order {
		order[v] = uint32(v)
	}
	seed := req.Params.Seed
	prio := make([]uint64, n)
	if req.Schedule.Method == engine.ECL {
		res.Schedule = engine.Schedule{Method: engine.ECL} // the greedy pass is ECL-MIS's order, decided serially
		deg, avg16 := engine.MISDegrees(g), engine.MISAvg16(g)
		for v := range prio {
			prio[v] = engine.MISDegreePriority(seed, uint32(v), deg[v], avg16)
		}
	} else {
		for v := range prio {
			prio[v] = engine.MISPriority(seed, uint32(v))
		}
	}
	slices.SortFunc(order, func(a, b uint32) int {
		pa, pb := prio[a], prio[b]
		switch {
		case pa > pb:
			return -1
		case pa < pb:
			return 1
		}
		return 0
	})
	in := make([]bool, n)
	var scanned, size int64
	for i, v := range order {
		if i%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		free := true
		for _, u := range nb[off[v]:off[v+1]] {
			scanned++
			if in[u] {
				free = false
				break
			}
		}
		if free {
			in[v] = true
			size++
		}
	}
	res.InSet = in
	res.Summary.SetSize = size
	emit(engine.Record{Kind: engine.PhaseRecord, Phase: "greedy", Note: "serial greedy in decreasing priority (the set Luby's rounds reach)"})
	emit(engine.Record{Phase: "greedy", Mode: engine.Topology, Direction: engine.Pull, InVertices: int64(n), InEdges: int64(len(nb)),
		OutVertices: size, EdgesScanned: scanned, Time: time.Since(start)})
	return nil
}
