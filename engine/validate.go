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
	if s.Update == RW && !a.Monotonic() {
		return fmt.Errorf("update=rw needs a monotonic algorithm (bfs, sssp, cc): %s's values do not only move one way, so a lost write would be wrong", a)
	}
	if err := s.checkNeeds(a, genericNeeds); err != nil {
		return err
	}
	if s.Fuse == FuseBlock && a != BFS && a != SSSP {
		return fmt.Errorf("fuse=block runs BFS's and SSSP's worklist loops in one thread block while the frontier is small; %s has no such loop (fuse=on fuses it)", a)
	}
	if s.Fuse == FuseTail && a != SSSP {
		return fmt.Errorf("fuse=tail runs SSSP's big steps a launch each and the rest of its loop in one launch; %s has no such loop (fuse=on fuses it)", a)
	}
	switch a {
	case PR:
		if s.Driven == Data && s.Direction == Pull {
			return fmt.Errorf("data-driven PageRank pushes residuals to out-neighbours; it has no pull form (use driven=topology for pull)")
		}
		if s.Driven == Hybrid {
			return fmt.Errorf("driven=hybrid switches BFS, SSSP and CC between worklist and sweep; PageRank runs topology-driven (pull or push) or data-driven (residual push)")
		}
		if s.Method != MethodAuto && s.Method != Binned && s.Method != DPB {
			return fmt.Errorf("method=%s is not a pr method; pr has binned and dpb", s.Method)
		}
		if s.Method != MethodAuto && (s.Direction == Pull || s.Driven == Data) {
			return fmt.Errorf("method=%s sums topology-driven push sweeps into destination bins; it needs direction=push and driven=topology (or auto), not direction=%s driven=%s", s.Method, s.Direction, s.Driven)
		}
	case BFS:
		if s.Method != MethodAuto && s.Method != AsyncRanges {
			return fmt.Errorf("method=%s is not a bfs method; bfs has async (the level-synchronous traversal is method=auto's other choice)", s.Method)
		}
		if err := s.checkAsync(a); err != nil {
			return err
		}
	case SSSP:
		if s.Method != MethodAuto && s.Method != DeltaStep && s.Method != NearFar && s.Method != AsyncRanges {
			return fmt.Errorf("method=%s is not an sssp method; sssp has deltastep, nearfar and async", s.Method)
		}
		if err := s.checkAsync(a); err != nil {
			return err
		}
	case CC:
		if s.Method != MethodAuto && s.Method != LabelProp && s.Method != SV && s.Method != Afforest && s.Method != ECL {
			return fmt.Errorf("method=%s is not a cc method; cc has labelprop, sv, afforest and ecl", s.Method)
		}
	case MST:
		if s.Method != MethodAuto && s.Method != Boruvka && s.Method != ECL {
			return fmt.Errorf("method=%s is not an mst method; mst has boruvka and ecl", s.Method)
		}
	case MIS:
		if s.Method != MethodAuto && s.Method != Luby && s.Method != ECL {
			return fmt.Errorf("method=%s is not a mis method; mis has luby and ecl", s.Method)
		}
		if s.Dedup == DedupNone || s.Dedup == DedupCull {
			return fmt.Errorf("dedup=%s: an MIS worklist holds each undecided vertex once (Indigo2 has no duplicate-worklist MIS), so there are no duplicates to allow or cull", s.Dedup)
		}
	case TC:
		if s.LB != LBAuto && s.LB != LBVertex && s.LB != LBEdge && s.LB != LBThread {
			return fmt.Errorf("lb=%s: triangle counting is vertex-, edge- or (GPU, in place) thread-parallel (lb=vertex|edge|thread)", s.LB)
		}
	}
	if s.Driven == Hybrid && a != PR {
		// The temporal hybrid is defined by its switch point; an algorithm without the threshold
		// knob has no hybrid (Nasre et al. study it for BFS and SSSP; CC's label propagation is
		// the same worklist-or-sweep choice).
		if k, _ := LookupKnob("threshold"); !hasAlg(k.Algorithms, a) {
			return fmt.Errorf("driven=hybrid switches between a worklist and full sweeps at threshold x V, and threshold is a knob of %s only: %s runs data- or topology-driven", algList(k.Algorithms), a)
		}
	}
	return s.checkNeeds(a, algorithmNeeds)
}

// checkAsync refuses, for method=async, the knobs of the level-synchronous traversals: it has
// one launch of its own, no frontier between levels and no load balancer (a thread per vertex
// of a range), and pushes over out-arcs as soon as a value falls (direction=push and
// driven=data say so, and are what it resolves to).
func (s *Schedule) checkAsync(a Algorithm) error {
	if s.Method != AsyncRanges {
		return nil
	}
	for _, name := range []string{"direction", "driven", "lb", "frontier", "dedup", "update", "sync", "push_agg", "fuse"} {
		k, _ := LookupKnob(name)
		if v := k.get(s); v != k.Default && !(name == "direction" && s.Direction == Push) && !(name == "driven" && s.Driven == Data) {
			return fmt.Errorf("method=async relaxes each range's vertices as they are queued, in one launch, pushing over out-arcs; %s=%s belongs to the level-synchronous %s (method=auto)", name, v, a)
		}
	}
	return nil
}

// The order Validate checks knob needs in, so that a schedule breaking several rules gets the
// same first sentence every time: the rules of every algorithm first, then those of one.
var (
	genericNeeds   = []string{"dedup", "frontier", "push_agg", "threshold", "alpha", "beta", "np", "chunk"}
	algorithmNeeds = []string{"blocking", "method", "direction", "driven", "update", "sync", "relabel"}
)

// checkNeeds refuses the first of the named knobs that is set (not default) in s and whose
// need (knobNeeds) fails.
func (s *Schedule) checkNeeds(a Algorithm, names []string) error {
	for _, name := range names {
		k, _ := LookupKnob(name)
		if k.get(s) == k.Default {
			continue
		}
		if why := s.knobInert(name, a); why != "" {
			return errors.New(why)
		}
	}
	return nil
}

// knobNeeds holds, per knob, what the rest of the schedule (and the algorithm) must be for
// the knob to mean something: the function returns "" when it does, or the sentence that says
// why it does not. Validate refuses a knob set to a non-default value whose need fails;
// Relevant leaves such a knob out. A need may read the knob's own value (dedup=none is
// allowed with pull, where it states what a pull step does anyway).
var knobNeeds = map[string]func(s *Schedule, a Algorithm) string{
	"alpha": needDirAuto,
	"beta":  needDirAuto,
	"threshold": func(s *Schedule, a Algorithm) string {
		if s.Driven != Hybrid {
			return "threshold is the hybrid's switch point: set driven=hybrid to use it"
		}
		return ""
	},
	"np": func(s *Schedule, a Algorithm) string {
		if s.LB != LBNP {
			return "np picks the schedulers of lb=np: set lb=np to use it"
		}
		return ""
	},
	"chunk": func(s *Schedule, a Algorithm) string {
		if s.Split == Blocked {
			return "chunk sizes the pieces of a cyclic or dynamic split; split=blocked gives each worker one block"
		}
		return ""
	},
	"dedup": both(labelPropOnly("dedup"), func(s *Schedule, a Algorithm) string {
		switch {
		case s.Driven == Topology:
			return fmt.Sprintf("dedup=%s only means something for a data-driven run: a topology-driven run visits every vertex and has no worklist to hold duplicates", s.Dedup)
		case s.Direction == Pull && s.Dedup != DedupNone:
			return fmt.Sprintf("dedup=%s guards worklist pushes, and a pull step writes only the vertex it owns, so it never pushes duplicates", s.Dedup)
		}
		return ""
	}),
	"frontier": both(labelPropOnly("frontier"), func(s *Schedule, a Algorithm) string {
		if s.Driven == Topology {
			return fmt.Sprintf("frontier=%s only means something for a data-driven run: a topology-driven run has no frontier to represent", s.Frontier)
		}
		return ""
	}),
	"push_agg": both(labelPropOnly("push_agg"), func(s *Schedule, a Algorithm) string {
		if s.Driven == Topology {
			return fmt.Sprintf("push_agg=%s aggregates worklist pushes, and a topology-driven run pushes nothing", s.PushAgg)
		}
		return ""
	}),
	"blocking": func(s *Schedule, a Algorithm) string {
		// blocking=off asks for nothing, so it is never refused.
		if a == PR && s.Blocking != BlockingOff && s.Driven == Data {
			return "blocking cuts a topology-driven sweep's edges into blocks (EdgeBlocking for pull, destination bins for push); it needs driven=topology"
		}
		return ""
	},
	"method": func(s *Schedule, a Algorithm) string {
		if a == SSSP && s.Driven == Topology {
			return fmt.Sprintf("method=%s is a data-driven worklist; driven=topology runs Bellman-Ford sweeps instead", s.Method)
		}
		return ""
	},
	"direction": labelPropOnly("direction"),
	"driven":    labelPropOnly("driven"),
	"update": func(s *Schedule, a Algorithm) string {
		// Afforest links each edge once, and its link retries a compare-and-swap that another
		// link got to first; a plain write can lose a link that no later pass redoes, where sv
		// and labelprop repeat until nothing changes.
		if a == CC && s.Method == Afforest && s.Update == RW {
			return "method=afforest links each edge once with a compare-and-swap that retries when another link got there first (update=rmw); a plain write (update=rw) could lose a link that no later pass redoes (sv and labelprop repeat until nothing changes, so they can use rw)"
		}
		return ""
	},
	"sync": both(labelPropOnly("sync"), func(s *Schedule, a Algorithm) string {
		// A push sweep sums each vertex's new rank from many writers, so the rank exists only
		// when the sweep ends: topology-driven push PageRank is Jacobi by construction.
		if a == PR && s.Direction == Push && s.Driven == Topology && s.Sync == Async {
			return "sync=async: a topology-driven push sweep sums each vertex's new rank from all its in-neighbours' pushes, so the rank exists only when the sweep ends (Jacobi, sync=sync); the in-place forms are direction=pull (Gauss-Seidel) and driven=data (residual push)"
		}
		return ""
	}),
	"relabel": func(s *Schedule, a Algorithm) string {
		// Relabelling renumbers vertices by degree so that the degree orientation becomes the
		// id orientation; with arcs oriented by id or not at all, there is no degree order.
		if a == TC && (s.Order == OrderID || s.Order == OrderNone) && s.Relabel != RelabelOff {
			return fmt.Sprintf("relabel=%s renumbers the vertices by degree, which only means something when arcs are oriented by degree (order=degree); with order=%s there is nothing to renumber by (use relabel=off)", s.Relabel, s.Order)
		}
		return ""
	},
}

func needDirAuto(s *Schedule, a Algorithm) string {
	if s.Direction != DirAuto {
		return fmt.Sprintf("alpha and beta steer direction-optimizing traversal: they need direction=auto, not %s", s.Direction)
	}
	return ""
}

// labelPropOnly is the need of a knob that only chooses among cc label-propagation schedules,
// or mis and mst rounds (direction, driven, frontier, dedup, sync, push_agg): meaningless with
// cc's method=sv, afforest or ecl, and with mis's and mst's method=ecl.
func labelPropOnly(name string) func(s *Schedule, a Algorithm) string {
	return func(s *Schedule, a Algorithm) string {
		if a == CC && (s.Method == SV || s.Method == Afforest || s.Method == ECL) {
			return fmt.Sprintf("method=%s hooks and compresses trees; %s=%s chooses among label-propagation schedules (method=labelprop)", s.Method, name, s.Get(name))
		}
		if a == MIS && s.Method == ECL {
			return fmt.Sprintf("method=ecl decides every vertex in place in one pass without rounds or worklists; %s=%s chooses among Luby's round schedules (method=luby)", name, s.Get(name))
		}
		if a == MST && s.Method == ECL {
			return fmt.Sprintf("method=ecl runs Boruvka over a worklist of edges; %s=%s chooses among the vertex-centric rounds (method=boruvka)", name, s.Get(name))
		}
		return ""
	}
}

// both is the need of a knob with two: the first failing one's sentence.
func both(f, g func(s *Schedule, a Algorithm) string) func(s *Schedule, a Algorithm) string {
	return func(s *Schedule, a Algorithm) string {
		if why := f(s, a); why != "" {
			return why
		}
		return g(s, a)
	}
}

// knobInert returns why the named knob means nothing in s for algorithm a ("" when it does):
// the knob's need from knobNeeds.
func (s *Schedule) knobInert(name string, a Algorithm) string {
	if need := knobNeeds[name]; need != nil {
		return need(s, a)
	}
	return ""
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
