package engine

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/gworkbench/gworkbench/graph"
)

// verifiers holds one checker per algorithm. A checker compares got against want (normally
// engine/ref's result) and returns an error that says exactly what differs: the first
// differing vertex, got and want, and how many differ.
var (
	verifiersMu sync.RWMutex
	verifiers   = map[Algorithm]func(g *graph.CSR, got, want *Result) error{}
)

// registerVerifier installs the verifier of an algorithm; each verify_*.go file calls it from
// its init. It panics on a duplicate, as Register does.
func registerVerifier(a Algorithm, v func(g *graph.CSR, got, want *Result) error) {
	verifiersMu.Lock()
	defer verifiersMu.Unlock()
	if _, dup := verifiers[a]; dup {
		panic("engine: registerVerifier called twice for " + string(a))
	}
	verifiers[a] = v
}

// PRTolerance is the floor of the L1 distance between two PageRank vectors that Verify
// accepts: the allowed distance is never smaller, however tight the runs' tolerances
// (PRAllowedL1).
const PRTolerance = 1e-4

// PRAllowedL1 is the L1 distance Verify allows between two PageRank results: the larger of
// PRTolerance and (tol_got + tol_want) * d/(1-d), from each result's Params (tolerance,
// damping d). Why: a run stops when one iteration changes the ranks by less than its
// tolerance in L1, and PageRank's iteration is a contraction of factor d in L1, so a stopped
// run x_k lies within d/(1-d) * |x_k - x_(k-1)| < tol * d/(1-d) of the fixed point; two runs
// that each met their tolerance lie within the sum of their bounds of each other (with the
// defaults 0.85 and 1e-4, 1.13e-3), not within tol. The bound holds only for runs that met
// their tolerance, not for one that stopped at max_iter.
func PRAllowedL1(got, want Params) float64 {
	d := max(got.Damping, want.Damping)
	if !(d > 0 && d < 1) {
		return PRTolerance
	}
	return max(PRTolerance, (max(got.Tolerance, 0)+max(want.Tolerance, 0))*d/(1-d))
}

// Verify checks that got, a result of some engine on g, agrees with want, the reference
// result of the same algorithm and parameters: exact depths (bfs) and distances (sssp), the
// same partition (cc), ranks within PRAllowedL1 in L1 (pr), and what each other algorithm's
// verifier demands. The error names the first differing vertex, got and want, and the count.
func Verify(g *graph.CSR, got, want *Result) error {
	if got == nil || want == nil {
		return fmt.Errorf("verify: nil result")
	}
	if got.Algorithm != want.Algorithm {
		return fmt.Errorf("verify: comparing a %s result with a %s result", got.Algorithm, want.Algorithm)
	}
	verifiersMu.RLock()
	v, ok := verifiers[got.Algorithm]
	verifiersMu.RUnlock()
	if !ok {
		return fmt.Errorf("verify: no verifier for %s", got.Algorithm)
	}
	return v(g, got, want)
}

func init() {
	registerVerifier(BFS, verifyBFS)
	registerVerifier(SSSP, verifySSSP)
	registerVerifier(CC, verifyCC)
	registerVerifier(PR, verifyPR)
}

func checkLen(what string, n, got, want int) error {
	if got != n || want != n {
		return fmt.Errorf("verify: %s: got %d values, want %d, graph has %d vertices", what, got, want, n)
	}
	return nil
}

// verifyExact compares two per-vertex int32 slices exactly.
func verifyExact(what string, g *graph.CSR, got, want []int32, format func(int32) string) error {
	if err := checkLen(what, g.NumVertices(), len(got), len(want)); err != nil {
		return err
	}
	first, count := -1, 0
	for v := range got {
		if got[v] != want[v] {
			if first < 0 {
				first = v
			}
			count++
		}
	}
	if count == 0 {
		return nil
	}
	return fmt.Errorf("verify: %s of vertex %d: got %s, want %s (%d of %d vertices differ)",
		what, g.IDs.ID(uint32(first)), format(got[first]), format(want[first]), count, len(got))
}

func verifyBFS(g *graph.CSR, got, want *Result) error {
	return verifyExact("bfs depth", g, got.Depth, want.Depth, func(d int32) string {
		if d == UnreachedDepth {
			return "unreached"
		}
		return fmt.Sprint(d)
	})
}

func verifySSSP(g *graph.CSR, got, want *Result) error {
	return verifyExact("sssp distance", g, got.Dist, want.Dist, func(d int32) string {
		if d == InfDist {
			return "inf"
		}
		return fmt.Sprint(d)
	})
}

func verifyCC(g *graph.CSR, got, want *Result) error {
	if err := checkLen("cc component", g.NumVertices(), len(got.Comp), len(want.Comp)); err != nil {
		return err
	}
	return samePartition(got.Comp, want.Comp, g.IDs)
}

// SamePartition reports whether two labellings of the same vertices group them identically
// (labels themselves may differ). The error names the first vertex whose grouping differs:
// a vertex that got puts with an earlier vertex and want does not, or the reverse.
func SamePartition(got, want []uint32) error { return samePartition(got, want, graph.IDs{}) }

// samePartition is SamePartition naming vertices by the ids of the graph's file.
func samePartition(got, want []uint32, ids graph.IDs) error {
	if len(got) != len(want) {
		return fmt.Errorf("verify: partition sizes differ: got %d vertices, want %d", len(got), len(want))
	}
	// A bijection between labels: the first vertex seen with each label fixes the pairing.
	g2w := make(map[uint32]uint32)
	w2g := make(map[uint32]uint32)
	firstG := make(map[uint32]int) // got label -> first vertex with it
	firstW := make(map[uint32]int)
	first, count := -1, 0
	var msg string
	for v := range got {
		gl, wl := got[v], want[v]
		wm, okG := g2w[gl]
		gm, okW := w2g[wl]
		if !okG && !okW {
			g2w[gl], w2g[wl] = wl, gl
			firstG[gl], firstW[wl] = v, v
			continue
		}
		if okG && okW && wm == wl && gm == gl {
			continue
		}
		count++
		if first >= 0 {
			continue
		}
		first = v
		switch {
		case okG && wm != wl:
			msg = fmt.Sprintf("vertex %d: got it in the component of vertex %d (label %d), want it apart (want labels %d and %d)",
				ids.ID(uint32(v)), ids.ID(uint32(firstG[gl])), ids.ID(gl), ids.ID(want[firstG[gl]]), ids.ID(wl))
		default:
			msg = fmt.Sprintf("vertex %d: got it apart from vertex %d (got labels %d and %d), want them in one component (label %d)",
				ids.ID(uint32(v)), ids.ID(uint32(firstW[wl])), ids.ID(got[firstW[wl]]), ids.ID(gl), ids.ID(wl))
		}
	}
	if count == 0 {
		return nil
	}
	return fmt.Errorf("verify: cc partitions differ at %s (%d of %d vertices disagree)", msg, count, len(got))
}

func verifyPR(g *graph.CSR, got, want *Result) error {
	if err := checkLen("pr rank", g.NumVertices(), len(got.Rank), len(want.Rank)); err != nil {
		return err
	}
	l1, worst, worstD := 0.0, -1, 0.0
	for v := range got.Rank {
		d := math.Abs(got.Rank[v] - want.Rank[v])
		if math.IsNaN(d) {
			return fmt.Errorf("verify: pr rank of vertex %d: got %v, want %v", g.IDs.ID(uint32(v)), got.Rank[v], want.Rank[v])
		}
		l1 += d
		if d > worstD {
			worst, worstD = v, d
		}
	}
	allowed := PRAllowedL1(got.Params, want.Params)
	if l1 <= allowed {
		return nil
	}
	why := fmt.Sprintf("PRTolerance %g", PRTolerance)
	if allowed > PRTolerance {
		d := max(got.Params.Damping, want.Params.Damping)
		why = fmt.Sprintf("(tolerance %g + %g) x d/(1-d) with d=%g: each run stopped within tolerance x d/(1-d) of the fixed point",
			got.Params.Tolerance, want.Params.Tolerance, d)
	}
	msg := fmt.Sprintf("verify: pr ranks differ by %.3g in L1 (allowed %.3g = %s); largest at vertex %d: got %.9g, want %.9g",
		l1, allowed, why, g.IDs.ID(uint32(worst)), got.Rank[worst], want.Rank[worst])
	gotName, wantName := got.Engine, want.Engine
	if gotName == "" || wantName == "" || gotName == wantName {
		gotName, wantName = "got", "want"
	}
	var capped []string
	for _, r := range []struct {
		name string
		res  *Result
	}{{gotName, got}, {wantName, want}} {
		if r.res.Params.MaxIter > 0 && r.res.Summary.Iterations >= r.res.Params.MaxIter {
			capped = append(capped, fmt.Sprintf("the %s run used all max_iter=%d iterations", r.name, r.res.Params.MaxIter))
		}
	}
	if len(capped) > 0 {
		it, its := "it", "its"
		if len(capped) > 1 {
			it, its = "they", "their"
		}
		msg += "; " + strings.Join(capped, " and ") + ", so " + it + " may have stopped short of " + its + " tolerance, where the bound does not hold (raise max_iter)"
	}
	return errors.New(msg)
}
