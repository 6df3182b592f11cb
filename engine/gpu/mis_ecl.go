//go:build cuda

package gpu

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
)

// misECL is method=ecl: the approach of ECL-MIS (Burtscher, Devale, Azimi, Jaiganesh and
// Gevorkyan, 2018), kernels/mis_ecl.cu. One status byte per vertex holds its priority while
// it is undecided (engine.MISDegreeStatus: fixed once, low degree first, a hash spreading
// equal degrees), or In, or Out. In one launch of resident threads each thread re-examines its
// undecided vertices in place until none is left: a vertex joins as soon as every neighbour has
// a lower (status, id), setting its neighbours Out and itself In. There are no rounds, no
// worklist and no separate pass of removals. The set is the greedy set in decreasing
// engine.MISDegreePriority, which engine/ref computes for method=ecl; the degree order gives
// larger sets than hashed priorities. Arcs count both ways (a directed graph's in-lists are
// read too). A thread with at most 32 vertices keeps its undecided ones in a mask and never
// reads a decided one's status again, and neighbours are checked four at a time (their loads
// overlap). The kernels take the graph's 32-bit offsets (uploaded once per graph, outside the
// timing) below 2^32 arcs. fuse=on (auto) runs the initialisation and the decisions in one
// cooperative launch, fuse=off in two. Nothing is read back inside the timing: the one trace
// record (the set's size and the passes of the busiest thread) is built after it.
func misECL(r *run) error {
	n := int64(r.n)
	st, err := r.scratch("mise.stat", n)
	if err != nil {
		return err
	}
	fused := r.s.Fuse == engine.FuseOn
	wide := !r.narrow()
	a := misEclArgs{off: r.dg.out.off.addr(), nbr: r.dg.out.nbr.addr(), n: n, seed: r.req.Params.Seed,
		avg16: engine.MISAvg16(r.g), stat: st.addr(), counters: r.ctl.addr()}
	if !wide {
		a.off = r.dg.out.off32.addr()
	}
	if r.g.Directed {
		in, err := r.inCSR()
		if err != nil {
			return err
		}
		a.ioff, a.inbr = in.off.addr(), in.nbr.addr()
		if !wide {
			a.ioff = in.off32.addr()
		}
	}
	if a.off == 0 || (r.g.Directed && a.ioff == 0) {
		return fmt.Errorf("gpu: mis: method=ecl: the 32-bit offsets were not prepared: internal error")
	}
	initName, runName := "mis_ecl_init", "mis_ecl_run"
	switch {
	case fused && wide:
		runName = "mis_ecl_fused64"
	case fused:
		runName = "mis_ecl_fused"
	case wide:
		initName, runName = "mis_ecl_init64", "mis_ecl_run64"
	case r.g.Directed:
		runName = "mis_ecl_run_dir"
	}
	_, grid, err := r.coopGrid(runName, 0)
	if err != nil {
		return err
	}
	// The timed part is the launches alone (the counters start zero, the run's own block);
	// the counters, the set and the records are read after the device is done (collect).
	if err := r.ctx.Err(); err != nil {
		return err
	}
	r.iterStart = time.Now()
	if fused {
		// init, a grid-wide barrier, run: one cooperative launch
		if _, err := launchCoopStruct(r, runName, &a); err != nil {
			return err
		}
	} else {
		if err := launchStruct(r, initName, blocks(n, block), &a); err != nil {
			return err
		}
		if err := launchStruct(r, runName, grid, &a); err != nil {
			return err
		}
	}
	r.collect = func() error {
		stat := make([]byte, n)
		if err := download(stat, st); err != nil {
			return err
		}
		in := make([]bool, n)
		var k int64
		for v, s := range stat {
			if s == misEclIn {
				in[v] = true
				k++
			} else if s != misEclOut {
				return fmt.Errorf("gpu: mis: method=ecl left vertex %d undecided (status %#x): internal error", v, s)
			}
		}
		r.res.InSet = in
		r.res.Summary.SetSize = k
		if err := r.readCounters(); err != nil {
			return err
		}
		offs := "32-bit"
		if wide {
			offs = "64-bit"
		}
		if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "ecl",
			Note: fmt.Sprintf("seed %d: degree-aware priorities, decided in place by %d resident threads (ECL-MIS), %s offsets", a.seed, grid*block, offs)}); err != nil {
			return err
		}
		return r.emit(engine.Record{Phase: "ecl", Direction: engine.Push, Mode: engine.Topology, InVertices: n,
			OutVertices: k, Time: r.elapsed, Note: fmt.Sprintf("set of %d (%.1f%% of the vertices), %d passes of the busiest thread; arcs read not counted (a counter in the decisions' loop costs them registers)",
				k, 100*float64(k)/float64(max(n, 1)), r.hostCtl[misEclPasses])})
	}
	return nil
}

// prepareMIS uploads the 32-bit offsets that method=ecl's narrow kernels read (offsets32),
// once per graph, outside the timing.
func prepareMIS(r *run) error {
	if r.s.Method != engine.ECL || !r.narrow() {
		return nil
	}
	if err := r.offsets32(&r.dg.out, r.g); err != nil {
		return err
	}
	if r.g.Directed {
		in, err := r.inCSR()
		if err != nil {
			return err
		}
		return r.offsets32(in, r.g.Transpose())
	}
	return nil
}

// misEclArgs mirrors struct MisEclArgs in kernels/mis_ecl.cu field for field (all 8 bytes).
type misEclArgs struct {
	off, nbr, ioff, inbr uint64
	n, seed              int64
	avg16                uint64
	stat, counters       uint64
}

var _ [72 - unsafe.Sizeof(misEclArgs{})]byte // sizeof(MisEclArgs), static_asserted in mis_ecl.cu
var _ [unsafe.Sizeof(misEclArgs{}) - 72]byte

// mis_ecl counters (words of the run's counter block) and status bytes.
const (
	misEclPasses        = 2
	misEclIn, misEclOut = 0xfe, 0
)

// misEclFuse is fuse=auto's choice for method=ecl: the initialisation and the decisions in one
// cooperative launch, whose grid-wide barrier costs less than the second launch's gap (at or
// under the two launches' device time on kron, urand and road graphs, docs/gpu-notes.md).
const misEclFuse = engine.FuseOn
