package ref

import (
	"context"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/loader"
)

// TestResolvedSchedule: the ref engine records what it ran (Result.Schedule is resolved), a
// schedule that Validate accepts, whatever the request asked for; and resolving src=auto does
// not compute the graph's properties inside the timed run.
func TestResolvedSchedule(t *testing.T) {
	e := []loader.Edge{{U: 0, V: 1, W: 2}, {U: 1, V: 2, W: 1}, {U: 0, V: 2, W: 5}, {U: 2, V: 3, W: 1}}
	want := map[engine.Algorithm]string{
		engine.BFS:  "direction=push driven=data frontier=queue dedup=atomic update=rw sync=sync",
		engine.SSSP: "direction=push driven=data frontier=queue dedup=none update=rw sync=async",
		engine.CC:   "update=rw method=sv",
		engine.PR:   "direction=pull driven=topology sync=sync",
		engine.TC:   "order=id intersect=merge relabel=off",
		engine.BC:   "direction=push driven=data frontier=queue",
		engine.MIS:  "direction=pull driven=topology sync=async",
		engine.MST:  "driven=topology",
	}
	for _, a := range engine.Algorithms() {
		g, err := loader.FromEdges(4, e, false, true)
		if err != nil {
			t.Fatal(err)
		}
		var req engine.Schedule
		if a == engine.PR {
			req.Set("direction", "push") // ref ignores it and says so
		}
		res, err := Engine{}.Run(context.Background(), engine.Request{Graph: g, Algorithm: a, Params: engine.DefaultParams(), Schedule: req})
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		if err := res.Schedule.Validate(a, "ref"); err != nil {
			t.Errorf("%s: resolved schedule %s is invalid: %v", a, res.Schedule, err)
		}
		if w, ok := want[a]; ok && res.Schedule.String() != w {
			t.Errorf("%s: resolved schedule %q, want %q", a, res.Schedule, w)
		}
		if rel := res.Schedule.Relevant(a, "ref"); strings.Contains(rel, "direction=auto") || strings.Contains(rel, "driven=auto") {
			t.Errorf("%s: resolved schedule still has auto direction or driven: %s", a, rel)
		}
		if g.HasProperties() {
			t.Errorf("%s: the run computed the graph's properties", a)
		}
	}
}
