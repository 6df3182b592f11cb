//go:build cuda

package gpu

import (
	"fmt"
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
// (auto's choice) runs them in one cooperative launch. On a directed graph every arc is hooked
// (weak components).
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
	a := cceArgs{off: r.dg.out.off.addr(), nbr: r.dg.out.nbr.addr(), n: n, val: val.addr(), wl: wl.addr(), pos: pos.addr()}
	if r.g.Directed {
		a.directed = 1
	}
	maxDeg := r.g.Properties().MaxDegree
	names := []string{"cc_ecl_init", "cc_ecl_low"}
	if maxDeg > cceLow {
		names = append(names, "cc_ecl_mid")
	}
	if maxDeg > cceMid {
		names = append(names, "cc_ecl_high")
	}
	names = append(names, "cc_ecl_flat")
	launches := fmt.Sprintf("%d launches", len(names))
	if r.s.Fuse == engine.FuseOn {
		launches = fmt.Sprintf("%d steps in one cooperative launch", len(names))
	}
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "ecl",
		Note: fmt.Sprintf("hooking with intermediate pointer jumping by degree buckets (ECL-CC); max degree %d: %s", maxDeg, launches)}); err != nil {
		return err
	}
	if err := r.begin(); err != nil {
		return err
	}
	if r.s.Fuse == engine.FuseOn {
		// the steps in one cooperative launch, grid-wide barriers between them
		a.mid, a.high = boolInt(maxDeg > cceLow), boolInt(maxDeg > cceMid)
		if _, err := launchCoopStruct(r, "cc_ecl_fused", &a); err != nil {
			return err
		}
	} else {
		grid := blocks(n, block)
		if _, g, err := r.coopGrid("cc_ecl_mid", 0); err == nil {
			grid = min(grid, g) // as many blocks as are resident (ECL-CC's grid): every pass is grid-stride or takes work from cursors
		}
		for _, name := range names {
			if err := launchStruct(r, name, grid, &a); err != nil {
				return err
			}
		}
	}
	if err := r.sync(); err != nil { // the record reads the kernels' times
		return err
	}
	return r.emit(engine.Record{Phase: "ecl", Direction: engine.Push, Mode: engine.Topology, InVertices: n, InEdges: r.m,
		EdgesScanned: r.m, Note: "every edge hooked once"})
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
// cooperative launch's barriers cost about what the launches do (H100, road NE: 0.266 ms
// against 0.276 fused), so the plain launches stay.
const ccEclFuse = engine.FuseOff
