//go:build cuda

package gpu

import (
	"fmt"
	"math"

	"github.com/gworkbench/gworkbench/engine"
)

// prFused runs the topology-driven pull sweeps of PageRank in cooperative launches of
// pr_fused_<lb> (kernels/pr.cu): Jacobi over the ping-pong buffers bufs, Gauss-Seidel in
// place, or, with blk, the blocked segments one after another with a barrier between them.
// Every thread takes the projection (prProjection) from the sweep's counter row after the
// barrier; a launch starts from the host's replay of it.
func prFused(r *run, a kargs, csr *csrDev, blk *blockedCSR, bufs [2][2]uint64, rank2 buffer) error {
	p := r.req.Params
	name := "pr_fused_" + lbSuffix[r.s.LB]
	tiled := blk != nil && blk.rng > 0
	binned := blk != nil && blk.binned
	threads, shmem := block, 0
	switch {
	case binned:
		sh := prBinShape(r, r.s.Blocking)
		name, threads, shmem = "pr_fused_bin", sh.threads, sh.shmem
	case tiled:
		sh := prTiledShape(r, r.s.Blocking)
		name, threads, shmem = "pr_fused_stiled", sh.threads, sh.shmem
	}
	perSM := 0 // the occupancy's
	if !tiled && r.s.LB == engine.LBEdge && r.s.Sync == engine.Async {
		// Gauss-Seidel tiles: a grid of prEdgeGSPerSM blocks per SM keeps fewer vertices
		// pending (pr_shapes.go)
		perSM = prEdgeGSPerSM
	}
	a.off, a.nbr, a.n, a.m, a.inKind, a.eps = csr.off.addr(), csr.nbr.addr(), int64(csr.n), csr.m, kAll, p.Tolerance
	pingpong := (blk == nil || tiled) && r.s.Sync == engine.SyncDB
	if tiled {
		tiledArgs(&a, blk)
	}
	if binned {
		binArgs(&a, blk)
	} else if blk != nil && !tiled {
		a.off, a.nbr, a.inQ, a.inScan, a.bound = blk.off.addr(), blk.nbr.addr(), blk.rows.addr(), blk.scan.addr(), int64(blk.segs)
	}
	if pingpong {
		a.rank, a.contrib, a.rankOut, a.contribOut = bufs[0][0], bufs[0][1], bufs[1][0], bufs[1][1]
	}
	done := 0
	proj := newPRProjection(r) // the kernel projects alike; the host replays it for the records
	for done < p.MaxIter {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		iters := min(fuseChunk, p.MaxIter-done)
		a.iter = int64(done)
		proj.fusedArgs(&a)
		h, t, grid, err := r.coopSweepsShared(name, &a, iters, threads, shmem, perSM)
		if err != nil {
			return err
		}
		last := math.Inf(1)
		k := r.fusedRecords(h, iters, name, grid, threads, t, func(ctr []uint64) engine.Record {
			last = proj.next(math.Float64frombits(ctr[cErr]), math.Float64frombits(ctr[cRankSum]), math.Float64frombits(ctr[cRankDang]))
			return engine.Record{Direction: r.s.Direction, Mode: engine.Topology, InVertices: int64(r.n), InEdges: r.m,
				OutVertices: int64(r.n), EdgesScanned: r.m, Note: fmt.Sprintf("L1 change %.3g", last)}
		})
		done += k
		if k < iters || last < p.Tolerance || math.IsNaN(last) {
			break
		}
	}
	if pingpong && done%2 == 1 {
		r.prRank = rank2
	}
	return nil
}
