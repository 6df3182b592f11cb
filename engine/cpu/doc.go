// Package cpu is gworkbench's parallel Go engine: every algorithm with the schedule knobs a
// CPU can express (direction, driven, frontier, dedup, update, sync, workers, chunk, split).
//
// Each algorithm lives in its own file (bfs.go, sssp.go, cc.go, pr.go, tc.go, bc.go, mis.go,
// mst.go) and registers its driver in that file's init.
package cpu
