//go:build cuda

package gpu

import (
	"fmt"
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
// read too). fuse=on runs the initialisation and the decisions in one cooperative launch. One
// trace record: the set's size and the passes of the busiest thread.
func misECL(r *run) error {
	n := int64(r.n)
	st, err := r.scratch("mise.stat", n)
	if err != nil {
		return err
	}
	a := misEclArgs{off: r.dg.out.off.addr(), nbr: r.dg.out.nbr.addr(), n: n, seed: r.req.Params.Seed,
		avg16: engine.MISAvg16(r.g), stat: st.addr(), counters: r.ctl.addr()}
	if r.g.Directed {
		in, err := r.inCSR()
		if err != nil {
			return err
		}
		a.ioff, a.inbr = in.off.addr(), in.nbr.addr()
	}
	fused := r.s.Fuse == engine.FuseOn
	runName := "mis_ecl_run"
	if fused {
		runName = "mis_ecl_fused"
	}
	_, grid, err := r.coopGrid(runName, 0)
	if err != nil {
		return err
	}
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "ecl",
		Note: fmt.Sprintf("seed %d: degree-aware priorities, decided in place by %d resident threads (ECL-MIS)", a.seed, grid*block)}); err != nil {
		return err
	}
	if err := r.begin(); err != nil {
		return err
	}
	if fused {
		// init, a grid-wide barrier, run: one cooperative launch
		if _, err := launchCoopStruct(r, runName, &a); err != nil {
			return err
		}
	} else {
		if err := launchStruct(r, "mis_ecl_init", blocks(n, block), &a); err != nil {
			return err
		}
		if err := launchStruct(r, runName, grid, &a); err != nil {
			return err
		}
	}
	if err := r.readCounters(); err != nil {
		return err
	}
	size := int64(r.hostCtl[misEclJoined])
	if err := r.emit(engine.Record{Phase: "ecl", Direction: engine.Push, Mode: engine.Topology, InVertices: n,
		OutVertices: size, Note: fmt.Sprintf("set of %d (%.1f%% of the vertices), %d passes of the busiest thread; arcs read not counted (a counter in the decisions' loop costs them registers)",
			size, 100*float64(size)/float64(max(n, 1)), r.hostCtl[misEclPasses])}); err != nil {
		return err
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
		return nil
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
	misEclJoined, misEclPasses = 0, 2
	misEclIn, misEclOut        = 0xfe, 0
)

// misEclFuse is fuse=auto's choice for method=ecl: the two plain launches. The cooperative
// launch saves the second launch's gap but runs fewer resident threads (its registers), which
// costs the decisions more (H100: road NE 0.405 ms against 0.433 fused, kron20 0.632 against
// 0.656).
const misEclFuse = engine.FuseOff
