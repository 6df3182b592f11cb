//go:build cuda

package gpu_test

import (
	"context"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/enginetest"
	"github.com/gworkbench/gworkbench/engine/gpu"
	"github.com/gworkbench/gworkbench/graph"
)

// TestFuseBlockHandoff runs BFS and SSSP with fuse=block on a road network and a kron graph
// with the one-block loop's limit lowered to 8 and 64 vertices, so that the block and the grid
// hand the loop to each other many times, and checks the results against engine/ref and that
// both kernels ran (at 8, with auto delta).
func TestFuseBlockHandoff(t *testing.T) {
	e := openGPU(t)
	ref, _ := engine.Open("ref")
	road := generate(t, "road", map[string]string{"rows": "60", "cols": "60"})
	kron := generate(t, "kron", map[string]string{"scale": "12", "degree": "8"})
	graphs := map[string]*graph.CSR{"road": enginetest.WithUniformWeights(road, 1, 255, 7), "kron": enginetest.WithUniformWeights(kron, 1, 255, 7)}
	for _, lim := range []int64{8, 64} {
		was := gpu.SetBlockMax(lim)
		for name, g := range graphs {
			for _, a := range []engine.Algorithm{engine.BFS, engine.SSSP} {
				want, err := ref.Run(context.Background(), engine.Request{Graph: g, Algorithm: a, Params: enginetest.Params(a)})
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range []engine.Schedule{{Fuse: engine.FuseBlock}, {Fuse: engine.FuseBlock, LB: engine.LBTWC, Delta: 64}, {Fuse: engine.FuseBlock, Update: engine.RW}} {
					if a == engine.BFS && s.Delta != 0 {
						continue // delta is an SSSP knob
					}
					got, err := e.Run(context.Background(), engine.Request{Graph: g, Algorithm: a, Params: enginetest.Params(a), Schedule: s})
					if err != nil {
						t.Errorf("%s %s blockMax=%d [%s]: %v", a, name, lim, s, err)
						continue
					}
					if err := engine.Verify(g, got, want); err != nil {
						t.Errorf("%s %s blockMax=%d [%s]: %v", a, name, lim, s, err)
					}
					if lim != 8 || s.Delta != 0 {
						continue // narrow buckets may never outgrow the block
					}
					kinds := map[bool]bool{}
					for _, rec := range got.Trace.Records {
						for _, k := range rec.Kernels {
							kinds[k.Grid == 1] = true
						}
					}
					if !kinds[true] || !kinds[false] {
						t.Errorf("%s %s blockMax=%d [%s]: want launches of the block and of the grid, got block %v grid %v", a, name, lim, s, kinds[true], kinds[false])
					}
				}
			}
		}
		gpu.SetBlockMax(was)
	}
}
