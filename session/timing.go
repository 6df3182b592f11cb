package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// Timing defaults: one uncounted warm-up run first; compare, sweep and tune count 5 runs a row
// (more when many rows need them for a verdict: minRuns), run counts 1.
const (
	defaultWarmup      = 1
	defaultGridRepeat  = 5
	maxRepeat, maxWarm = 1000, 100
	maxTrialSources    = 1000
)

// measured is what the timed runs of one row or result gave: one entry per counted run.
type measured struct {
	times   []time.Duration // end to end (Summary.Time)
	kernels []time.Duration // the kernels' time by CUDA events (nil when the engine measures none)
	devices []time.Duration // the device's time from the run's start to its end (nil when not measured)
	srcs    []int64         // the source of each run, as the graph's file numbers it (bfs, sssp, bc; nil otherwise)
	edges   []int64         // the edges TEPS counts for each run (engine.TEPSEdges)
	warmup  int             // uncounted runs before them
}

// median is the median end-to-end time.
func (m *measured) median() time.Duration {
	med, _, _ := stats(m.times)
	return med
}

// teps is the median over the runs of TEPS (edges of the reached component / time), in 1e9
// per second: with one source, edges / the median time.
func (m *measured) teps() float64 {
	if len(m.edges) == 0 {
		return 0
	}
	one := true
	for _, e := range m.edges {
		one = one && e == m.edges[0]
	}
	if one {
		return engine.GTEPS(m.edges[0], m.median())
	}
	g := make([]float64, len(m.times))
	for i, t := range m.times {
		g[i] = engine.GTEPS(m.edges[i], t)
	}
	return medianF(g)
}

// kernelMedian is the median of the kernels' times (0: not measured).
func (m *measured) kernelMedian() time.Duration {
	if len(m.kernels) == 0 {
		return 0
	}
	med, _, _ := stats(m.kernels)
	return med
}

// deviceMedian is the median of the device's times (0: not measured).
func (m *measured) deviceMedian() time.Duration {
	if len(m.devices) == 0 {
		return 0
	}
	med, _, _ := stats(m.devices)
	return med
}

// timedRow is one schedule to time: its spec (nil when it cannot run: status says why), and
// where its runs go.
type timedRow struct {
	sp   *runSpec
	row  *compareRow
	live string // live mode of its first run
	name string // the result name its last run carries ("" : none)
	err  error  // why it stopped running (with row.status)
	// partial is the trace of a run cancelled part way (nil when none was).
	partial *engine.Result
	// teps holds the edges TEPS counts for each source the row has run from (tepsEdges).
	teps map[int64]int64
}

// tepsEdges is engine.TEPSEdges of r, counted once for each source of the row: runs from one
// source reach the same vertices, and the count walks every vertex, host work that would
// otherwise come between every two timed runs.
func (t *timedRow) tepsEdges(r *engine.Result) int64 {
	if e, ok := t.teps[r.Params.Src]; ok {
		return e
	}
	e := engine.TEPSEdges(t.sp.g, r)
	if t.teps == nil {
		t.teps = map[int64]int64{}
	}
	t.teps[r.Params.Src] = e
	return e
}

// runs is the number of counted runs of sp: repeat (def when not given), rounded up to a
// multiple of its trial sources so that each source is timed as often.
func (sp *runSpec) runs(def int) int {
	n := sp.repeat
	if n == 0 {
		n = def
	}
	if k := len(sp.srcs); k > 1 {
		n = (n + k - 1) / k * k
	}
	return n
}

// warmups is the number of uncounted runs of sp.
func (sp *runSpec) warmups() int {
	if sp.warmup < 0 {
		return defaultWarmup
	}
	return sp.warmup
}

// srcFor is the spec of counted run i: the i-th trial source, round-robin.
func (sp *runSpec) srcFor(i int) runSpec {
	out := *sp
	if len(sp.srcs) > 0 {
		out.params.Src = sp.srcs[i%len(sp.srcs)]
	}
	return out
}

// timeRows runs the rows' warm-ups, then their counted runs round-robin (row 1, row 2, ...,
// row 1, row 2, ...) so that drift on a shared machine hits every row alike. A row that fails
// or is refused stops being timed and gets its status; only a cancellation is returned.
// progress, when set, is told each round.
func (s *Session) timeRows(ctx context.Context, rows []*timedRow, def int, progress func(round, rounds int)) error {
	rounds, warm := 0, 0
	for _, t := range rows {
		if t.sp != nil {
			rounds = max(rounds, t.sp.runs(def))
			warm = max(warm, t.sp.warmups())
		}
	}
	first := map[*timedRow]bool{}
	gc := newGCGuard()
	one := func(t *timedRow, i int, counted bool, last bool) error {
		sp := t.sp.srcFor(i)
		live := "off"
		if !first[t] {
			live, first[t] = t.live, true
		}
		name := ""
		if last {
			name = t.name
		}
		// a collection of the earlier runs' garbage would otherwise land inside some runs
		gc.beforeRun()
		r, err := s.execute(ctx, sp, live, name)
		if err != nil {
			if ctx.Err() != nil {
				t.partial = r
				return err
			}
			if errors.Is(err, engine.ErrUnsupported) {
				t.row.status = "unsupported: " + err.Error()
			} else {
				t.row.status = "failed: " + err.Error()
			}
			t.sp, t.row.r, t.err = nil, nil, err
			return nil
		}
		t.row.r = r
		if !counted {
			return nil
		}
		m := &t.row.measured
		m.times = append(m.times, r.Summary.Time)
		if r.Summary.KernelTime > 0 {
			m.kernels = append(m.kernels, r.Summary.KernelTime)
		}
		if r.Summary.DeviceTime > 0 {
			m.devices = append(m.devices, r.Summary.DeviceTime)
		}
		if takesSrc(r.Algorithm) {
			m.srcs = append(m.srcs, int64(r.Graph.VertexID(int(r.Params.Src)))) // the file's id
		}
		m.edges = append(m.edges, t.tepsEdges(r))
		return nil
	}
	for w := 0; w < warm; w++ {
		for _, t := range rows {
			if t.sp != nil && w < t.sp.warmups() {
				t.row.measured.warmup++
				if err := one(t, 0, false, false); err != nil {
					return err
				}
			}
		}
	}
	for i := 0; i < rounds; i++ {
		if progress != nil {
			progress(i+1, rounds)
		}
		for _, t := range rows {
			if t.sp != nil && i < t.sp.runs(def) {
				if err := one(t, i, true, i == t.sp.runs(def)-1); err != nil {
					return err
				}
			}
		}
	}
	for _, t := range rows {
		if t.sp == nil || t.row.r == nil {
			continue
		}
		m := &t.row.measured
		sm := &t.row.r.Summary
		sm.Time, sm.KernelTime, sm.DeviceTime = m.median(), m.kernelMedian(), m.deviceMedian()
		sm.TEPSEdges = m.edges[len(m.edges)-1]
		sm.GTEPS = m.teps()
		t.row.status = "ok"
	}
	return nil
}

// resolveSources fills sp.srcs for src=random and sources=k of bfs and sssp (k runs, one from
// each of k sampled sources); bc resolves src=random in the engine (engine.ResolveSource) and
// reads sources=k itself.
func resolveSources(sp *runSpec) error {
	if sp.alg != engine.BFS && sp.alg != engine.SSSP {
		return nil
	}
	k := sp.params.Sources
	switch {
	case k < 0:
		return fmt.Errorf("sources=all is bc's (every vertex as a source); for %s give a number of trial sources: sources=64", sp.alg)
	case k > maxTrialSources:
		return fmt.Errorf("sources=%d: at most %d trial sources", k, maxTrialSources)
	case k == 0 && sp.params.Src != engine.SrcRandom:
		return nil
	}
	srcs, err := engine.SampleSources(sp.g, sp.params.Seed, max(k, 1))
	if err != nil {
		return err
	}
	sp.srcs = make([]int64, len(srcs)) // ids of the graph's file, as src= takes them
	for i, v := range srcs {
		sp.srcs[i] = int64(sp.g.IDs.ID(v))
	}
	return nil
}
