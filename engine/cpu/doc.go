// Package cpu is gworkbench's parallel Go engine: every algorithm with the schedule knobs a
// CPU can express (direction, driven, frontier, dedup, update, sync, workers, chunk, split).
//
// Each algorithm lives in its own file (bfs.go, sssp.go, cc.go, pr.go, tc.go, bc.go, mis.go,
// mst.go) and registers its driver in that file's init, and its schedule space (space.go,
// registerSpace) for the conformance suite. The shared machinery is in parallel.go
// (forRange and forRangeThen: a loop over [0, n) that honours workers, chunk and split and
// notices cancellation per piece; parallel; padded per-worker counters; segQueue, a worklist
// of per-worker segments merged by a prefix sum) and bitmap.go (atomic bitmaps and boolmaps).
// A run stops within a piece of its context's cancellation: loops check Run.stopped per
// piece and ctxErr between iterations.
package cpu
