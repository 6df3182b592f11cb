package cpu_test

import (
	"fmt"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
)

func TestMIS(t *testing.T) {
	var scheds []string
	for _, sync := range []string{"sync", "async"} {
		for _, dir := range []string{"push", "pull"} {
			for _, driven := range []string{"data", "topology"} {
				scheds = append(scheds, fmt.Sprintf("sync=%s direction=%s driven=%s workers=2", sync, dir, driven))
			}
		}
	}
	scheds = append(scheds, "workers=1", "dedup=atomic split=cyclic chunk=3 workers=2")
	for _, seed := range []int64{1, 42} {
		p := engine.DefaultParams()
		p.Seed = seed
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) { moreCheck(t, engine.MIS, p, scheds) })
	}
}

func TestMISRefusals(t *testing.T) {
	g := moreGraphs(t)[0].g
	for _, sched := range []string{"frontier=bitmap", "dedup=cull", "driven=hybrid"} {
		if _, err := moreRun(t, "cpu", g, engine.MIS, engine.DefaultParams(), sched); err == nil {
			t.Errorf("mis [%s]: want a refusal", sched)
		}
	}
}
