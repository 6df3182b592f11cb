//go:build cuda

package gpu

import "github.com/gworkbench/gworkbench/engine"

// What MIS and MST share: a thread per vertex over compacted worklists of the live vertices.

// resolvePerVertex checks and fills the knobs of the algorithms that give each vertex a thread
// and keep their live vertices in compacted queues (mis, mst): data- or topology-driven (data
// by default), a queue, one atomic per compacted vertex, lb=thread, update=rmw. why says what
// the queues hold, for the frontier refusal.
func resolvePerVertex(s *engine.Schedule, alg, why string) error {
	switch {
	case s.Driven == engine.Hybrid:
		return unsupported("%s: driven=hybrid: %s runs data- or topology-driven", alg, alg)
	case s.Frontier != engine.FrontierAuto && s.Frontier != engine.Queue:
		return unsupported("%s: frontier=%s: %s", alg, s.Frontier, why)
	case s.PushAgg != engine.AggAuto:
		return unsupported("%s: push_agg=%s: the worklists are compacted with one atomic per vertex", alg, s.PushAgg)
	case s.LB != engine.LBAuto && s.LB != engine.LBThread:
		return unsupported("%s: lb=%s: %s gives each vertex a thread (lb=thread)", alg, s.LB, alg)
	}
	if s.Driven == engine.DrivenAuto {
		s.Driven = engine.Data
	}
	if s.Driven == engine.Data {
		s.Frontier = engine.Queue
	}
	if s.Update == engine.UpdateAuto {
		s.Update = engine.RMW
	}
	s.LB = engine.LBThread
	return nil
}

// perVertexGrid is the grid of a thread-per-vertex launch: over the items of a worklist when
// data-driven, over all n vertices when topology-driven.
func perVertexGrid(data bool, items, n int64) int {
	if !data {
		return blocks(n, block)
	}
	return blocks(max(items, 1), block)
}
