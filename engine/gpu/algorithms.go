//go:build cuda

package gpu

import (
	"fmt"

	"github.com/gworkbench/gworkbench/engine"
)

// driver is one algorithm on the GPU engine, in three steps that Engine.Run calls in order:
//
//   - resolve replaces every auto knob the algorithm uses by a concrete choice made from the
//     graph's properties, and refuses the valid combinations this engine does not implement
//     (engine.ErrUnsupported). It reads the request's schedule as r.req.Schedule and fills s.
//   - prepare (optional) builds and uploads what the run needs once per graph, outside the
//     timing, as the graph's upload is (the PageRank blocked layouts, the smallest weight,
//     TC's relabelling ids, method=async's ranges).
//   - run executes the algorithm (timed): launches, trace records, and r.collect to fetch the
//     result once the device is done.
//
// Each algorithm's file holds its three (bfs.go, sssp.go, cc.go, pr.go, tc.go, bc.go, mis.go,
// mst.go); what several share lives in files named for what it does: async.go (BFS's and
// SSSP's method=async), traversal.go (the
// traversals' values, switches and worklist knobs), frontier.go (worklists and the advance
// step), fused.go and fused_sweeps.go (the cooperative loops), launch.go (kernel launches and
// their timing), run.go (the run's buffers and counters), args.go (the kernels' argument
// block), devgraph.go (the graphs' cached device copies).
type driver struct {
	resolve func(r *run, s *engine.Schedule) error
	prepare func(r *run) error
	run     func(r *run) error
}

// drivers is the engine's algorithm table.
var drivers = map[engine.Algorithm]driver{
	engine.BFS:  {resolve: resolveBFS, prepare: prepareBFS, run: bfs},
	engine.SSSP: {resolve: resolveSSSP, prepare: prepareSSSP, run: sssp},
	engine.CC:   {resolve: resolveCC, prepare: prepareCC, run: cc},
	engine.PR:   {resolve: resolvePR, prepare: preparePR, run: pr},
	engine.TC:   {resolve: resolveTC, prepare: prepareTC, run: tc},
	engine.BC:   {resolve: resolveBC, prepare: prepareBC, run: bc},
	engine.MIS:  {resolve: resolveMIS, prepare: prepareMIS, run: mis},
	engine.MST:  {resolve: resolveMST, prepare: prepareMST, run: mst},
}

// unsupported returns an error wrapping engine.ErrUnsupported with the reason.
func unsupported(format string, args ...any) error {
	return fmt.Errorf("gpu: "+format+": %w", append(args, engine.ErrUnsupported)...)
}

// resolve refuses the knob values no algorithm of this engine gives the meaning asked for,
// then lets the algorithm's driver resolve the rest, and records the resolved schedule in the
// run and its result.
//
// The drivers' choices follow the papers: push and data-driven by default (Indigo2: 76% of
// the best CUDA codes push, 68% are data-driven), direction-optimizing BFS (Beamer; Gunrock),
// warp-level cooperative conversion (IrGL), pull for topology-driven PageRank (Gunrock,
// GAPBS), and a load balancer picked by degree: a thread or a warp per vertex for low, even
// degrees (road meshes), TWC for skewed ones (Merrill; Gunrock's rule sends average degree
// >= 5 to its LB strategies).
func (r *run) resolve(d driver) error {
	s := r.req.Schedule
	alg := r.req.Algorithm
	switch {
	case s.LB == engine.LBETWC && alg != engine.BFS && alg != engine.SSSP:
		return unsupported("lb=etwc is implemented for BFS and SSSP (thread, warp, cta, twc, edge, coo and np run everywhere)")
	case s.LB == engine.LBVertex && alg != engine.TC:
		return unsupported("lb=vertex is triangle counting's vertex-parallel split; the traversals' thread mapping is lb=thread")
	case s.Blocking > 0 && alg != engine.PR:
		return unsupported("blocking (EdgeBlocking) segments PageRank's pull sweeps; %s has none", alg)
	}
	if err := d.resolve(r, &s); err != nil {
		return err
	}
	r.s = s
	r.res.Schedule = s
	return nil
}

// resolveNP fills lb=np's schedulers: all three unless chosen.
func resolveNP(s *engine.Schedule) {
	if s.LB == engine.LBNP && s.NP == 0 {
		s.NP = engine.NPTB | engine.NPWarp | engine.NPFG
	}
}

// resolveUpdate makes update=auto the atomic read-modify-write.
func resolveUpdate(s *engine.Schedule) {
	if s.Update == engine.UpdateAuto {
		s.Update = engine.RMW
	}
}
