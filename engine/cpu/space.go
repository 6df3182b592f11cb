package cpu

import "github.com/gworkbench/gworkbench/engine"

var _ engine.Spacer = Engine{}

// spaces lists, per algorithm, the schedule space the CPU engine runs: a union of subspaces,
// each a full cross product (engine.Spacer). Algorithm files add theirs with registerSpace.
var spaces = map[engine.Algorithm][]engine.Subspace{}

func registerSpace(a engine.Algorithm, subs ...engine.Subspace) { spaces[a] = subs }

// engineAxes are the CPU knobs, rotated through every algorithm's combinations by the
// conformance suite: 3 workers on 2 cores exercises uneven splits and preemption.
var engineAxes = []engine.Axis{
	{Knob: "workers", Values: []string{"2", "1", "3"}},
	{Knob: "split", Values: []string{"dynamic", "blocked", "cyclic"}},
	{Knob: "chunk", Values: []string{"auto", "1", "64"}},
}

// Space returns the subspaces of algorithm a, each with the engine knobs added. An algorithm
// without a registered space offers its default schedule with the engine knobs.
func (Engine) Space(a engine.Algorithm) []engine.Subspace {
	subs, ok := spaces[a]
	if !ok {
		subs = []engine.Subspace{{}}
	}
	out := make([]engine.Subspace, len(subs))
	for i, s := range subs {
		out[i] = append(append(engine.Subspace{}, s...), engineAxes...)
	}
	return out
}

func axis(knob string, values ...string) engine.Axis { return engine.Axis{Knob: knob, Values: values} }

func init() {
	registerSpace(engine.BFS,
		engine.Subspace{},
		engine.Subspace{axis("direction", "auto", "push"), axis("driven", "data"),
			axis("frontier", "queue", "bitmap", "boolmap"), axis("update", "rmw")},
		engine.Subspace{axis("direction", "auto", "push"), axis("driven", "data"),
			axis("frontier", "queue", "bitmap", "boolmap"), axis("update", "rw"), axis("dedup", "none", "atomic", "cull")},
		engine.Subspace{axis("direction", "pull"), axis("driven", "data"), axis("frontier", "bitmap", "boolmap")},
		engine.Subspace{axis("direction", "push", "pull", "auto"), axis("driven", "topology"), axis("update", "rmw", "rw")},
		engine.Subspace{axis("direction", "push"), axis("driven", "hybrid"), axis("update", "rmw", "rw"), axis("threshold", "auto", "0.05")},
	)
}

func init() {
	registerSpace(engine.SSSP,
		engine.Subspace{},
		engine.Subspace{axis("method", "deltastep", "nearfar"), axis("driven", "data"), axis("sync", "async", "sync"),
			axis("dedup", "none", "atomic"), axis("delta", "auto", "1", "7", "100")},
		engine.Subspace{axis("direction", "push", "pull"), axis("driven", "topology"), axis("update", "rmw", "rw"), axis("sync", "async", "sync")},
		engine.Subspace{axis("driven", "hybrid"), axis("threshold", "auto", "0.02"), axis("sync", "async", "sync"), axis("dedup", "none", "atomic")},
	)
}

func init() {
	registerSpace(engine.CC,
		engine.Subspace{},
		engine.Subspace{axis("method", "afforest")},
		engine.Subspace{axis("method", "sv"), axis("update", "rmw", "rw")},
		engine.Subspace{axis("method", "labelprop"), axis("direction", "push"), axis("driven", "data", "hybrid"),
			axis("dedup", "none", "atomic"), axis("sync", "async", "sync")},
		engine.Subspace{axis("method", "labelprop"), axis("direction", "push", "pull"), axis("driven", "topology"),
			axis("update", "rmw", "rw"), axis("sync", "async", "sync")},
		engine.Subspace{axis("method", "labelprop"), axis("direction", "pull"), axis("driven", "data"), axis("sync", "async", "sync")},
	)
}

func init() {
	registerSpace(engine.PR,
		engine.Subspace{},
		engine.Subspace{axis("direction", "pull"), axis("driven", "topology"), axis("sync", "async", "sync")},
		engine.Subspace{axis("direction", "push"), axis("driven", "topology"), axis("sync", "sync")},
		engine.Subspace{axis("direction", "push"), axis("driven", "data"), axis("sync", "async")},
	)
}
