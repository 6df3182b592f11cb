// Package cpu is gworkbench's parallel Go engine: every algorithm with the schedule knobs a
// CPU can express (direction, driven, frontier, dedup, update, sync, workers, chunk, split).
//
// Each algorithm has a file (bfs.go, sssp.go, cc.go, pr.go, tc.go, bc.go, mis.go, mst.go)
// that resolves its knobs and registers its driver in its init, and its schedule space
// (space.go, registerSpace) for the conformance suite; where an algorithm has several variants
// each has a file of its own (bfs_td.go, sssp_delta.go, pr_pull_gs.go, tc_lower.go, ...). The
// shared machinery is in parallel.go (forRange and forRangeThen: a loop over [0, n) that
// honours workers, chunk and split and notices cancellation per piece; parallel; padded
// per-worker counters; segQueue, a worklist of per-worker segments merged by a prefix sum),
// team.go (the run's workers, kept across its loops) and bitmap.go (atomic bitmaps and
// boolmaps).
// A run stops within a piece of its context's cancellation: loops check Run.stopped per
// piece and ctxErr between iterations.
package cpu
