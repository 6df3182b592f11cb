//go:build cuda

package gpu

import (
	"fmt"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gworkbench/gworkbench/engine"
)

// The fused single-source BC (fuse=on): both phases of a source in one cooperative launch of
// bc_fused_<lb> (kernels/bc.cu bc_fused_loop), a grid barrier between levels. The levels are
// expanded by common.cuh's load-balancing strategies as the fused BFS expands its own: a level
// of at most 64 vertices holding 16K or more edges (a hub's neighbourhood) over the whole
// grid, the schedule's lb elsewhere (auto: twc's classes, bc_fused_twc). Direction-optimizing
// forward takes Beamer's decision on the device from the last level's counters. A pulled
// level, and a backward level of n/16 edges or more, tests the other level's membership in a
// bitmap (n bits, which stays in L2 where the depths would be DRAM sectors), a thread, a warp
// or the block a row by its degree whatever the lb; a pulled level sums its row's sigma in
// registers, and counts its members instead where their sigma are all 1 (level 0, and level 1
// without parallel arcs from the source). On a graph whose per-vertex arrays exceed L2 a big
// backward level adds into a dense array at its predecessors' ranks (a bitmap with running
// counts), which stays in L2 where their acc would be a DRAM sector each, and a counted level 1
// marks each in-arc with its tail's rank so that backward level 2 adds along the marks without
// a membership test (bc.arank, a word per arc, where the free memory allows it). Every level
// runs over the whole grid: on a road network's thousands of levels of a few hundred vertices,
// block 0 alone with block barriers was slower (a thread a row walks its edges in turn where
// the grid gives each row a warp; docs/gpu-notes.md). The host reads back the state row, and
// for a source that gets a record per level the level sizes and counters, in one or two copies
// per source.

// bcFused mirrors struct BcFused in kernels/bc.cu field for field (all 8 bytes).
type bcFused struct {
	off, nbr, ioff, inbr    uint64
	n, m                    int64
	depth, sigma, acc, cent uint64
	lq, lens, rows, ctl     uint64
	levels                  int64
	bits                    uint64
	rank, cacc, bsum        uint64
	ccap                    int64
	arank                   uint64
	src, dir                int64
	alpha, beta             float64
	init                    int64
	half                    int64
}

var _ [216 - unsafe.Sizeof(bcFused{})]byte // sizeof(BcFused), static_asserted in bc.cu
var _ [unsafe.Sizeof(bcFused{}) - 216]byte

// Row and state-row words (kernels/bc.cu BcRow, BcCtl).
const (
	bcRow                                                       = 8
	bcREdges, bcRPushes, bcRScout, bcRTime, bcRCount, bcRDir    = 0, 1, 2, 5, 6, 7
	bcCLevels, bcCReached, bcCDeep, bcCStart, bcCFwdEnd, bcCEnd = 0, 1, 2, 3, 4, 5
	bcCtlWords                                                  = 16
	bcMinLevels                                                 = 1 << 14
	bcHubRows, bcHubEdges                                       = 64, 16384
)

// bcFusedRun is the state of the fused launches of one run.
type bcFusedRun struct {
	b      *bcState
	a      bcFused
	fn     cu.Function
	grid   int
	name   string
	ctl    buffer
	hctl   []uint64
	hlens  []uint32
	hrows  []uint64
	levels int64
	last   bool // the next source is the run's last: its launch leaves the per-vertex state
}

// newFused prepares the fused launches: the kernel and its grid, the level store (every level's
// vertices, their sizes, a row of counters per level and phase) and the state row.
func (b *bcState) newFused(acc buffer) (*bcFusedRun, error) {
	r := b.r
	n := int64(r.n)
	f := &bcFusedRun{b: b, name: "bc_fused_" + lbSuffix[r.s.LB]}
	var err error
	if f.fn, f.grid, err = r.coopGrid(f.name, 0); err != nil {
		return nil, err
	}
	// levels to store: four times the estimated diameter (a lower bound) and some; a search
	// that goes deeper runs host-driven (bcFusedRun.source)
	f.levels = min(n+2, max(bcMinLevels, 4*int64(r.g.Properties().Diameter)+64))
	lq, err := r.scratch("bc.lq", n*4)
	if err != nil {
		return nil, err
	}
	lens, err := r.scratch("bc.lens", (f.levels+2)*4)
	if err != nil {
		return nil, err
	}
	rows, err := r.scratch("bc.rows", 2*f.levels*bcRow*8)
	if err != nil {
		return nil, err
	}
	if f.ctl, err = r.scratch("bc.ctl", bcCtlWords*8); err != nil {
		return nil, err
	}
	bits, err := r.scratch("bc.bits", (n+31)/32*4)
	if err != nil {
		return nil, err
	}
	// a backward level adds into a dense array at its predecessors' ranks when their acc would
	// be more DRAM sectors than L2 holds (n doubles past half of L2) and the array stays in a
	// quarter of it
	var rank, cacc, bsum, arank buffer
	ccap := int64(0)
	if l2 := int64(r.dev.l2); n*8 > l2/2 || r.eng.bcRanks {
		ccap = max(1024, l2/4/8)
		if rank, err = r.scratch("bc.rank", (n+31)/32*8); err != nil {
			return nil, err
		}
		if cacc, err = r.scratch("bc.cacc", ccap*8); err != nil {
			return nil, err
		}
		if bsum, err = r.scratch("bc.bsum", int64(f.grid)*4); err != nil {
			return nil, err
		}
		// a word per in-arc for level 1's marks, where it leaves a quarter of the free memory
		if free, _, err := cu.MemInfo(); err == nil && r.m*4 < int64(free)/4*3 {
			if arank, err = r.scratch("bc.arank", max(r.m, 1)*4); err != nil {
				return nil, err
			}
		}
	}
	dir := int64(2)
	switch b.dir {
	case engine.Push:
		dir = 0
	case engine.Pull:
		dir = 1
	}
	a := &b.a
	f.a = bcFused{off: a.off, nbr: a.nbr, ioff: a.ioff, inbr: a.inbr, n: n, m: r.m,
		depth: a.depth, sigma: a.sigma, acc: acc.addr(), cent: a.cent,
		lq: lq.addr(), lens: lens.addr(), rows: rows.addr(), ctl: f.ctl.addr(), levels: f.levels, bits: bits.addr(),
		rank: rank.addr(), cacc: cacc.addr(), bsum: bsum.addr(), ccap: ccap, arank: arank.addr(),
		dir: dir, alpha: b.alpha, beta: b.beta, init: 1, half: a.half}
	if f.a.ioff == 0 {
		// push only: the backward phase still walks in-edges (predecessors)
		in, err := r.inCSR()
		if err != nil {
			return nil, err
		}
		f.a.ioff, f.a.inbr = in.off.addr(), in.nbr.addr()
	}
	f.hctl = make([]uint64, bcCtlWords)
	return f, nil
}

// source runs one source's launch and traces it: a record per level when detailed, else one
// per phase.
func (f *bcFusedRun) source(src uint32, detailed bool, note string) error {
	r := f.b.r
	if err := r.ctx.Err(); err != nil {
		return err
	}
	f.a.src = int64(src)
	t0 := time.Now()
	c := f.a
	if f.last {
		c.init |= 2
	}
	ev0, ev1, err := r.timed(func() error {
		if err := launch(f.fn, f.grid, block, unsafe.Pointer(&c), true); err != nil {
			return fmt.Errorf("%w (kernel %s, cooperative grid %d x %d)", err, f.name, f.grid, block)
		}
		return nil
	})
	if err != nil {
		return err
	}
	f.a.init = 0
	tl := time.Now()
	if err := check("cuMemcpyDtoH (bc state)", cu.MemcpyDtoH(unsafe.Pointer(&f.hctl[0]), f.ctl.ptr, bcCtlWords*8)); err != nil {
		return err
	}
	ms, err := ev0.Elapsed(ev1)
	if err != nil {
		return check("cuEventElapsedTime", err)
	}
	launchTime := time.Duration(ms * 1e6)
	if f.hctl[bcCDeep] != 0 {
		// deeper than the stored levels: the launch stopped mid-search; clear its state and run
		// this source host-driven, then clear again before the next launch
		r.note = fmt.Sprintf("the search from %s went deeper than the %d levels the fused launch stores: host-driven", r.g.IDs.Text(src), f.levels)
		b := f.b
		if err := memset32(b.depth, 0xffffffff, int64(r.n)); err != nil {
			return err
		}
		if err := memset8(b.sigma, 0, int64(r.n)*8); err != nil {
			return err
		}
		b.prevReached = 0
		f.a.init = 1
		r.nextEvent, r.pending = 0, r.pending[:0]
		return b.source(src, detailed, note)
	}
	levels, reached := int64(f.hctl[bcCLevels]), int64(f.hctl[bcCReached])
	f.b.reached = reached
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "forward",
		Note: note + "BFS from " + r.g.IDs.Text(src) + " counting shortest paths"}); err != nil {
		return err
	}
	start, fwdEnd, end := f.hctl[bcCStart], f.hctl[bcCFwdEnd], f.hctl[bcCEnd]
	head := fmt.Sprintf("fused: one cooperative launch of %s, %d x %d, both phases (%d levels), %.0f us on the device clock, %.0f us by its events; host %.0f us to enqueue it, %.0f us until its state row came back",
		f.name, f.grid, block, levels, micros(time.Duration(end-start)), micros(launchTime), micros(tl.Sub(t0)), micros(time.Since(tl)))
	kern := func(d time.Duration) []engine.Kernel {
		return []engine.Kernel{{Name: f.name, Grid: f.grid, Block: block, Time: max(d, 1)}}
	}
	if !detailed {
		var fe, be int64
		if err := f.readRows(levels, &fe, &be); err != nil {
			return err
		}
		if err := f.record(engine.Record{Phase: "forward", Direction: f.b.dir, Mode: engine.Data, InVertices: reached, EdgesScanned: fe,
			Time: time.Duration(fwdEnd - start), Kernels: kern(launchTime), Note: "whole phase; " + head}); err != nil {
			return err
		}
		if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "backward",
			Note: fmt.Sprintf("dependencies over %d stored levels, deepest first", levels)}); err != nil {
			return err
		}
		return f.record(engine.Record{Phase: "backward", Direction: engine.Pull, Mode: engine.Data, InVertices: reached, EdgesScanned: be,
			Time: time.Duration(end - fwdEnd), Kernels: kern(1), Note: "whole phase (in the forward phase's launch)"})
	}
	if err := f.readRows(levels, nil, nil); err != nil {
		return err
	}
	row := func(k int64, c int) uint64 { return f.hrows[k*bcRow+int64(c)] }
	bwd := func(k int64, c int) uint64 { return f.hrows[(levels+k)*bcRow+int64(c)] }
	// 1. Forward: a record per level, after the switch that preceded it.
	prev, dir := start, engine.Push
	if f.a.dir == 1 {
		dir = engine.Pull
	}
	scout, toCheck := uint64(r.g.Degree(src)), uint64(r.m)
	for k := int64(0); k < levels; k++ {
		d := engine.Push
		if row(k, bcRDir)&1 == 1 {
			d = engine.Pull
		}
		cnt := int64(row(k, bcRCount))
		if d != dir && f.a.dir == 2 {
			if d == engine.Pull {
				r.switchRec("direction", "push", "pull", "frontier edges > unexplored edges / alpha",
					engine.Quantity{Name: "frontier edges", Value: float64(scout)}, ">", engine.Quantity{Name: "unexplored edges / alpha", Value: float64(int64(toCheck)) / f.a.alpha})
			} else {
				r.switchRec("direction", "pull", "push", "frontier vertices < V / beta and shrinking",
					engine.Quantity{Name: "frontier vertices", Value: float64(cnt)}, "<", engine.Quantity{Name: "V / beta", Value: float64(r.n) / f.a.beta})
			}
		}
		dir = d
		t := row(k, bcRTime)
		rec := engine.Record{Phase: "forward", Direction: dir, Mode: engine.Data, InVertices: cnt, InEdges: int64(scout),
			OutVertices: int64(row(k, bcRPushes)), EdgesScanned: int64(row(k, bcREdges)), Time: time.Duration(t - prev), Kernels: kern(time.Duration(t - prev))}
		if k == 0 {
			rec.Note = head
		}
		rec.Note = joinNote(rec.Note, f.shape(dir, cnt, int64(scout)))
		if row(k, bcRDir)&2 == 2 {
			rec.Note = joinNote(rec.Note, "its sigma are all 1: counts them instead of loading them")
		}
		if row(k, bcRDir)&4 == 4 {
			rec.Note = joinNote(rec.Note, "marks each in-arc with its tail's rank in the level, for the backward level")
		}
		if err := f.record(rec); err != nil {
			return err
		}
		prev = t
		scout = row(k, bcRScout)
		toCheck -= scout
	}
	// 2. Backward, deepest level first; levels 1 and 0 have no successors' sums to push.
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "backward",
		Note: fmt.Sprintf("dependencies over %d stored levels, deepest first: each level adds (1 + delta) / sigma into its predecessors", levels)}); err != nil {
		return err
	}
	prev = fwdEnd
	for k := levels - 1; k >= 2; k-- {
		t := bwd(k, bcRTime)
		cnt := int64(bwd(k, bcRCount))
		edges := int64(row(k-1, bcRScout))
		rec := engine.Record{Phase: "backward", Direction: engine.Pull, Mode: engine.Data, InVertices: cnt, InEdges: edges,
			EdgesScanned: int64(bwd(k, bcREdges)), Time: time.Duration(t - prev), Kernels: kern(time.Duration(t - prev))}
		rec.Note = f.shape(engine.Push, cnt, edges)
		switch bwd(k, bcRDir) {
		case 1:
			rec.Note = fmt.Sprintf("pushed into a bitmap of level %d's %d vertices", k-1, row(k-1, bcRCount))
		case 3:
			rec.Note = fmt.Sprintf("pushed into a dense array of level %d's %d vertices, at their ranks in its bitmap", k-1, row(k-1, bcRCount))
		case 6, 7:
			rec.Note = fmt.Sprintf("pushed into a dense array of level %d's %d vertices along the arcs its forward level marked", k-1, row(k-1, bcRCount))
		}
		if err := f.record(rec); err != nil {
			return err
		}
		prev = t
	}
	return nil
}

// shape says how a level ran (kernels/bc.cu bc_level), for its record's note.
func (f *bcFusedRun) shape(dir engine.Direction, cnt, edges int64) string {
	switch {
	case dir == engine.Pull:
		return "every unvisited vertex sums its in-neighbours' sigma at this level in registers (a bitmap of the level)"
	case dir == engine.Push && cnt <= bcHubRows && edges >= bcHubEdges:
		return "few rows with many edges: each row over the whole grid"
	case dir == engine.Push && f.b.r.s.LB == engine.LBTWC && cnt <= 4096 && edges >= 8*cnt:
		return "twc: small frontier of rich rows, a warp per row"
	}
	return ""
}

// readRows copies back the rows of a launch of levels forward levels: the forward rows to
// hrows[0, levels) and the backward ones after them (rows of bcRow words); with fe and be it
// also sums each phase's edges scanned.
func (f *bcFusedRun) readRows(levels int64, fe, be *int64) error {
	if int64(len(f.hrows)) < 2*levels*bcRow {
		f.hrows = make([]uint64, 2*levels*bcRow)
	}
	bytes := levels * bcRow * 8
	for half, off := range []uint64{0, uint64(f.levels * bcRow * 8)} {
		if err := check("cuMemcpyDtoH (bc levels)", cu.MemcpyDtoH(unsafe.Pointer(&f.hrows[int64(half)*levels*bcRow]), cu.DevicePtr(f.a.rows+off), bytes)); err != nil {
			return err
		}
	}
	if fe != nil {
		for k := int64(0); k < levels; k++ {
			*fe += int64(f.hrows[k*bcRow+bcREdges])
			*be += int64(f.hrows[(levels+k)*bcRow+bcREdges])
		}
	}
	return nil
}

// record appends a level record the launch's counters describe (its time from the device
// clock) and streams it.
func (f *bcFusedRun) record(rec engine.Record) error {
	r := f.b.r
	rec.Kind = engine.IterationRecord
	rec.Iter = r.iter
	r.iter++
	r.res.Trace.Records = append(r.res.Trace.Records, rec)
	r.req.Emit(rec)
	return nil
}
