package cpu_test

import (
	"fmt"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/cpu"
)

// TestTeamPolicies runs the algorithms whose loops are most often small (a road graph's levels
// and buckets) under both team policies, whatever the machine: a hot team also lets a loop
// take a worker per 32 items instead of 128. Results are checked against engine/ref.
func TestTeamPolicies(t *testing.T) {
	for _, hot := range []bool{false, true} {
		t.Run(fmt.Sprintf("hot=%v", hot), func(t *testing.T) {
			defer cpu.SetHotTeams(hot)()
			scheds := []string{"workers=2", "workers=3", "direction=push workers=2"}
			for _, a := range []engine.Algorithm{engine.BFS, engine.SSSP, engine.CC, engine.PR, engine.BC} {
				p := engine.DefaultParams()
				s := scheds
				if a == engine.CC || a == engine.PR {
					s = s[:2]
				}
				moreCheck(t, a, p, s)
			}
		})
	}
}
