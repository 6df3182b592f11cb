//go:build cuda

package gpu

import (
	"fmt"

	"github.com/gworkbench/gworkbench/engine"
)

// unsupported returns an error wrapping engine.ErrUnsupported with the reason.
func unsupported(format string, args ...any) error {
	return fmt.Errorf("gpu: "+format+": %w", append(args, engine.ErrUnsupported)...)
}

// resolve replaces every auto knob the run uses by a concrete choice made from the graph's
// properties, and refuses the valid combinations this engine does not implement.
//
// The choices follow the papers: push and data-driven by default (Indigo2: 76% of the best
// CUDA codes push, 68% are data-driven), direction-optimizing BFS (Beamer; Gunrock), warp-level
// cooperative conversion (IrGL), pull for topology-driven PageRank (Gunrock, GAPBS), and a load
// balancer picked by degree: thread-per-vertex for low, even degrees (road meshes), TWC for
// skewed ones (Merrill; Gunrock's rule sends average degree >= 5 to its LB strategies).
func (r *run) resolve() error {
	s := r.req.Schedule
	alg := r.req.Algorithm
	p := r.g.Properties()
	switch {
	case s.LB == engine.LBETWC && alg != engine.BFS && alg != engine.SSSP:
		return unsupported("lb=etwc is implemented for BFS and SSSP (thread, warp, cta, twc, edge, coo and np run everywhere)")
	case s.LB == engine.LBVertex && alg != engine.TC:
		return unsupported("lb=vertex is triangle counting's vertex-parallel split; the traversals' thread mapping is lb=thread")
	case s.Blocking > 0 && alg != engine.PR:
		return unsupported("blocking (EdgeBlocking) segments PageRank's pull sweeps; %s has none", alg)
	}
	evenSSSP := alg == engine.SSSP && p.AvgDegree >= 5 && float64(p.MaxDegree) < 8*p.AvgDegree
	if alg == engine.PR {
		autoBinned(&s, p.AvgDegree)
		autoTiled(&s, r.n, p.AvgDegree, p.MaxDegree)
	}
	if alg == engine.CC || alg == engine.PR {
		if err := resolveSweepFuse(&s, alg, p.AvgDegree, p.MaxDegree); err != nil {
			return err
		}
	} else if err := resolveFuse(&s, alg, p.Diameter, evenSSSP); err != nil {
		return err
	}
	if s.LB == engine.LBAuto {
		s.LB = autoLB(alg, p.AvgDegree, float64(p.MaxDegree)/max(p.AvgDegree, 1))
		if alg == engine.BFS && s.Fuse == engine.FuseOn && s.Direction == engine.DirAuto && float64(p.MaxDegree) > 100*p.AvgDegree {
			// fused direction-optimizing BFS on a skewed graph (kron): the bottom-up levels
			// dominate and a thread per row, stopping at its first parent, beats TWC's
			// degree buckets (H200, kron scale 20: 0.212-0.232 ms against 0.249-0.276); the
			// hub's top-down level runs over the whole grid whatever the lb
			s.LB = engine.LBThread
		} else if alg == engine.BFS && s.Fuse == engine.FuseOn && s.Direction == engine.DirAuto && s.LB == engine.LBTWC {
			// the same on even dense degrees (urand), where the top-down levels keep twc's
			// rules: lb=etwc runs the bottom-up levels a thread per vertex (H200, urand scale
			// 20: 0.254-0.256 ms against twc's 0.268-0.272)
			s.LB = engine.LBETWC
		}
	}
	if s.LB == engine.LBNP && s.NP == 0 {
		s.NP = engine.NPTB | engine.NPWarp | engine.NPFG
	}
	if s.Update == engine.UpdateAuto && alg != engine.PR {
		s.Update = engine.RMW
	}
	switch alg {
	case engine.BFS, engine.SSSP:
		if alg == engine.SSSP {
			switch s.Method {
			case engine.MethodAuto, engine.NearFar:
				if s.Driven != engine.Topology {
					// a topology-driven run is Bellman-Ford sweeps: no method applies (Validate)
					s.Method = engine.NearFar
				}
			default:
				return unsupported("method=%s: the GPU engine's SSSP is near-far (method=nearfar)", s.Method)
			}
			if s.Delta == 0 {
				s.Delta = autoDelta(r)
			}
			if s.Direction == engine.DirAuto {
				s.Direction = engine.Push
			}
		} else if s.Direction == engine.DirAuto {
			if s.Alpha == 0 {
				s.Alpha = engine.DefaultAlpha
			}
			if s.Beta == 0 {
				s.Beta = engine.DefaultBeta
			}
		}
		r.resolveData(&s, alg)
	case engine.CC:
		labelKnobs := s.Direction != engine.DirAuto || s.Driven != engine.DrivenAuto || s.Frontier != engine.FrontierAuto ||
			s.Dedup != engine.DedupAuto || s.PushAgg != engine.AggAuto || s.Sync != engine.SyncAuto || s.Update == engine.RW
		switch s.Method {
		case engine.MethodAuto:
			if labelKnobs {
				s.Method = engine.LabelProp
			} else {
				s.Method = engine.Afforest
			}
		case engine.LabelProp, engine.SV, engine.Afforest:
		default:
			return unsupported("method=%s: the GPU engine's CC is labelprop, sv or afforest", s.Method)
		}
		if s.Method == engine.LabelProp {
			if s.Direction == engine.DirAuto {
				s.Direction = engine.Push
			}
			r.resolveData(&s, alg)
		}
	case engine.PR:
		if s.Driven == engine.DrivenAuto {
			s.Driven = engine.Topology
		}
		if s.Direction == engine.DirAuto {
			if s.Driven == engine.Data {
				s.Direction = engine.Push
			} else {
				s.Direction = engine.Pull
			}
		}
		req := r.req.Schedule
		if s.Blocking == 0 && s.Fuse == engine.FuseOff && s.Driven == engine.Topology && s.Direction == engine.Pull &&
			req.LB == engine.LBAuto && req.Sync == engine.SyncAuto {
			// blocking=auto blocks only when lb and sync are auto too: a chosen lb or sync
			// may be one the blocked sweep refuses (edge, coo, np; Gauss-Seidel)
			s.Blocking = autoBlocking(r.n, p.AvgDegree, p.MaxDegree)
		}
		if s.Blocking == 0 {
			s.Blocking = engine.BlockingOff
		}
		if s.Sync == engine.SyncAuto {
			switch {
			case s.Blocking > 0:
				s.Sync = engine.SyncDB // blocked sweeps accumulate partial sums: Jacobi
			case s.Driven == engine.Data:
				s.Sync = engine.Async
			case s.Fuse == engine.FuseOn && p.AvgDegree < 5 && s.LB == engine.LBTWC:
				// fused sweeps on sparse graphs: Gauss-Seidel converges in fewer sweeps of the
				// same cost (road 1.5M, H200: 23 sweeps, 0.91 ms, against Jacobi's 33, 1.45 ms)
				s.Sync = engine.Async
			case s.Direction == engine.Pull && p.AvgDegree >= 5 && float64(p.MaxDegree) < 8*p.AvgDegree &&
				(r.req.Schedule.LB == engine.LBAuto || r.req.Schedule.LB == engine.LBWarp || r.req.Schedule.LB == engine.LBEdge):
				// even degrees (urand): Gauss-Seidel converges in 4 sweeps where Jacobi needs 6
				// (warp per vertex: 1.73 vs 1.97 ms on urand scale 20), and lb=edge's tiles
				// (a warp per 8 vertices, their in-edges split evenly over its lanes) keep
				// more gathers in flight than a warp per vertex (H200, fused: 0.285 against
				// 0.336 ms a sweep, NOTES.md)
				s.Sync = engine.Async
				if r.req.Schedule.LB == engine.LBAuto {
					s.LB = engine.LBEdge
				}
			default:
				s.Sync = engine.SyncDB
			}
		}
		if binnedPush(&s) && s.LB != engine.LBEdge {
			if r.req.Schedule.LB != engine.LBAuto {
				return unsupported("push with blocking bins the destinations in shared memory and gives every block an equal run of the bins' edges (lb=edge); lb=%s needs blocking off", s.LB)
			}
			s.LB = engine.LBEdge
		}
		switch {
		case s.Driven == engine.Data && s.Sync == engine.SyncDB:
			return unsupported("data-driven PageRank applies residuals as they arrive; sync=sync (Jacobi) needs driven=topology")
		case s.Driven == engine.Topology && s.Direction == engine.Push && s.Sync == engine.Async:
			return unsupported("topology-driven push PageRank accumulates into a second array (Jacobi); sync=async needs direction=pull")
		case s.Direction == engine.Pull && s.Sync == engine.Async && (s.LB == engine.LBCOO || s.LB == engine.LBNP):
			// (pull lb=edge splits a tile's edges over a warp and writes each vertex once: it
			// runs both)
			return unsupported("sync=async (Gauss-Seidel) updates each vertex once in place; lb=%s splits a vertex's in-edges over threads", s.LB)
		case s.Blocking > 0 && s.Sync == engine.Async && s.LB != engine.LBEdge:
			// (blocking with lb=edge is the tiled sweep: a block owns its vertices' sums and
			// writes each vertex once, so it runs both)
			return unsupported("blocking with lb=%s sums each vertex's in-edges segment by segment and applies the sums after the last (Jacobi, sync=sync); sync=async (Gauss-Seidel) needs blocking off or lb=edge", s.LB)
		case s.Blocking > 0 && (s.LB == engine.LBCOO || s.LB == engine.LBNP):
			return unsupported("blocking maps the blocked layout's rows with lb=thread|warp|cta|twc, or tiles it with lb=edge; lb=%s needs blocking off", s.LB)
		}
		if s.Update == engine.UpdateAuto {
			s.Update = engine.RMW
		}
	}
	r.s = s
	r.res.Schedule = s
	return nil
}

// autoLB picks the load balancer from the degrees, as measured on an H200 (NOTES.md): TWC
// (Merrill; Gunrock) wherever degrees are high or skewed; on sparse meshes (average degree
// under 5, road networks) a warp per vertex for the traversals, whose frontiers are a few
// hundred vertices that a thread each would walk serially, and a thread per vertex for the
// all-vertex sweeps of CC.
func autoLB(alg engine.Algorithm, avgDeg, skew float64) engine.LoadBalance {
	if avgDeg >= 5 {
		if alg == engine.SSSP && skew < 8 {
			// even degrees (urand, fused by resolveFuse): np, whose fused steps take twc's
			// small- and rich-frontier rules and pack the rest (H200, urand scale 20: 2.93-2.94
			// ms against warp's 3.26-3.29, twc's 3.07, etwc's 3.00)
			return engine.LBNP
		}
		return engine.LBTWC
	}
	switch alg {
	case engine.BFS, engine.SSSP:
		return engine.LBWarp
	case engine.CC:
		return engine.LBThread
	}
	return engine.LBTWC
}

// resolveData fills the knobs of a data-driven traversal.
func (r *run) resolveData(s *engine.Schedule, alg engine.Algorithm) {
	if s.Driven == engine.DrivenAuto {
		s.Driven = engine.Data
	}
	if s.Driven == engine.Hybrid && s.Threshold == 0 {
		s.Threshold = engine.DefaultThreshold
	}
	if s.Sync == engine.SyncAuto {
		s.Sync = engine.Async
	}
	if s.Driven == engine.Topology {
		return
	}
	if s.Frontier == engine.FrontierAuto {
		s.Frontier = engine.Queue
	}
	if s.Dedup == engine.DedupAuto {
		switch {
		case s.Direction == engine.Pull:
			s.Dedup = engine.DedupNone
		case alg == engine.BFS && s.Update == engine.RMW:
			s.Dedup = engine.DedupNone // the CAS claim pushes each vertex once
		default:
			s.Dedup = engine.DedupAtomic
		}
	}
	if s.PushAgg == engine.AggAuto {
		s.PushAgg = engine.AggWarp
		p := r.g.Properties()
		switch {
		case alg == engine.BFS:
			s.PushAgg = engine.AggBlock // measured 10-15% faster on kron and urand (NOTES.md)
		case alg == engine.SSSP && s.Fuse == engine.FuseOn && p.AvgDegree >= 5 && float64(p.MaxDegree) < 8*p.AvgDegree:
			// fused SSSP on even dense degrees (urand): ~300K near pushes an iteration, one
			// atomic on the queue's tail per block instead of per warp group (H200, urand scale
			// 20, delta 96: 2.51 -> 1.89 ms, NOTES.md)
			s.PushAgg = engine.AggBlock
		}
	}
}

// autoDelta picks the near-far bucket width from the weights: about the mean weight times a
// factor that grows as the degree falls, so that each near phase has enough work to fill the
// GPU on sparse, high-diameter graphs (road networks) without much redundant relaxation on
// dense ones: three quarters of the mean weight on even dense degrees, 16 times wider on
// skewed graphs. Unweighted graphs count every edge as 1 (NY.gr, average degree 2.8: delta 11,
// where the old fixed delta 1 ran 416 one-level phases at 5.5 ms against 2.7 ms for delta 64).
func autoDelta(r *run) int {
	g := r.g
	mean := 1.0 // an unweighted graph: every edge weighs 1, and the same factor applies
	if len(g.Weights) > 0 {
		var sum int64
		step := len(g.Weights)/4096 + 1
		cnt := 0
		for i := 0; i < len(g.Weights); i += step {
			sum += int64(g.Weights[i])
			cnt++
		}
		mean = float64(sum) / float64(cnt)
	}
	p := g.Properties()
	f := 32 / max(p.AvgDegree, 1)
	f = min(max(f, 1), 16)
	if p.AvgDegree >= 5 && float64(p.MaxDegree) < 8*p.AvgDegree {
		// even, dense degrees (urand): three quarters of the mean weight; each near phase
		// still fills the GPU (H200, urand scale 20, fused, push_agg=block: delta 63 2.13 ms,
		// 96 1.89, 128 2.24; earlier, with per-warp pushes, 64 3.41 and 127 3.60)
		f = 0.75
	}
	if float64(p.MaxDegree) > 100*p.AvgDegree {
		// skewed (kron): hubs settle most vertices in a few wide buckets (measured: delta 1024 to
		// 4096 beats 128 by 1.5x on kron scale 20)
		f *= 16
	}
	d := int(mean * f)
	return max(d, 1)
}

// resolveFuse decides fuse=auto and checks fuse=on: the fused loops (kernels/common.cuh
// fused_loop, kernels/bfs.cu bfs_do_loop) run data-driven BFS and SSSP over a queue with
// lb=thread|warp|cta|twc|np|etwc: push BFS and SSSP, and direction-optimizing BFS (direction
// auto) with the push/pull decision taken on the device. Auto fuses on high-diameter graphs
// (estimated diameter >= 100), where thousands of short steps make launch and read-back
// overhead dominate (IrGL Table 1; UGF: "kernel fusion essential on road graphs"): push,
// since those frontiers never reach Beamer's pull threshold; SSSP on even degrees (urand:
// 30-odd near-far steps, 3.56 ms fused against 3.98 ms on an H200); and direction-optimizing
// BFS everywhere else (its 5-10 levels each paid ~25 us of host round trip unfused).
func resolveFuse(s *engine.Schedule, alg engine.Algorithm, diameter int, evenSSSP bool) error {
	fusable := (alg == engine.BFS || alg == engine.SSSP) &&
		(s.Direction == engine.DirAuto || s.Direction == engine.Push) &&
		(s.Driven == engine.DrivenAuto || s.Driven == engine.Data) &&
		(s.Frontier == engine.FrontierAuto || s.Frontier == engine.Queue) &&
		(s.LB == engine.LBAuto || s.LB == engine.LBThread || s.LB == engine.LBWarp || s.LB == engine.LBCTA || s.LB == engine.LBTWC ||
			s.LB == engine.LBNP || s.LB == engine.LBETWC)
	dirOpt := alg == engine.BFS && s.Direction == engine.DirAuto
	switch s.Fuse {
	case engine.FuseOn:
		if !fusable {
			return unsupported("fuse=on runs data-driven BFS and SSSP over a queue with lb=thread|warp|cta|twc|np|etwc, push or (BFS) direction-optimizing (not %s)", s.Relevant(alg, "gpu"))
		}
	case engine.FuseAuto:
		s.Fuse = engine.FuseOff
		switch {
		case !fusable:
		case diameter >= 100 && s.Alpha == 0 && s.Beta == 0:
			s.Fuse, dirOpt = engine.FuseOn, false
		case dirOpt || evenSSSP:
			s.Fuse = engine.FuseOn
		}
	}
	if s.Fuse == engine.FuseOn {
		if !dirOpt {
			s.Direction = engine.Push
		}
		s.Driven, s.Frontier = engine.Data, engine.Queue
	}
	return nil
}
