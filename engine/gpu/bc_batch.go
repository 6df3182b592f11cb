//go:build cuda

package gpu

import (
	"fmt"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
)

// Batched BC (batch=k, sources=N): up to 32 sources per pass, a bit per source, as the
// multi-source BFS of Then et al. (VLDB 2014) shares each edge's scan among the searches that
// cross it (kernels/bc.cu bc_batch_*). Each forward level is one pull over the in-CSR for all
// the batch's sources (a vertex's mask of the sources that reach it at depth d, a sigma per
// source), each backward level one pull over the out-CSR (a coefficient per source) and, for
// the vertices of over bcChunk edges, whose rows several warps share, a finishing sweep. A
// batch deeper than its stored levels runs its sources one at a time.

// bcBatch mirrors struct BcBatch in kernels/bc.cu field for field (all 8 bytes).
type bcBatch struct {
	off, nbr, ioff, inbr           uint64
	n                              int64
	hin                            uint64
	nhin                           int64
	hout                           uint64
	nhout                          int64
	hv                             uint64
	nhv                            int64
	lvl, seen, sig, acc, cent, src uint64
	nsrc, d                        int64
	counters                       uint64
}

var _ [160 - unsafe.Sizeof(bcBatch{})]byte // sizeof(BcBatch), static_asserted in bc.cu
var _ [unsafe.Sizeof(bcBatch{}) - 160]byte

const (
	bcBatchMax = 32  // sources per pass: a lane of a warp each
	bcChunk    = 256 // edges of a row piece (kernels/bc.cu BcChunk)
	// batch counters (kernels/bc.cu BFront, BFound, BEdges, BFirst)
	bcBFront, bcBFound, bcBEdges, bcBFirst = 0, 1, 2, 3
	bcBatchDetailed                        = 2 // batches that get a record per level
)

// bcPieces lists the pieces of the rows of over bcChunk edges of CSR offsets off (vertex << 32 |
// piece) and those vertices.
func bcPieces(off []int64) (pieces []uint64, rich []uint32) {
	for v := 0; v+1 < len(off); v++ {
		d := off[v+1] - off[v]
		if d <= bcChunk {
			continue
		}
		rich = append(rich, uint32(v))
		for c := int64(0); c*bcChunk < d; c++ {
			pieces = append(pieces, uint64(v)<<32|uint64(c))
		}
	}
	return
}

// bcBatchLevels is how many levels a batch stores: twice the estimated diameter and some, so
// that the deepest of 32 searches fits (a deeper one falls back).
func bcBatchLevels(diameter int) int64 { return int64(min(max(2*diameter+8, 16), 256)) }

// bcPlan is what prepareBC uploads for the batches: the pieces of the rows of over bcChunk
// edges of the in- and out-CSR, and those vertices (by out-degree).
type bcPlan struct {
	hin, hout, hv    uint64
	nhin, nhout, nhv int64
}

// prepareBC uploads, outside the timing as the graph's upload is, the in-CSR that pull levels,
// the fused launches and the batches read, and for batches the row pieces (bcPlan).
func prepareBC(r *run) error {
	s := r.s
	if s.Direction != engine.Push || s.Fuse == engine.FuseOn || s.Batch > 1 {
		if _, err := r.inCSR(); err != nil {
			return err
		}
	}
	if s.Batch <= 1 || r.req.Params.Sources == 0 {
		return nil
	}
	in := r.g
	if r.g.Directed {
		in = r.g.Transpose()
	}
	hin, _ := bcPieces(in.Offsets)
	hout, hv := bcPieces(r.g.Offsets)
	p := &bcPlan{nhin: int64(len(hin)), nhout: int64(len(hout)), nhv: int64(len(hv))}
	upload := func(name string, data []uint32) (uint64, error) {
		if len(data) == 0 {
			return 0, nil
		}
		buf, err := r.scratch(name, int64(len(data))*4)
		if err != nil {
			return 0, err
		}
		return buf.addr(), r.writeBuf(buf, 0, data)
	}
	var err error
	if p.hin, err = upload("bc.hin", pieceWords(hin)); err != nil {
		return err
	}
	if p.hout, err = upload("bc.hout", pieceWords(hout)); err != nil {
		return err
	}
	if p.hv, err = upload("bc.hv", hv); err != nil {
		return err
	}
	r.bc = p
	return nil
}

// batches runs the sources width at a time and returns the sources of the batches that went
// deeper than bcBatchMaxLevels, for the caller to run one at a time. A batch that goes deeper
// than its stored levels runs again with twice as many.
func (b *bcState) batches(srcs []uint32, width int) ([]uint32, error) {
	r := b.r
	n := int64(r.n)
	p := r.bc
	ba := bcBatch{off: b.a.off, nbr: b.a.nbr, ioff: b.a.ioff, inbr: b.a.inbr, n: n,
		hin: p.hin, nhin: p.nhin, hout: p.hout, nhout: p.nhout, hv: p.hv, nhv: p.nhv, cent: b.a.cent, counters: r.ctl.addr()}
	// 1. Device buffers: seen, 32 sigmas and coefficients a vertex, the sources; the level
	// masks in run.
	seen, err := r.scratch("bc.seen", n*4)
	if err != nil {
		return nil, err
	}
	sig, err := r.scratch("bc.sig", n*bcBatchMax*8)
	if err != nil {
		return nil, err
	}
	acc, err := r.scratch("bc.bacc", n*bcBatchMax*8)
	if err != nil {
		return nil, err
	}
	srcBuf, err := r.scratch("bc.srcs", bcBatchMax*4)
	if err != nil {
		return nil, err
	}
	ba.seen, ba.sig, ba.acc, ba.src = seen.addr(), sig.addr(), acc.addr(), srcBuf.addr()
	br := &bcBatchRun{b: b, a: ba, seen: seen, sig: sig, acc: acc, src: srcBuf, levels: bcBatchLevels(r.g.Properties().Diameter),
		fwdGrid: blocks((n+ba.nhin)*32, block), backGrid: blocks((n+ba.nhout)*32, block)}
	var deep []uint32
	for bi, start := 0, 0; start < len(srcs); bi, start = bi+1, start+width {
		batch := srcs[start:min(start+width, len(srcs))]
		note := fmt.Sprintf("batch %d: %d sources, a bit each, %d pieces of rows over %d edges", bi+1, len(batch), ba.nhin, bcChunk)
		if bi == 0 {
			note = engine.BCSourcesNote(r.req.Params, srcs, r.g.IDs) + "; " + note
		}
		for {
			ok, err := br.run(batch, bi, note)
			if err != nil {
				return nil, err
			}
			if ok {
				break
			}
			if br.levels*2 > bcBatchMaxLevels {
				deep = append(deep, batch...)
				r.note = fmt.Sprintf("batch %d went deeper than %d levels: its sources run one at a time", bi+1, br.levels)
				break
			}
			r.note = fmt.Sprintf("batch %d went deeper than its %d stored levels: again with %d", bi+1, br.levels, 2*br.levels)
			br.levels *= 2
		}
	}
	return deep, nil
}

// bcBatchMaxLevels is the most levels a batch stores.
const bcBatchMaxLevels = 1024

// bcBatchRun is the state of a run's batches.
type bcBatchRun struct {
	b                   *bcState
	a                   bcBatch
	seen, sig, acc, src buffer
	levels              int64
	fwdGrid, backGrid   int
}

// run runs one batch (the bi-th) and reports false, having added nothing to the
// centralities, when it went deeper than br.levels.
func (br *bcBatchRun) run(batch []uint32, bi int, note string) (bool, error) {
	r := br.b.r
	n := int64(r.n)
	ba := &br.a
	detailed := bi < bcBatchDetailed
	lvl, err := r.scratch("bc.lvl", br.levels*n*4)
	if err != nil {
		return false, err
	}
	ba.lvl = lvl.addr()
	// 1. Clear the batch's state and start its sources.
	if err := r.begin(); err != nil {
		return false, err
	}
	for _, c := range []struct {
		buf   buffer
		bytes int64
	}{{lvl, br.levels * n * 4}, {br.seen, n * 4}, {br.sig, n * bcBatchMax * 8}, {br.acc, n * bcBatchMax * 8}} {
		if err := memset8(c.buf, 0, c.bytes); err != nil {
			return false, err
		}
	}
	if err := r.writeBuf(br.src, 0, batch); err != nil {
		return false, err
	}
	ba.nsrc, ba.d = int64(len(batch)), 0
	if err := launchStruct(r, "bc_batch_init", 1, ba); err != nil {
		return false, err
	}
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "forward",
		Note: note + ": multi-source BFS counting shortest paths"}); err != nil {
		return false, err
	}
	// 2. Forward, a pull per level, until no source finds a vertex.
	var front, found, edges, pairs, first int64
	d := int64(0)
	for ; d+1 < br.levels; d++ {
		if detailed || d == 0 {
			if err := r.begin(); err != nil {
				return false, err
			}
		} else if err := r.clearCounters(); err != nil {
			return false, err
		}
		ba.d = d
		if err := launchStruct(r, "bc_batch_fwd", br.fwdGrid, ba); err != nil {
			return false, err
		}
		if err := r.readCounters(); err != nil {
			return false, err
		}
		front, found = int64(r.hostCtl[bcBFront]), int64(r.hostCtl[bcBFound])
		edges += int64(r.hostCtl[bcBEdges])
		pairs += front
		first += int64(r.hostCtl[bcBFirst])
		if detailed {
			if err := r.emit(engine.Record{Phase: "forward", Direction: engine.Pull, Mode: engine.Topology, InVertices: front,
				OutVertices: found, EdgesScanned: int64(r.hostCtl[bcBEdges]),
				Note: "vertex-source pairs at this depth; found counts a rich row's pieces each"}); err != nil {
				return false, err
			}
		}
		if found == 0 {
			break
		}
	}
	if found != 0 {
		return false, nil
	}
	if !detailed {
		if err := r.emit(engine.Record{Phase: "forward", Direction: engine.Pull, Mode: engine.Topology, InVertices: pairs,
			EdgesScanned: edges, Note: fmt.Sprintf("whole phase, %d levels", d+1)}); err != nil {
			return false, err
		}
	}
	if bi == 0 {
		r.res.Summary.Reached = first // the first source's
	}
	// 3. Backward, deepest level first, to depth 1.
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "backward",
		Note: fmt.Sprintf("dependencies over %d levels, deepest first, a coefficient per source", d)}); err != nil {
		return false, err
	}
	if !detailed {
		if err := r.begin(); err != nil {
			return false, err
		}
	}
	for lv := d; lv >= 1; lv-- {
		if detailed {
			if err := r.begin(); err != nil {
				return false, err
			}
		}
		ba.d = lv
		if err := launchStruct(r, "bc_batch_back", br.backGrid, ba); err != nil {
			return false, err
		}
		if ba.nhv > 0 {
			if err := launchStruct(r, "bc_batch_finish", blocks(ba.nhv*32, block), ba); err != nil {
				return false, err
			}
		}
		if detailed {
			if err := r.readCounters(); err != nil {
				return false, err
			}
			if err := r.emit(engine.Record{Phase: "backward", Direction: engine.Pull, Mode: engine.Topology,
				InVertices: int64(r.hostCtl[bcBFront]), EdgesScanned: int64(r.hostCtl[bcBEdges])}); err != nil {
				return false, err
			}
		}
	}
	if !detailed {
		if err := r.readCounters(); err != nil {
			return false, err
		}
		if err := r.emit(engine.Record{Phase: "backward", Direction: engine.Pull, Mode: engine.Topology,
			InVertices: int64(r.hostCtl[bcBFront]), EdgesScanned: int64(r.hostCtl[bcBEdges]), Note: "whole phase"}); err != nil {
			return false, err
		}
	}
	return true, nil
}

// pieceWords views row pieces as the u32 pairs the device reads as u64 (little-endian).
func pieceWords(p []uint64) []uint32 {
	if len(p) == 0 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&p[0])), 2*len(p))
}
