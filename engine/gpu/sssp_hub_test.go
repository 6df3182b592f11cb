//go:build cuda

package gpu_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/enginetest"
)

// TestSSSPHubStep runs host-driven SSSP from the hub of hub() (the highest-degree vertex): its
// first step is one row of 120,000 edges, which sssp_push_grid takes, each row over the whole
// grid, under every vertex-mapped lb. Each run must agree with engine/ref, and its trace must
// show that step.
func TestSSSPHubStep(t *testing.T) {
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	p := enginetest.Params(engine.SSSP)
	for _, directed := range []bool{false, true} {
		g := hub(t, directed)
		want, err := ref.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.SSSP, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		for _, ss := range []string{"fuse=off lb=twc", "fuse=off lb=np", "fuse=off lb=etwc", "fuse=off lb=warp", "fuse=off lb=thread delta=8"} {
			name := ss
			if directed {
				name += " directed"
			}
			got, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.SSSP, Params: p, Schedule: sched(t, ss)})
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if err := engine.Verify(g, got, want); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			grid := 0
			for _, rec := range got.Trace.Records {
				if !strings.Contains(rec.Note, "each row over the whole grid") {
					continue
				}
				grid++
				// sssp_push_grid and no scan (util_compact follows when the near queue overflows)
				if len(rec.Kernels) == 0 || rec.Kernels[0].Name != "sssp_push_grid" {
					t.Errorf("%s: the hub step launched %+v, want sssp_push_grid first", name, rec.Kernels)
				}
				for _, k := range rec.Kernels {
					if strings.HasPrefix(k.Name, "util_scan") {
						t.Errorf("%s: the hub step ran a scan (%s)", name, k.Name)
					}
				}
			}
			if grid == 0 {
				t.Errorf("%s: no step ran the hub's row over the whole grid", name)
			}
		}
	}
}

// TestSSSPTail runs fuse=tail from the hub of hub(): the hub's step and its neighbours' run a
// launch each, and the rest (the path, a few vertices a step, and with delta=8 the far piles
// left at the handover) in the cooperative loop. Each run must agree with engine/ref, and its
// trace must show host-driven steps, then the switch, then fused iterations (directed, the
// hub reaches only its leaves, which have no out-edges: one host step, then the loop).
func TestSSSPTail(t *testing.T) {
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	p := enginetest.Params(engine.SSSP)
	for _, directed := range []bool{false, true} {
		g := hub(t, directed)
		want, err := ref.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.SSSP, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		for _, ss := range []string{"fuse=tail lb=twc", "fuse=tail lb=np", "fuse=tail lb=warp delta=8", "fuse=tail lb=thread delta=8 dedup=none",
			"fuse=tail update=rw", "fuse=tail sync=sync delta=8", "fuse=tail dedup=cull push_agg=block"} {
			name := ss
			if directed {
				name += " directed"
			}
			got, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: engine.SSSP, Params: p, Schedule: sched(t, ss)})
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if err := engine.Verify(g, got, want); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			host, fused, switched, first := 0, 0, false, false
			for _, rec := range got.Trace.Records {
				switch {
				case rec.Kind == engine.SwitchRecord && rec.Switch.What == "fuse":
					switched, first = true, true
				case rec.Kind != engine.IterationRecord:
				case !switched:
					if strings.HasPrefix(rec.Note, "fused") {
						t.Errorf("%s: iteration %d is fused before the switch", name, rec.Iter)
					}
					host++
				default:
					if first && !strings.HasPrefix(rec.Note, "fused") {
						t.Errorf("%s: iteration %d after the switch is not fused (%q)", name, rec.Iter, rec.Note)
					}
					first = false
					fused++
				}
			}
			if host == 0 || !switched || fused == 0 {
				t.Errorf("%s: %d host-driven steps, switch %v, %d fused iterations; want some, a switch, and fused ones after it", name, host, switched, fused)
			}
		}
	}
}
