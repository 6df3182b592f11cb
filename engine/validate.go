package engine

import (
	"errors"
	"fmt"
)

// ErrUnsupported is returned (wrapped, with the reason) by an engine asked to run a valid
// schedule it does not implement. Engines never quietly run a different schedule instead.
var ErrUnsupported = errors.New("not supported by this engine")

// Validate refuses a schedule that makes no sense for the algorithm on the engine, with one
// sentence that says why. It checks only the rules that hold for every engine (Indigo2's
// Table 2 of applicable styles, and what each knob means); an engine may still answer
// ErrUnsupported for a valid combination it has not implemented.
func (s Schedule) Validate(a Algorithm, engineName string) error {
	for _, k := range knobs {
		v := k.get(&s)
		if v == k.Default {
			continue
		}
		if k.Algorithms != nil && !hasAlg(k.Algorithms, a) {
			return fmt.Errorf("%s=%s does not apply to %s: %s is a knob of %s", k.Name, v, a, k.Name, algList(k.Algorithms))
		}
		if k.Engines != nil && !hasStr(k.Engines, engineName) && engineName != "ref" {
			return fmt.Errorf("%s=%s does not apply to the %s engine: it is a %s engine knob", k.Name, v, engineName, k.Engines[0])
		}
	}
	dataDriven := s.Driven != Topology
	switch {
	case s.Update == RW && !a.Monotonic():
		return fmt.Errorf("update=rw needs a monotonic algorithm (bfs, sssp, cc): %s's values do not only move one way, so a lost write would be wrong", a)
	case s.Dedup != DedupAuto && !dataDriven:
		return fmt.Errorf("dedup=%s only means something for a data-driven run: a topology-driven run visits every vertex and has no worklist to hold duplicates", s.Dedup)
	case s.Frontier != FrontierAuto && !dataDriven:
		return fmt.Errorf("frontier=%s only means something for a data-driven run: a topology-driven run has no frontier to represent", s.Frontier)
	case s.PushAgg != AggAuto && !dataDriven:
		return fmt.Errorf("push_agg=%s aggregates worklist pushes, and a topology-driven run pushes nothing", s.PushAgg)
	case s.Threshold != 0 && s.Driven != Hybrid:
		return fmt.Errorf("threshold is the hybrid's switch point: set driven=hybrid to use it")
	case (s.Alpha != 0 || s.Beta != 0) && s.Direction != DirAuto:
		return fmt.Errorf("alpha and beta steer direction-optimizing traversal: they need direction=auto, not %s", s.Direction)
	case s.NP != 0 && s.LB != LBNP:
		return fmt.Errorf("np picks the schedulers of lb=np: set lb=np to use it")
	case s.Chunk != 0 && s.Split == Blocked:
		return fmt.Errorf("chunk sizes the pieces of a cyclic or dynamic split; split=blocked gives each worker one block")
	case s.Direction == Pull && s.Dedup != DedupAuto && s.Dedup != DedupNone:
		return fmt.Errorf("dedup=%s guards worklist pushes, and a pull step writes only the vertex it owns, so it never pushes duplicates", s.Dedup)
	}
	switch a {
	case PR:
		if s.Driven == Data && s.Direction == Pull {
			return fmt.Errorf("data-driven PageRank pushes residuals to out-neighbours; it has no pull form (use driven=topology for pull)")
		}
		if s.Driven == Hybrid {
			return fmt.Errorf("driven=hybrid switches BFS, SSSP and CC between worklist and sweep; PageRank runs topology-driven (pull or push) or data-driven (residual push)")
		}
		if s.Blocking != 0 && (s.Driven == Data || s.Direction == Push) {
			return fmt.Errorf("blocking (EdgeBlocking) segments a topology-driven pull sweep by destination; it needs driven=topology and direction=pull")
		}
	case SSSP:
		if s.Method != MethodAuto && s.Method != DeltaStep && s.Method != NearFar {
			return fmt.Errorf("method=%s is a cc method; sssp has deltastep and nearfar", s.Method)
		}
		if s.Method != MethodAuto && s.Driven == Topology {
			return fmt.Errorf("method=%s is a data-driven worklist; driven=topology runs Bellman-Ford sweeps instead", s.Method)
		}
	case CC:
		if s.Method == DeltaStep || s.Method == NearFar {
			return fmt.Errorf("method=%s is an sssp method; cc has labelprop, sv and afforest", s.Method)
		}
		if (s.Method == SV || s.Method == Afforest) && (s.Direction != DirAuto || s.Driven != DrivenAuto) {
			return fmt.Errorf("method=%s hooks and compresses trees; direction and driven choose among label-propagation schedules (method=labelprop)", s.Method)
		}
	case MIS:
		if s.Dedup == DedupNone {
			return fmt.Errorf("dedup=none: an MIS worklist holds each undecided vertex once (Indigo2 has no duplicate-worklist MIS)")
		}
	case TC:
		if s.LB != LBAuto && s.LB != LBVertex && s.LB != LBEdge {
			return fmt.Errorf("lb=%s: triangle counting is vertex- or edge-parallel (lb=vertex|edge)", s.LB)
		}
	}
	return nil
}

func algList(as []Algorithm) string {
	s := ""
	for i, a := range as {
		switch {
		case i == 0:
		case i == len(as)-1:
			s += " and "
		default:
			s += ", "
		}
		s += string(a)
	}
	return s
}
