//go:build cuda

package gpu

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
)

// ccECL is method=ecl: the approach of ECL-CC (Jaiganesh and Burtscher, HPDC'18),
// kernels/cc_ecl.cu. Every vertex starts at its first neighbour of lower id; every edge is then
// hooked once, the higher root under the lower with a compare-and-swap, finding the roots with
// intermediate pointer jumping (each step of a walk points the vertex it leaves at the next
// one, so later walks are shorter). The vertices are bucketed by degree: up to 16 arcs a
// thread hooks them at once, up to 352 a warp, more a block, from a worklist that the first
// pass fills from both ends. A last pass points every vertex at its root. The warp and block
// passes are skipped when no vertex needs them. No rounds: five launches at most, whatever the
// graph's diameter, which suits road graphs, where Afforest's sampling gains little; fuse=on
// runs them in one cooperative launch. The kernels take the graph's 32-bit offsets (uploaded
// once per graph, outside the timing) below 2^32 arcs; the labels need no zeroing, and the
// trace record is built after the timing. On a directed graph every arc is hooked (weak
// components).
func ccECL(r *run, val buffer) error {
	n := int64(r.n)
	wl, err := r.scratch("cce.wl", max(n, 1)*4)
	if err != nil {
		return err
	}
	pos, err := r.scratch("cce.pos", 16)
	if err != nil {
		return err
	}
	fused := r.s.Fuse == engine.FuseOn
	wide := !r.narrow()
	a := cceArgs{off: r.dg.out.off32.addr(), nbr: r.dg.out.nbr.addr(), n: n, val: val.addr(), wl: wl.addr(), pos: pos.addr()}
	suffix := ""
	if wide {
		a.off, suffix = r.dg.out.off.addr(), "64"
	}
	if a.off == 0 {
		return fmt.Errorf("gpu: cc: method=ecl: the 32-bit offsets were not prepared: internal error")
	}
	if r.g.Directed {
		a.directed = 1
	}
	maxDeg := r.g.Properties().MaxDegree
	names := []string{"cc_ecl_init" + suffix, "cc_ecl_low" + suffix}
	if maxDeg > cceLow {
		names = append(names, "cc_ecl_mid"+suffix)
	}
	if maxDeg > cceMid {
		names = append(names, "cc_ecl_high"+suffix)
	}
	names = append(names, "cc_ecl_flat")
	// The timed part is the launches alone; the record is built after the device is done.
	if err := r.ctx.Err(); err != nil {
		return err
	}
	r.iterStart = time.Now()
	if fused {
		// the steps in one cooperative launch, grid-wide barriers between them
		a.mid, a.high = boolInt(maxDeg > cceLow), boolInt(maxDeg > cceMid)
		if _, err := launchCoopStruct(r, "cc_ecl_fused"+suffix, &a); err != nil {
			return err
		}
	} else {
		grid := blocks(n, block)
		if _, g, err := r.coopGrid("cc_ecl_mid"+suffix, 0); err == nil {
			grid = min(grid, g) // as many blocks as are resident (ECL-CC's grid): every pass is grid-stride or takes work from cursors
		}
		for _, name := range names {
			if err := launchStruct(r, name, grid, &a); err != nil {
				return err
			}
		}
	}
	labels := r.collect
	r.collect = func() error {
		if err := labels(); err != nil {
			return err
		}
		launches := fmt.Sprintf("%d launches", len(names))
		if fused {
			launches = fmt.Sprintf("%d steps in one cooperative launch", len(names))
		}
		offs := "32-bit"
		if wide {
			offs = "64-bit"
		}
		if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "ecl",
			Note: fmt.Sprintf("hooking with intermediate pointer jumping by degree buckets (ECL-CC); max degree %d: %s, %s offsets", maxDeg, launches, offs)}); err != nil {
			return err
		}
		return r.emit(engine.Record{Phase: "ecl", Direction: engine.Push, Mode: engine.Topology, InVertices: n, InEdges: r.m,
			EdgesScanned: r.m, Time: r.elapsed, Note: "every edge hooked once"})
	}
	return nil
}

// prepareCC uploads the 32-bit offsets that method=ecl's narrow kernels read (offsets32),
// once per graph, outside the timing.
func prepareCC(r *run) error {
	if r.s.Method != engine.ECL || !r.narrow() {
		return nil
	}
	return r.offsets32(&r.dg.out, r.g)
}

// cceArgs mirrors struct CceArgs in kernels/cc_ecl.cu field for field (all 8 bytes).
type cceArgs struct {
	off, nbr     uint64
	n, directed  int64
	val, wl, pos uint64
	mid, high    int64
}

var _ [72 - unsafe.Sizeof(cceArgs{})]byte // sizeof(CceArgs), static_asserted in cc_ecl.cu
var _ [unsafe.Sizeof(cceArgs{}) - 72]byte

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// The degree buckets of kernels/cc_ecl.cu (LOW, MID).
const cceLow, cceMid = 16, 352

// ccEclWins says whether auto picks method=ecl for a graph of this average degree: on sparse
// road-like graphs every vertex has few edges to hook and Afforest's sampling saves little.
func ccEclWins(avgDeg float64) bool { return avgDeg < 4 }

// ccEclFuse is fuse=auto's choice for method=ecl: the launches are few and short, and the
// cooperative launch's barriers cost about what the launches do (within the spread on road NE:
// docs/gpu-notes.md, the ECL methods' second pass), so the plain launches stay.
const ccEclFuse = engine.FuseOff
