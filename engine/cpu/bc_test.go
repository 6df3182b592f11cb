package cpu_test

import (
	"fmt"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
)

func TestBC(t *testing.T) {
	var scheds []string
	for _, dir := range []string{"auto", "push", "pull"} {
		for _, driven := range []string{"data", "topology"} {
			scheds = append(scheds, fmt.Sprintf("direction=%s driven=%s workers=2", dir, driven))
		}
	}
	scheds = append(scheds, "workers=1", "direction=auto alpha=1 beta=2 workers=2", "split=cyclic chunk=2 workers=2",
		"batch=1 workers=2", "batch=3 workers=2", "batch=64 workers=2")
	for _, sources := range []string{"0", "5", "all"} {
		p := engine.DefaultParams()
		if err := p.Set("sources", sources); err != nil {
			t.Fatal(err)
		}
		p.Seed = 3
		maxV := 1 << 31
		if sources == "all" && testing.Short() {
			maxV = 30 // every source of a bigger graph is slow under -race
		}
		t.Run("sources="+sources, func(t *testing.T) { moreCheckUpTo(t, engine.BC, p, scheds, maxV) })
	}
}

func TestBCSourcesAndTrace(t *testing.T) {
	g := moreGraphs(t)[0].g
	p := engine.DefaultParams()
	p.Sources, p.Seed = 4, 7
	a, _ := engine.BCSources(p, g)
	b, _ := engine.BCSources(p, g)
	if fmt.Sprint(a) != fmt.Sprint(b) || len(a) != 4 {
		t.Fatalf("BCSources not reproducible: %v then %v", a, b)
	}
	res, err := moreRun(t, "cpu", g, engine.BC, engine.DefaultParams(), "")
	if err != nil {
		t.Fatal(err)
	}
	var phases []string
	for _, rec := range res.Trace.Records {
		if rec.Kind == engine.PhaseRecord {
			phases = append(phases, rec.Phase)
		}
	}
	if fmt.Sprint(phases) != "[forward backward]" {
		t.Errorf("phases: got %v, want [forward backward]", phases)
	}
	if res.Params.Src < 0 || res.Summary.Reached < 2 {
		t.Errorf("resolved src %d, reached %d", res.Params.Src, res.Summary.Reached)
	}
}
