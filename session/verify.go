package session

import (
	"context"
	"errors"
	"fmt"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

func cmdVerify(ec *execCtx) error {
	name, err := oneName("verify", ec.args)
	if err != nil {
		return err
	}
	s := ec.s
	it, err := s.result(name)
	if err != nil {
		return fmt.Errorf("verify: %v", err)
	}
	if why := it.partial(); why != "" {
		return fmt.Errorf("verify %s: %s; run it again to verify it", it.name, why)
	}
	verr := s.verify(ec.ctx, it.g, it.r)
	if ec.ctx.Err() != nil {
		return &wrapped{fmt.Sprintf("verify %s cancelled", it.name), ec.ctx.Err()}
	}
	if unverifiable(verr) {
		return fmt.Errorf("verify %s: %v", it.name, verr)
	}
	s.mu.Lock()
	if verr != nil {
		it.verified = "FAILED"
	} else {
		it.verified = "ok"
	}
	s.mu.Unlock()
	if verr != nil {
		return fmt.Errorf("verify %s: %s on the %s engine differs from the reference: %v", it.name, it.r.Algorithm, it.r.Engine, trimPkg(verr))
	}
	s.printf("%s: %s agrees with the reference engine (%s)\n", it.name, it.r.Algorithm, verifiedWhat(it.r))
	return nil
}

// verifiedWhat says what the check compared.
func verifiedWhat(r *engine.Result) string {
	n := fmtCount(int64(r.Graph.Vertices))
	switch r.Algorithm {
	case engine.BFS:
		return "the depths of all " + n + " vertices are equal"
	case engine.SSSP:
		return "the distances of all " + n + " vertices are equal"
	case engine.CC:
		return "the same partition of " + n + " vertices"
	case engine.PR:
		return fmt.Sprintf("ranks within %.3g in L1, the bound for two runs that stop at tolerance %g", engine.PRAllowedL1(r.Params, r.Params), r.Params.Tolerance)
	case engine.TC:
		return "the same triangle count"
	}
	return "checked on " + n + " vertices"
}

// verify checks r against the reference engine's result for the same algorithm and resolved
// parameters on g; the reference result is cached per graph, algorithm and parameters.
func (s *Session) verify(ctx context.Context, g *graph.CSR, r *engine.Result) error {
	want, err := s.reference(ctx, g, r)
	if err != nil {
		return &noReference{err}
	}
	return engine.Verify(g, r, want)
}

// referenceEngine is the engine results are verified against (a variable for tests).
var referenceEngine = "ref"

// noReference is a verification that could not compare: the reference engine is missing or
// its run failed. It says nothing about whether the result is right.
type noReference struct{ err error }

func (e *noReference) Error() string {
	return "no reference to compare with: " + trimPkg(e.err).Error()
}
func (e *noReference) Unwrap() error { return e.err }

// unverifiable reports whether a verification error is a missing reference, not a difference.
func unverifiable(err error) bool {
	var nr *noReference
	return errors.As(err, &nr)
}

func (s *Session) reference(ctx context.Context, g *graph.CSR, r *engine.Result) (*engine.Result, error) {
	key := refKey{graph: g, alg: r.Algorithm, params: r.Params}
	s.mu.Lock()
	want, ok := s.refCache[key]
	s.mu.Unlock()
	if ok {
		return want, nil
	}
	if r.Engine == referenceEngine {
		return r, nil
	}
	e, err := engine.Open(referenceEngine)
	if err != nil {
		return nil, err
	}
	want, err = e.Run(ctx, engine.Request{Graph: g, GraphName: r.Graph.Name, Algorithm: r.Algorithm, Params: r.Params})
	if err != nil {
		return nil, fmt.Errorf("the reference run failed: %w", err)
	}
	s.mu.Lock()
	s.refCache[key] = want
	s.mu.Unlock()
	return want, nil
}
