//go:build cuda

package gpu

import "github.com/gworkbench/gworkbench/engine"

// Space lists the schedules the GPU engine runs, for the conformance suite (engine.Spacer).
func (*Engine) Space(a engine.Algorithm) []engine.Subspace {
	return spaces[a]
}

func axis(knob string, values ...string) engine.Axis { return engine.Axis{Knob: knob, Values: values} }

var allLB = axis("lb", "thread", "warp", "cta", "twc", "edge", "coo")

// travLB is allLB plus lb=etwc, which BFS and SSSP implement.
var travLB = axis("lb", "thread", "warp", "cta", "twc", "edge", "coo", "etwc")

// fusedLB lists the strategies the fused loops take.
var fusedLB = axis("lb", "thread", "warp", "cta", "twc", "np", "etwc")

var spaces = map[engine.Algorithm][]engine.Subspace{
	engine.BFS: {
		{},
		{axis("direction", "push", "pull", "auto"), axis("driven", "data"), axis("frontier", "queue", "bitmap", "boolmap"), axis("fuse", "off"), travLB},
		{axis("direction", "push"), axis("driven", "data"), axis("update", "rmw", "rw"),
			axis("dedup", "none", "atomic", "cull"), axis("push_agg", "atomic", "warp", "block")},
		{axis("direction", "push", "pull"), axis("driven", "topology"), axis("update", "rmw", "rw"), axis("sync", "async", "sync"),
			axis("lb", "thread", "twc", "edge", "coo")},
		{axis("direction", "push", "auto"), axis("driven", "hybrid"), axis("threshold", "auto", "0.05"), axis("sync", "async", "sync")},
		{axis("direction", "auto"), axis("alpha", "2", "50"), axis("beta", "2", "50")},
		{axis("fuse", "on"), axis("direction", "push", "auto"), fusedLB, axis("update", "rmw", "rw"), axis("sync", "async", "sync")},
		{axis("fuse", "on"), axis("direction", "push", "auto"), axis("dedup", "none", "atomic", "cull"), axis("push_agg", "atomic", "warp", "block")},
		{axis("fuse", "on"), axis("direction", "auto"), axis("alpha", "2", "50"), axis("beta", "2", "50")},
		// fuse=block: one block while the frontier is small, the grid (each lb) when it grows
		{axis("fuse", "block"), fusedLB, axis("update", "rmw", "rw")},
		{axis("fuse", "block"), axis("dedup", "none", "atomic", "cull")},
		{axis("lb", "np"), axis("np", "auto", "tb+warp", "warp+fg", "tb+fg", "fg", "tb", "warp"), axis("direction", "push", "pull", "auto")},
		// method=async: ranges in shared memory, relaxed in windows of 256 levels
		{axis("method", "async"), axis("direction", "auto", "push")},
	},
	engine.SSSP: {
		{},
		{axis("direction", "push", "pull"), axis("frontier", "queue", "bitmap", "boolmap"), travLB},
		{axis("direction", "push"), axis("update", "rmw", "rw"), axis("dedup", "none", "atomic", "cull"), axis("push_agg", "atomic", "warp", "block")},
		{axis("delta", "1", "7", "100000"), axis("frontier", "queue", "bitmap")},
		{axis("direction", "push", "pull"), axis("driven", "topology"), axis("update", "rmw", "rw"), axis("sync", "async", "sync")},
		{axis("driven", "hybrid"), axis("threshold", "auto", "0.05"), axis("sync", "async", "sync")},
		{axis("fuse", "on"), fusedLB, axis("delta", "1", "100000"), axis("update", "rmw", "rw")},
		{axis("fuse", "on"), axis("dedup", "none", "atomic", "cull"), axis("push_agg", "atomic", "warp", "block"), axis("sync", "async", "sync")},
		{axis("fuse", "block"), fusedLB, axis("delta", "1", "100000"), axis("update", "rmw", "rw")},
		{axis("fuse", "block"), axis("dedup", "none", "atomic", "cull")},
		// fuse=tail: host-driven steps, then the loop in one launch once the frontier shrinks
		{axis("fuse", "tail"), fusedLB, axis("delta", "1", "100000"), axis("update", "rmw", "rw")},
		{axis("fuse", "tail"), axis("dedup", "none", "atomic", "cull"), axis("push_agg", "atomic", "warp", "block"), axis("sync", "async", "sync")},
		{axis("lb", "np"), axis("np", "auto", "tb+warp", "warp+fg", "fg"), axis("direction", "push", "pull")},
		// method=async: windows of delta (7: past the trace's rows on the weighted graphs)
		{axis("method", "async"), axis("delta", "auto", "7", "100000")},
	},
	engine.CC: {
		{},
		{axis("method", "sv", "afforest"), allLB},
		{axis("method", "sv", "afforest", "labelprop"), axis("lb", "np"), axis("np", "auto", "fg", "tb+warp")},
		{axis("method", "labelprop"), axis("direction", "push", "pull"), axis("frontier", "queue", "bitmap", "boolmap"), allLB},
		{axis("direction", "push"), axis("update", "rmw", "rw"), axis("dedup", "none", "atomic", "cull"), axis("push_agg", "atomic", "warp", "block")},
		{axis("direction", "push", "pull"), axis("driven", "topology", "hybrid"), axis("update", "rmw", "rw"), axis("sync", "async", "sync")},
		// fuse=on: Shiloach-Vishkin's rounds in one cooperative launch (method auto resolves to sv)
		{axis("fuse", "on"), axis("method", "auto", "sv"), axis("lb", "thread", "warp", "cta", "twc")},
		// ECL-CC: hooking by degree buckets (auto picks it on sparse graphs)
		{axis("method", "ecl"), axis("fuse", "on", "off")},
	},
	engine.PR: {
		{},
		{axis("direction", "pull"), axis("driven", "topology"), axis("sync", "sync", "async"), axis("lb", "thread", "warp", "cta", "twc")},
		{axis("direction", "pull"), axis("driven", "topology"), axis("sync", "sync"), axis("lb", "edge", "coo")},
		// pull lb=edge: a warp per tile of 8 vertices writes each vertex once, so Gauss-Seidel too
		{axis("direction", "pull"), axis("driven", "topology"), axis("sync", "async"), axis("lb", "edge")},
		{axis("direction", "push"), axis("driven", "topology"), axis("sync", "sync"), allLB},
		{axis("driven", "data"), allLB},
		{axis("lb", "np"), axis("np", "auto", "fg"), axis("direction", "push", "pull")},
		{axis("lb", "np"), axis("driven", "data")},
		// blocking=N (EdgeBlocking): 64 cuts the small graphs into many segments (one atomic
		// launch per sweep past 64 segments), 4096 into a few (a launch per segment)
		{axis("direction", "pull"), axis("driven", "topology"), axis("sync", "sync"), axis("lb", "thread", "warp", "cta", "twc"), axis("blocking", "64", "4096")},
		{axis("blocking", "auto", "off", "64", "4096")},
		// fuse=on: the sweep loop and its convergence test in one cooperative launch
		{axis("fuse", "on"), axis("sync", "sync", "async"), axis("lb", "thread", "warp", "cta", "twc", "edge")},
		{axis("fuse", "on"), axis("blocking", "64", "4096"), axis("lb", "thread", "twc")},
		// blocking=N lb=edge: the tiled pull (blocks own destination ranges, sums in shared
		// memory, source segments in order), Jacobi and Gauss-Seidel, unfused and fused
		{axis("direction", "pull"), axis("driven", "topology"), axis("lb", "edge"), axis("blocking", "64", "4096"),
			axis("sync", "sync", "async"), axis("fuse", "off", "on")},
		// direction=push blocking=N: the binned push (bins of N destinations summed in shared
		// memory, each bin's edges in source order), unfused and fused; 7 cuts the graphs into
		// many bins, so a block's run of groups crosses bins
		{axis("direction", "push"), axis("driven", "topology"), axis("lb", "auto", "edge"), axis("blocking", "7", "64", "4096"), axis("fuse", "off", "on")},
		// method=binned|dpb: the binned push by name, and its staged form (deterministic
		// propagation blocking: a binning pass writes the terms in bin order); bins of 7 and
		// chunks of 16384 sources cut the graphs into many pieces
		{axis("method", "binned", "dpb"), axis("blocking", "auto", "7", "4096")},
		{axis("method", "dpb"), axis("direction", "push", "auto"), axis("lb", "auto", "edge"), axis("fuse", "auto", "off")},
	},
	engine.TC: {
		{},
		{axis("order", "degree", "id", "none"), axis("intersect", "merge", "binary", "hash"), axis("relabel", "off"), axis("lb", "vertex", "edge")},
		{axis("order", "degree"), axis("relabel", "on", "auto"), axis("intersect", "merge", "binary", "hash"), axis("lb", "vertex", "edge")},
		// lb=thread: in place, id order (auto on road networks)
		{axis("lb", "thread"), axis("order", "auto", "id")},
	},
	engine.BC: {
		{},
		{axis("direction", "push", "pull", "auto"), axis("driven", "data", "topology"), axis("lb", "thread", "warp"), axis("fuse", "off")},
		{axis("direction", "push", "pull", "auto"), axis("lb", "thread", "warp", "cta", "twc"), axis("fuse", "on")},
		{axis("alpha", "1", "50"), axis("beta", "2", "50"), axis("lb", "thread", "warp", "twc")},
		{axis("batch", "1", "2", "32")},
	},
	engine.MIS: {
		{},
		{axis("method", "luby", "ecl")},
		{axis("method", "ecl"), axis("fuse", "on")},
		{axis("direction", "push", "pull"), axis("driven", "data", "topology"), axis("sync", "sync", "async")},
	},
	engine.MST: {
		{},
		// method=ecl is auto's choice on an undirected graph (a directed one has none)
		{axis("method", "boruvka")},
		{axis("driven", "data", "topology")},
	},
}
