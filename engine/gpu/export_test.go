//go:build cuda

package gpu

import "github.com/gworkbench/gworkbench/engine"

// SetPoison sets whether the runs of e (the GPU engine) start every per-vertex value buffer
// filled with 0xA5 bytes instead of zeros (Engine.poison), and returns the previous setting.
func SetPoison(e engine.Engine, on bool) bool {
	g := e.(*Engine)
	was := g.poison
	g.poison = on
	return was
}

// SetMSTECL sets the rounds the GPU engine's method=ecl MST launches between read-backs (look)
// and the worklist size at which fuse=auto hands the rounds left to one cooperative launch
// (tail, -1: never); zero restores the defaults.
func SetMSTECL(e engine.Engine, look int, tail int64) {
	g := e.(*Engine)
	g.mstLook, g.mstTail = look, tail
}

// SetWide sets whether the GPU engine's ECL kernels take 64-bit offsets on every graph, and
// returns the previous setting.
func SetWide(e engine.Engine, on bool) bool {
	g := e.(*Engine)
	was := g.wide
	g.wide = on
	return was
}

// SetBCRanks sets whether the fused BC's big backward levels add into a dense array at their
// predecessors' ranks on every graph (Engine.bcRanks), and returns the previous setting.
func SetBCRanks(e engine.Engine, on bool) bool {
	g := e.(*Engine)
	was := g.bcRanks
	g.bcRanks = on
	return was
}

// SetBlockMax sets the largest frontier fuse=block's one-block loop runs (blockMax), and
// returns the previous value: a small one makes the block and the grid hand the loop back
// and forth on small graphs.
func SetBlockMax(n int64) int64 {
	was := blockMax
	blockMax = n
	return was
}

// SetSSSPBigStep sets the fewest edges of a host-driven SSSP push step that lb=auto runs
// edge-balanced on skewed degrees (ssspBigStep), and returns the previous setting.
func SetSSSPBigStep(n int64) int64 {
	was := ssspBigStep
	ssspBigStep = n
	return was
}
