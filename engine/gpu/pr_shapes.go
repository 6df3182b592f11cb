//go:build cuda

package gpu

import "github.com/gworkbench/gworkbench/engine"

// The launch shapes of PageRank's sweeps: the tiled pull's and the binned push's blocks and
// shared memory, and the grids of the pull sweeps. docs/gpu-notes.md records the measurements
// the constants come from.

// The tiled pull's limits (kernels/pr.cu TP_THREADS, TP_SEGQ): its block size, its most
// sources a segment (TP_SEGQ x 4 x TP_THREADS) and destinations a range (their double sums and
// the segment share the SM's shared memory).
const (
	tpThreads    = 1024
	tpSegMax     = 4 * 4 * tpThreads
	tpRMaxStaged = 8192
)

// tiledShape is the launch and layout of a sweep that stages its data in shared memory (the
// tiled pull, the binned push): sources a segment or destinations a bin (size), destinations a
// range (rng, the tiled pull), grid, block size and dynamic shared memory.
type tiledShape struct {
	size, rng            int
	grid, threads, shmem int
}

// prTiledShape is the tiled pull's shape for blocking=N on this device (blocking=N lb=edge:
// one block of tpThreads per SM copies each source segment into shared memory, pr_tspull and
// pr_fused_stiled). The grid covers the vertices in one wave, each block's range a 1/SMs share
// of the vertices (at most tpRMaxStaged), the segment N rounded up to a multiple of 4 (aligned
// float4 copies), at most tpSegMax.
func prTiledShape(r *run, blocking int) tiledShape {
	rng := (r.n + r.dev.sms - 1) / r.dev.sms
	rng = min(max((rng+31)&^31, 32), tpRMaxStaged)
	size := max(min((blocking+3)&^3, tpSegMax), 4)
	return tiledShape{size: size, rng: rng, grid: r.dev.sms, threads: tpThreads, shmem: rng*8 + size*4}
}

// pbThreads is the binned push's block size (kernels/pr.cu PB_THREADS).
const pbThreads = 1024

// prBinShape is the binned push's launch (direction=push blocking=N): one block of pbThreads
// per SM, each bin's sums (two 32-bit words a destination) in its dynamic shared memory, so a
// bin holds N destinations, at most what the device's shared memory and the slot packing
// (pbPad) allow.
func prBinShape(r *run, blocking int) tiledShape {
	size := max(min(blocking, (r.dev.shOptin-1024)/8, pbPad-1), 1)
	return tiledShape{size: size, grid: r.dev.sms, threads: pbThreads, shmem: size * 8}
}

// prDPBBin is the most destinations a bin of method=dpb holds on this device: what the shared
// memory of one block allows (8 bytes a destination), below the slots' pad (dpbPad). Bins as
// large as that write the fewest pairs (a source's arcs into one bin share one term).
func prDPBBin(r *run) int { return max(min((r.dev.shOptin-1024)/8, dpbPad-1), 1) }

// prDPBChunk is the most sources a binning block of method=dpb takes on this device: dpbChunk,
// or fewer where the shared memory of one block holds fewer terms (4 bytes each), a multiple of
// 1024.
func prDPBChunk(r *run) int { return max(min(dpbChunk, (r.dev.shOptin-1024)/4&^1023), 1024) }

// prDPBShapes are method=dpb's launches for bins of blocking destinations: the binning pass
// (kernels/pr.cu pr_dpb_bin: a block of dpbThreads per chunk of prDPBChunk sources, their terms
// in shared memory) and the accumulation (pr_dpb_sum, as prBinShape).
func prDPBShapes(r *run, blocking int) (bin, sum tiledShape) {
	size := max(min(blocking, prDPBBin(r)), 1)
	chunk := prDPBChunk(r)
	chunks := (r.n + chunk - 1) / chunk
	bin = tiledShape{size: chunk, grid: max(min(chunks, maxGrid), 1), threads: dpbThreads, shmem: chunk * 4}
	sum = tiledShape{size: size, grid: r.dev.sms, threads: pbThreads, shmem: size * 8}
	return bin, sum
}

// dpbThreads is the binning pass's block size (kernels/pr.cu DPB_THREADS).
const dpbThreads = 1024

// binArgs points a at the binned layout.
func binArgs(a *kargs, blk *blockedCSR) {
	a.off, a.inQ, a.nbr, a.bound, a.rowsPerBlock = blk.off.addr(), blk.rows.addr(), blk.nbr.addr(), int64(blk.segs), int64(blk.size)
}

// tiledArgs points a sweep's arguments at the tiled layout (kernels/pr.cu tspull_sweep): off
// the tiles' first edges, nbr the packed edges, bound the segments, delta their size,
// rowsPerBlock the range.
func tiledArgs(a *kargs, blk *blockedCSR) {
	a.off, a.nbr, a.m = blk.off.addr(), blk.nbr.addr(), blk.segEdges[1]
	a.bound, a.delta, a.rowsPerBlock = int64(blk.segs), int64(blk.size), int64(blk.rng)
}

// prBlocksPerSM caps the grid of a pull sweep with a warp or a block per vertex at this many
// blocks per multiprocessor. Each block of a sweep adds its share of the L1 change to one
// counter with one atomic after a block reduction, and a warp-per-vertex sweep of a million
// vertices would launch 131,072 blocks of 8 vertices; the kernels loop grid-stride, so any
// grid is correct. lb=twc's grid (a block per 256 vertices or entries) is not capped: capping
// it lost.
const prBlocksPerSM = 16

// prEdgeTile is pull lb=edge's tile: a warp per tile of 8 vertices (kernels/pr.cu pull_tile).
const prEdgeTile = 8

// prEdgeGSPerSM caps a Gauss-Seidel lb=edge sweep's grid (unfused, or the fused cooperative
// one) at this many blocks of 256 threads per multiprocessor. A Gauss-Seidel sweep converges
// faster the more of its gathers see ranks already updated in the sweep, and every vertex of
// a tile in flight still shows its old rank: with 1 or 2 blocks per SM urand converges in a
// sweep fewer than with the grid full (as fast as a warp per vertex), and 2 blocks keep the
// gathers as fast as a full grid.
const prEdgeGSPerSM = 2

// prTileGrid is the grid of a pull lb=edge sweep (kernels/pr.cu pull_tile): a warp per tile of
// prEdgeTile vertices, capped by prBlocksPerSM, or for Gauss-Seidel (gs) prEdgeGSPerSM.
func prTileGrid(r *run, gs bool) int {
	g := blocks((int64(r.n)+prEdgeTile-1)/prEdgeTile, block/32)
	per := prBlocksPerSM
	if gs {
		per = prEdgeGSPerSM
	}
	return min(g, per*r.dev.sms)
}

// prGrid is lbGrid, capped by prBlocksPerSM for lb=warp and lb=cta.
func prGrid(r *run, lb engine.LoadBalance, rows, edges int64) int {
	g := lbGrid(lb, rows, edges)
	if lb == engine.LBWarp || lb == engine.LBCTA {
		g = min(g, prBlocksPerSM*r.dev.sms)
	}
	return g
}
