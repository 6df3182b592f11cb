package session

import (
	"testing"

	"github.com/gworkbench/gworkbench/engine"
)

// TestResolvedScheduleHasNoAuto: the schedule a result's JSON and summary give names every knob
// that shaped the run with its concrete value (direction=auto is the direction-optimizing mode).
func TestResolvedScheduleHasNoAuto(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "gen k = kron scale=8 degree=8 weights=uniform:1:9")
	for _, eng := range []string{"cpu", "ref"} {
		for _, a := range engine.Algorithms() {
			do(t, s, out, "run "+string(a)+" engine="+eng)
			it := s.results[len(s.results)-1]
			j := resultToJSON(it)
			for k, v := range j.Schedule {
				if v == "auto" && k != "direction" {
					t.Errorf("%s %s: schedule %s=auto in %v", eng, a, k, j.Schedule)
				}
			}
			if eng == "cpu" {
				for _, k := range []string{"split", "chunk", "workers"} {
					if _, ok := j.Schedule[k]; !ok && (k != "chunk" || j.Schedule["split"] != "blocked") { // blocked has no chunk
						t.Errorf("cpu %s: schedule lacks %s: %v", a, k, j.Schedule)
					}
				}
			}
		}
	}
	// The resolved value runs again as it is.
	do(t, s, out, "run bfs split=dynamic chunk=loop")
}
