package ref

import (
	"context"
	"fmt"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

func init() { engine.Register("ref", func() (engine.Engine, error) { return Engine{}, nil }) }

// Engine is the serial reference engine. It ignores the schedule except to validate it, and
// records what it ran: the textbook algorithm, serially.
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
		Algorithm: req.Algorithm, Engine: "ref", Params: req.Params, Schedule: req.Schedule,
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
