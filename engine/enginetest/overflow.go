package enginetest

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/loader"
)

// DistOverflow runs SSSP, under every schedule of the engine, on graphs whose distances come
// near 2^31: where the largest distance is below engine.MaxDist the result must be exact, and
// where some distance reaches it (two weights of 1.5e9, one of 2^31-1) the run must fail with
// engine.ErrDistTooLarge rather than return a saturated or wrapped distance.
func DistOverflow(t *testing.T, engineName string) {
	t.Helper()
	e, err := engine.Open(engineName)
	if err != nil {
		t.Skipf("engine %s: %v", engineName, err)
	}
	const big = 1_500_000_000
	cases := []struct {
		name  string
		n     int
		edges []loader.Edge
		fits  bool
	}{
		// 0 -> 1 -> 2: 3e9 at vertex 2; 3 hangs off 0 at a small distance.
		{"two-1.5e9", 4, []loader.Edge{{U: 0, V: 1, W: big}, {U: 1, V: 2, W: big}, {U: 0, V: 3, W: 5}}, false},
		{"one-max-int32", 3, []loader.Edge{{U: 0, V: 1, W: math.MaxInt32}, {U: 0, V: 2, W: 1}}, false},
		// The largest distance that fits, 2^31-3, reached two ways.
		{"just-fits", 4, []loader.Edge{{U: 0, V: 1, W: big}, {U: 1, V: 2, W: engine.MaxDist - 1 - big}, {U: 0, V: 3, W: 7}, {U: 3, V: 2, W: engine.MaxDist - 1 - 6}}, true},
	}
	ref, _ := engine.Open("ref")
	for _, c := range cases {
		g := FromEdges(c.n, c.edges, true, true)
		p := engine.DefaultParams()
		p.Src = 0
		want, rerr := ref.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.SSSP, Params: p})
		if c.fits != (rerr == nil) {
			t.Fatalf("%s: ref: %v", c.name, rerr)
		}
		scheds, strict := Schedules(e, engine.SSSP)
		for _, s := range scheds {
			got, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.SSSP, Params: p, Schedule: s})
			switch {
			case errors.Is(err, engine.ErrUnsupported) && !strict:
			case !c.fits && !errors.Is(err, engine.ErrDistTooLarge):
				t.Errorf("%s [%s]: got %v (dist %v), want %v", c.name, s, err, dists(got), engine.ErrDistTooLarge)
			case c.fits && err != nil:
				t.Errorf("%s [%s]: %v", c.name, s, err)
			case c.fits:
				if err := engine.Verify(g, got, want); err != nil {
					t.Errorf("%s [%s]: %v", c.name, s, err)
				}
			}
		}
	}
}

func dists(r *engine.Result) []int32 {
	if r == nil {
		return nil
	}
	return r.Dist
}
