//go:build cuda

package gpu_test

import (
	"context"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/enginetest"
	"github.com/gworkbench/gworkbench/graph"
)

// TestAsync runs BFS and SSSP with method=async against engine/ref where its corners are: a
// road grid big enough that method=auto takes it (checked), a kron graph whose arcs nearly all
// cross ranges (so the mailboxes wrap around), a directed graph with unreached vertices, and
// windows from 64 (more windows than the trace has rows) to one for the whole run. Every run is checked against engine/ref, and its trace must hold one window record at
// least with relaxed vertices in it.
func TestAsync(t *testing.T) {
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	road := enginetest.WithUniformWeights(generate(t, "road", map[string]string{"rows": "700", "cols": "700"}), 1, 255, 3)
	kron := enginetest.WithUniformWeights(generate(t, "kron", map[string]string{"scale": "17", "degree": "16"}), 1, 255, 5)
	dir := enginetest.WithUniformWeights(generate(t, "kron", map[string]string{"scale": "12", "degree": "4", "directed": "true"}), 0, 9, 11)
	graphs := []struct {
		name string
		g    *graph.CSR
		auto bool // method=auto takes async
	}{{"road", road, true}, {"kron", kron, false}, {"kron directed", dir, false}}
	for _, c := range graphs {
		for _, a := range []engine.Algorithm{engine.BFS, engine.SSSP} {
			p := enginetest.Params(a)
			want, err := ref.Run(context.Background(), engine.Request{Graph: c.g, Algorithm: a, Params: p})
			if err != nil {
				t.Fatal(err)
			}
			scheds := []engine.Schedule{{}, {Method: engine.AsyncRanges}}
			if a == engine.SSSP {
				scheds = append(scheds, engine.Schedule{Method: engine.AsyncRanges, Delta: 64}, engine.Schedule{Method: engine.AsyncRanges, Delta: 1 << 30})
			}
			for _, s := range scheds {
				got, err := e.Run(context.Background(), engine.Request{Graph: c.g, Algorithm: a, Params: p, Schedule: s})
				if err != nil {
					t.Errorf("%s %s [%s]: %v", a, c.name, s, err)
					continue
				}
				if err := engine.Verify(c.g, got, want); err != nil {
					t.Errorf("%s %s [%s]: %v", a, c.name, s, err)
				}
				async := got.Schedule.Method == engine.AsyncRanges
				if s.Method == engine.MethodAuto && async != c.auto {
					t.Errorf("%s %s: method=auto resolved to %s, want async %v", a, c.name, got.Schedule.Method, c.auto)
				}
				if !async {
					continue
				}
				windows, relaxed := 0, int64(0)
				for _, rec := range got.Trace.Records {
					if rec.Kind == engine.IterationRecord {
						windows++
						relaxed += rec.InVertices
					}
				}
				if windows == 0 || relaxed < got.Summary.Reached {
					t.Errorf("%s %s [%s]: %d window records relaxing %d vertices, want at least one relaxing every reached vertex (%d)", a, c.name, s, windows, relaxed, got.Summary.Reached)
				}
			}
		}
	}
}
