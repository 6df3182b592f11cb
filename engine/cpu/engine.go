package cpu

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

func init() { engine.Register("cpu", func() (engine.Engine, error) { return Engine{}, nil }) }

// Engine is the parallel CPU engine.
type Engine struct{}

var _ engine.Engine = Engine{}

// Name returns "cpu".
func (Engine) Name() string { return "cpu" }

// Run is one execution: what an algorithm driver reads and fills.
type Run struct {
	Req     *engine.Request
	G       *graph.CSR
	Res     *engine.Result // driver fills the values, Summary counters and Schedule (resolved)
	Workers int            // resolved worker count

	stop atomic.Bool // set when the request's context is cancelled; see stopped
	team *team       // the workers of parallel loops, started on first use
	hot  bool        // the team spins hot (see teamSpin): a host of many processors

	// collect, if set by the driver, takes the summary's counts from the values after the
	// run's clock stops, as the GPU engine's collect does: the time is the kernel's, as
	// GAPBS's trial time, which leaves out the statistics it prints.
	collect func() error
}

// driver runs one algorithm. It resolves the auto knobs it uses into r.Res.Schedule, appends
// trace records through r.emit, and checks ctx between iterations (and within long ones).
type driver func(ctx context.Context, r *Run) error

var drivers = map[engine.Algorithm]driver{}

func register(a engine.Algorithm, d driver) { drivers[a] = d }

// ctxErr returns the context's error once the run has been stopped, nil before.
// It also asks ctx itself, since the stop flag is set from another goroutine a moment after
// the cancellation: call it between iterations, and r.stopped() inside them.
func (r *Run) ctxErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		r.stop.Store(true)
		return err
	}
	if r.stopped() {
		return context.Canceled
	}
	return nil
}

// vertexLB resolves the lb knob for an algorithm whose loops hand whole vertices (and their
// edge lists) to workers: auto and vertex run as lb=vertex; a GPU thread mapping is refused
// rather than quietly ignored.
func (r *Run) vertexLB() error {
	switch lb := r.Res.Schedule.LB; lb {
	case engine.LBAuto, engine.LBVertex:
		r.Res.Schedule.LB = engine.LBVertex
		return nil
	default:
		return fmt.Errorf("cpu: %s lb=%s: the CPU engine hands each worker whole vertices (lb=vertex); thread, warp and block mappings are GPU schedules: %w",
			r.Req.Algorithm, lb, engine.ErrUnsupported)
	}
}

// resolveCommon settles the knobs every CPU driver treats alike, for the result: workers hand
// out pieces dynamically (split=dynamic) of each loop's own grain (chunk=loop), and take whole
// vertices (lb=vertex); sssp's buckets are queues. The result stays a schedule Validate takes.
func resolveCommon(s *engine.Schedule, a engine.Algorithm) {
	if s.Split == engine.SplitAuto {
		s.Split = engine.Dynamic
	}
	if s.Chunk == 0 && s.Split != engine.Blocked { // a blocked split has no chunks
		s.Chunk = engine.ChunkLoop
	}
	if a == engine.SSSP && s.Frontier == engine.FrontierAuto && s.Driven != engine.Topology {
		s.Frontier = engine.Queue // the buckets are per-worker queues
	}
	if k, ok := engine.LookupKnob("lb"); ok && k.AppliesTo(a, "cpu") && s.LB == engine.LBAuto {
		s.LB = engine.LBVertex
	}
}

// emit appends rec to the trace and streams it to the observer.
func (r *Run) emit(rec engine.Record) {
	r.Res.Trace.Records = append(r.Res.Trace.Records, rec)
	r.Req.Emit(rec)
}

// Run validates the request, runs the algorithm's driver, and fills the summary.
func (Engine) Run(ctx context.Context, req engine.Request) (*engine.Result, error) {
	if err := req.Schedule.Validate(req.Algorithm, "cpu"); err != nil {
		return nil, err
	}
	d, ok := drivers[req.Algorithm]
	if !ok {
		return nil, fmt.Errorf("cpu: %s: %w", req.Algorithm, engine.ErrUnsupported)
	}
	if req.Schedule.Method == engine.AsyncRanges {
		return nil, fmt.Errorf("cpu: %s method=async keeps ranges of the vertices in a GPU's shared memory; it is a GPU engine schedule: %w", req.Algorithm, engine.ErrUnsupported)
	}
	w := req.Schedule.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	res := &engine.Result{
		Algorithm: req.Algorithm, Engine: "cpu", Params: req.Params, Schedule: req.Schedule,
		Graph: engine.InfoOf(req.GraphName, req.Graph),
	}
	res.Schedule.Workers = w
	r := &Run{Req: &req, G: req.Graph, Res: res, Workers: w, hot: hotTeam(w)}
	res.Provenance = engine.MachineProvenance()
	defer context.AfterFunc(ctx, func() { r.stop.Store(true) })()
	defer func() {
		if r.team != nil {
			r.team.close()
		}
	}()
	start := time.Now()
	if err := d(ctx, r); err != nil {
		return nil, err
	}
	elapsed := time.Since(start)
	if r.collect != nil {
		if err := r.collect(); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err // a driver that noticed r.stopped() late still answers the cancellation
	}
	res.Finish(elapsed)
	resolveCommon(&res.Schedule, req.Algorithm)
	return res, nil
}
