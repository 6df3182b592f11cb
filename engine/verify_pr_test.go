package engine

import (
	"math"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/graph"
)

// prPair returns two rank vectors of 4 vertices that differ by l1 in L1.
func prPair(l1 float64) (got, want []float64) {
	want = []float64{0.25, 0.25, 0.25, 0.25}
	got = []float64{0.25 + l1/2, 0.25 - l1/2, 0.25, 0.25}
	return got, want
}

// TestVerifyPRBound: two runs that each stopped when one iteration changed the ranks by less
// than tol may differ by up to (tol_got + tol_want) * d/(1-d) in L1; default PageRank (d 0.85,
// tol 1e-4) measured 3.89e-4 between ref and cpu, which a fixed 1e-4 refused.
func TestVerifyPRBound(t *testing.T) {
	g := &graph.CSR{Offsets: []int64{0, 0, 0, 0, 0}}
	def := DefaultParams()
	tight := def
	tight.Tolerance = 1e-9
	if got, want := PRAllowedL1(def, def), 2e-4*0.85/0.15; math.Abs(got-want) > 1e-12 {
		t.Errorf("PRAllowedL1(defaults) = %g, want %g", got, want)
	}
	if got := PRAllowedL1(tight, tight); got != PRTolerance {
		t.Errorf("PRAllowedL1(tight) = %g, want the floor %g", got, PRTolerance)
	}
	if got := PRAllowedL1(Params{}, Params{}); got != PRTolerance {
		t.Errorf("PRAllowedL1(zero params) = %g, want %g", got, PRTolerance)
	}
	for _, tc := range []struct {
		name      string
		pg, pw    Params
		l1        float64
		itersGot  int
		errHas    []string
		errHasNot string
	}{
		{"defaults, 3.89e-4 apart", def, def, 3.89e-4, 10, nil, ""},
		{"defaults, 2e-3 apart", def, def, 2e-3, 10, []string{"differ by 0.002 in L1 (allowed 0.00113", "d/(1-d)", "of the fixed point"}, "max_iter"},
		{"tight tolerances keep the 1e-4 floor", tight, tight, 3e-4, 10, []string{"allowed 0.0001 = PRTolerance"}, ""},
		{"tight tolerances, close", tight, tight, 5e-5, 10, nil, ""},
		{"not converged", def, def, 2e-3, 100, []string{"the cpu run used all max_iter=100 iterations, so it may have stopped short"}, "ref run"},
	} {
		rg, rw := prPair(tc.l1)
		got := &Result{Algorithm: PR, Engine: "cpu", Params: tc.pg, Rank: rg, Summary: Summary{Iterations: tc.itersGot}}
		want := &Result{Algorithm: PR, Engine: "ref", Params: tc.pw, Rank: rw, Summary: Summary{Iterations: 12}}
		err := Verify(g, got, want)
		if tc.errHas == nil {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		for _, s := range tc.errHas {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %v\nwant it to contain %q", tc.name, err, s)
			}
		}
		if tc.errHasNot != "" && strings.Contains(err.Error(), tc.errHasNot) {
			t.Errorf("%s: %v\nshould not mention %q", tc.name, err, tc.errHasNot)
		}
	}
}
