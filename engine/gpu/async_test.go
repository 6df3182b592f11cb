//go:build cuda

package gpu_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/enginetest"
	"github.com/gworkbench/gworkbench/graph"
)

// TestAsync runs BFS and SSSP with method=async against engine/ref where its corners are: a
// road grid big enough that method=auto takes it (checked), a kron graph whose arcs nearly all
// cross ranges (so the mailboxes wrap around), a directed graph with unreached vertices (whose
// out-arcs must never be relaxed), a road grid whose weights are far above the window (empty
// windows skipped), one with byte weights (SSSP's lists in shared memory), and windows from
// small ones (more windows than the trace has rows) to one for the whole run. Both kernels must
// run, with the neighbour lists in shared memory and without. Every run is checked against
// engine/ref, and its trace must hold one window record at least with relaxed vertices in it.
func TestAsync(t *testing.T) {
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	road := enginetest.WithUniformWeights(generate(t, "road", map[string]string{"rows": "700", "cols": "700"}), 1, 255, 3)
	kron := enginetest.WithUniformWeights(generate(t, "kron", map[string]string{"scale": "17", "degree": "16"}), 1, 255, 5)
	dir := enginetest.WithUniformWeights(generate(t, "kron", map[string]string{"scale": "12", "degree": "4", "directed": "true"}), 0, 9, 11)
	// weights far above the window: most windows between two values hold nothing and are
	// skipped
	heavy := enginetest.WithUniformWeights(generate(t, "road", map[string]string{"rows": "90", "cols": "90", "weights": "drop"}), 1, 1000000, 13)
	// byte weights: SSSP's neighbour lists and weights in shared memory (the road grid's own
	// weights do not fit a byte, so its SSSP reads them from global memory)
	bytes := enginetest.WithUniformWeights(generate(t, "road", map[string]string{"rows": "400", "cols": "400", "weights": "drop"}), 1, 255, 17)
	graphs := []struct {
		name  string
		g     *graph.CSR
		auto  bool // method=auto takes async
		small int  // a delta of many windows (more than the trace's rows)
	}{{"road", road, true, 1024}, {"kron", kron, false, 64}, {"kron directed", dir, false, 64}, {"road heavy weights", heavy, false, 64}, {"road byte weights", bytes, true, 64}}
	lists := map[bool]int{} // runs with the neighbour lists in shared memory, and without
	for _, c := range graphs {
		for _, a := range []engine.Algorithm{engine.BFS, engine.SSSP} {
			p := enginetest.Params(a)
			want, err := ref.Run(context.Background(), engine.Request{Graph: c.g, Algorithm: a, Params: p})
			if err != nil {
				t.Fatal(err)
			}
			scheds := []engine.Schedule{{}, {Method: engine.AsyncRanges}}
			if a == engine.SSSP {
				scheds = append(scheds, engine.Schedule{Method: engine.AsyncRanges, Delta: c.small}, engine.Schedule{Method: engine.AsyncRanges, Delta: 1 << 30})
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
					if rec.Kind == engine.PhaseRecord && rec.Phase == "async" {
						lists[strings.Contains(rec.Note, "neighbour lists")]++
					}
				}
				if windows == 0 || relaxed < got.Summary.Reached {
					t.Errorf("%s %s [%s]: %d window records relaxing %d vertices, want at least one relaxing every reached vertex (%d)", a, c.name, s, windows, relaxed, got.Summary.Reached)
				}
			}
		}
	}
	if lists[true] == 0 || lists[false] == 0 {
		t.Errorf("%d runs with the neighbour lists in shared memory and %d without: want both kernels run", lists[true], lists[false])
	}
}

// TestAsyncRepeat runs method=async on a road grid of 4,096 vertices a range (on a 132-SM GPU)
// again and again, BFS and SSSP, each run checked against engine/ref: a race in a block's ring
// (workers that reserved entries past its tail, which nobody fills) hung a launch now and then
// until the watchdog stopped it (the whole suite's failure at 04212b4, docs/gpu-notes.md).
func TestAsyncRepeat(t *testing.T) {
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	road := enginetest.WithUniformWeights(generate(t, "road", map[string]string{"rows": "768", "cols": "704"}), 1, 255, 19)
	for _, a := range []engine.Algorithm{engine.BFS, engine.SSSP} {
		p := enginetest.Params(a)
		want, err := ref.Run(context.Background(), engine.Request{Graph: road, Algorithm: a, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		scheds := []engine.Schedule{{Method: engine.AsyncRanges}}
		if a == engine.SSSP {
			scheds = append(scheds, engine.Schedule{Method: engine.AsyncRanges, Delta: 1024})
		}
		for _, s := range scheds {
			for i := 0; i < 12; i++ {
				got, err := e.Run(context.Background(), engine.Request{Graph: road, Algorithm: a, Params: p, Schedule: s})
				if err != nil {
					t.Fatalf("%s [%s], run %d: %v", a, s, i+1, err)
				}
				if err := engine.Verify(road, got, want); err != nil {
					t.Fatalf("%s [%s], run %d: %v", a, s, i+1, err)
				}
			}
		}
	}
}
