package engine

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/gworkbench/gworkbench/graph"
)

// Engine runs algorithms. Implementations: engine/ref (serial oracle), engine/cpu (parallel
// Go), engine/gpu (CUDA, build tag cuda).
type Engine interface {
	// Name is the name the engine registered under.
	Name() string
	// Run executes the request. It streams each trace record to req.Observer while it runs,
	// returns ctx.Err() within 50 ms of ctx being cancelled, validates req.Schedule, and
	// returns an error wrapping ErrUnsupported for a valid schedule it does not implement.
	Run(ctx context.Context, req Request) (*Result, error)
}

// Request is one run: which graph, algorithm, parameters and schedule.
type Request struct {
	Graph     *graph.CSR
	GraphName string
	Algorithm Algorithm
	Params    Params
	Schedule  Schedule
	Observer  Observer     // may be nil
	Progress  ProgressFunc // may be nil: hears how a long preparation (a layout's build) goes
}

// Progress is how far a run's long preparation has come: a step before the first iteration,
// such as building the layout a schedule needs, that can take seconds on a big graph.
type Progress struct {
	What  string // the step, as a phrase: "building the blocked layout"
	Unit  string // what Done and Total count: "arcs"
	Done  int64
	Total int64 // > 0
}

// ProgressFunc receives Progress reports, at most a few a second, from any of the engine's
// goroutines (one at a time); the last report of a step has Done == Total. It must return
// quickly.
type ProgressFunc func(Progress)

// Emit sends rec to the request's observer, if any.
func (r *Request) Emit(rec Record) {
	if r.Observer != nil {
		r.Observer(rec)
	}
}

// Report sends p to the request's progress function, if any.
func (r *Request) Report(p Progress) {
	if r.Progress != nil {
		r.Progress(p)
	}
}

// Factory opens an engine. An engine that cannot work here (no GPU, built without CUDA)
// returns an error that says why and what to do.
type Factory func() (Engine, error)

var (
	regMu     sync.Mutex
	factories = map[string]Factory{}
	opened    = map[string]Engine{}
)

// Register makes an engine available by name. It panics on a nil factory or a duplicate name,
// as database/sql.Register does; engines call it from init.
func Register(name string, f Factory) {
	regMu.Lock()
	defer regMu.Unlock()
	if f == nil {
		panic("engine: Register factory is nil")
	}
	if _, dup := factories[name]; dup {
		panic("engine: Register called twice for " + name)
	}
	factories[name] = f
}

// Engines returns the registered engine names, sorted.
func Engines() []string {
	regMu.Lock()
	defer regMu.Unlock()
	names := make([]string, 0, len(factories))
	for n := range factories {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Open returns the named engine, opening it on first use; later calls return the same engine.
func Open(name string) (Engine, error) {
	regMu.Lock()
	defer regMu.Unlock()
	if e, ok := opened[name]; ok {
		return e, nil
	}
	f, ok := factories[name]
	if !ok {
		names := make([]string, 0, len(factories))
		for n := range factories {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("engine: unknown engine %q%s (have %v)", name, didYouMean(name, names), names)
	}
	e, err := f()
	if err != nil {
		return nil, err
	}
	opened[name] = e
	return e, nil
}
