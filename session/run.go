package session

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// runSpec is one fully resolved run request of the session.
type runSpec struct {
	alg        engine.Algorithm
	engineName string
	params     engine.Params
	sched      engine.Schedule
	repeat     int     // counted runs (repeat=); 0 = the command's default
	warmup     int     // uncounted runs first (warmup=); -1 = defaultWarmup
	srcs       []int64 // bfs, sssp: the sources of the counted runs, round-robin (src=random, sources=k)
	graphName  string
	g          *graph.CSR
}

// setting is one k=v of a run-like command, already classified.
type setting struct {
	key, value string
}

// baseSpec starts a spec from the session defaults for alg.
func (s *Session) baseSpec(alg engine.Algorithm) (runSpec, error) {
	s.mu.Lock()
	sp := runSpec{alg: alg, engineName: s.engineName, params: s.params, sched: s.sched, graphName: s.current, warmup: -1}
	s.mu.Unlock()
	g, err := s.graph(sp.graphName)
	if err != nil {
		return sp, err
	}
	sp.g = g
	return sp, nil
}

// apply sets the command's k=v pairs on sp: repeat, engine, graph, parameters and knobs, in that
// vocabulary; session-default knobs that do not apply to the algorithm on the engine are reset.
func (s *Session) apply(sp *runSpec, pairs []setting) error {
	for _, p := range pairs {
		switch p.key {
		case "engine":
			if err := checkEngine(strings.ToLower(p.value)); err != nil {
				return err
			}
			sp.engineName = strings.ToLower(p.value)
		case "graph":
			g, err := s.graph(p.value)
			if err != nil {
				return err
			}
			sp.g, sp.graphName = g, p.value
		case "repeat":
			n, err := strconv.Atoi(p.value)
			if err != nil || n < 1 || n > maxRepeat {
				return fmt.Errorf("repeat=%s: want a number of timed runs from 1 to %d", p.value, maxRepeat)
			}
			sp.repeat = n
		case "warmup":
			n, err := strconv.Atoi(p.value)
			if err != nil || n < 0 || n > maxWarm {
				return fmt.Errorf("warmup=%s: want a number of uncounted runs from 0 to %d", p.value, maxWarm)
			}
			sp.warmup = n
		}
	}
	// Session defaults that mean nothing here are dropped, not refused: `set direction=pull`
	// must not stop `run tc`.
	given := map[string]bool{}
	for _, p := range pairs {
		given[p.key] = true
	}
	for _, k := range engine.Knobs() {
		if !given[k.Name] && !k.AppliesTo(sp.alg, sp.engineName) && sp.sched.Get(k.Name) != k.Default {
			_ = sp.sched.Set(k.Name, "auto")
		}
	}
	for _, p := range pairs {
		switch {
		case timingKey(p.key):
		case isParam(p.key):
			spec, _ := engine.LookupParam(p.key)
			if !spec.AppliesTo(sp.alg) {
				return fmt.Errorf("%s is a parameter of %s, not of %s", p.key, algNames(spec.Algorithms), sp.alg)
			}
			if err := sp.params.Set(p.key, p.value); err != nil {
				return err
			}
		case isKnob(p.key):
			if err := sp.sched.Set(p.key, p.value); err != nil {
				return err
			}
		case p.key == "live":
			return fmt.Errorf("live is a session setting: set live=%s", p.value)
		default:
			return unknownKey(p.key)
		}
	}
	if err := sp.sched.Validate(sp.alg, sp.engineName); err != nil {
		return err
	}
	if n := sp.g.NumVertices(); takesSrc(sp.alg) && sp.params.Src >= 0 {
		if n == 0 {
			return fmt.Errorf("src=%d: %s has no vertices", sp.params.Src, sp.graphName)
		}
		if _, ok := sp.g.IDs.Vertex(uint64(sp.params.Src), n); !ok {
			return fmt.Errorf("src=%d is not a vertex of %s: its vertices are %s", sp.params.Src, sp.graphName, sp.g.IDs.Range(n))
		}
	}
	sp.srcs = nil
	return resolveSources(sp)
}

// timingKey reports whether key is one of the run-like commands' own keys, not a parameter or
// knob: engine, graph, repeat, warmup.
func timingKey(key string) bool {
	return key == "engine" || key == "graph" || key == "repeat" || key == "warmup"
}

// engineParams returns sp's parameters as the engines take them: src, which a person gives as
// the id the graph's file uses, becomes the dense vertex id (apply checked that it exists).
func (sp runSpec) engineParams() engine.Params {
	p := sp.params
	if p.Src >= 0 && sp.g != nil {
		if v, ok := sp.g.IDs.Vertex(uint64(p.Src), sp.g.NumVertices()); ok {
			p.Src = int64(v)
		}
	}
	return p
}

// noteWorkers says when the workers knob asks for more goroutines than the machine has cores:
// allowed (oversubscription is a schedule to study), but the timing means something else.
func (s *Session) noteWorkers(sc engine.Schedule) {
	if cores := runtime.NumCPU(); sc.Workers > cores {
		s.note("  %s\n", s.paint(ansiDim, fmt.Sprintf("workers=%d exceeds the %d cores of this machine: the goroutines take turns on them", sc.Workers, cores)))
	}
}

// takesSrc reports whether alg has the src parameter.
func takesSrc(alg engine.Algorithm) bool {
	p, ok := engine.LookupParam("src")
	return ok && p.AppliesTo(alg)
}

// parseRun reads `ALGO [k=v ...] [as NAME]` into a spec.
func (s *Session) parseRun(cmd string, args []string) (runSpec, string, error) {
	if len(args) == 0 {
		return runSpec{}, "", fmt.Errorf("%s: want an algorithm (%s)", cmd, algNames(engine.Algorithms()))
	}
	alg, err := engine.ParseAlgorithm(args[0])
	if err != nil {
		return runSpec{}, "", fmt.Errorf("%s: %v", cmd, trimPkg(err))
	}
	pairs, bare, as, err := splitArgs(args[1:])
	if err != nil {
		return runSpec{}, "", fmt.Errorf("%s: %v", cmd, err)
	}
	if len(bare) > 0 {
		return runSpec{}, "", fmt.Errorf("%s: %q: want key=value (or `as NAME` at the end)", cmd, bare[0])
	}
	if err := givenOnce(pairs); err != nil {
		return runSpec{}, "", fmt.Errorf("%s %s: %v", cmd, alg, err)
	}
	sp, err := s.baseSpec(alg)
	if err != nil {
		return sp, "", fmt.Errorf("%s: %v", cmd, err)
	}
	var set []setting
	for _, p := range pairs {
		set = append(set, setting{p.Key, p.Value})
	}
	if err := s.apply(&sp, set); err != nil {
		return sp, "", fmt.Errorf("%s %s: %v", cmd, alg, trimPkg(err))
	}
	s.noteWorkers(sp.sched)
	return sp, as, nil
}

// trimPkg drops the package prefix ("engine: ", "loader: ", "viz: ", and engine.Verify's
// "verify: ") of errors from the layers below: the user sees one plain line that starts with
// the command.
func trimPkg(err error) error {
	msg := err.Error()
	for _, p := range []string{"engine: ", "loader: ", "viz: ", "verify: "} {
		if m, ok := strings.CutPrefix(msg, p); ok {
			return &wrapped{m, err}
		}
	}
	return err
}

type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }

func cmdRun(ec *execCtx) error {
	s := ec.s
	sp, as, err := s.parseRun("run", ec.args)
	if err != nil {
		return err
	}
	name, err := s.resultName(as, string(sp.alg))
	if err != nil {
		return fmt.Errorf("run: %v", err)
	}
	// Each run sends RunStarted and RunFinished; the last one's RunFinished carries the name
	// and is sent once the result is kept (with the median time of a repeat).
	row := &compareRow{}
	t := &timedRow{sp: &sp, row: row, live: s.liveMode(), name: name}
	if err := s.timeRows(ec.ctx, []*timedRow{t}, 1, nil); err != nil {
		if t.partial != nil {
			// Keep what ran, marked cancelled, under the name the run would have had; the
			// cancellation is still the command's outcome (a script stops there).
			it := &resultItem{name: name, r: t.partial, cmd: ec.line, g: sp.g, cancelled: true}
			s.addResult(it)
			return &wrapped{fmt.Sprintf("%s; its trace so far is kept as %s (trace %s)", err.Error(), name, name), err}
		}
		return err
	}
	if t.err != nil {
		return t.err
	}
	r := row.r
	it := &resultItem{name: name, r: r, measured: row.measured, cmd: ec.line, g: sp.g}
	if _, err := s.result(name); err == nil && as != "" && s.text() {
		s.printf("  %s\n", s.paint(ansiDim, "(replaces the earlier result "+name+")"))
	}
	s.addResult(it)
	*ec.result, ec.name = r, name
	s.emit(RunFinished{Name: name, Result: r})
	if s.text() {
		s.printSummary(it)
	} else {
		return s.writeJSONLine(resultToJSON(it))
	}
	return nil
}

func (s *Session) text() bool { return s.opts.Format != "json" }

func (s *Session) liveMode() string {
	if !s.text() {
		return "off"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live
}

// resultName returns as, checked, or the next free ALGO<n>. The number is taken only when a
// result is kept under the name (addResult, or a comparison), so a failed run uses none.
func (s *Session) resultName(as, prefix string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if as != "" {
		for _, g := range s.graphs {
			if g.name == as {
				return "", fmt.Errorf("%q names a graph; pick another result name", as)
			}
		}
		// A run and a comparison may not share a name, nor may a run take the name of a
		// comparison's row (CMP.N): `trace cmp1.1` must mean one thing.
		grid := prefix == "cmp" || prefix == "sweep" || prefix == "tune"
		for _, c := range s.comparisons {
			if !grid && (c.name == as || isRowOf(as, c.name)) {
				return "", fmt.Errorf("%q names a %s or one of its rows; pick another name (or drop %s)", as, c.kind, c.name)
			}
		}
		for _, r := range s.results {
			if grid && (r.name == as || isRowOf(r.name, as)) {
				return "", fmt.Errorf("%q would clash with the result %s; pick another name (or drop %s)", as, r.name, r.name)
			}
		}
		return as, nil
	}
	for n := s.counters[prefix] + 1; ; n++ {
		name := prefix + strconv.Itoa(n)
		if !s.hasResultLocked(name) {
			return name, nil
		}
	}
}

// isRowOf reports whether name is CMP.N, a row of the comparison cmp.
func isRowOf(name, cmp string) bool {
	rest, ok := strings.CutPrefix(name, cmp+".")
	if !ok || rest == "" {
		return false
	}
	_, err := strconv.Atoi(rest)
	return err == nil
}

// takeNameLocked records that an automatic name is used.
func (s *Session) takeNameLocked(name string) {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if n, err := strconv.Atoi(name[i:]); err == nil && i > 0 && n > s.counters[name[:i]] {
		s.counters[name[:i]] = n
	}
}

func (s *Session) hasResultLocked(n string) bool {
	for _, r := range s.results {
		if r.name == n {
			return true
		}
	}
	for _, c := range s.comparisons {
		if c.name == n {
			return true
		}
	}
	return false
}

func (s *Session) addResult(it *resultItem) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastAlg = it.r.Algorithm
	s.lastName = it.name
	s.takeNameLocked(it.name)
	for i, r := range s.results {
		if r.name == it.name {
			s.results = append(s.results[:i:i], s.results[i+1:]...)
			break
		}
	}
	s.results = append(s.results, it)
}

// execute runs sp once, streaming events to the observer and, per live, iteration lines to
// the output. A failed or cancelled run changes nothing in the session.
func (s *Session) execute(ctx context.Context, sp runSpec, live, name string) (*engine.Result, error) {
	e, err := engine.Open(sp.engineName)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, runErr(sp, ctx.Err())
	}
	s.emit(RunStarted{Algorithm: sp.alg, Engine: sp.engineName, Graph: sp.graphName, Schedule: sp.sched})
	lp := &livePrinter{s: s, mode: live, vertices: int64(sp.g.NumVertices())}
	var recs []engine.Record // for a partial result if the run is cancelled
	prep := &prepLine{s: s, engine: sp.engineName}
	start := time.Now()
	req := engine.Request{
		Graph: sp.g, GraphName: sp.graphName, Algorithm: sp.alg, Params: sp.engineParams(), Schedule: sp.sched,
		Progress: prep.report,
		Observer: func(rec engine.Record) {
			prep.clear()
			recs = append(recs, rec)
			s.emit(RunRecord{Record: rec})
			lp.record(rec)
		},
	}
	r, err := e.Run(ctx, req)
	prep.clear()
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	lp.finish(err)
	if err != nil {
		if ctx.Err() != nil && lp.iters > 0 {
			err = &wrapped{fmt.Sprintf("%s on %s cancelled after %s", sp.alg, sp.graphName, plural(int64(lp.iters), "iteration", "iterations")), err}
		}
		err = runErr(sp, err)
		s.emit(RunFinished{Name: name, Err: err})
		if ctx.Err() != nil && len(recs) > 0 {
			// The trace so far, as a result with no values: run keeps it, marked cancelled.
			p := &engine.Result{Algorithm: sp.alg, Engine: sp.engineName, Params: req.Params, Schedule: sp.sched,
				Graph: engine.InfoOf(sp.graphName, sp.g), Trace: engine.Trace{Records: recs}, Provenance: engine.MachineProvenance()}
			p.Finish(time.Since(start))
			return p, err
		}
		return nil, err
	}
	if name == "" {
		s.emit(RunFinished{Result: r})
	}
	return r, nil
}

func runErr(sp runSpec, err error) error {
	switch {
	case errors.Is(err, context.Canceled):
		if _, ok := err.(*wrapped); ok {
			return err
		}
		return &wrapped{fmt.Sprintf("%s on %s cancelled", sp.alg, sp.graphName), err}
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s on %s stopped: %w", sp.alg, sp.graphName, err)
	case errors.Is(err, engine.ErrUnsupported):
		msg := err.Error()
		msg = strings.TrimPrefix(msg, sp.engineName+": ")
		msg = strings.TrimPrefix(msg, string(sp.alg)+": ")
		msg = strings.TrimPrefix(msg, string(sp.alg)+" ") // "bfs sync=async: ..."
		// "... on the cpu engine:" already says the engine does not support it.
		msg = strings.TrimSuffix(msg, ": "+engine.ErrUnsupported.Error())
		return &wrapped{fmt.Sprintf("%s on the %s engine: %s", sp.alg, sp.engineName, msg), err}
	}
	return fmt.Errorf("%s: %w", sp.alg, trimPkg(err))
}
