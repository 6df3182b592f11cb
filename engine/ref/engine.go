package ref

import (
	"context"
	"fmt"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

func init() { engine.Register("ref", func() (engine.Engine, error) { return Engine{}, nil }) }

// Engine is the serial reference engine. It ignores the schedule except to validate it, and
// records what it ran: the textbook algorithm, serially, as the resolved schedule of ranSchedule
// (never the request's auto knobs, nor a knob it was asked for and did not follow).
type Engine struct{}

var _ engine.Engine = Engine{}

// Name returns "ref".
func (Engine) Name() string { return "ref" }

// driver computes one algorithm into res (values and Summary counters) and appends trace
// records through emit. It checks ctx between iterations.
type driver func(ctx context.Context, req *engine.Request, res *engine.Result, emit func(engine.Record)) error

var drivers = map[engine.Algorithm]driver{}

func register(a engine.Algorithm, d driver) { drivers[a] = d }

// Run validates the schedule and runs the serial algorithm.
func (Engine) Run(ctx context.Context, req engine.Request) (*engine.Result, error) {
	if err := req.Schedule.Validate(req.Algorithm, "ref"); err != nil {
		return nil, err
	}
	d, ok := drivers[req.Algorithm]
	if !ok {
		return nil, fmt.Errorf("ref: %s: %w", req.Algorithm, engine.ErrUnsupported)
	}
	res := &engine.Result{
		Algorithm: req.Algorithm, Engine: "ref", Params: req.Params, Schedule: ranSchedule(req.Algorithm),
		Graph: engine.InfoOf(req.GraphName, req.Graph), Provenance: engine.MachineProvenance(),
	}
	emit := func(rec engine.Record) {
		res.Trace.Records = append(res.Trace.Records, rec)
		req.Emit(rec)
	}
	start := time.Now()
	if err := d(ctx, &req, res, emit); err != nil {
		return nil, err
	}
	res.Finish(time.Since(start))
	return res, nil
}

// ranSchedule is the schedule the reference engine runs algorithm a with, in the knobs'
// vocabulary: each knob that describes the serial algorithm gets its concrete value, and the
// rest (parallel mappings, engine knobs, variants it has no counterpart of) stay at their
// default. Writes are plain (update=rw) wherever the algorithm is monotonic.
func ranSchedule(a engine.Algorithm) engine.Schedule {
	var s engine.Schedule
	switch a {
	case engine.BFS:
		// A FIFO queue, level by level; a vertex is queued once (checked before it is pushed),
		// and depths are final when written (level-synchronous, as the CPU engine's sync=sync).
		s.Direction, s.Driven, s.Frontier, s.Dedup, s.Update, s.Sync =
			engine.Push, engine.Data, engine.Queue, engine.DedupAtomic, engine.RW, engine.SyncDB
	case engine.SSSP:
		// Dijkstra: a heap worklist with lazy deletion (duplicates allowed, skipped when
		// popped), relaxing out-arcs against the one distance array. Neither deltastep nor
		// nearfar, so method stays auto.
		s.Direction, s.Driven, s.Frontier, s.Dedup, s.Update, s.Sync =
			engine.Push, engine.Data, engine.Queue, engine.DedupNone, engine.RW, engine.Async
	case engine.CC:
		// Union-find, one pass over the arcs: hook a root under the smaller root and halve
		// paths, which is Shiloach-Vishkin's hook and pointer jump applied edge by edge.
		s.Method, s.Update = engine.SV, engine.RW
	case engine.PR:
		// Power iteration pulling over in-edges into a second array (Jacobi).
		s.Direction, s.Driven, s.Sync = engine.Pull, engine.Topology, engine.SyncDB
	case engine.TC:
		// Arcs oriented from lower to higher id, sorted lists merged, no renumbering.
		s.Order, s.Intersect, s.Relabel = engine.OrderID, engine.IntersectMerge, engine.RelabelOff
	case engine.BC:
		// Brandes: a BFS queue per source, pushing to out-neighbours.
		s.Direction, s.Driven, s.Frontier = engine.Push, engine.Data, engine.Queue
	case engine.MIS:
		// One greedy pass over every vertex in priority order, each reading its neighbours'
		// membership from the one array that earlier decisions were written to.
		s.Direction, s.Driven, s.Sync = engine.Pull, engine.Topology, engine.Async
	case engine.MST:
		// Kruskal: one pass over every edge in sorted order (the trace's one topology record).
		s.Driven = engine.Topology
	}
	return s
}
